/**
 * Python value semantics for JSON data, as BFCL's checker sees it after `json.loads`.
 *
 * JavaScript has one number type; Python tells `4` (int) from `4.0` (float), and BFCL's type rules depend on
 * it ("int accepted for float", but a float is not an int). A float read from JSON text is kept as a
 * `PyFloat`; a plain JS number counts as an int when it is integral and as a float otherwise.
 */
export class PyFloat {
  constructor(readonly value: number) {}
  toJSON(): number {
    return this.value;
  }
}

export type PyTypeName = 'str' | 'int' | 'float' | 'bool' | 'NoneType' | 'list' | 'dict';

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof PyFloat);
}

/** Python's `type(value).__name__` for a JSON-derived value. */
export function pyType(v: unknown): PyTypeName {
  if (v instanceof PyFloat) return 'float';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'str';
  if (v === null || v === undefined) return 'NoneType';
  if (Array.isArray(v)) return 'list';
  return 'dict';
}

function numeric(v: unknown): number | null {
  if (v instanceof PyFloat) return v.value;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return null;
}

/** Python `a == b` for JSON-derived values: `True == 1 == 1.0`, lists and dicts compared member-wise. */
export function pyEquals(a: unknown, b: unknown): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== null || nb !== null) return na !== null && nb !== null && na === nb;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => pyEquals(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && pyEquals(a[k], b[k]));
  }
  return false;
}

/** Python `x in xs` (membership by `==`). */
export function pyIn(x: unknown, xs: readonly unknown[]): boolean {
  return xs.some((y) => pyEquals(x, y));
}

/** Python `repr`-like text for messages. */
export function pyRepr(v: unknown): string {
  if (v instanceof PyFloat) return Number.isInteger(v.value) ? `${v.value}.0` : String(v.value);
  if (typeof v === 'string') return `'${v}'`;
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (v === null || v === undefined) return 'None';
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `'${k}': ${pyRepr(x)}`)
      .join(', ')}}`;
  return String(v);
}

/** JSON text that keeps floats as floats (`4.0`), so a value written and read back has the same Python type. */
export function stringifyPy(v: unknown): string {
  if (v instanceof PyFloat) {
    if (!Number.isFinite(v.value)) return 'null';
    const s = String(v.value);
    return /[.eE]/.test(s) ? s : `${s}.0`;
  }
  if (Array.isArray(v)) return `[${v.map(stringifyPy).join(', ')}]`;
  if (isPlainObject(v))
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${stringifyPy(x)}`)
      .join(', ')}}`;
  return JSON.stringify(v ?? null);
}

/** Plain JSON value (floats unwrapped), e.g. for writing a TCC card or an experiment spec. */
export function toPlainJson(v: unknown): unknown {
  if (v instanceof PyFloat) return v.value;
  if (Array.isArray(v)) return v.map(toPlainJson);
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toPlainJson(x)]));
  return v;
}

/** Deep copy that keeps `PyFloat`s (structuredClone would turn them into plain objects). */
export function clonePy<T>(v: T): T {
  if (v instanceof PyFloat) return v;
  if (Array.isArray(v)) return v.map(clonePy) as T;
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clonePy(x)])) as T;
  return v;
}
