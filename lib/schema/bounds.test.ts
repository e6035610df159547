import { afterEach, describe, expect, it } from 'vitest';
import { parseSpecValue, specBounds } from '../experiments/parse';
import { matrixSize, orderCount } from './bounds';
import { ExperimentSpecShape } from './experiment';
import { resetEnvCache } from '../env';
import { baseSpec } from '../testing/hostile-inputs';

// Every spec is bounded — candidate orders per case (720) and formal trials per run
// (TCLAB_MAX_TRIALS_PER_RUN, default 1,000,000) — counted arithmetically and refused naming the numbers.

type Any = any; // building specs as JSON
function withTools(n: number, policy: string, replicates = 1, cases = 1): Any {
  const s = structuredClone(baseSpec()) as Any;
  const ids = Array.from({ length: n }, (_, i) => `t${i + 1}`);
  s.scenarios[0].tools = ids.map((id) => ({ id, effect: 'read' }));
  for (const c of s.studies[0].conditions)
    c.tools.invoice.en = ids.map((id) => ({ tool: id, name: `tool_${id}`, description: `Reads ${id}.`, parameters: { type: 'object', properties: {} } }));
  const kase = { id: 'c', scenario: 'invoice', locale: 'en', task: 'Read it.', checks: [{ id: 'k', axis: 'task_fit', expected: { decision: 'read', tool: 't1' } }] };
  s.studies[0].cases = Array.from({ length: cases }, (_, i) => ({ ...kase, id: `c${i}` }));
  s.studies[0].orderPolicy = policy;
  s.studies.pop();
  s.prechecks = [];
  s.replicates = replicates;
  return s;
}

afterEach(() => {
  delete process.env.TCLAB_MAX_TRIALS_PER_RUN;
  resetEnvCache();
});

describe('spec bounds', () => {
  it('refuses a 7-tool all-permutations study, naming the numbers; 6 tools (720 orders) and 7-tool rotations pass', () => {
    const r = parseSpecValue(withTools(7, 'all-permutations'));
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.issues).toEqual([
        {
          path: 'studies.0.orderPolicy',
          message: expect.stringContaining('all-permutations over 7 tools makes 5,040 candidate orders for case "c0"; the limit is 720 orders per case'),
        },
      ]);
    expect(parseSpecValue(withTools(6, 'all-permutations')).ok).toBe(true);
    expect(parseSpecValue(withTools(7, 'rotations')).ok).toBe(true);
  });

  it('refuses a matrix over the trials limit, naming the count and the limit; the limit comes from the environment', () => {
    const big = withTools(6, 'all-permutations', 100, 7); // 7 cases × 720 orders × 100 replicates × 2 conditions
    const r = parseSpecValue(big);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.issues[0]).toEqual({
        path: 'studies',
        message: expect.stringContaining('makes 1,008,000 formal trials per run (selection: 1,008,000); the limit is 1,000,000 (TCLAB_MAX_TRIALS_PER_RUN)'),
      });
    process.env.TCLAB_MAX_TRIALS_PER_RUN = '2000000';
    resetEnvCache();
    expect(specBounds().maxTrialsPerRun).toBe(2_000_000);
    expect(parseSpecValue(big).ok).toBe(true);
    process.env.TCLAB_MAX_TRIALS_PER_RUN = '3';
    resetEnvCache();
    const small = parseSpecValue(baseSpec());
    expect(small.ok).toBe(false);
    if (!small.ok) expect(small.issues[0].message).toContain('makes 4 formal trials per run (selection: 2, interpretation: 2); the limit is 3');
  });

  it('counts a matrix arithmetically, never by listing its trials', () => {
    expect(matrixSize(ExperimentSpecShape.parse(withTools(6, 'all-permutations', 100, 7)))).toMatchObject({
      formal: 1_008_000,
      studies: [{ pairs: 504_000, trials: 1_008_000 }],
    });
    // 12! orders × 7 cases × 100 replicates × 2 conditions: 670,602,240,000 trials, far more than memory could list
    expect(matrixSize(ExperimentSpecShape.parse(withTools(12, 'all-permutations', 100, 7)))).toMatchObject({
      formal: 670_602_240_000,
      studies: [{ pairs: 335_301_120_000, trials: 670_602_240_000 }],
    });
    expect([
      orderCount(7, 'all-permutations'),
      orderCount(7, 'rotations'),
      orderCount(7, 'reverse-swap'),
      orderCount(1, 'all-permutations'),
      orderCount(200, 'all-permutations'),
    ]).toEqual([5040, 7, 2, 1, Infinity]);
  });
});
