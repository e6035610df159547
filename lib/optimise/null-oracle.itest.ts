import { describe, expect, it } from 'vitest';
import { nullOracleScript, runNullOracle } from '../testing/null-oracle';
import { loopbackWithWorker } from '../testing/loopback-worker';

// The null oracle through the whole engine (docs/optimise.md "What it guarantees"): the improve loop, the
// rewriter included, many times over the real SDK, queue, worker and database against a loopback model for
// which no description matters. Every candidate is null, so no loop may read *confirmed* beyond the 5 % the
// reading promises; `npm run bench:null-oracle` runs 200 loops for the figures in docs.

loopbackWithWorker({ script: nullOracleScript(), record: false, worker: { concurrency: 16 } });

describe('the null oracle through the engine', () => {
  it('200 loops of null candidates: winners are frozen by chance, at most 5 % of loops read confirmed', async () => {
    const loops = 200;
    const f = await runNullOracle({ loops, parallel: 8, cases: 30, hand: 3, first: 0, tag: `${process.pid}-` });
    console.log(`null oracle through the engine: ${JSON.stringify({ ...f, records: undefined })}`);
    expect(f.failed).toBe(0);
    expect(f.loops).toBe(loops);
    // the select stage freezes a winner in most loops (a null candidate ahead by chance)…
    expect(f.frozen).toBeGreaterThan(loops / 2);
    // …and the sealed split refuses almost every one of them
    expect(f.confirmed / loops).toBeLessThanOrEqual(0.05);
    // the winner's curse, visible: the winners' select-split gain is not there on the sealed split
    expect(f.winnersSelectMean!).toBeGreaterThan(f.winnersConfirmMean! + 0.05);
    // a confirmation whose placebo was length-matched to a candidate that was not frozen holds the placebo alone
    const placeboOfOther = f.records.filter((r) => {
      const placebo = r.candidates.find((c) => c.placebo);
      return r.stage === 'confirmed' && placebo?.of && !(r.winners ?? []).includes(placebo.of);
    });
    expect(placeboOfOther.length).toBeGreaterThan(0);
  }, 900_000);
});
