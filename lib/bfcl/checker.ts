import { noCallMatch } from '../scoring/arguments';
import { matchBfclArguments } from './arguments';
import { isPlainObject } from '../scoring/pyvalue';
import type { BfclExpectedCall, BfclFunction } from './data';
import { parsePyJson } from './pyjson';

/**
 * BFCL's AST checker for Python-style categories, call level (our own code following the public rules of
 * ShishirPatil/gorilla bfcl_eval/eval_checker/ast_eval/ast_checker.py and eval_runner.py): category
 * dispatch ("parallel" → any order; "multiple" → exactly one call; otherwise simple), decoding of a result
 * the way a function-calling handler does, and relevance / irrelevance. Parameter rules live in
 * ./arguments.ts (`matchBfclArguments`).
 */

export type DecodedCall = Record<string, Record<string, unknown>>;

export interface CheckOutcome {
  valid: boolean;
  /** BFCL's error type, e.g. `simple_function_checker:wrong_func_name`; null when valid. */
  errorType: string | null;
  error: string[];
}

export interface CheckerOptions {
  /** Model names whose API forbids "." in function names: compare with "." replaced by "_" (BFCL `underscore_to_dot`). */
  underscoreToDot?: boolean;
}

const valid = (): CheckOutcome => ({ valid: true, errorType: null, error: [] });
const invalid = (errorType: string, ...error: string[]): CheckOutcome => ({ valid: false, errorType, error });

export class DecodeError extends Error {}

/**
 * Decode a result the way BFCL's function-calling handlers do: a list of `{name: args}` where args is a JSON
 * object text (or an object); only the first key of each item counts. Text (no list) cannot be decoded.
 */
export function decodeResult(result: unknown): unknown[] {
  if (!Array.isArray(result)) throw new DecodeError(typeof result === 'string' ? 'the result is text, not a list of calls' : 'the result is not a list of calls');
  return result.map((item, i) => {
    if (!isPlainObject(item)) throw new DecodeError(`item ${i} is not an object`);
    const name = Object.keys(item)[0];
    if (name === undefined) throw new DecodeError(`item ${i} has no function name`);
    const args = item[name];
    if (typeof args === 'string') {
      try {
        return { [name]: parsePyJson(args) };
      } catch (e) {
        throw new DecodeError(`item ${i}: arguments are not valid JSON: ${(e as Error).message}`);
      }
    }
    if (isPlainObject(args)) return { [name]: args };
    throw new DecodeError(`item ${i}: arguments are neither a JSON text nor an object`);
  });
}

/** BFCL `is_function_calling_format_output`: a list of single-key objects whose value is an object. */
export function isCallList(decoded: unknown[]): decoded is DecodedCall[] {
  return decoded.every((d) => isPlainObject(d) && Object.keys(d).length === 1 && isPlainObject(Object.values(d)[0]));
}

/** BFCL `is_empty_output`: no call at all (`[]`, `[{}]`, or not a call list). */
export function isEmptyOutput(decoded: unknown[]): boolean {
  if (!isCallList(decoded)) return true;
  return decoded.length === 0 || (decoded.length === 1 && Object.keys(decoded[0]).length === 0);
}

function convertName(name: string, opts: CheckerOptions): string {
  return opts.underscoreToDot && name.includes('.') ? name.replaceAll('.', '_') : name;
}

function findDescription(functions: readonly BfclFunction[], name: string): BfclFunction | undefined {
  return functions.find((f) => f.name === name);
}

/** BFCL `simple_function_checker`: one call against one expected call. */
export function checkSimpleCall(fn: BfclFunction, call: DecodedCall, expected: BfclExpectedCall, opts: CheckerOptions = {}): CheckOutcome {
  const possible = Object.values(expected)[0] ?? {};
  const name = convertName(fn.name, opts);
  if (!Object.hasOwn(call, name)) return invalid('simple_function_checker:wrong_func_name', `Function name '${name}' not found in model output.`);
  const observed = call[name];
  const m = observed === null ? noCallMatch(possible) : matchBfclArguments(possible, observed, fn.parameters);
  return m.ok ? valid() : { valid: false, errorType: m.errorType, error: m.errors ?? [m.reason] };
}

