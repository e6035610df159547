import { isPlainObject, pyEquals } from '../scoring/pyvalue';
import type { BfclAnswer, BfclExpectedCall, BfclFunction, BfclQuestion, BfclResult } from './data';

/**
 * The ground truth written as a result file: each expected call with, for every parameter, its first
 * acceptable value (`""` — "may be omitted" — skipped; a parameter with nothing else is left out).
 * Dict parameters give one acceptable list per key, and lists of dicts one such dict per item, so those are
 * resolved key by key. A parameter the function does not define is left out (BFCL's data has a few); a
 * required parameter whose only acceptable value is `""` is given as `""` (an acceptable string value).
 * Used by the conformance tests: BFCL's rules accept every such entry.
 */
export function firstAcceptable(values: readonly unknown[]): { value: unknown } | null {
  for (const v of values) if (!pyEquals(v, '')) return { value: v };
  return null;
}

/** A dict parameter's acceptable value (`{key: [acceptable values]}`) resolved to one dict: each key's first acceptable value. */
export function resolveDict(spec: unknown): unknown {
  if (!isPlainObject(spec)) return spec;
  const out = Object.create(null) as Record<string, unknown>;
  for (const [k, vs] of Object.entries(spec)) {
    const pick = Array.isArray(vs) ? firstAcceptable(vs) : { value: vs };
    if (pick) out[k] = pick.value;
  }
  return out;
}

function paramType(fn: BfclFunction | undefined, param: string): { type: string; items: string } | null {
  const props = fn && isPlainObject(fn.parameters.properties) ? fn.parameters.properties : null;
  const p = props && isPlainObject(props[param]) ? props[param] : null;
  if (!p) return null;
  const items = isPlainObject(p.items) && typeof p.items.type === 'string' ? p.items.type : '';
  return { type: typeof p.type === 'string' ? p.type : '', items };
}

export function expectedCallAsResult(call: BfclExpectedCall, functions: readonly BfclFunction[]): Record<string, Record<string, unknown>> {
  const [name, params] = Object.entries(call)[0] ?? ['', {}];
  const fn = functions.find((f) => f.name === name);
  const required = fn && Array.isArray(fn.parameters.required) ? fn.parameters.required : [];
  const args = Object.create(null) as Record<string, unknown>;
  for (const [param, values] of Object.entries(params)) {
    const t = paramType(fn, param);
    if (!t) continue;
    const pick = firstAcceptable(values) ?? (required.includes(param) && values.length > 0 ? { value: '' } : null);
    if (!pick) continue;
    let v = pick.value;
    if (t.type === 'dict') v = resolveDict(v);
    else if ((t.type === 'array' || t.type === 'tuple') && t.items === 'dict' && Array.isArray(v)) v = v.map(resolveDict);
    args[param] = v;
  }
  return { [name]: args };
}

export function groundTruthResult(question: BfclQuestion, answer: BfclAnswer): BfclResult {
  return { id: answer.id, result: answer.ground_truth.map((c) => expectedCallAsResult(c, question.function)) };
}
