import { describe, expect, it } from 'vitest';
import { evaluateGates, GateNameError, GateSyntaxError, gateValues, parseGate } from './ci-gates';
import { summarizeRun } from './summary';
import type { TrialOutcome } from '../schema/table1';
import { pairKeyOf } from '../design/matrix';

const spec = {
  studies: [
    {
      id: 'selection',
      kind: 'selection' as const,
      conditions: [
        { id: 'overlapping', baseline: true },
        { id: 'clear', baseline: false },
      ],
    },
  ],
};
const trials: TrialOutcome[] = [];
// 10 cases in one order: baseline passes 4, treatment 9; case 0 regressed, cases 1–5 improved (baseline 6..9 pass, 0 passes)
for (let i = 0; i < 10; i++) {
  const pairKey = pairKeyOf({ study: 'selection', scenario: 'shop', locale: 'en', caseId: `c${i}`, orderIndex: 0, replicate: 1 });
  const b = i === 0 || i >= 7 ? 'passed' : 'failed';
  const t = i === 0 ? 'failed' : 'passed';
  trials.push({
    id: `${i}b`,
    study: 'selection',
    scenario: 'shop',
    locale: 'en',
    condition: 'overlapping',
    pairKey,
    caseId: `c${i}`,
    orderIndex: 0,
    replicate: 1,
    status: b,
    categories: b === 'failed' ? ['unwanted_write'] : [],
  });
  trials.push({
    id: `${i}t`,
    study: 'selection',
    scenario: 'shop',
    locale: 'en',
    condition: 'clear',
    pairKey,
    caseId: `c${i}`,
    orderIndex: 0,
    replicate: 1,
    status: t,
    categories: t === 'failed' ? ['wrong_tool'] : [],
  });
}
const summary = summarizeRun(spec, trials);

describe('gates', () => {
  it('names the figures of Table 1 by study, role or condition id', () => {
    const v = gateValues(summary);
    expect(v.get('selection.baseline.pass')).toBe(4);
    expect(v.get('selection.overlapping.pass')).toBe(4);
    expect(v.get('selection.treatment.pass_rate')).toBe(0.9);
    expect(v.get('selection.baseline.unwanted_write')).toBe(6);
    expect(v.get('selection.treatment.unwanted_write')).toBe(0);
    expect(v.get('selection.regressed')).toBe(1);
    expect(v.get('selection.improved')).toBe(6);
    expect(v.get('selection.difference.estimate')).toBeCloseTo(0.5, 12);
  });

  it('passes and fails as the figures say', () => {
    const gates = [
      'selection.treatment.unwanted_write == 0',
      'selection.regressed <= 0',
      'selection.treatment.pass_rate >= 0.95',
      // d = −1, +1 ×6, 0 ×3 over 10 clusters: d̄ = .5, Σ r² = 2.25 + 6·.25 + 3·.25 = 4.5, SE = sqrt(10/9 · 4.5)/10 = .2236, t_9 = 2.262 → [−.006, 1]
      'selection.difference.ci_low > 0',
      'selection.difference.ci_high > 0',
      'selection.treatment.pass - selection.baseline.pass >= 5',
      '(selection.improved - selection.regressed) / selection.pairs == 0.5',
      'selection.treatment.wrong_tool < 2',
      'selection.treatment.pass_rate >= 90%',
    ].map(parseGate);
    expect(evaluateGates(gates, summary).map((r) => r.ok)).toEqual([true, false, false, false, true, true, true, true, true]);
    const failed = evaluateGates([parseGate('selection.regressed <= 0')], summary)[0];
    expect(failed).toMatchObject({ ok: false, values: { 'selection.regressed': 1 }, reason: '1 <= 0 is false' });
  });

  it('a figure with no value fails its gate, saying so', () => {
    const none = summarizeRun(spec, []);
    expect(evaluateGates([parseGate('selection.difference.ci_low > 0')], none)[0]).toMatchObject({
      ok: false,
      reason: 'no value for selection.difference.ci_low in this run',
    });
  });

  it('a gate naming nothing is an error listing what can be named', () => {
    try {
      evaluateGates([parseGate('selection.treatment.unwanted_writes == 0')], summary);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(GateNameError);
      expect((e as GateNameError).unknown).toEqual(['selection.treatment.unwanted_writes']);
      expect((e as GateNameError).known).toContain('selection.treatment.unwanted_write');
    }
  });

  it('rejects what is not a comparison, and never evaluates code', () => {
    for (const bad of ['', 'selection.regressed', 'selection.regressed = 0', '1 < 2 < 3', 'process.exit(1) == 0', 'a == ', '"x" == 1', 'a == 1;'])
      expect(() => parseGate(bad)).toThrow(GateSyntaxError);
    // names are looked up, never evaluated: "constructor" is just an unknown name
    expect(() => evaluateGates([parseGate('constructor == 0')], summary)).toThrow(GateNameError);
  });
});
