import { describe, expect, it } from 'vitest';
import { ExperimentSpec } from './experiment-spec';
import { getTemplate } from '../templates';
import { benchSpec } from '../testing/bench-spec';
import { planExperiment } from './plan';
import { DEFAULT_PRICE_TABLE } from './cost';
import { formalInputTokens } from './run-cost';
import { expandTrials, iterateTrials } from './matrix';

describe('the spend guard’s estimate', () => {
  it('counts the prompt tokens of every formal request as the plan does, without the plan', () => {
    for (const spec of [ExperimentSpec.parse(getTemplate('reference-study').build()), ExperimentSpec.parse(benchSpec(800, { orderPolicy: 'reverse-swap' }))])
      expect(formalInputTokens(spec)).toBe(planExperiment(spec, DEFAULT_PRICE_TABLE).inputTokens);
  });

  it('generates the matrix lazily: the first trial of a million-trial spec without listing the others', () => {
    const spec = ExperimentSpec.parse(benchSpec(1_000_000));
    const first = iterateTrials(spec).next();
    expect(first.done).toBe(false);
    expect(first.value).toEqual(expandTrials(ExperimentSpec.parse(benchSpec(200)))[0]);
  });
});
