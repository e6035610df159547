import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clonePy, isPlainObject, PyFloat, pyType, stringifyPy } from '../scoring/pyvalue';
import { checkSimpleCall } from './checker';
import { loadAnswers, loadQuestions, loadResults, type BfclAnswer, type BfclQuestion, type BfclResult } from './data';
import { groundTruthResult } from './oracle';
import { scoreBfcl } from './score';
import { BFCL_DATA_DIR } from '../testing/datasets';

/**
 * Conformance with BFCL's rules over every BFCL file with ground truth (datasets/bfcl, copied into the
 * repository). The ground truth written as a result file must score 100% (except entries no result can
 * pass under BFCL's own rules — found here by a static reading of the data, independent of the checker);
 * systematic mutations must get the verdict and the error type BFCL's rules give.
 */
const dataDir = BFCL_DATA_DIR;
const AST_FILES = ['simple_python', 'multiple', 'parallel', 'parallel_multiple', 'live_simple', 'live_multiple'];

type Call = Record<string, Record<string, unknown>>;
interface Loaded {
  category: string;
  questions: BfclQuestion[];
  answers: BfclAnswer[];
  byId: Map<string, BfclQuestion>;
}
const cache = new Map<string, Loaded>();
function load(category: string): Loaded {
  let l = cache.get(category);
  if (!l) {
    const file = `BFCL_v4_${category}.json`;
    const questions = loadQuestions(path.join(dataDir, file));
    const answers = loadAnswers(path.join(dataDir, 'possible_answer', file));
    l = { category, questions, answers, byId: new Map(questions.map((q) => [q.id, q])) };
    cache.set(category, l);
  }
  return l;
}

/** Entries no result can pass under BFCL's rules (a static reading of the data, not the checker). */
function unsatisfiable(q: BfclQuestion, a: BfclAnswer): string | null {
  for (const call of a.ground_truth) {
    const [name, params] = Object.entries(call)[0];
    const fn = q.function.find((f) => f.name === name);
    if (!fn) return `no function ${name}`;
    const props = isPlainObject(fn.parameters.properties) ? fn.parameters.properties : {};
    const required = Array.isArray(fn.parameters.required) ? (fn.parameters.required as string[]) : [];
    for (const r of required) if (!(r in params)) return `required "${r}" absent from the ground truth`;
    for (const [p, values] of Object.entries(params)) {
      if (values.length === 0) return `"${p}" has no acceptable value`;
      if (!(p in props) && !values.includes('')) return `"${p}" is not a parameter of ${name} and not optional`;
    }
  }
  return null;
}

const typeOf = (q: BfclQuestion, name: string, param: string): string => {
  const fn = q.function.find((f) => f.name === name);
  const props = fn && isPlainObject(fn.parameters.properties) ? fn.parameters.properties : {};
  const p = props[param];
  return isPlainObject(p) && typeof p.type === 'string' ? p.type : '';
};
/** Python type of the first acceptable value that is not "" (BFCL decides "variables" by it). */
const answerType = (values: unknown[]): string | null => {
  const v = values.find((x) => x !== '');
  return v === undefined ? null : pyType(v);
};

/** Whether some expected call also accepts a call made for another expected call (then order can matter). */
function ambiguous(calls: Call[], q: BfclQuestion, a: BfclAnswer): boolean {
  return a.ground_truth.some((exp, i) => {
    const fn = q.function.find((f) => f.name === Object.keys(exp)[0]);
    return !!fn && calls.some((c, j) => j !== i && checkSimpleCall(fn, c, exp).valid);
  });
}

interface Mutation {
  name: string;
  /** Mutate a copy of the oracle result; return the error type BFCL's rules give (null = valid), or undefined if not applicable. */
  apply(calls: Call[], q: BfclQuestion, a: BfclAnswer, category: string): string | null | undefined;
}

const callError = (category: string, t: string) => (category.includes('parallel') ? 'parallel_function_checker_no_order:cannot_find_match' : t);
const countError = (category: string) =>
  category.includes('parallel')
    ? 'parallel_function_checker_no_order:wrong_count'
    : category.includes('multiple')
      ? 'multiple_function_checker:wrong_count'
      : 'simple_function_checker:wrong_count';
const first = (calls: Call[]) => Object.entries(calls[0])[0] as [string, Record<string, unknown>];
const expectedParams = (a: BfclAnswer, name: string) => Object.values(a.ground_truth.find((c) => name in c) ?? {})[0] ?? {};