function parallelNoOrder(functions: readonly BfclFunction[], calls: DecodedCall[], expected: BfclExpectedCall[], opts: CheckerOptions): CheckOutcome {
  if (calls.length !== expected.length) return invalid('parallel_function_checker_no_order:wrong_count', 'Wrong number of functions.');
  const matched = new Set<number>();
  for (let i = 0; i < expected.length; i++) {
    const fn = findDescription(functions, Object.keys(expected[i])[0] ?? '');
    if (!fn) return invalid('parallel_function_checker_no_order:cannot_find_match', `No function description for index ${i} of possible answers.`);
    const errors: string[] = [];
    let found = false;
    for (let j = 0; j < calls.length; j++) {
      if (matched.has(j)) continue;
      const r = checkSimpleCall(fn, calls[j], expected[i], opts);
      if (r.valid) {
        matched.add(j);
        found = true;
        break;
      }
      errors.push(`Model Result Index ${j}: ${r.errorType}: ${r.error.join(' ')}`);
    }
    if (!found) {
      const left = calls.map((_, j) => j).filter((j) => !matched.has(j));
      return invalid(
        'parallel_function_checker_no_order:cannot_find_match',
        `Could not find a matching function among index [${left.join(', ')}] of model output for index ${i} of possible answers.`,
        ...errors,
      );
    }
  }
  return valid();
}

/** BFCL `ast_checker`: dispatch on the test category. */
export function astCheck(
  category: string,
  functions: readonly BfclFunction[],
  calls: DecodedCall[],
  expected: BfclExpectedCall[],
  opts: CheckerOptions = {},
): CheckOutcome {
  if (category.includes('parallel')) return parallelNoOrder(functions, calls, expected, opts);
  if (category.includes('multiple')) {
    if (calls.length !== expected.length) return invalid('multiple_function_checker:wrong_count', 'Wrong number of functions.');
    const fn = findDescription(functions, Object.keys(expected[0] ?? {})[0] ?? '');
    if (!fn) return invalid('multiple_function_checker:wrong_count', 'No function description for the expected call.');
    return checkSimpleCall(fn, calls[0], expected[0], opts);
  }
  if (calls.length !== 1) return invalid('simple_function_checker:wrong_count', 'Wrong number of functions.');
  if (!functions[0] || !expected[0]) return invalid('simple_function_checker:wrong_count', 'No function or no expected call.');
  return checkSimpleCall(functions[0], calls[0], expected[0], opts);
}

/** One entry of an AST category: decode, check the format, then the AST checker (BFCL `ast_file_runner`). */
export function checkAstEntry(
  category: string,
  functions: readonly BfclFunction[],
  result: unknown,
  expected: BfclExpectedCall[],
  opts: CheckerOptions = {},
): CheckOutcome {
  let decoded: unknown[];
  try {
    decoded = decodeResult(result);
  } catch (e) {
    return invalid('ast_decoder:decoder_failed', `Invalid syntax. Failed to decode AST. ${(e as Error).message}`);
  }
  if (!isCallList(decoded)) return invalid('ast_decoder:decoder_wrong_output_format', 'Did not output in the specified format.');
  return astCheck(category, functions, decoded, expected, opts);
}

/** Irrelevance: correct when there is no call; relevance: correct when there is a call (BFCL `relevance_file_runner`). */
export function checkRelevanceEntry(category: string, result: unknown): CheckOutcome {
  let hasCall: boolean;
  let why = '';
  try {
    hasCall = !isEmptyOutput(decodeResult(result));
  } catch (e) {
    hasCall = false;
    why = (e as Error).message;
  }
  if (category.includes('irrelevance'))
    return hasCall ? invalid('irrelevance_error:decoder_success', 'Valid syntax. Successfully decode AST when it should not.') : valid();
  return hasCall ? valid() : invalid('relevance_error:decoder_failed', `Invalid syntax. Failed to decode AST when it should have. ${why}`.trim());
}
