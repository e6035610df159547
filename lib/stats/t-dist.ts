/**
 * Student's t distribution: the CDF through the regularized incomplete beta function, and its inverse
 * (the quantile) by safeguarded Newton steps. Used for intervals on G − 1 degrees of freedom, where G is
 * the number of clusters (lib/stats/clustered.ts). Accurate to ~1e-12 for df ≥ 1.
 */

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; ~15 significant digits). */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`logGamma: x must be positive (got ${x})`);
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
  ];
  const z = x - 1;
  let a = c[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the incomplete beta (modified Lentz). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const TINY = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10_000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) return h;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b), 0 ≤ x ≤ 1, a, b > 0. */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new RangeError(`regularizedBeta: a and b must be positive (got ${a}, ${b})`);
  if (!(x >= 0 && x <= 1)) throw new RangeError(`regularizedBeta: x must be in [0, 1] (got ${x})`);
  if (x === 0 || x === 1) return x;
  const logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  // the continued fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry otherwise
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(logFront) * betaContinuedFraction(x, a, b)) / a;
  return 1 - (Math.exp(logFront) * betaContinuedFraction(1 - x, b, a)) / b;
}

function checkDf(df: number): void {
  if (!(df > 0) || !Number.isFinite(df)) throw new RangeError(`Student t: df must be a positive number (got ${df})`);
}

/** P(T ≤ t) for T ~ Student t with df degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  checkDf(df);
  if (Number.isNaN(t)) throw new RangeError('studentTCdf: t is NaN');
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  // P(|T| > |t|) = I_{df/(df+t²)}(df/2, 1/2)
  const tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** Density of Student t. */
function studentTPdf(t: number, df: number): number {
  const logC = logGamma((df + 1) / 2) - logGamma(df / 2) - 0.5 * Math.log(df * Math.PI);
  return Math.exp(logC - ((df + 1) / 2) * Math.log1p((t * t) / df));
}

/**
 * The p-quantile of Student t with df degrees of freedom: studentTQuantile(0.975, 3) = 3.182446…, the
 * multiplier of a two-sided 95% interval on 3 df. 0 < p < 1.
 */
export function studentTQuantile(p: number, df: number): number {
  checkDf(df);
  if (!(p > 0 && p < 1)) throw new RangeError(`studentTQuantile: p must be in (0, 1) (got ${p})`);
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  // closed forms for 1 and 2 df
  if (df === 1) return Math.tan(Math.PI * (p - 0.5));
  if (df === 2) {
    const a = 4 * p * (1 - p);
    return 2 * (p - 0.5) * Math.sqrt(2 / a);
  }
  // bracket [lo, hi] with cdf(lo) < p ≤ cdf(hi), then Newton steps kept inside the bracket
  let lo = 0;
  let hi = 1;
  while (studentTCdf(hi, df) < p) {
    lo = hi;
    hi *= 2;
  }
  let x = (lo + hi) / 2;
  for (let i = 0; i < 200; i++) {
    const f = studentTCdf(x, df) - p;
    if (f === 0) return x;
    if (f < 0) lo = x;
    else hi = x;
    let next = x - f / studentTPdf(x, df);
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - x) <= 1e-14 * Math.max(1, Math.abs(x))) return next;
    x = next;
  }
  return x;
}

/** The multiplier of a two-sided 95% t interval on df degrees of freedom: t_{0.975, df}. */
export function t95(df: number): number {
  return studentTQuantile(0.975, df);
}
