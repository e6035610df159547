import { SpecError } from '../schema/common';
import { orThrow, parseSpecValue } from '../experiments/parse';
import { ExperimentSpec, type ExperimentSpecInput } from '../schema/experiment';
import type { TccCheck } from '../schema/tcc';
import { isPlainObject, toPlainJson } from '../scoring/pyvalue';
import { categoryOf, isRelevanceCategory, type BfclAnswer, type BfclFunction, type BfclQuestion } from './data';
import { resolveDict } from './oracle';
import { bfclParametersToJsonSchema, bfclTypeToJsonSchema } from './schema';
import { argTypeOf, expectedValueProblems } from '../design/argument-types';

export interface ImportBfclInput {
  questions: BfclQuestion[];
  answers?: BfclAnswer[] | null;
  category?: string;
  /** Import only the first n questions. */
  limit?: number;
}

const LOCALE = 'en';
const SYSTEM = 'You can call the functions provided. Call a function when one fits the request, with the arguments the request gives; otherwise answer without calling.';

/** Make a string usable as an Id (letters, digits, "_", ".", "-"; starts with a letter or digit; ≤ 80). */
function toId(s: string, fallback: string): string {
  const cleaned = s
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 80);
  return cleaned || fallback;
}

function taskText(q: BfclQuestion): string {
  const messages = q.question.flat();
  if (messages.length === 1) return messages[0].content || '(empty question)';
  return messages.map((m) => `${m.role}: ${m.content}`).join('\n\n') || '(empty question)';
}

/**
 * BFCL's acceptable values for each parameter. An alternative its own schema refuses (e.g. `"N/A"` beside an
 * enum, `true` for a string) is left out and listed in `dropped`: an expected value must have its
 * parameter's type (lib/design/argument-types.ts), and no schema-valid call could send it. Null when a
 * parameter has no acceptable value left: the question then gets no arguments check (also listed).
 */
function tccArguments(id: string, params: Record<string, unknown[]>, fn: BfclFunction | undefined, dropped: string[]): Record<string, unknown> | null {
  const props = fn && isPlainObject(fn.parameters.properties) ? fn.parameters.properties : {};
  const out = Object.create(null) as Record<string, unknown>;
  const refused: string[] = [];
  for (const [param, values] of Object.entries(params)) {
    const p = isPlainObject(props[param]) ? props[param] : {};
    const items = isPlainObject(p.items) ? p.items.type : undefined;
    const dictLike = p.type === 'dict' || ((p.type === 'array' || p.type === 'tuple') && items === 'dict');
    const resolved = dictLike ? values.map((v) => (Array.isArray(v) ? v.map(resolveDict) : v === '' ? v : resolveDict(v))) : values;
    const plain = toPlainJson(resolved);
    const type = argTypeOf(bfclTypeToJsonSchema(p));
    const ok = (v: unknown) => expectedValueProblems(type, [v]).length === 0;
    out[param] = Array.isArray(plain) ? plain.filter(ok) : plain;
    if (Array.isArray(plain)) refused.push(...plain.filter((v) => !ok(v)).map((v) => `${id}: ${fn?.name ?? '?'}.${param} ${JSON.stringify(v)}`));
    if (Array.isArray(plain) && plain.length > 0 && (out[param] as unknown[]).length === 0) {
      dropped.push(`${id}: ${fn?.name ?? '?'}.${param} ${plain.map((v) => JSON.stringify(v)).join(', ')} (no arguments check)`);
      return null;
    }
  }
  dropped.push(...refused);
  return out;
}

function checksFor(category: string, q: BfclQuestion, answer: BfclAnswer | undefined, toolId: (name: string) => string, dropped: string[]): TccCheck[] {
  if (category.includes('irrelevance'))
    return [{ id: 'no-call', axis: 'task_fit', condition: 'No function fits the request: answer without calling (BFCL irrelevance)', expected: { call_count: 0 } }];
  if (isRelevanceCategory(category))
    return [{ id: 'some-call', axis: 'task_fit', condition: 'A function fits: any well-formed call counts (BFCL relevance)', expected: { decision: 'read' } }];
  if (!answer) throw new SpecError(`the possible-answer file has no entry for "${q.id}"`);
  const calls = answer.ground_truth;
  if (category.includes('parallel'))
    return [
      {
        id: 'call-count',
        axis: 'task_fit',
        condition: `Exactly ${calls.length} calls, in any order (arguments of parallel calls are scored by tclab bfcl score)`,
        expected: { call_count: calls.length },
      },
    ];
  const [name, params] = Object.entries(calls[0] ?? {})[0] ?? ['', {}];
  const args = tccArguments(
    q.id,
    params,
    q.function.find((f) => f.name === name),
    dropped,
  );
  const choice: TccCheck = { id: 'tool-choice', axis: 'task_fit', condition: `Call ${name} exactly once`, expected: { tool: toolId(name), call_count: calls.length } };
  if (!args) return [choice];
  return [
    choice,
    {
      id: 'arguments',
      axis: 'call_result',
      condition: 'BFCL possible answer: each key lists its acceptable values ("" = may be omitted)',
      expected: { arguments: args },
    },
  ];
}