/** Pick the first argument of the first call that satisfies `ok`, with its declared type and answer type. */
function pick(calls: Call[], q: BfclQuestion, a: BfclAnswer, ok: (declared: string, ansType: string | null, value: unknown) => boolean) {
  const [name, args] = first(calls);
  const exp = expectedParams(a, name);
  for (const [param, value] of Object.entries(args)) {
    const declared = typeOf(q, name, param);
    if (ok(declared, answerType(exp[param] ?? []), value)) return { name, args, param, value, values: exp[param] ?? [] };
  }
  return null;
}

const mutations: Mutation[] = [
  {
    name: 'renamed function',
    apply: (c, _q, _a, cat) => {
      const [n, args] = first(c);
      c[0] = { [`${n}_renamed`]: args };
      return callError(cat, 'simple_function_checker:wrong_func_name');
    },
  },
  {
    name: 'dropped required argument',
    apply: (c, q, _a, cat) => {
      const [n, args] = first(c);
      const req = (q.function.find((f) => f.name === n)?.parameters.required ?? []) as string[];
      const r = req.find((p) => p in args);
      if (!r) return undefined;
      delete args[r];
      return callError(cat, 'simple_function_checker:missing_required');
    },
  },
  {
    name: 'extra argument',
    apply: (c, _q, _a, cat) => {
      first(c)[1].tclab_unexpected = 'x';
      return callError(cat, 'simple_function_checker:unexpected_param');
    },
  },
  {
    name: 'wrong type',
    apply: (c, q, a, cat) => {
      const p = pick(c, q, a, (d, t) => (d === 'dict' ? t === 'dict' : d !== '' && t !== 'dict'));
      if (!p) return undefined;
      p.args[p.param] = typeOf(q, p.name, p.param) === 'dict' ? 'tclab-not-a-dict' : { tclab: 1 };
      return callError(cat, 'type_error:simple');
    },
  },
  {
    name: 'changed value',
    apply: (c, q, a, cat) => {
      const s = pick(c, q, a, (d, t) => d === 'string' && t === 'str');
      if (s) {
        s.args[s.param] = 'tclab changed value';
        return callError(cat, 'value_error:string');
      }
      const i = pick(c, q, a, (d, t) => d === 'integer' && t === 'int');
      if (!i || i.values.includes(987654321)) return undefined;
      i.args[i.param] = 987654321;
      return callError(cat, 'value_error:others');
    },
  },
  {
    // Any order is accepted — where the matching is unambiguous. BFCL matches greedily (each expected call
    // takes the first remaining call it accepts), so when an expected call also accepts another call the
    // order can matter; those entries are left to the test of parallel_178 below.
    name: 'reordered parallel calls',
    apply: (c, q, a, cat) => (cat.includes('parallel') && c.length > 1 && !ambiguous(c, q, a) ? (c.reverse(), null) : undefined),
  },
  {
    name: 'one call too many',
    apply: (c, _q, _a, cat) => {
      c.push(clonePy(c[0]));
      return countError(cat);
    },
  },
  {
    name: 'int for float (accepted)',
    apply: (c, q, a) => {
      const p = pick(c, q, a, (d, _t, v) => d === 'float' && v instanceof PyFloat && Number.isInteger(v.value));
      if (!p) return undefined;
      p.args[p.param] = (p.value as PyFloat).value;
      return null;
    },
  },
  {
    name: 'bool for int',
    apply: (c, q, a, cat) => {
      const p = pick(c, q, a, (d, t) => d === 'integer' && t === 'int');
      if (!p) return undefined;
      p.args[p.param] = true;
      return callError(cat, 'type_error:simple');
    },
  },
  {
    name: 'float for int',
    apply: (c, q, a, cat) => {
      const p = pick(c, q, a, (d, t, v) => d === 'integer' && t === 'int' && typeof v === 'number');
      if (!p) return undefined;
      p.args[p.param] = new PyFloat(p.value as number);
      return callError(cat, 'type_error:simple');
    },
  },
  {
    name: 'string normalisation (accepted)',
    apply: (c, q, a) => {
      const p = pick(c, q, a, (d, t, v) => d === 'string' && t === 'str' && typeof v === 'string' && /^[\x20-\x7e]+$/.test(v));
      if (!p) return undefined;
      p.args[p.param] = `${(p.value as string).toUpperCase()} ,._-`;
      return null;
    },
  },
];

