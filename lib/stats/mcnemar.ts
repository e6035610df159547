/**
 * Exact McNemar test (DESIGN §7): a two-sided exact binomial test on the discordant pairs.
 * Under H0 an improved pair is as likely as a regressed one, so min(b, c) ~ Binomial(b + c, 1/2) and
 *   p = min(1, 2 · Σ_{i ≤ min(b,c)} C(b+c, i) / 2^(b+c)).
 * No discordant pairs → p = 1 (no evidence either way). Terms are summed in log space so thousands of
 * pairs neither overflow nor lose the tail (p underflows to 0 only below ~1e-308).
 */
export function mcnemarExact(improved: number, regressed: number): number {
  for (const [name, v] of [['improved', improved], ['regressed', regressed]] as const)
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`mcnemarExact: ${name} must be a non-negative integer (got ${v})`);
  const n = improved + regressed;
  if (n === 0) return 1;
  const m = Math.min(improved, regressed);
  if (2 * m === n) return 1;
  // log C(n, i) for i = 0..m; the terms increase with i (m < n/2), so the last one is the largest.
  const logTerms: number[] = [0];
  for (let i = 0; i < m; i++) logTerms.push(logTerms[i] + Math.log(n - i) - Math.log(i + 1));
  const top = logTerms[m];
  let scaled = 0;
  for (const t of logTerms) scaled += Math.exp(t - top);
  const logTail = top + Math.log(scaled) - n * Math.LN2;
  return Math.min(1, 2 * Math.exp(logTail));
}
