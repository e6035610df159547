import { isPlainObject, PyFloat } from './pyvalue';

/**
 * Argument matching, docs/design.md#scoring-rules — the case-card comparison's matcher; its `ArgumentMatch` is also what the BFCL
 * mode (lib/bfcl/arguments.ts, `matchBfclArguments`) returns.
 *
 * `tcc` mode (case cards): `expected` is the complete call.
 *  - every expected key must be present with an acceptable value: the value itself, or — when the expected
 *    value is a list — any one of its members (a list of acceptable values); a list that contains `""`
 *    also lets the key be omitted (BFCL's optional marker). An array-valued argument matches a list
 *    expectation either as one of its members or as the whole list (with a schema that says `array`, only
 *    as the whole list unless every member is itself a list).
 *  - an observed key the expectation does not list fails (BFCL's unexpected-parameter rule).
 *  - types are strict (`"4"` ≠ `4`, `true` ≠ `1`) except integer ↔ number with zero fraction (`4` = `4.0`);
 *    strings are compared after Unicode NFC and trimming; dates are compared as the `YYYY-MM-DD` strings
 *    they are; objects key by key, lists item by item in order.
 *
 * BFCL's AST checker rules for one call are lib/bfcl/arguments.ts (`matchBfclArguments`), in the BFCL room
 * that uses them: this core module does not know BFCL.
 */
/** The mode of this matcher: `tcc` (BFCL's is `matchBfclArguments` in lib/bfcl/arguments.ts). */
export type MatchMode = 'tcc';

export interface ArgumentMatch {
  ok: boolean;
  /** The fields that differ: missing, unexpected or with a wrong value (bfcl: the first failing one). */
  fields: string[];
  reason: string;
  /**
   * tcc: `no_call` | `missing_required` | `unexpected_param` | `type_error` | `value_error` (of the first
   * difference). bfcl: BFCL's own error type, e.g. `simple_function_checker:missing_required`,
   * `type_error:simple`, `value_error:string`. Null when ok.
   */
  errorType: string | null;
  /** bfcl: BFCL's error messages. */
  errors?: string[];
}

export function matchArguments(
  expected: Record<string, unknown>,
  observed: Record<string, unknown> | null,
  schema: Record<string, unknown> | null | undefined,
  mode: MatchMode = 'tcc',
): ArgumentMatch {
  if (observed === null) return noCallMatch(expected);
  return mode === 'tcc' ? matchTcc(expected, observed, schema ?? null) : (mode satisfies never);
}

/** The match of an expectation when no call (or no arguments) was observed. */
export function noCallMatch(expected: Record<string, unknown>): ArgumentMatch {
  return { ok: false, fields: Object.keys(expected), reason: 'no call arguments observed', errorType: 'no_call' };
}

export function normalizeText(s: string): string {
  return s.normalize('NFC').trim();
}

function jsonType(v: unknown): string {
  if (v instanceof PyFloat || typeof v === 'number') return 'number';
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** Equality under the TCC rules (strict types, numbers by value, strings NFC + trim). */
export function tccValueEquals(a: unknown, b: unknown): boolean {
  const ta = jsonType(a);
  if (ta !== jsonType(b)) return false;
  if (ta === 'number') return num(a) === num(b);
  if (ta === 'string') return normalizeText(a as string) === normalizeText(b as string);
  if (ta === 'array') {
    const xa = a as unknown[];
    const xb = b as unknown[];
    return xa.length === xb.length && xa.every((x, i) => tccValueEquals(x, xb[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && tccValueEquals(a[k], b[k]));
  }
  return a === b;
}

const num = (v: unknown): number => (v instanceof PyFloat ? v.value : (v as number));

function schemaSaysArray(schema: Record<string, unknown> | null, key: string): boolean {
  const props = schema && isPlainObject(schema.properties) ? schema.properties : null;
  const prop = props && Object.hasOwn(props, key) && isPlainObject(props[key]) ? props[key] : null;
  return prop?.type === 'array';
}

/** Whether `observed` is an acceptable value for an expected value (a value or a list of acceptable values). */
export function tccAcceptable(expected: unknown, observed: unknown, arrayParam = false): boolean {
  if (!Array.isArray(expected)) return tccValueEquals(expected, observed);
  const alternatives = !arrayParam || expected.every((e) => Array.isArray(e));
  if (alternatives && expected.some((e) => tccValueEquals(e, observed))) return true;
  return Array.isArray(observed) && tccValueEquals(expected, observed);
}

const show = (v: unknown): string => JSON.stringify(v instanceof PyFloat ? v.value : v) ?? 'undefined';

function matchTcc(expected: Record<string, unknown>, observed: Record<string, unknown>, schema: Record<string, unknown> | null): ArgumentMatch {
  const fields: string[] = [];
  const reasons: string[] = [];
  let errorType: string | null = null;
  const differ = (field: string, reason: string, type: string) => {
    fields.push(field);
    reasons.push(reason);
    errorType ??= type;
  };
  for (const [key, want] of Object.entries(expected)) {
    const optional = Array.isArray(want) && want.some((w) => w === '');
    if (!Object.hasOwn(observed, key)) {
      if (!optional) differ(key, `${key}: missing (expected ${show(want)})`, 'missing_required');
      continue;
    }
    const got = Object.hasOwn(observed, key) ? observed[key] : undefined;
    if (tccAcceptable(want, got, schemaSaysArray(schema, key))) continue;
    const candidates = Array.isArray(want) ? want : [want];
    const sameType = candidates.some((c) => jsonType(c) === jsonType(got)) || (Array.isArray(want) && Array.isArray(got));
    differ(key, `${key}: expected ${show(want)}, observed ${show(got)}`, sameType ? 'value_error' : 'type_error');
  }
  for (const key of Object.keys(observed)) {
    if (!Object.hasOwn(expected, key)) differ(key, `${key}: unexpected argument ${show(observed[key])}`, 'unexpected_param');
  }
  if (fields.length === 0) return { ok: true, fields: [], reason: `arguments match (${Object.keys(expected).length} keys)`, errorType: null };
  return { ok: false, fields, reason: reasons.join('; '), errorType };
}