describe('BFCL conformance (datasets/bfcl)', () => {
  for (const category of AST_FILES) {
    describe(category, () => {
      it('the ground truth as a result file scores 100% of the satisfiable entries', () => {
        const { questions, answers, byId } = load(category);
        const results = answers.map((a) => groundTruthResult(byId.get(a.id)!, a));
        const s = scoreBfcl({ questions, answers, results });
        const unsat = new Map(answers.map((a) => [a.id, unsatisfiable(byId.get(a.id)!, a)]));
        const wrong = s.results.filter((r) => r.valid !== (unsat.get(r.id) === null)).map((r) => ({ ...r, unsat: unsat.get(r.id), error: s.errors[r.id] }));
        expect(wrong).toEqual([]);
        const nUnsat = [...unsat.values()].filter(Boolean).length;
        expect(nUnsat).toBeLessThanOrEqual(3);
        expect(s.correct).toBe(s.total - nUnsat);
      });

      it('the same through a result file on disk (args as JSON text and as objects, no final newline)', () => {
        const { questions, answers, byId } = load(category);
        const results: BfclResult[] = answers.map((a) => groundTruthResult(byId.get(a.id)!, a));
        const lines = results.map((r, i) => {
          const calls = (r.result as Call[]).map((c) => Object.fromEntries(Object.entries(c).map(([n, args]) => [n, i % 2 ? stringifyPy(args) : args])));
          return stringifyPy({ id: r.id, result: calls });
        });
        const file = path.join(mkdtempSync(path.join(tmpdir(), 'bfcl-')), `${category}.json`);
        writeFileSync(file, lines.join('\n'));
        const fromFile = scoreBfcl({ questions, answers, results: loadResults(file) });
        expect(fromFile.results).toEqual(scoreBfcl({ questions, answers, results }).results);
      });

      it('systematic mutations get the verdict and error type of BFCL rules', () => {
        const { answers, byId } = load(category);
        const applied: Record<string, number> = {};
        const mismatches: unknown[] = [];
        for (const m of mutations) {
          const results: BfclResult[] = [];
          const want = new Map<string, string | null>();
          for (const a of answers) {
            const q = byId.get(a.id)!;
            if (unsatisfiable(q, a)) continue;
            const calls = clonePy(groundTruthResult(q, a).result) as Call[];
            const expected = m.apply(calls, q, a, category);
            if (expected === undefined) continue;
            results.push({ id: a.id, result: calls });
            want.set(a.id, expected);
          }
          const questions = [...want.keys()].map((id) => byId.get(id)!);
          if (questions.length === 0) continue;
          applied[m.name] = questions.length;
          const s = scoreBfcl({ questions, answers, results, category });
          for (const r of s.results)
            if (r.error_type !== want.get(r.id)) mismatches.push({ mutation: m.name, id: r.id, want: want.get(r.id), got: r.error_type, error: s.errors[r.id] });
        }
        expect(mismatches.slice(0, 5)).toEqual([]);
        for (const name of ['renamed function', 'extra argument', 'one call too many', 'dropped required argument', 'wrong type', 'changed value'])
          expect(applied[name]).toBeGreaterThan(0);
        if (category.includes('parallel')) expect(applied['reordered parallel calls']).toBeGreaterThan(0);
      });
    });
  }

  it("parallel_178: BFCL's greedy matching rejects an order its ambiguous ground truth cannot pair", () => {
    const { answers, byId } = load('parallel');
    const a = answers.find((x) => x.id === 'parallel_178')!;
    const calls = groundTruthResult(byId.get(a.id)!, a).result as Call[];
    const score = (result: Call[]) => scoreBfcl({ questions: [byId.get(a.id)!], answers, results: [{ id: a.id, result }] }).results[0];
    expect(score(calls)).toMatchObject({ valid: true });
    // expected call 0 accepts "Microsoft" or "Apple" on 2022-01-01: reversed, it takes Apple's call and leaves expected call 2 without one
    expect(score([...calls].reverse())).toMatchObject({ valid: false, error_type: 'parallel_function_checker_no_order:cannot_find_match' });
  });

  for (const category of ['irrelevance', 'live_irrelevance', 'live_relevance']) {
    it(`${category}: no call vs a call`, () => {
      const questions = loadQuestions(path.join(dataDir, `BFCL_v4_${category}.json`));
      const call = (q: BfclQuestion) => [{ [q.function[0]?.name ?? 'any_function']: '{}' }];
      const text = questions.map((q) => ({ id: q.id, result: 'I cannot help with that using the available functions.' }));
      const calls = questions.map((q) => ({ id: q.id, result: call(q) }));
      const irrelevance = category.includes('irrelevance');
      const noCall = scoreBfcl({ questions, results: text });
      const withCall = scoreBfcl({ questions, results: calls });
      expect(noCall.accuracy).toBe(irrelevance ? 1 : 0);
      expect(withCall.accuracy).toBe(irrelevance ? 0 : 1);
      const failed = irrelevance ? withCall : noCall;
      expect(new Set(failed.results.map((r) => r.error_type))).toEqual(new Set([irrelevance ? 'irrelevance_error:decoder_success' : 'relevance_error:decoder_failed']));
      expect(scoreBfcl({ questions, results: questions.map((q) => ({ id: q.id, result: [] })) }).accuracy).toBe(irrelevance ? 1 : 0);
    });
  }
});
