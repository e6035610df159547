import { isPlainObject, pyEquals, pyIn, pyRepr, pyType, PyFloat, type PyTypeName } from '../scoring/pyvalue';
import type { ArgumentMatch } from '../scoring/arguments';

/**
 * The BFCL mode of argument matching (beside lib/scoring/arguments.ts, the TCC mode, whose `ArgumentMatch` it
 * returns): our own implementation of the parameter rules of the Berkeley
 * Function Calling Leaderboard's AST checker for Python-style categories (ShishirPatil/gorilla,
 * bfcl_eval/eval_checker/ast_eval/ast_checker.py, `simple_function_checker` and its helpers), including
 * its quirks (the type of the first acceptable value decides whether a value is a "variable"; nested type
 * checks one level deep; the first error stops the check). Error types keep BFCL's names.
 */

const PY_TYPES: Record<string, PyTypeName> = {
  string: 'str',
  integer: 'int',
  float: 'float',
  boolean: 'bool',
  array: 'list',
  tuple: 'list',
  dict: 'dict',
  any: 'str',
  // JSON Schema spellings, for our own tool schemas (BFCL's data never uses them)
  number: 'float',
  object: 'dict',
};
const NESTED_TYPES = new Set(['array', 'tuple']);

interface Result {
  valid: boolean;
  error: string[];
  errorType: string;
}

const ok = (): Result => ({ valid: true, error: [], errorType: '' });
const bad = (errorType: string, error: string): Result => ({ valid: false, error: [error], errorType });

/** BFCL's string normalisation: drop spaces and `,./-_*^`, lower-case, `'` → `"`. */
export function standardizeString(s: string): string {
  return s
    .replace(/[ ,./\-_*^]/g, '')
    .toLowerCase()
    .replaceAll("'", '"');
}

const std = (v: unknown): unknown => (typeof v === 'string' ? standardizeString(v) : v);
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

function possibleAnswerType(possible: readonly unknown[]): PyTypeName | null {
  for (const a of possible) if (!pyEquals(a, '')) return pyType(a);
  return null;
}

interface TypeCheck extends Result {
  isVariable: boolean;
}

function typeChecker(param: string, value: unknown, possible: readonly unknown[], expectedDesc: string, expected: PyTypeName, nested: PyTypeName | null): TypeCheck {
  const paType = possibleAnswerType(possible);
  const isVariable = paType !== null && paType !== expected;
  const result: TypeCheck = { valid: true, error: [], errorType: 'type_error:simple', isVariable: false };
  if (pyType(value) === expected) {
    if (nested === null) return { ...result, isVariable };
    for (const item of possible) {
      let flag = true;
      if (Array.isArray(item)) {
        for (const v of value as unknown[]) {
          if (!typeChecker(param, v, item, nested, nested, null).valid) {
            flag = false;
            break;
          }
        }
      }
      if (flag) return { valid: true, error: [], errorType: '', isVariable };
    }
    result.valid = false;
    result.error = [
      `Nested type checking failed for parameter '${param}'. Expected outer type ${expectedDesc} with inner type ${nested}. Parameter value: ${pyRepr(value)}.`,
    ];
    result.errorType = 'type_error:nested';
  }
  if (paType !== null && pyType(value) === paType) return { ...result, isVariable: true };
  result.valid = false;
  result.error.push(`Incorrect type for parameter '${param}'. Expected type ${expectedDesc}, got ${pyType(value)}. Parameter value: ${pyRepr(value)}.`);
  result.errorType = 'type_error:simple';
  return result;
}

function stringChecker(param: string, value: string, possible: readonly unknown[]): Result {
  const want = possible.filter((p): p is string => typeof p === 'string').map(standardizeString);
  if (want.includes(standardizeString(value))) return ok();
  return bad('value_error:string', `Invalid value for parameter '${param}': ${pyRepr(value)}. Expected one of ${pyRepr(possible)}. Case insensitive.`);
}

function listChecker(param: string, value: unknown[], possible: readonly unknown[]): Result {
  const got = value.map(std);
  const want: unknown[][] = [];
  for (const p of possible) {
    if (Array.isArray(p)) want.push(p.map(std));
    else if (typeof p === 'string') want.push([...p].map(std)); // Python iterates a string's characters
  }
  if (want.some((w) => pyEquals(got, w))) return ok();
  return bad('value_error:list/tuple', `Invalid value for parameter '${param}': ${pyRepr(value)}. Expected one of ${pyRepr(possible)}.`);
}

