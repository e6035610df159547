// What type an expected argument value has: the tool's parameter JSON Schema decides, never the look of the
// text. A `string` parameter keeps `0593135202`, `true`, `null` and `1e3` as the text typed; `integer` and
// `number` parse (a non-number is an error); an `enum` is a choice of its values; a `boolean` is true or
// false. Where the schema is silent (no `type`, or a union of types) the user picks the type (text, number,
// boolean, null or JSON). The designer's form (components/designer) and the spec's semantic check
// (lib/design/spec-semantics.ts, i.e. every import and the JSON view) use these same functions. Pure.

/** The JSON types a value can have (an integer is a number with no fraction). */
export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object';

export type ArgType =
  | { kind: 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object' }
  | { kind: 'enum'; values: unknown[] }
  /** The schema does not fix one type: `types` are the types it allows (null: any). The user picks. */
  | { kind: 'silent'; types: JsonType[] | null };

/** The types a user can pick where the schema is silent. */
export const PICKABLE = ['text', 'number', 'boolean', 'null', 'json'] as const;
export type PickedType = (typeof PICKABLE)[number];

const JSON_TYPES: readonly string[] = ['string', 'integer', 'number', 'boolean', 'null', 'array', 'object'];
const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const ANY: ArgType = { kind: 'silent', types: null };

/** The type one parameter's JSON Schema gives its values. */
export function argTypeOf(schema: unknown): ArgType {
  if (!isRecord(schema)) return ANY;
  const t = schema.type;
  const typed = typeof t === 'string' && JSON_TYPES.includes(t) ? (t as JsonType) : null;
  // an enum whose values are not of the declared type (BFCL puts an array's item enum beside `type: array`) is not a choice
  const choice = (values: unknown[]) => (typed && !values.every((v) => fits(typed, v)) ? null : { kind: 'enum' as const, values: [...values] });
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return choice(schema.enum) ?? { kind: typed! };
  if (Object.hasOwn(schema, 'const')) return choice([schema.const]) ?? { kind: typed! };
  if (typed) return { kind: typed };
  if (Array.isArray(t)) {
    const types = [...new Set(t.filter((x): x is JsonType => typeof x === 'string' && JSON_TYPES.includes(x)))];
    if (types.length === 1) return { kind: types[0] };
    if (types.length > 1) return { kind: 'silent', types };
  }
  return ANY;
}

const typesOf = (t: ArgType): JsonType[] | null => (t.kind === 'silent' ? t.types : t.kind === 'enum' ? [...new Set(t.values.map(jsonTypeOf))] : [t.kind]);
const same = (a: ArgType, b: ArgType) => JSON.stringify(a) === JSON.stringify(b);

/** One type for a parameter several schemas define (several conditions or tools): theirs if they agree, else silent. */
export function mergeArgTypes(types: readonly ArgType[]): ArgType {
  if (types.length === 0) return ANY;
  if (types.every((t) => same(t, types[0]))) return types[0];
  const all = new Set<JsonType>();
  for (const t of types) {
    const ts = typesOf(t);
    if (!ts) return ANY;
    ts.forEach((x) => all.add(x));
  }
  return { kind: 'silent', types: [...all] };
}

/** A tool definition as far as typing needs it. */
export interface ToolDefLike {
  tool: string;
  parameters: unknown;
}

/** Per parameter name, its type across the given definitions (a name several of them define: merged). */
export function parameterTypes(defs: readonly ToolDefLike[]): Map<string, ArgType> {
  const byName = new Map<string, ArgType[]>();
  for (const d of defs) {
    const props = isRecord(d.parameters) && isRecord(d.parameters.properties) ? d.parameters.properties : {};
    for (const [name, schema] of Object.entries(props)) byName.set(name, [...(byName.get(name) ?? []), argTypeOf(schema)]);
  }
  return new Map([...byName].map(([name, ts]) => [name, mergeArgTypes(ts)]));
}

/**
 * The definitions an expectation's call may name (the one rule of spec-semantics and the form): the
 * expected tool, else the tools of the decided effect (read / write), else any.
 */
export function wantedDefs<D extends ToolDefLike>(defs: readonly D[], e: { tool?: string; decision?: string }, effects: ReadonlyMap<string, string>): D[] {
  if (e.tool !== undefined && e.tool !== '') return defs.filter((d) => d.tool === e.tool);
  if (e.decision === 'read' || e.decision === 'write') return defs.filter((d) => effects.get(d.tool) === e.decision);
  return [...defs];
}

/** A value's JSON type (an integral number is `integer`). */
export function jsonTypeOf(v: unknown): JsonType {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'string' || typeof v === 'boolean') return typeof v as JsonType;
  return 'object';
}

const fits = (want: JsonType, v: unknown) => {
  const got = jsonTypeOf(v);
  return got === want || (want === 'number' && got === 'integer');
};
const show = (v: unknown) => JSON.stringify(v) ?? String(v);
const NAMES: Record<JsonType, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
  array: 'a list (array)',
  object: 'an object',
};
const looksNumeric = (s: string) => /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/.test(s);

