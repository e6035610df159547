import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import type { TrialSpec } from './matrix';

/**
 * The order a stop-when-decided run sends its pairs in (docs/statistics.md "Stopping when decided"): the
 * pairs of the matrix (trials sharing a pair key; a trial without a partner is a pair of one) shuffled by a
 * seeded Fisher–Yates, fixed before anything is sent and stored as the trials' delivery batches (one batch
 * per pair, so both members of a pair go out together). Deterministic: the same matrix and seed give the same
 * order. Random rather than the design's order so that the pairs seen first are a fair sample of all of them.
 */
export function stoppingOrder(trials: Iterable<TrialSpec>, seed: number): TrialSpec[][] {
  const byPair = new Map<string, TrialSpec[]>();
  for (const t of trials) {
    const p = byPair.get(t.pairKey);
    if (p) p.push(t);
    else byPair.set(t.pairKey, [t]);
  }
  const pairs = [...byPair.values()];
  const rng = xoroshiro128plus(seed);
  for (let i = pairs.length - 1; i > 0; i--) {
    const j = unsafeUniformIntDistribution(0, i, rng);
    [pairs[i], pairs[j]] = [pairs[j], pairs[i]];
  }
  return pairs;
}
