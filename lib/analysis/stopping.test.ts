import { describe, expect, it } from 'vitest';
import { iterateTrials } from '../design/matrix';
import { stoppingOrder } from '../design/stopping-order';
import { TEMPLATES } from '../templates';
import { lookAtRun, stoppingReport, stoppingStreams, type StoppingTrial } from './stopping';

const spec = TEMPLATES['reference-study'].build();

/** The reference study's trials in the stop-when-decided order (batch = pair index), all queued. */
function ordered(seed: number): StoppingTrial[] {
  return stoppingOrder(iterateTrials(spec), seed).flatMap((p, batch) =>
    p.map((t) => ({ study: t.study, pairKey: t.pairKey, condition: t.condition, status: 'queued', batch })),
  );
}

describe('stoppingOrder', () => {
  it('keeps both members of a pair together, is a permutation of the pairs, and is fixed by its seed', () => {
    const pairs = stoppingOrder(iterateTrials(spec), 7);
    expect(pairs.every((p) => p.length === 2 && p[0].pairKey === p[1].pairKey)).toBe(true);
    expect(
      pairs
        .flat()
        .map((t) => t.trialKey)
        .sort(),
    ).toEqual([...iterateTrials(spec)].map((t) => t.trialKey).sort());
    expect(stoppingOrder(iterateTrials(spec), 7).map((p) => p[0].pairKey)).toEqual(pairs.map((p) => p[0].pairKey));
    expect(stoppingOrder(iterateTrials(spec), 8).map((p) => p[0].pairKey)).not.toEqual(pairs.map((p) => p[0].pairKey));
  });
});

describe('stoppingStreams', () => {
  it('looks at the pairs in the stored order only as far as every pair is complete', () => {
    const trials = ordered(7);
    const sel = trials.filter((t) => t.study === 'selection');
    const baseline = spec.studies[0].conditions.find((c) => c.baseline)!.id;
    // pairs 0, 1 and 3 of selection done (improved); pair 2 still in flight
    const firstBatches = [...new Set(sel.map((t) => t.batch))].slice(0, 4);
    for (const t of sel) {
      const i = firstBatches.indexOf(t.batch);
      if (i === -1) continue;
      t.status = i === 2 ? 'running' : t.condition === baseline ? 'failed' : 'passed';
    }
    const stream = stoppingStreams(spec, trials).find((s) => s.key.startsWith('selection/'))!;
    expect(stream.outcomes).toEqual([1, 1]);
  });

  it('decides and reports a study that improves every time, and counts what was not sent', () => {
    const trials = ordered(7);
    const baseline = new Map(spec.studies.map((s) => [s.id, s.conditions.find((c) => c.baseline)!.id]));
    const sel = [...new Set(trials.filter((t) => t.study === 'selection').map((t) => t.batch))];
    for (const t of trials) if (t.study === 'selection' && sel.indexOf(t.batch) < 9) t.status = t.condition === baseline.get(t.study) ? 'failed' : 'passed';
    const opts = { alpha: 0.05, precision: null, seed: 7 };
    const { decisions, stoppedStudies } = lookAtRun(spec, trials, opts, {});
    // 9 improved: E = 512/10 = 51.2 ≥ 2/α = 40 (two comparisons in the run)
    expect(stoppedStudies).toEqual(['selection']);
    expect(decisions['selection/clear']).toMatchObject({ reason: 'e-value', afterPairs: 9, improved: 9, threshold: 40 });
    for (const t of trials) if (t.study === 'selection' && t.status === 'queued') t.status = 'cancelled';
    const r = stoppingReport(spec, trials, opts, decisions);
    const s = r.studies.find((x) => x.study === 'selection')!;
    expect(s.headline).toBe('stopped: decided after 9 pairs of 48');
    expect(s.trialsNotSent).toBe(2 * (48 - 9));
    expect(r.trialsNotSent).toBe(78);
    expect(s.comparisons[0].decision!.text).toBe(
      "e-value 51.2 ≥ 40 (1/α = 20, Holm across the run's comparisons): 9 improved, 0 regressed — improved more often than regressed",
    );
    expect(r.studies.find((x) => x.study === 'interpretation')!.headline).toBeNull();
  });
});