function dictChecker(param: string, value: unknown, possibleAnswers: readonly unknown[]): Result {
  let result: Result = { valid: false, error: [], errorType: 'dict_checker:unclear' };
  if (!isPlainObject(value)) return { ...result, error: [`Parameter '${param}' is not a dict: ${pyRepr(value)}.`] };
  for (const possible of possibleAnswers) {
    if (pyEquals(possible, '')) continue;
    result = { valid: false, error: [], errorType: 'dict_checker:unclear' };
    if (!isPlainObject(possible)) continue;
    let flag = true;
    for (const [key, v] of Object.entries(value)) {
      if (!Object.hasOwn(possible, key)) {
        result.error.push(`Unexpected dict key parameter: '${key}'.`);
        result.errorType = 'value_error:dict_key';
        flag = false;
        break;
      }
      const want = asList(possible[key]).map(std);
      if (!pyIn(std(v), want)) {
        result.error.push(`Invalid value for parameter '${key}': ${pyRepr(v)}. Expected one of ${pyRepr(want)}.`);
        result.errorType = 'value_error:dict_value';
        flag = false;
        break;
      }
    }
    for (const [key, v] of Object.entries(possible)) {
      const optional = Array.isArray(v) ? pyIn('', v) : typeof v === 'string'; // `"" in "abc"` is True in Python
      if (!Object.hasOwn(value, key) && !optional) {
        result.error.push(`Missing dict key parameter: '${key}'.`);
        result.errorType = 'value_error:dict_key';
        flag = false;
        break;
      }
    }
    if (flag) return ok();
  }
  return result;
}

function listDictChecker(param: string, value: unknown[], possibleAnswers: readonly unknown[]): Result {
  let result: Result = { valid: false, error: [], errorType: 'list_dict_checker:unclear' };
  for (const answer of possibleAnswers) {
    const items = Array.isArray(answer) ? answer : typeof answer === 'string' ? [...answer] : [];
    if (value.length !== items.length) {
      result = bad('value_error:list_dict_count', 'Wrong number of dictionaries in the list.');
      continue;
    }
    let flag = true;
    for (let i = 0; i < value.length; i++) {
      result = dictChecker(param, value[i], [items[i]]);
      if (!result.valid) {
        flag = false;
        break;
      }
    }
    if (flag) return ok();
  }
  return result;
}

function toMatch(r: Result, fields: string[]): ArgumentMatch {
  if (r.valid) return { ok: true, fields: [], reason: 'arguments match (BFCL rules)', errorType: null, errors: [] };
  return { ok: false, fields, reason: r.error.map(String).join(' '), errorType: r.errorType, errors: r.error };
}

/**
 * BFCL's `simple_function_checker` without the function-name step: `expected` is the possible answer of one
 * call (`{param: [acceptable values]}`, `""` = may be omitted), `observed` the call's arguments, `schema` the
 * BFCL parameters object (`{type: "dict", properties, required}`).
 */
export function matchBfclArguments(expected: Record<string, unknown>, observed: Record<string, unknown>, schema: Record<string, unknown>): ArgumentMatch {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  for (const param of required) {
    if (!Object.hasOwn(observed, param)) return toMatch(bad('simple_function_checker:missing_required', `Missing required parameter: '${param}'.`), [param]);
  }
  for (const [param, raw] of Object.entries(observed)) {
    if (!Object.hasOwn(properties, param) || !Object.hasOwn(expected, param))
      return toMatch(bad('simple_function_checker:unexpected_param', `Unexpected parameter: '${param}'.`), [param]);
    const details = isPlainObject(properties[param]) ? properties[param] : {};
    const desc = typeof details.type === 'string' ? details.type : '';
    const expectedType = PY_TYPES[desc];
    if (!expectedType) return toMatch(bad('type_error:simple', `Unsupported type ${pyRepr(desc)} for parameter '${param}'.`), [param]);
    let nested: PyTypeName | null = null;
    if (NESTED_TYPES.has(desc)) {
      const items = isPlainObject(details.items) ? details.items : {};
      nested = typeof items.type === 'string' ? (PY_TYPES[items.type] ?? null) : null;
    }
    const possible = asList(expected[param]);
    // Python converts an int to float where a float is expected
    const value = desc === 'float' && pyType(raw) === 'int' ? new PyFloat(raw as number) : raw;
    const tc = typeChecker(param, value, possible, desc, expectedType, nested);
    if (!tc.valid) return toMatch(tc, [param]);
    if (!tc.isVariable) {
      let r: Result | null = null;
      if (expectedType === 'dict') r = dictChecker(param, value, possible);
      else if (expectedType === 'list' && nested === 'dict') r = listDictChecker(param, value as unknown[], possible);
      else if (expectedType === 'str') r = stringChecker(param, value as string, possible);
      else if (expectedType === 'list') r = listChecker(param, value as unknown[], possible);
      if (r) {
        if (!r.valid) return toMatch(r, [param]);
        continue;
      }
    }
    if (!pyIn(value, possible))
      return toMatch(bad('value_error:others', `Invalid value for parameter '${param}': ${pyRepr(value)}. Expected one of ${pyRepr(possible)}.`), [param]);
  }
  for (const [param, values] of Object.entries(expected)) {
    if (!Object.hasOwn(observed, param) && !pyIn('', asList(values)))
      return toMatch(bad('simple_function_checker:missing_optional', `Optional parameter '${param}' not provided and not marked as optional.`), [param]);
  }
  return toMatch(ok(), []);
}
