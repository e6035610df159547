/** Significance level of the one-sided 95% bound (docs/design.md#the-statistics-it-relies-on). */
export const ALPHA_95 = 0.05;

/**
 * With zero failures in n trials, the one-sided (1 − alpha) upper bound on the failure rate:
 * 1 − alpha^(1/n) (30 clean trials still allow ≈ 9.5%; 300 allow ≈ 0.99%). n = 0 → 1 (nothing is known).
 */
export function zeroFailureUpperBound(n: number, alpha: number = ALPHA_95): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`zeroFailureUpperBound: n must be a non-negative integer (got ${n})`);
  checkAlpha(alpha);
  if (n === 0) return 1;
  // 1 − e^(ln(alpha)/n), computed with expm1 so large n keeps its precision.
  return -Math.expm1(Math.log(alpha) / n);
}

/**
 * The planner: the smallest n whose zero-failure bound is ≤ targetRate (0.01 → 299 at alpha 0.05).
 * targetRate must lie in (0, 1).
 */
export function trialsForBound(targetRate: number, alpha: number = ALPHA_95): number {
  if (!(targetRate > 0 && targetRate < 1)) throw new RangeError(`trialsForBound: targetRate must be in (0, 1) (got ${targetRate})`);
  checkAlpha(alpha);
  // bound(n) ≤ t  ⇔  n ≥ ln(alpha) / ln(1 − t); the closed form is then corrected for rounding.
  let n = Math.max(1, Math.ceil(Math.log(alpha) / Math.log1p(-targetRate)));
  while (n > 1 && zeroFailureUpperBound(n - 1, alpha) <= targetRate) n--;
  while (zeroFailureUpperBound(n, alpha) > targetRate) n++;
  return n;
}

function checkAlpha(alpha: number): void {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1) (got ${alpha})`);
}
