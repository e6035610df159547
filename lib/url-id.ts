// Ids taken from a URL path (/runs/ID, /experiments/ID, /api/runs/ID/…): the framework decodes them, so
// "%00" arrives as a NUL, which PostgreSQL refuses in a query parameter (a 500 before). No stored id holds a
// control character or a lone surrogate or is this long, so such an id names nothing: the door answers 404.

const MAX_URL_ID = 256;
// C0 and C1 controls (NUL included), DEL, lone surrogates
const INVALID = /[\u0000-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a decoded path segment can be an id at all (otherwise: not found, without asking the database). */
export function isUrlId(s: unknown): s is string {
  return typeof s === 'string' && s.length > 0 && s.length <= MAX_URL_ID && !INVALID.test(s);
}

/** The route's params when every one can be an id, otherwise null. */
export function urlIds<T extends Record<string, string | string[] | undefined>>(params: T): T | null {
  for (const v of Object.values(params)) if (v !== undefined && !(Array.isArray(v) ? v.every(isUrlId) : isUrlId(v))) return null;
  return params;
}