/** Why `value` cannot be a value of a parameter of type `t`, or null when it can (one value, not a list of them). */
export function valueProblem(t: ArgType, value: unknown): string | null {
  if (t.kind === 'enum') {
    if (t.values.some((x) => show(x) === show(value))) return null;
    return `expected one of ${t.values.map(show).join(', ')} (the tool's schema lists them), got ${show(value)}`;
  }
  if (t.kind === 'silent') {
    if (!t.types || t.types.some((x) => fits(x, value))) return null;
    return `expected ${t.types.map((x) => NAMES[x]).join(' or ')} (the tool's schema says ${t.types.join(', ')}), got ${show(value)}`;
  }
  if (fits(t.kind, value)) return null;
  const says = `expected ${NAMES[t.kind]} (the tool's schema says "${t.kind}")`;
  if (t.kind === 'string' && typeof value === 'number')
    return `${says}, got the number ${show(value)}: write it in quotes, "${String(value)}" (with any leading zeros it had)`;
  if (t.kind === 'string' && typeof value === 'boolean') return `${says}, got ${show(value)}: write it in quotes, "${String(value)}"`;
  if ((t.kind === 'integer' || t.kind === 'number') && typeof value === 'string')
    return looksNumeric(value) ? `${says}, got the text ${show(value)}: write it without quotes, ${value.trim()}` : `${says}, got the text ${show(value)}`;
  if (t.kind === 'boolean' && (value === 'true' || value === 'false')) return `${says}, got the text ${show(value)}: write it without quotes, ${value}`;
  return `${says}, got ${show(value)}`;
}

/**
 * The problems of an expected argument value: the value itself, or — a list where the parameter is not a
 * list — each of its acceptable values. In such a list `""` marks the argument optional (docs/design.md#scoring-rules) and
 * `null` accepts a model that sends null for it (BFCL's possible answers list both so), so neither is refused.
 */
export function expectedValueProblems(t: ArgType, value: unknown): string[] {
  const listParam = t.kind === 'array' || (t.kind === 'silent' && (t.types === null || t.types.includes('array')));
  if (!Array.isArray(value) || listParam) {
    const p = valueProblem(t, value);
    return p ? [p] : [];
  }
  return value.flatMap((item, i) => {
    if (item === '' || item === null) return [];
    const p = valueProblem(t, item);
    return p ? [`acceptable value ${i + 1}: ${p}`] : [];
  });
}

/** A value read from a form field: the value, and the problem when the text is not one of its type. */
export interface FieldValue {
  value: unknown;
  error: string | null;
}

/** The type a user would have picked for a value already there (where the schema is silent). */
export function pickedTypeOf(value: unknown): PickedType {
  if (typeof value === 'string') return 'text';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (value === null) return 'null';
  return 'json';
}

/** The text a form field shows for a value: a string as it is, anything else as JSON. */
export const textOfValue = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

function parseNumber(text: string, integer: boolean): FieldValue {
  const t = text.trim();
  if (t === '') return { value: text, error: `enter ${integer ? 'an integer' : 'a number'}` };
  if (!looksNumeric(t)) return { value: text, error: `expected ${integer ? 'an integer' : 'a number'}, got the text ${show(text)}` };
  const n = Number(t);
  if (!Number.isFinite(n)) return { value: text, error: `${show(text)} is not a finite number` };
  if (integer && !Number.isInteger(n)) return { value: n, error: `expected an integer, got ${n}` };
  return { value: n, error: null };
}

/**
 * The value of text typed for a parameter of type `t` (`picked`: the type the user chose where the schema is
 * silent). A text that is not of the type is kept as the text, with the error (the spec's check then refuses
 * it too, naming the field).
 */
export function valueFromText(text: string, t: ArgType, picked: PickedType = 'text'): FieldValue {
  switch (t.kind) {
    case 'string':
      return { value: text, error: null };
    case 'integer':
    case 'number':
      return parseNumber(text, t.kind === 'integer');
    case 'boolean':
      return text === 'true' || text === 'false' ? { value: text === 'true', error: null } : { value: text, error: 'expected true or false' };
    case 'null':
      return { value: null, error: null };
    case 'enum': {
      const hit = t.values.find((x) => textOfValue(x) === text);
      return hit !== undefined ? { value: hit, error: null } : { value: text, error: valueProblem(t, text) };
    }
    case 'array':
    case 'object':
      return fromJson(text, t.kind);
    case 'silent': {
      const got = pickedValue(text, picked);
      return got.error ? got : { value: got.value, error: valueProblem(t, got.value) };
    }
  }
}

function fromJson(text: string, want?: 'array' | 'object'): FieldValue {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { value: text, error: 'not valid JSON' };
  }
  if (want && jsonTypeOf(v) !== want) return { value: text, error: `expected ${NAMES[want]} as JSON` };
  return { value: v, error: null };
}

function pickedValue(text: string, picked: PickedType): FieldValue {
  if (picked === 'text') return { value: text, error: null };
  if (picked === 'number') return parseNumber(text, false);
  if (picked === 'null') return { value: null, error: null };
  if (picked === 'boolean') return valueFromText(text, { kind: 'boolean' });
  return fromJson(text);
}

/** The value a fresh argument of type `t` starts with. */
export function defaultValue(t: ArgType): unknown {
  if (t.kind === 'boolean') return false;
  if (t.kind === 'null') return null;
  if (t.kind === 'enum') return t.values[0];
  return '';
}
