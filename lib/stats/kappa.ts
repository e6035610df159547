import { Z_95 } from './wilson';

export interface Kappa {
  /**
   * Cohen's κ = (p_o − p_e) / (1 − p_e); null without readings or when either rater used one category only
   * (docs/design.md#the-statistics-it-relies-on: κ needs variance in both readers — with one rater constant, κ is 0 whatever the other does).
   */
  kappa: number | null;
  /** Large-sample standard error (Fleiss, Cohen & Everitt 1969); null with κ. */
  se: number | null;
  /** κ ± 1.96 · SE, clipped to [−1, 1]; null with κ, and when SE is 0 (a zero-width interval estimates nothing). */
  ci95: [number, number] | null;
  /** Why κ or its interval is null; null when both are there. */
  reason: string | null;
  /** Observed agreement p_o. */
  agreement: number | null;
  /** Agreement expected by chance from the marginals, p_e. */
  chance: number | null;
  n: number;
}

/**
 * Cohen's κ for two raters of the same items on k categories. `table[i][j]` counts items rater A put in
 * category i and rater B in category j (square). With p_ij = table/n, row margins p_i. and column margins
 * p_.j, p_o = Σ p_ii, p_e = Σ p_i. p_.i, and the asymptotic variance of Fleiss, Cohen & Everitt (1969):
 *
 *   Var κ = [ Σ_i p_ii (1 − (p_i. + p_.i)(1 − κ))² + (1 − κ)² Σ_{i≠j} p_ij (p_.i + p_j.)² − (κ − p_e (1 − κ))² ] / (n (1 − p_e)²)
 */
export function cohensKappa(table: readonly (readonly number[])[], raters: readonly [string, string] = ['rater A', 'rater B']): Kappa {
  const k = table.length;
  for (const row of table) {
    if (row.length !== k) throw new RangeError(`cohensKappa: the table must be square (got a row of ${row.length} in ${k})`);
    for (const x of row) if (!Number.isInteger(x) || x < 0) throw new RangeError(`cohensKappa: counts must be non-negative integers (got ${x})`);
  }
  let n = 0;
  for (const row of table) for (const x of row) n += x;
  if (n === 0) return { kappa: null, se: null, ci95: null, reason: 'no readings', agreement: null, chance: null, n: 0 };
  const p = table.map((row) => row.map((x) => x / n));
  const rowM = p.map((row) => row.reduce((a, b) => a + b, 0));
  const colM = Array.from({ length: k }, (_, j) => p.reduce((a, row) => a + row[j], 0));
  let po = 0;
  let pe = 0;
  for (let i = 0; i < k; i++) {
    po += p[i][i];
    pe += rowM[i] * colM[i];
  }
  const constant = [rowM, colM].map((m) => m.some((x) => x >= 1 - 1e-15));
  if (constant[0] || constant[1]) {
    const who = constant[0] && constant[1] ? 'both readers' : constant[0] ? raters[0] : raters[1];
    const reason = `${who} gave every item the same reading: κ needs variance in both readers`;
    return { kappa: null, se: null, ci95: null, reason, agreement: po, chance: pe, n };
  }
  const kappa = (po - pe) / (1 - pe);
  const q = 1 - kappa;
  let a = 0;
  let b = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      if (i === j) a += p[i][i] * (1 - (rowM[i] + colM[i]) * q) ** 2;
      else b += p[i][j] * (colM[i] + rowM[j]) ** 2;
    }
  const variance = Math.max(0, (a + q * q * b - (kappa - pe * q) ** 2) / (n * (1 - pe) ** 2));
  const se = Math.sqrt(variance);
  if (se < 1e-12) return { kappa, se, ci95: null, reason: 'the large-sample SE is 0 (perfect agreement): no interval to estimate', agreement: po, chance: pe, n };
  const clip = (x: number) => Math.min(1, Math.max(-1, x));
  return { kappa, se, ci95: [clip(kappa - Z_95 * se), clip(kappa + Z_95 * se)], reason: null, agreement: po, chance: pe, n };
}

/** κ of two raters' pass/fail readings: `bothPass`, A pass & B fail, A fail & B pass, `bothFail`. */
export function cohensKappa2x2(bothPass: number, aPassBFail: number, aFailBPass: number, bothFail: number, raters?: readonly [string, string]): Kappa {
  return cohensKappa(
    [
      [bothPass, aPassBFail],
      [aFailBPass, bothFail],
    ],
    raters,
  );
}
