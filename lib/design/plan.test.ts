import { describe, expect, it } from 'vitest';
import { ExperimentSpec } from './experiment-spec';
import { getTemplate } from '../templates';
import { benchSpec } from '../testing/bench-spec';
import { countMatrix, expandTrials } from './matrix';
import { planExperiment } from './plan';
import { DEFAULT_PRICE_TABLE, PriceTable } from './cost';

const reference = ExperimentSpec.parse(getTemplate('reference-study').build());

describe('the experiment plan', () => {
  it('counts the reference study arithmetically as the expanded matrix does: 96 + 56 = 152 formal, 2 pre-checks', () => {
    const plan = planExperiment(reference, DEFAULT_PRICE_TABLE);
    expect(plan.matrix).toEqual(countMatrix(reference, expandTrials(reference)));
    expect(plan.matrix.formal).toBe(152);
    expect(plan.matrix.prechecks).toBe(2);
    const cell = plan.cells.find((c) => c.study === 'selection' && c.condition === 'overlapping' && c.scenario === 'restaurant' && c.locale === 'en')!;
    expect(cell).toMatchObject({ cases: 6, orders: 2, replicates: 1, trials: 12 });
    expect(plan.cells.reduce((a, c) => a + c.trials, 0)).toBe(152);
  });

  it('multiplies by replicates and by the order policy, rotations included', () => {
    const three = ExperimentSpec.parse(benchSpec(40));
    for (const orderPolicy of ['fixed', 'reverse-swap', 'rotations'] as const) {
      const spec = ExperimentSpec.parse({ ...three, replicates: 3, studies: three.studies.map((s) => ({ ...s, orderPolicy })) });
      expect(planExperiment(spec, DEFAULT_PRICE_TABLE).matrix, orderPolicy).toEqual(countMatrix(spec));
    }
  });

  it('estimates cost per provider and model from the price table', () => {
    const prices = PriceTable.parse({
      outputTokensPerRequest: 100,
      prices: [{ provider: 'openai', model: 'm', inputPerMTok: 2, outputPerMTok: 8 }, ...DEFAULT_PRICE_TABLE.prices],
    });
    const plan = planExperiment(reference, prices);
    const [paid, free] = plan.costs;
    expect(paid.outputTokens).toBe(152 * 100);
    expect(paid.inputTokens).toBe(plan.inputTokens);
    expect(paid.cost).toBeCloseTo((plan.inputTokens * 2 + 15_200 * 8) / 1e6, 10);
    expect(free.cost).toBe(0);
    // every request carries its catalog: the input is at least the catalogs' tokens times their trials
    const floor = plan.cells.reduce(
      (a, c) =>
        a + c.trials * plan.catalogs.find((k) => k.study === c.study && k.condition === c.condition && k.scenario === c.scenario && k.locale === c.locale)!.tokens,
      0,
    );
    expect(plan.inputTokens).toBeGreaterThan(floor);
    expect(() => PriceTable.parse({ prices: [prices.prices[0], prices.prices[0]] })).toThrow(/listed twice/);
  });

  it('warns about what a design cannot claim', () => {
    const plan = planExperiment(reference, DEFAULT_PRICE_TABLE);
    expect(plan.warnings.some((w) => w.startsWith('selection/overlapping: 48 trials'))).toBe(true);
  });
});
