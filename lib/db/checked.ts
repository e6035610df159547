// Rows leave a repository typed: a column that holds one of a schema union's members (a status, a kind, an
// outcome) is checked against the union as it is read, so callers get the union and never cast. A stored value
// outside it is refused here with the column and the value named, not passed on as a string the export or a
// page would cast back. Cheap enough for every row of a million-trial export: a Set lookup per value.

/** A value read from a column that is not what the column may hold. */
export class StoredValueError extends Error {
  constructor(column: string, value: unknown, expected: string) {
    super(`stored ${column} is ${JSON.stringify(value) ?? String(value)}, not ${expected}`);
    this.name = 'StoredValueError';
  }
}

/** A reader of `column` that returns one of `values`, or throws StoredValueError. */
export function oneOf<T extends string>(values: readonly T[], column: string): (v: unknown) => T {
  const set = new Set<string>(values);
  const expected = `one of ${values.join(', ')}`;
  return (v) => {
    if (typeof v === 'string' && set.has(v)) return v as T;
    throw new StoredValueError(column, v, expected);
  };
}

/** As oneOf, for a nullable column. */
export function oneOfOrNull<T extends string>(values: readonly T[], column: string): (v: unknown) => T | null {
  const read = oneOf(values, column);
  return (v) => (v === null || v === undefined ? null : read(v));
}

/** A record with every one of `keys`, each value one of `values` (a jsonb object column), or null. */
export function recordOfOrNull<K extends string, V extends string>(keys: readonly K[], values: readonly V[], column: string): (v: unknown) => Record<K, V> | null {
  const value = oneOf(values, column);
  const expected = `an object of ${keys.join(', ')}`;
  return (v) => {
    if (v === null || v === undefined) return null;
    if (typeof v !== 'object' || Array.isArray(v) || Object.keys(v).length !== keys.length) throw new StoredValueError(column, v, expected);
    const r = v as Record<string, unknown>;
    for (const k of keys) {
      if (!Object.hasOwn(r, k)) throw new StoredValueError(column, v, expected);
      value(r[k]);
    }
    return v as Record<K, V>;
  };
}
