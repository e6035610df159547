// Keys come from the environment only and must never reach the database, logs or exports (docs/design.md#providers-and-the-simulated-models).
// What to redact is derived from the provider descriptors (their key variables' values, the headers and
// query parameters that carry a key): see secrets.ts for the product-wide set, and each adapter redacts
// what it stores with its own. This file holds the mechanics only: no environment, no registry.

export const REDACTED = '[REDACTED]';

/** Credential headers whatever the provider. */
export const GENERIC_SECRET_HEADERS: readonly string[] = ['authorization', 'proxy-authorization'];

/** Shorter values are not treated as secrets: replacing every "x" in a text would destroy it. */
export const MIN_SECRET_LENGTH = 8;

export interface Redaction {
  /** Key values, longest first so overlapping keys mask fully. */
  readonly secrets: readonly string[];
  /** Lower-case header names that carry credentials. */
  readonly headers: ReadonlySet<string>;
  /** `?name=…` / `&name=…` query parameters that carry a key; null when none. */
  readonly param: RegExp | null;
  /** Names whose presence in JSON text could mean a secret (see jsonMayHoldSecret). */
  readonly suspect: RegExp;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A redaction from key values, credential header names and key-carrying query parameters. */
export function makeRedaction(values: readonly (string | undefined)[], headers: readonly string[] = [], params: readonly string[] = []): Redaction {
  const secrets = [...new Set(values.filter((v): v is string => typeof v === 'string' && v.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  const headerSet = new Set([...GENERIC_SECRET_HEADERS, ...headers].map((h) => h.toLowerCase()));
  const paramNames = [...new Set(params.map((p) => p.toLowerCase()))];
  const param = paramNames.length ? new RegExp(`([?&](?:${paramNames.map(escapeRegExp).join('|')})=)[^&#\\s"'<>]+`, 'gi') : null;
  const suspect = new RegExp([...headerSet, ...paramNames.map((p) => `${p}=`)].map(escapeRegExp).concat('\\\\u').join('|'), 'i');
  return { secrets, headers: headerSet, param, suspect };
}

export function isSecretHeader(name: string, r: Redaction): boolean {
  return r.headers.has(name.toLowerCase());
}

/** Replaces every occurrence of a known key and every key-carrying query value in a string. */
export function redactText(s: string, r: Redaction): string {
  let out = s;
  for (const secret of r.secrets) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  if (r.param && out.includes('=')) out = out.replace(r.param, `$1${REDACTED}`);
  return out;
}

/**
 * A deep copy of a JSON-like value with secrets removed: every string passes through `redactText`, and a
 * string-valued property named like a credential header (`Authorization`, `x-goog-api-key`, …) is
 * masked. Object keys are redacted too (a key could be a URL). Non-JSON leaves (numbers, booleans, null)
 * are kept; functions and symbols are dropped, as JSON would.
 */
export function redactSecrets<T>(value: T, r: Redaction): T {
  return walk(value, r) as T;
}

function walk(value: unknown, r: Redaction): unknown {
  if (typeof value === 'string') return redactText(value, r);
  if (Array.isArray(value)) return value.map((v) => walk(v, r));
  if (value !== null && typeof value === 'object') {
    const out = Object.create(null) as Record<string, unknown>; // a `__proto__` key stays a key
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'function' || typeof v === 'symbol') continue;
      out[redactText(k, r)] = isSecretHeader(k, r) && typeof v === 'string' ? REDACTED : walk(v, r);
    }
    return out;
  }
  return value;
}

/** Characters JSON may escape (`\"`, `\\`, `\/`, controls): a key containing one may not appear literally. */
const JSON_ESCAPABLE = /["\\/\u0000-\u001f]/;

/**
 * Whether redactSecrets(JSON.parse(text)) could differ from JSON.parse(text), judged on the JSON text
 * without parsing it: false only when no known key, no key-carrying parameter, no credential-header name
 * and no \u escape occurs in it. Lets the hot path store a clean body as it came, without a parse and a
 * deep copy.
 */
export function jsonMayHoldSecret(text: string, r: Redaction): boolean {
  if (r.suspect.test(text)) return true;
  for (const secret of r.secrets) {
    if (JSON_ESCAPABLE.test(secret) || text.includes(secret)) return true;
  }
  return false;
}

/** Headers to store or log: credential headers removed, remaining values redacted. Names lower-cased. */
export function redactHeaders(headers: Headers | Record<string, string | string[] | undefined>, r: Redaction): Record<string, string> {
  const out: Record<string, string> = {};
  const entries: [string, string | string[] | undefined][] = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, raw] of entries) {
    if (raw === undefined || isSecretHeader(name, r)) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    out[name.toLowerCase()] = redactText(value, r);
  }
  return out;
}
