import { describe, expect, it } from 'vitest';
import { ExperimentSpec } from './experiment-spec';
import { getTemplate } from '../templates';
import { countMatrix } from './matrix';
import { planTrials } from './planner';

describe('planTrials', () => {
  const spec = ExperimentSpec.parse(getTemplate('reference-study')!.build());
  const rows = planTrials(countMatrix(spec), spec.replicates, 0.01);

  it('says what each condition can claim now and how many replicates a 1% bound needs', () => {
    const sel = rows.find((r) => r.study === 'selection' && r.baseline)!;
    expect(sel).toMatchObject({ perReplicate: 48, trials: 48, trialsNeeded: 299, replicatesNeeded: 7 });
    expect(sel.boundIfAllPass).toBeCloseTo(1 - 0.05 ** (1 / 48), 12);
    const interp = rows.find((r) => r.study === 'interpretation' && !r.baseline)!;
    expect(interp).toMatchObject({ perReplicate: 28, trialsNeeded: 299, replicatesNeeded: 11 });
    expect(rows).toHaveLength(4);
  });

  it('needs fewer trials for a looser bound', () => {
    const loose = planTrials(countMatrix(spec), spec.replicates, 0.1);
    expect(loose.map((r) => [r.study, r.trialsNeeded, r.replicatesNeeded])).toEqual([
      ['selection', 29, 1],
      ['selection', 29, 1],
      ['interpretation', 29, 2], // 28 per replicate: one short
      ['interpretation', 29, 2],
    ]);
  });
});
