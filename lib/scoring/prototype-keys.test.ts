import { describe, expect, it } from 'vitest';
import { parseSpecValue } from '../experiments/parse';
import { checksFor } from '../schema/experiment';
import { buildRequest, countMatrix, expandTrials, naturalDefinitions } from '../design/matrix';
import { answerOf } from '../providers/simulated';
import { simulate } from '../simulator';
import { observeAnswer } from './answer';
import { compareCard, scoreTrial } from './score';
import { canonicalJson } from '../hash';
import { tinyExperiment } from '../testing/tiny-experiment';

// Ids that name Object.prototype members are ordinary ids. A spec whose scenario, tools,
// conditions, case, checks and parameter are called `constructor`, `toString`, `hasOwnProperty` and
// `__proto__` goes through the parse, the matrix (tools by scenario and locale), expectations by
// condition, the simulated provider and scoring, and each finds exactly what the spec says.

const tiny = tinyExperiment('prototype-keys', 'Look up record X-7.', {
  scenario: 'constructor',
  tools: { read: 'toString', write: 'hasOwnProperty' },
  names: { read: 'look_up', write: 'write_record' },
  parameters: { type: 'object', properties: { constructor: { type: 'string', pattern: '^X-[0-9]+$' } }, required: ['constructor'] },
  description: (effect, clear) =>
    effect === 'read' ? `Read-only: ${clear ? 'the tool' : 'this'} looks a record up by its id.` : `Writes: ${clear ? 'the tool' : 'this'} changes a record.`,
  study: 'toString',
  conditions: { baseline: 'hasOwnProperty', treatment: 'valueOf' },
  caseId: 'constructor',
  system: 'Use a tool.',
}) as { studies: { cases: Record<string, unknown>[] }[] };
Object.assign(tiny.studies[0].cases[0], {
  checks: [
    { id: '__proto__', axis: 'task_fit', expected: { decision: 'read', tool: 'toString' } },
    { id: 'constructor', axis: 'call_result', expected: { arguments: { constructor: 'X-7' } } },
    { id: 'toString', axis: 'call_result', expected: { write_count: 0 } },
  ],
  // a computed key is an own `__proto__` key (a literal `__proto__:` would set the prototype)
  expectByCondition: { valueOf: { ['__proto__']: { decision: 'read', call_count: 1 } } },
});
const input = JSON.parse(JSON.stringify(tiny));

describe('ids named after Object.prototype members', () => {
  const parsed = parseSpecValue(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const spec = parsed.value;
  const study = spec.studies[0];
  const kase = study.cases[0];

  it('parse into own keys, with a `__proto__` key kept as a key', () => {
    expect(Object.keys(study.conditions[0].tools)).toEqual(['constructor']);
    expect(Object.keys(kase.expectByCondition.valueOf)).toEqual(['__proto__']);
    expect(canonicalJson(kase.expectByCondition)).toBe('{"valueOf":{"__proto__":{"call_count":1,"decision":"read"}}}');
    expect(kase.expectByCondition.hasOwnProperty).toBeUndefined();
    expect(kase.expectByCondition.toString).toBeUndefined();
  });

  it('expectations by condition apply only where the spec gives them', () => {
    expect(checksFor(kase, 'hasOwnProperty')).toEqual(kase.checks);
    expect(checksFor(kase, 'constructor')).toEqual(kase.checks);
    expect(checksFor(kase, 'valueOf')[0].expected).toEqual({ decision: 'read', tool: 'toString', call_count: 1 });
  });

  it('tools by scenario and locale: the matrix, the requests and the counts', () => {
    expect(naturalDefinitions(spec, study.conditions[0], 'constructor', 'en').map((d) => d.tool)).toEqual(['toString', 'hasOwnProperty']);
    expect(() => naturalDefinitions(spec, study.conditions[0], 'toString', 'en')).toThrow(/no tools/);
    expect(() => naturalDefinitions(spec, study.conditions[0], 'constructor', 'constructor')).toThrow(/no tools/);
    const trials = expandTrials(spec);
    expect(trials.map((t) => t.condition)).toEqual(['hasOwnProperty', 'valueOf']);
    expect(countMatrix(spec)).toEqual(countMatrix(spec, trials));
  });

  it('the simulated provider answers and scoring reads every check by its own id', () => {
    for (const t of expandTrials(spec)) {
      const request = buildRequest(spec, { study: t.study, caseId: t.caseId, condition: t.condition, toolOrder: t.toolOrder });
      const observation = observeAnswer(answerOf(simulate(request)), request.markers);
      expect(observation.toolCalls[0]).toMatchObject({ name: 'look_up', arguments: { constructor: 'X-7' } });
      const tools = naturalDefinitions(
        spec,
        study.conditions.find((c) => c.id === t.condition)!,
        'constructor',
        'en',
      ).map((d) => ({ id: d.tool, name: d.name, effect: d.tool === 'toString' ? ('read' as const) : ('write' as const), parameters: d.parameters }));
      const checks = checksFor(kase, t.condition);
      const score = scoreTrial({ checks, observation, attemptN: 1, tools, markers: study.protocol.markers, labels: [], task: kase.task });
      expect(score.verdicts.map((v) => [v.checkId, v.status])).toEqual([
        ['__proto__', 'pass'],
        ['constructor', 'pass'],
        ['toString', 'untested'],
      ]);
    }
  });

  it('compare: no observation for `__proto__`, `constructor` or `toString` is untested, never pass', () => {
    const card = { tcc_version: '0.1' as const, case_id: 'c', locale: 'en', task: 't', context: {}, evidence_gate: [], checks: kase.checks };
    expect(compareCard(card, Object.create(null)).checks.map((c) => c.status)).toEqual(['untested', 'untested', 'untested']);
    expect(compareCard(card, {}).checks.map((c) => c.status)).toEqual(['untested', 'untested', 'untested']);
  });
});
