import { createHash } from 'node:crypto';

// Tool catalogs stored once (docs/benchmarks.md). Every request of a run repeats its tool definitions — ~50 KB
// for a 128-tool catalog — and every attempt stores its raw request. The repository functions that store an
// attempt (lib/db/trials.ts, turns.ts, prechecks.ts) split the catalog out of the request's JSON text: the
// catalog's text, exactly as sent, goes once into `tool_catalogs`, keyed by its content (`sha256:` of the
// text; the same tool_set_ref is sent in each provider's own wire form, so the key is the text's, not the
// tool list's); the attempt keeps the request with the catalog's value replaced by `null` and, beside it,
// which catalog (`catalog_id`, the catalog's 4-byte id: `tclab_catalog_id(ref, body)` finds or stores it) and
// where it goes (`catalog_at`, in characters). Reading puts it back (`tclab_attempt_request` in PostgreSQL,
// migrations 20261202121000_tool_catalogs and 20261202133000_catalog_ids; the exports and the trial page do it
// in JavaScript, each catalog parsed once: lib/db/results.ts): byte for byte the text that was stored before,
// so exports and the trial page do not change. Rows stored before keep their request whole
// (catalog_id NULL) and read as before.

/** What an attempt stores of its request: the text (catalog cut out) and, when cut, the catalog. */
export interface SplitRequest {
  /** The request's JSON text; with a catalog, its value replaced by `null`. */
  request: string;
  catalog: { ref: string; body: string; at: number } | null;
}

/** Catalogs shorter than this stay inline: a reference would not save anything. */
export const MIN_CATALOG_CHARS = 64;

/** The read expression of an attempt's request (alias `a`): the stored text with its catalog put back. */
export const attemptRequestSql = (a: string) => `tclab_attempt_request(${a}.request, ${a}.catalog_id, ${a}.catalog_at)`;

/** `sha256:` of a catalog's text, its key in `tool_catalogs`. */
export function catalogRefOf(body: string): string {
  return `sha256:${createHash('sha256').update(body, 'utf8').digest('hex')}`;
}

/**
 * The request's JSON text with its top-level `tools` value cut out (kept inline when it is not there, is not
 * an array, or is short). The text is scanned, not parsed and written again: what is stored and rebuilt is
 * the text exactly as given.
 */
export function splitCatalog(text: string): SplitRequest {
  const span = topLevelMember(text, 'tools');
  if (!span || text.charCodeAt(span.start) !== 0x5b /* [ */ || span.end - span.start < MIN_CATALOG_CHARS) return { request: text, catalog: null };
  const body = text.slice(span.start, span.end);
  return {
    request: `${text.slice(0, span.start)}null${text.slice(span.end)}`,
    catalog: { ref: catalogRefOf(body), body, at: codePoints(text, span.start) },
  };
}

/** The inverse of splitCatalog, in JavaScript (the database does the same in tclab_attempt_request). */
export function joinCatalog(request: string, catalog: { body: string; at: number } | null): string {
  if (!catalog) return request;
  const i = utf16Index(request, catalog.at);
  return `${request.slice(0, i)}${catalog.body}${request.slice(i + 4)}`;
}

/** PostgreSQL counts text in characters (code points); JavaScript in UTF-16 units. */
function codePoints(s: string, end: number): number {
  let n = 0;
  for (let i = 0; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

function utf16Index(s: string, points: number): number {
  let i = 0;
  for (let n = 0; n < points && i < s.length; n++) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return i;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(s: string, i: number): number {
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i;
}

/** End (exclusive) of the string starting at s[i] === '"'; -1 if unterminated. */
function stringEnd(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 0x5c /* \ */) j++;
    else if (c === 0x22 /* " */) return j + 1;
  }
  return -1;
}

/** End (exclusive) of the JSON value starting at s[i]; -1 if malformed. */
function valueEnd(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === 0x22) return stringEnd(s, i);
  if (c !== 0x5b && c !== 0x7b) {
    let j = i;
    while (j < s.length && !isSpace(s.charCodeAt(j)) && s[j] !== ',' && s[j] !== '}' && s[j] !== ']') j++;
    return j > i ? j : -1;
  }
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const d = s.charCodeAt(j);
    if (d === 0x22) {
      j = stringEnd(s, j) - 1;
      if (j < 0) return -1;
    } else if (d === 0x5b || d === 0x7b) depth++;
    else if (d === 0x5d || d === 0x7d) {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}

/** The span of the value of the top-level member `name` of a JSON object text (its key written plainly), or null. */
function topLevelMember(s: string, name: string): { start: number; end: number } | null {
  const key = JSON.stringify(name);
  let i = skipSpace(s, 0);
  if (s.charCodeAt(i) !== 0x7b) return null;
  i = skipSpace(s, i + 1);
  while (i < s.length && s.charCodeAt(i) === 0x22) {
    const kEnd = stringEnd(s, i);
    if (kEnd < 0) return null;
    const k = s.slice(i, kEnd);
    i = skipSpace(s, kEnd);
    if (s.charCodeAt(i) !== 0x3a /* : */) return null;
    const start = skipSpace(s, i + 1);
    const end = valueEnd(s, start);
    if (end < 0) return null;
    if (k === key) return { start, end };
    i = skipSpace(s, end);
    if (s.charCodeAt(i) !== 0x2c /* , */) return null;
    i = skipSpace(s, i + 1);
  }
  return null;
}