/**
 * A BFCL category as an experiment spec: one scenario per question (its functions → tools, BFCL types →
 * JSON Schema), one selection study whose cases carry the question text and a case card from the ground
 * truth. ExperimentSpec asks for at least two conditions, so the study has `as-published` (baseline) and
 * `candidate`, an identical copy to edit.
 */
export interface ImportedBfcl {
  spec: ExperimentSpec;
  /** Questions left out: without functions a question has no tool, and a scenario needs one. */
  skipped: string[];
  /** Published acceptable values the parameter's own schema refuses, left out (`question: function.param value`). */
  dropped: string[];
}

export function importBfcl(input: ImportBfclInput): ImportedBfcl {
  const chosen = input.limit ? input.questions.slice(0, input.limit) : input.questions;
  const questions = chosen.filter((q) => q.function.length > 0);
  const skipped = chosen.filter((q) => q.function.length === 0).map((q) => q.id);
  const dropped: string[] = [];
  if (questions.length === 0) throw new SpecError('the question file has no entries with functions');
  const category = input.category ?? categoryOf(questions[0].id);
  if (!isRelevanceCategory(category) && !input.answers) throw new SpecError(`category "${category}" needs its possible-answer file (--answers)`);
  const answers = new Map((input.answers ?? []).map((a) => [a.id, a]));
  const scenarios: ExperimentSpecInput['scenarios'] = [];
  const cases: ExperimentSpecInput['studies'][number]['cases'] = [];
  const tools: Record<string, Record<string, { tool: string; name: string; description: string; parameters: Record<string, unknown> }[]>> = {};
  const usedScenarioIds = new Set<string>();
  questions.forEach((q, qi) => {
    let sid = toId(q.id, `q${qi}`);
    while (usedScenarioIds.has(sid)) sid = `${sid}-${qi}`;
    usedScenarioIds.add(sid);
    const ids = new Map<string, string>();
    q.function.forEach((f, fi) => {
      let id = toId(f.name, `tool${fi}`);
      while ([...ids.values()].includes(id)) id = `${id}-${fi}`;
      ids.set(f.name, id);
    });
    const toolId = (name: string) => ids.get(name) ?? toId(name, 'unknown');
    scenarios.push({ id: sid, title: q.id, tools: q.function.map((f) => ({ id: toolId(f.name), effect: 'read' as const })) });
    tools[sid] = {
      [LOCALE]: q.function.map((f) => ({ tool: toolId(f.name), name: f.name, description: f.description, parameters: bfclParametersToJsonSchema(f.parameters) })),
    };
    cases.push({ id: sid, scenario: sid, locale: LOCALE, task: taskText(q), checks: checksFor(category, q, answers.get(q.id), toolId, dropped) });
  });
  const spec: ExperimentSpecInput = {
    format: 'tclab.experiment/v1',
    id: toId(`bfcl-${category}`, 'bfcl'),
    name: `BFCL v4 ${category} (imported)`,
    description:
      `Imported from the Berkeley Function Calling Leaderboard, category ${category} (${questions.length} questions; Apache-2.0 data${skipped.length ? `; ${skipped.length} without functions left out` : ''}). ` +
      'One scenario per question; its functions became tools (BFCL types converted to JSON Schema). ' +
      'BFCL does not say which functions write, so every tool is marked read. ' +
      'An experiment needs two conditions: "as-published" (baseline) holds the definitions as BFCL publishes them, and "candidate" is an identical copy for you to edit. ' +
      "Case cards come from the ground truth and are scored with TCC rules (strings compared after NFC and trimming; a dict parameter keeps its first acceptable value per key), which are stricter than BFCL's; " +
      'use `tclab bfcl score` for BFCL-conformant scores.' +
      (dropped.length
        ? ` ${dropped.length} published acceptable values that their parameter's own schema refuses were left out (e.g. ${dropped[0]}); a question left with no acceptable value for a parameter has no arguments check.`
        : ''),
    locales: [LOCALE],
    scenarios,
    studies: [
      {
        id: toId(category, 'bfcl'),
        kind: 'selection',
        title: `BFCL ${category}`,
        orderPolicy: 'fixed',
        protocol: { system: { [LOCALE]: SYSTEM } },
        conditions: [
          { id: 'as-published', label: 'As published by BFCL', baseline: true, tools },
          { id: 'candidate', label: 'Candidate (a copy to edit)', baseline: false, tools: structuredClone(tools) },
        ],
        cases,
      },
    ],
  };
  return { spec: orThrow(parseSpecValue(spec), 'imported experiment'), skipped, dropped };
}
