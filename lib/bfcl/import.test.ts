import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExperimentSpec } from '../design/experiment-spec';
import { emptyObservation } from '../schema/observation';
import { scoreTrial } from '../scoring/score';
import { toPlainJson } from '../scoring/pyvalue';
import { loadAnswers, loadQuestions, parseAnswers, parseQuestions } from './data';
import { importBfcl } from './import';
import { groundTruthResult } from './oracle';
import { BFCL_DATA_DIR } from '../testing/datasets';

const questions = parseQuestions(
  [
    JSON.stringify({
      id: 'simple_python_0',
      question: [[{ role: 'user', content: 'Find the area of a triangle with a base of 10 units and height of 5 units.' }]],
      function: [
        {
          name: 'calculate_triangle_area',
          description: 'Calculate the area of a triangle given its base and height.',
          parameters: {
            type: 'dict',
            properties: {
              base: { type: 'integer' },
              height: { type: 'float' },
              unit: { type: 'string' },
              opts: { type: 'dict', properties: { round: { type: 'boolean' } } },
            },
            required: ['base', 'height'],
          },
        },
      ],
    }),
  ].join('\n'),
);
const answers = parseAnswers(
  '{"id": "simple_python_0", "ground_truth": [{"calculate_triangle_area": {"base": [10], "height": [5.0], "unit": ["units", ""], "opts": [{"round": [true, false]}, ""]}}]}',
);

describe('tclab bfcl import → experiment spec', () => {
  it('questions → cases, functions → tools (JSON Schema), two conditions', () => {
    const { spec, skipped } = importBfcl({ questions, answers });
    expect(skipped).toEqual([]);
    expect(ExperimentSpec.safeParse(spec).success).toBe(true);
    const study = spec.studies[0];
    expect(study.conditions.map((c) => [c.id, c.baseline])).toEqual([
      ['as-published', true],
      ['candidate', false],
    ]);
    expect(spec.description).toMatch(/as-published.*baseline.*candidate.*copy/);
    const tool = study.conditions[0].tools.simple_python_0.en[0];
    expect(tool.parameters).toMatchObject({ type: 'object', properties: { height: { type: 'number' }, opts: { type: 'object' } }, required: ['base', 'height'] });
    expect(study.conditions[1].tools).toEqual(study.conditions[0].tools);
    expect(study.conditions[1].tools).not.toBe(study.conditions[0].tools);
    expect(study.cases[0]).toMatchObject({ id: 'simple_python_0', scenario: 'simple_python_0', locale: 'en', task: expect.stringContaining('triangle') });
    expect(study.cases[0].checks).toEqual([
      expect.objectContaining({ id: 'tool-choice', expected: { tool: 'calculate_triangle_area', call_count: 1 } }),
      expect.objectContaining({ id: 'arguments', expected: { arguments: { base: [10], height: [5], unit: ['units', ''], opts: [{ round: true }, ''] } } }),
    ]);
  });

  it('the imported card passes the ground-truth call and fails a changed one', () => {
    const { spec } = importBfcl({ questions, answers });
    const c = spec.studies[0].cases[0];
    const tools = spec.studies[0].conditions[0].tools.simple_python_0.en.map((d) => ({ id: d.tool, name: d.name, effect: 'read' as const, parameters: d.parameters }));
    const run = (args: Record<string, unknown>) =>
      scoreTrial({
        checks: c.checks,
        observation: { ...emptyObservation(), toolCalls: [{ name: 'calculate_triangle_area', arguments: args }] },
        attemptN: 1,
        tools,
        markers: { clarify: 'CLARIFY:', stop: 'STOP:', status: 'STATUS:' },
        labels: [],
        task: c.task,
      }).verdicts.map((v) => v.status);
    expect(run({ base: 10, height: 5 })).toEqual(['pass', 'pass']);
    expect(run({ base: 10, height: 5, opts: { round: true } })).toEqual(['pass', 'pass']);
    expect(run({ base: 12, height: 5 })).toEqual(['pass', 'fail']);
  });
});

const dataDir = BFCL_DATA_DIR;
describe('importing the BFCL files (datasets/bfcl)', () => {
  // irrelevance and live_relevance have no ground truth: any call (or none) is the answer
  const withAnswers = new Set(['simple_python', 'parallel_multiple', 'live_simple']);
  for (const category of ['simple_python', 'parallel_multiple', 'live_simple', 'irrelevance', 'live_relevance']) {
    it(`${category} validates as an experiment spec`, () => {
      const file = `BFCL_v4_${category}.json`;
      const qs = loadQuestions(path.join(dataDir, file));
      const answerFile = path.join(dataDir, 'possible_answer', file);
      const as = withAnswers.has(category) ? loadAnswers(answerFile) : null;
      const { spec, dropped } = importBfcl({ questions: qs, answers: as });
      expect(spec.studies[0].cases).toHaveLength(qs.length);
      if (category === 'simple_python' && as) {
        // the ground-truth call passes the imported card under TCC rules
        const study = spec.studies[0];
        const failing = study.cases.filter((c, i) => {
          const call = Object.entries((groundTruthResult(qs[i], as[i]).result as Record<string, Record<string, unknown>>[])[0])[0];
          const tools = study.conditions[0].tools[c.scenario].en.map((d) => ({ id: d.tool, name: d.name, effect: 'read' as const, parameters: d.parameters }));
          const { verdicts } = scoreTrial({
            checks: c.checks,
            observation: { ...emptyObservation(), toolCalls: [{ name: call[0], arguments: toPlainJson(call[1]) as Record<string, unknown> }] },
            attemptN: 1,
            tools,
            markers: { clarify: 'CLARIFY:', stop: 'STOP:', status: 'STATUS:' },
            labels: [],
            task: c.task,
          });
          return verdicts.some((v) => v.status !== 'pass');
        });
        // except where the ground truth is a value its own schema refuses (left out of the card, and said so)
        expect(dropped).toEqual(['simple_python_307: game_result.get_winner.venue true']);
        expect(spec.description).toContain('1 published acceptable values that their parameter');
        expect(failing.map((c) => c.id)).toEqual(['simple_python_307']);
      }
    }, 60_000); // hundreds of cases parsed and scored: seconds on a loaded machine
  }
});
