import { env } from '../env';

// Keys come from the environment only and must never reach the database, logs or exports (DESIGN §9).
// Everything a provider stores passes through here; logs and exports use the same two functions.

export const REDACTED = '[REDACTED]';

/** Header names that carry credentials; removed from stored headers, masked inside JSON values. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-goog-api-key', 'api-key', 'x-api-key']);

/** `?key=…` / `&key=…` query parameters (Google's API-key-in-URL form). */
const KEY_PARAM = /([?&]key=)[^&#\s"'<>]+/gi;

/** Shorter values are not treated as secrets: replacing every "x" in a text would destroy it. */
const MIN_SECRET_LENGTH = 8;

let secretsCache: { env: ReturnType<typeof env>; secrets: string[] } | undefined;

/** The key values currently configured (from lib/env), longest first so overlapping keys mask fully. */
export function knownSecrets(): string[] {
  const e = env();
  if (secretsCache?.env === e) return secretsCache.secrets; // env() is parsed once; a reset makes a new object
  const values = [e.OPENAI_API_KEY, e.OPENAI_COMPATIBLE_API_KEY, e.GEMINI_API_KEY, e.GOOGLE_API_KEY].filter(
    (v): v is string => typeof v === 'string' && v.length >= MIN_SECRET_LENGTH,
  );
  secretsCache = { env: e, secrets: [...new Set(values)].sort((a, b) => b.length - a.length) };
  return secretsCache.secrets;
}

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase());
}

/** Replaces every occurrence of a known key and every `key=` query value in a string. */
export function redactText(s: string, secrets: readonly string[] = knownSecrets()): string {
  let out = s;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  if (/key=/i.test(out)) out = out.replace(KEY_PARAM, `$1${REDACTED}`);
  return out;
}

/**
 * A deep copy of a JSON-like value with secrets removed: every string passes through `redactText`, and a
 * string-valued property named like a credential header (`Authorization`, `x-goog-api-key`, `api-key`) is
 * masked. Object keys are redacted too (a key could be a URL). Non-JSON leaves (numbers, booleans, null)
 * are kept; functions and symbols are dropped, as JSON would.
 */
export function redactSecrets<T>(value: T): T {
  const secrets = knownSecrets();
  return walk(value, secrets) as T;
}

function walk(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((v) => walk(v, secrets));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'function' || typeof v === 'symbol') continue;
      out[redactText(k, secrets)] = isSecretHeader(k) && typeof v === 'string' ? REDACTED : walk(v, secrets);
    }
    return out;
  }
  return value;
}

/** A credential-header name, `key=`, or a \u escape (which could spell either). */
const SUSPECT_IN_JSON = new RegExp([...SECRET_HEADERS, 'key=', '\\\\u'].join('|'), 'i');
/** Characters JSON may escape (`\"`, `\\`, `\/`, controls): a key containing one may not appear literally. */
const JSON_ESCAPABLE = /["\\/\u0000-\u001f]/;

/**
 * Whether redactSecrets(JSON.parse(text)) could differ from JSON.parse(text), judged on the JSON text
 * without parsing it: false only when no known key, no `key=`, no credential-header name and no \u escape
 * occurs in it. Lets the hot path store a clean body as it came, without a parse and a deep copy.
 */
export function jsonMayHoldSecret(text: string, secrets: readonly string[] = knownSecrets()): boolean {
  if (SUSPECT_IN_JSON.test(text)) return true;
  for (const secret of secrets) {
    if (JSON_ESCAPABLE.test(secret) || text.includes(secret)) return true;
  }
  return false;
}

/** Headers to store or log: credential headers removed, remaining values redacted. Names lower-cased. */
export function redactHeaders(headers: Headers | Record<string, string | string[] | undefined>): Record<string, string> {
  const secrets = knownSecrets();
  const out: Record<string, string> = {};
  const entries: [string, string | string[] | undefined][] =
    headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, raw] of entries) {
    if (raw === undefined || isSecretHeader(name)) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    out[name.toLowerCase()] = redactText(value, secrets);
  }
  return out;
}

/** A URL with `key=` query values and known key values masked. */
export function redactUrl(url: string): string {
  return redactText(url);
}
