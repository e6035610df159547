/** log P(X ≤ m) − and log P(X = m) − for X ~ Binomial(n, 1/2), m < n/2 or m = n/2, in log space. */
function logLowerTail(n: number, m: number): { logTail: number; logPoint: number } {
  // log C(n, i) for i = 0..m; the terms increase with i (m ≤ n/2), so the last one is the largest.
  const logTerms: number[] = [0];
  for (let i = 0; i < m; i++) logTerms.push(logTerms[i] + Math.log(n - i) - Math.log(i + 1));
  const top = logTerms[m];
  let scaled = 0;
  for (const t of logTerms) scaled += Math.exp(t - top);
  return { logTail: top + Math.log(scaled) - n * Math.LN2, logPoint: top - n * Math.LN2 };
}

function checkCounts(fn: string, improved: number, regressed: number): void {
  for (const [name, v] of [
    ['improved', improved],
    ['regressed', regressed],
  ] as const)
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`${fn}: ${name} must be a non-negative integer (got ${v})`);
}

/**
 * Exact McNemar test (docs/design.md#the-statistics-it-relies-on): a two-sided exact binomial test on the discordant pairs.
 * Under H0 an improved pair is as likely as a regressed one, so min(b, c) ~ Binomial(b + c, 1/2) and
 *   p = min(1, 2 · Σ_{i ≤ min(b,c)} C(b+c, i) / 2^(b+c)).
 * No discordant pairs → p = 1 (no evidence either way). Terms are summed in log space so thousands of
 * pairs neither overflow nor lose the tail (p underflows to 0 only below ~1e-308).
 */
export function mcnemarExact(improved: number, regressed: number): number {
  checkCounts('mcnemarExact', improved, regressed);
  const n = improved + regressed;
  if (n === 0) return 1;
  const m = Math.min(improved, regressed);
  if (2 * m === n) return 1;
  return Math.min(1, 2 * Math.exp(logLowerTail(n, m).logTail));
}

/**
 * The mid-p McNemar test (Fagerland, Lydersen & Laake 2013, who recommend it beside the exact test, which
 * is conservative): the exact two-sided p less the probability of the observed count,
 *   p_mid = 2 · P(X ≤ m) − P(X = m),  m = min(b, c), X ~ Binomial(b + c, ½),
 * i.e. `p_exact − P(X = min(b, c))` with p_exact taken before it is capped at 1. With b = c this is exactly
 * 1 (by symmetry 2·P(X < m) + P(X = m) = 1); with no discordant pair, 1.
 */
export function mcnemarMidP(improved: number, regressed: number): number {
  checkCounts('mcnemarMidP', improved, regressed);
  const n = improved + regressed;
  if (n === 0) return 1;
  const m = Math.min(improved, regressed);
  if (2 * m === n) return 1;
  const { logTail, logPoint } = logLowerTail(n, m);
  // 2·P(X ≤ m) − P(X = m) = P(X = m) · (2·Σ/top − 1), computed from the log terms without cancellation
  return Math.min(1, Math.exp(logPoint) * (2 * Math.exp(logTail - logPoint) - 1));
}

/** Both McNemar p values of b improved and c regressed pairs, as the exports carry them. */
export interface McNemar {
  /** improved pairs (baseline failed → treatment passed) */
  b: number;
  /** regressed pairs (baseline passed → treatment failed) */
  c: number;
  pExact: number;
  pMid: number;
}

export function mcnemar(improved: number, regressed: number): McNemar {
  return { b: improved, c: regressed, pExact: mcnemarExact(improved, regressed), pMid: mcnemarMidP(improved, regressed) };
}
