export interface PassHatK {
  k: number;
  /** Mean over tasks of C(c, k) / C(n, k): the chance that k replicates drawn without replacement all pass. */
  passHatK: number | null;
  /** The plain pass rate over the same tasks: the mean of c / n (equal to pass^1). */
  rate: number | null;
  /** Tasks with at least k replicates (the ones averaged). */
  tasks: number;
  /** Tasks left out because they have fewer than k replicates. */
  skipped: number;
}

/**
 * pass^k (docs/design.md#the-statistics-it-relies-on, the τ-bench estimator): for each task with n replicates of which c passed,
 * C(c, k) / C(n, k), averaged over tasks; shown beside the plain rate. `replicateResults[t]` holds task t's
 * replicate outcomes (true = passed). Only passed/failed replicates belong here: unresolved and untested
 * ones are left out by the caller, as from every denominator. No task with ≥ k replicates → nulls.
 */
export function passHatK(replicateResults: readonly (readonly boolean[])[], k: number): PassHatK {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`passHatK: k must be a positive integer (got ${k})`);
  let sumK = 0;
  let sumRate = 0;
  let tasks = 0;
  let skipped = 0;
  for (const results of replicateResults) {
    const n = results.length;
    if (n < k) {
      skipped++;
      continue;
    }
    let c = 0;
    for (const r of results) if (r) c++;
    sumK += ratioOfChoose(c, n, k);
    sumRate += c / n;
    tasks++;
  }
  return { k, passHatK: tasks ? sumK / tasks : null, rate: tasks ? sumRate / tasks : null, tasks, skipped };
}

/** C(c, k) / C(n, k) = Π_{i<k} (c − i) / (n − i), without forming the large binomials. */
function ratioOfChoose(c: number, n: number, k: number): number {
  if (c < k) return 0;
  let r = 1;
  for (let i = 0; i < k; i++) r *= (c - i) / (n - i);
  return r;
}
