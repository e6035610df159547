import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { SpecError } from '../schema/common';
import { checkJsonValue, readJson } from '../schema/input';
import { parsePyJson } from './pyjson';

/**
 * BFCL data (Berkeley Function Calling Leaderboard v4): JSON Lines files — one JSON object per line, even
 * though the extension is `.json`; some files have no trailing newline. Question files hold
 * `{id, question: [[{role, content}]], function: [...]}`, possible-answer files `{id, ground_truth}`, result
 * files `{id, result}`. Answers and results are read keeping Python's int/float distinction (pyjson.ts).
 */

export const BfclFunction = z
  .object({
    name: z.string().min(1),
    description: z.string().default(''),
    parameters: z.record(z.string(), z.unknown()),
  })
  .loose();
export type BfclFunction = z.infer<typeof BfclFunction>;

export const BfclMessage = z.object({ role: z.string(), content: z.string() }).loose();

export const BfclQuestion = z
  .object({
    id: z.string().min(1),
    question: z.array(z.array(BfclMessage)),
    function: z.array(BfclFunction).default([]),
  })
  .loose();
export type BfclQuestion = z.infer<typeof BfclQuestion>;

/** One expected call: `{func_name: {param: [acceptable values]}}`. */
export const BfclExpectedCall = z.record(z.string(), z.record(z.string(), z.array(z.unknown())));
export type BfclExpectedCall = z.infer<typeof BfclExpectedCall>;

export const BfclAnswer = z.object({ id: z.string().min(1), ground_truth: z.array(BfclExpectedCall) }).loose();
export type BfclAnswer = z.infer<typeof BfclAnswer>;

/** A model's result: a list of calls `{func_name: {args} | "<json args>"}`, or text (no call). */
export const BfclResult = z.object({ id: z.string().min(1), result: z.unknown() }).loose();
export type BfclResult = z.infer<typeof BfclResult>;

export interface JsonLine {
  line: number;
  value: unknown;
}

/** Parse JSON Lines text: blank lines skipped, CRLF and a missing final newline tolerated. */
export function parseJsonLines(text: string, file: string, python = false): JsonLine[] {
  const out: JsonLine[] = [];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    if (!python) {
      // each line read as every door reads JSON (lib/schema/input.ts): size, depth, NUL and lone surrogates
      const r = readJson(line);
      if (!r.ok)
        throw new SpecError(
          `${file}:${i + 1}: ${r.issues.map((x) => `${x.path}: ${x.message}`).join('; ')}`,
          r.issues.map((x) => ({ path: `${file}:${i + 1}:${x.path}`, message: x.message })),
        );
      out.push({ line: i + 1, value: r.value });
      return;
    }
    try {
      const value = parsePyJson(line);
      const bad = checkJsonValue(value);
      if (bad.length) throw new Error(`${bad[0].path}: ${bad[0].message}`);
      out.push({ line: i + 1, value });
    } catch (e) {
      throw new SpecError(`${file}:${i + 1}: not valid JSON: ${(e as Error).message}`, [{ path: `${file}:${i + 1}`, message: (e as Error).message }]);
    }
  });
  return out;
}

function validate<T extends z.ZodType>(schema: T, rows: JsonLine[], file: string): z.infer<T>[] {
  return rows.map(({ line, value }) => {
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    const issue = r.error.issues[0];
    const where = `$${issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}`;
    throw new SpecError(`${file}:${line}: ${where}: ${issue.message}`, [{ path: `${file}:${line}:${where}`, message: issue.message }]);
  });
}

function uniqueIds<T extends { id: string }>(rows: T[], file: string): T[] {
  const seen = new Set<string>();
  for (const r of rows) {
    if (seen.has(r.id)) throw new SpecError(`${file}: duplicate id "${r.id}"`);
    seen.add(r.id);
  }
  return rows;
}

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new SpecError(`${file}: cannot read: ${(e as Error).message}`);
  }
}

export const parseQuestions = (text: string, file = 'questions'): BfclQuestion[] => uniqueIds(validate(BfclQuestion, parseJsonLines(text, file), file), file);
export const parseAnswers = (text: string, file = 'answers'): BfclAnswer[] => uniqueIds(validate(BfclAnswer, parseJsonLines(text, file, true), file), file);
export const parseResults = (text: string, file = 'results'): BfclResult[] => uniqueIds(validate(BfclResult, parseJsonLines(text, file, true), file), file);

export const loadQuestions = (file: string): BfclQuestion[] => parseQuestions(read(file), file);
export const loadAnswers = (file: string): BfclAnswer[] => parseAnswers(read(file), file);
export const loadResults = (file: string): BfclResult[] => parseResults(read(file), file);

/** BFCL's test category of an entry id: `simple_python_12` → `simple_python`, `live_multiple_19-3-15` → `live_multiple`. */
export function categoryOf(id: string): string {
  const i = id.lastIndexOf('_');
  return i > 0 ? id.slice(0, i) : id;
}

/** Relevance-style categories are scored without ground truth: irrelevance = no call, relevance = a call. */
export function isRelevanceCategory(category: string): boolean {
  return category.includes('relevance');
}
