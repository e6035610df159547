import { z } from 'zod';

// The building blocks every schema of lib/schema uses, so each limit is stated once:
//  - `text(max)`: a string with a stated maximum that refuses NUL, lone surrogates and C0/C1 control
//    characters other than tab and newline (PostgreSQL refuses NUL and lone surrogates; terminals obey
//    escape sequences);
//  - `list(item, max)`: an array with a stated maximum;
//  - `dict(key, value, max)`: an object keyed by user-supplied ids, parsed into a null-prototype object, so
//    a lookup of `constructor` or `toString` finds nothing and a `__proto__` key is an ordinary key;
//  - `strict(shape)`: an object whose unknown keys are errors naming the key's path.

/** Maximum lengths (characters) of the text fields, by kind. */
export const TEXT_MAX = {
  id: 80,
  /** names, titles, labels, markers, short references */
  short: 200,
  /** a tool's description, a condition's note */
  description: 8_000,
  /** a task, a system instruction, an experiment's description, a claim */
  long: 20_000,
} as const;

/** Maximum sizes of arrays and keyed objects, by kind. */
export const LIST_MAX = {
  locales: 50,
  scenarios: 10_000,
  /** tools of a scenario, definitions of one catalog */
  tools: 128,
  studies: 20,
  conditions: 50,
  cases: 10_000,
  checks: 100,
  labels: 200,
  prechecks: 100,
  evidence: 100,
  /** keys of a free-form argument / fixture object */
  keys: 1_000,
} as const;

/** C0 controls except tab and newline, DEL, and the C1 controls (U+0080–U+009F). */
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const hex = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Why a text is refused (NUL, lone surrogate), or null. These two are refused in every string, free JSON included. */
export function unstorableText(s: string): string | null {
  const nul = s.indexOf('\u0000');
  if (nul >= 0) return `contains a NUL character (U+0000) at offset ${nul}`;
  const m = LONE_SURROGATE.exec(s);
  if (m) return `contains a lone surrogate (${hex(m[0])}) at offset ${m.index}: not valid Unicode text`;
  return null;
}

/** Why a text field is refused (NUL, lone surrogate, a control character other than tab and newline), or null. */
export function badText(s: string): string | null {
  const why = unstorableText(s);
  if (why) return why;
  const m = CONTROL.exec(s);
  if (m) return `contains the control character ${hex(m[0])} at offset ${m.index} (only tab and newline are allowed)`;
  return null;
}

/** A text field: at most `max` characters, at least `min`, no NUL / lone surrogate / control character but tab and newline. */
export function text(max: number, min = 0) {
  let s = z.string().max(max, `at most ${max} characters`);
  if (min > 0) s = s.min(min, min === 1 ? 'must not be empty' : `at least ${min} characters`);
  return s.check((ctx) => {
    const why = badText(ctx.value);
    if (why) ctx.issues.push({ code: 'custom', message: why, input: ctx.value });
  });
}

/** An array of at most `max` items (at least `min`). */
export function list<T extends z.ZodType>(item: T, max: number, min = 0) {
  let a = z.array(item).max(max, `at most ${max} items`);
  if (min > 0) a = a.min(min, min === 1 ? 'needs at least one item' : `needs at least ${min} items`);
  return a;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/** A null-prototype copy of `entries` (a `__proto__` key is an own key; `constructor` finds nothing). */
export function nullProto<V>(entries: Iterable<[string, V]>): Record<string, V> {
  const out = Object.create(null) as Record<string, V>;
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * An object keyed by user-supplied ids (`key` validates each key), parsed into a null-prototype object.
 * zod's own `record` assigns keys one by one, so a `__proto__` key would set the result's prototype.
 */
export function dict<K extends z.ZodType<string, string>, V extends z.ZodType>(key: K, value: V, max: number) {
  return z
    .custom<Record<string, z.input<V>>>((v) => isPlainObject(v), 'expected an object')
    .transform((o) => new Map(Object.keys(o).map((k) => [k, o[k]] as [string, z.input<V>])))
    .pipe(z.map(key, value).max(max, `at most ${max} keys`))
    .transform((m) => nullProto(m as Map<string, z.output<V>>) as Record<z.output<K>, z.output<V>>);
}

/** An object whose unknown keys are errors (reported one per key, with the key's path). */
export function strict<S extends z.ZodRawShape>(shape: S) {
  return z.strictObject(shape);
}

/** Identifiers used in trial keys, URLs and file names: no separators we rely on (`|`, `:`). */
export const Id = z
  .string()
  .min(1, 'must not be empty')
  .max(TEXT_MAX.id, `at most ${TEXT_MAX.id} characters`)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, "_", "." and "-" only, starting with a letter or digit');

/** BCP-47-ish locale tag, e.g. `en`, `zh-TW`. */
export const Locale = z
  .string()
  .max(35, 'at most 35 characters')
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a locale tag such as en or zh-TW');

/** A free-form JSON object (tool arguments, fixtures); its strings and depth are checked by the byte parser. */
export const JsonObject = z
  .custom<Record<string, unknown>>((v) => isPlainObject(v), 'expected an object')
  .check((ctx) => {
    const n = Object.keys(ctx.value).length;
    if (n > LIST_MAX.keys) ctx.issues.push({ code: 'custom', message: `at most ${LIST_MAX.keys} keys (has ${n})`, input: ctx.value });
  });
export type JsonObject = z.infer<typeof JsonObject>;

export interface Issue {
  path: string;
  message: string;
}

/** An issue at a zod-style path (the semantic and bounds checks of a spec; `Issue` once the path is a string). */
export interface PathIssue {
  path: (string | number)[];
  message: string;
}

/** `['studies', 0, 'cases']` → `studies.0.cases`; the root is `(root)`. */
export function pathString(path: readonly PropertyKey[]): string {
  return path.map(String).join('.') || '(root)';
}

/** zod's issues, one per failing path; an unknown key is reported at the key's own path. */
export function zodIssues(error: z.ZodError, prefix: readonly PropertyKey[] = []): Issue[] {
  const out: Issue[] = [];
  for (const i of error.issues) {
    if (i.code === 'unrecognized_keys')
      for (const k of i.keys) out.push({ path: pathString([...prefix, ...i.path, k]), message: 'unknown key (not part of the format; check its spelling)' });
    else out.push({ path: pathString([...prefix, ...i.path]), message: i.message });
  }
  return out;
}

/** Readable zod error: one line per issue, each naming its path (`studies.0.cases.3.locale: …`). */
export function formatZodError(error: z.ZodError, prefix = ''): string {
  return formatIssues(zodIssues(error, prefix ? [prefix] : []));
}

/** One line per issue: `path: message`. */
export function formatIssues(issues: readonly Issue[]): string {
  return issues.map((i) => `${i.path}: ${i.message}`).join('\n');
}

export class SpecError extends Error {
  constructor(
    message: string,
    readonly issues: Issue[] = [],
  ) {
    super(message);
    this.name = 'SpecError';
  }
}

/** parse or throw a SpecError whose message names every failing path. */
export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown, what: string): z.infer<T> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issues = zodIssues(r.error);
  throw new SpecError(`${what} is invalid:\n${formatIssues(issues)}`, issues);
}
