import { pathString, unstorableText, type Issue } from './common';

// Reading JSON from bytes, the same way at every door (CLI, import form, route handlers, designer drafts):
// size, encoding and depth are checked before JSON.parse runs, and every string and key of the result is
// checked for what PostgreSQL cannot store (NUL, lone surrogates). Framework-free and env-free.

export const INPUT_LIMITS = {
  /** The largest input accepted, in bytes (5 MB). */
  maxBytes: 5 * 1024 * 1024,
  /** The deepest nesting of arrays and objects accepted. */
  maxDepth: 64,
} as const;

export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

const fmt = (n: number) => n.toLocaleString('en-US');
const MB = (n: number) => `${(n / (1024 * 1024)).toFixed(n % (1024 * 1024) === 0 ? 0 : 1)} MB`;

/** A path for messages: long paths (deep nesting) keep their first segments. */
function shortPath(path: readonly (string | number)[]): string {
  return path.length > 12 ? `${pathString(path.slice(0, 12))}…` : pathString(path);
}

interface Scan {
  /** the first container opened beyond the depth limit */
  tooDeep: (string | number)[] | null;
  /** the longest string value and its path */
  longest: { path: (string | number)[]; bytes: number } | null;
}

/**
 * One pass over JSON text tracking the path of each value (keys and indexes), without building anything:
 * finds where nesting first exceeds `maxDepth` and the longest string. Lenient on syntax (JSON.parse judges it).
 */
function scanJson(s: string, maxDepth: number): Scan {
  const stack: { obj: boolean; key: string | number; expectKey: boolean }[] = [];
  const out: Scan = { tooDeep: null, longest: null };
  const pathHere = () => stack.map((f) => f.key);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      for (i++; i < s.length; i++) {
        const d = s.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      const top = stack[stack.length - 1];
      if (top?.obj && top.expectKey) {
        try {
          top.key = JSON.parse(s.slice(start, i + 1)) as string;
        } catch {
          top.key = s.slice(start + 1, Math.min(i, start + 60));
        }
        top.expectKey = false;
      } else {
        const len = i - start - 1;
        if (!out.longest || len > out.longest.bytes) out.longest = { path: pathHere(), bytes: len };
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      stack.push({ obj: c === 0x7b, key: c === 0x7b ? '' : 0, expectKey: c === 0x7b });
      if (stack.length > maxDepth) {
        const p = pathHere();
        out.tooDeep = p.slice(0, p.length - 1);
        return out;
      }
    } else if (c === 0x7d || c === 0x5d) stack.pop();
    else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.obj) top.expectKey = true;
      else if (top) top.key = (top.key as number) + 1;
    }
  }
  return out;
}

function decodeUtf8(bytes: Uint8Array): Parsed<string> {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    return { ok: false, issues: [{ path: '(input)', message: 'is UTF-16 (byte-order mark FF FE / FE FF): only UTF-8 is accepted' }] };
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  try {
    return { ok: true, value: new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start)) };
  } catch {
    let at = 0;
    const dec = new TextDecoder('utf-8', { fatal: true });
    // the first invalid byte: the longest prefix that decodes (binary search over prefix ends is wrong for
    // split sequences, so walk sequence by sequence)
    for (let i = start; i < bytes.length;) {
      const b = bytes[i];
      const n = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      try {
        dec.decode(bytes.subarray(i, i + n));
      } catch {
        at = i;
        break;
      }
      i += n;
    }
    return { ok: false, issues: [{ path: '(input)', message: `is not valid UTF-8 (first invalid byte at offset ${at}): only UTF-8 is accepted` }] };
  }
}

/** Where JSON.parse stopped, as line and column, when its message says. */
function syntaxIssue(text: string, e: Error): Issue {
  const msg = e.message.replace(/\s+/g, ' ').replace(/, ".*" is not valid JSON$/, ' (not valid JSON)');
  const pos = /position (\d+)/.exec(msg);
  let where = '';
  if (pos) {
    const before = text.slice(0, Number(pos[1]));
    where = ` at line ${before.split('\n').length}, column ${Number(pos[1]) - before.lastIndexOf('\n')}`;
  }
  return { path: '(json)', message: `not valid JSON${where}: ${msg.slice(0, 200)}` };
}

/**
 * Every string and key of a parsed value is storable (no NUL, no lone surrogate) and the nesting is within
 * `maxDepth`: also for values that did not come from bytes (templates, drafts built in code).
 */
export function checkJsonValue(value: unknown, maxDepth: number = INPUT_LIMITS.maxDepth): Issue[] {
  const issues: Issue[] = [];
  const walk = (v: unknown, path: (string | number)[], depth: number): void => {
    if (issues.length >= 20) return;
    if (typeof v === 'string') {
      const why = unstorableText(v);
      if (why) issues.push({ path: shortPath(path), message: why });
      return;
    }
    if (typeof v !== 'object' || v === null) return;
    if (depth >= maxDepth) {
      issues.push({ path: shortPath(path), message: `nested deeper than the limit of ${maxDepth} levels` });
      return;
    }
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i], depth + 1));
    else
      for (const k of Object.keys(v)) {
        const why = unstorableText(k);
        if (why) issues.push({ path: shortPath([...path, k]), message: `key ${why}` });
        walk((v as Record<string, unknown>)[k], [...path, k], depth + 1);
      }
  };
  walk(value, [], 0);
  return issues;
}

export interface ReadOptions {
  maxBytes?: number;
  maxDepth?: number;
}

/**
 * JSON from bytes (a file, an upload) or from text (a paste): a UTF-8 byte-order mark is stripped, anything
 * but UTF-8 refused, then the size limit and the depth limit are checked before parsing; then JSON.parse,
 * then every string and key checked for NUL and lone surrogates. Issues name the field and the limit.
 */
export function readJson(input: Uint8Array | string, opts: ReadOptions = {}): Parsed<unknown> {
  const maxBytes = opts.maxBytes ?? INPUT_LIMITS.maxBytes;
  const maxDepth = opts.maxDepth ?? INPUT_LIMITS.maxDepth;
  let text: string;
  let size: number;
  if (typeof input === 'string') {
    text = input.replace(/^\uFEFF/, '');
    size = new TextEncoder().encode(text).length;
  } else {
    size = input.length;
    // far beyond the limit: refuse without decoding
    if (size > 4 * maxBytes)
      return { ok: false, issues: [{ path: '(input)', message: `${fmt(size)} bytes: over the limit of ${MB(maxBytes)} (${fmt(maxBytes)} bytes)` }] };
    const d = decodeUtf8(input);
    if (!d.ok) return d;
    text = d.value;
  }
  if (size > 4 * maxBytes) return { ok: false, issues: [{ path: '(input)', message: `${fmt(size)} bytes: over the limit of ${MB(maxBytes)} (${fmt(maxBytes)} bytes)` }] };
  const scan = scanJson(text, maxDepth);
  if (size > maxBytes) {
    const l = scan.longest;
    const where = l && l.bytes > maxBytes / 2 ? shortPath(l.path) : '(input)';
    const field = l && l.bytes > maxBytes / 2 ? `a text of ${fmt(l.bytes)} characters; ` : '';
    return { ok: false, issues: [{ path: where, message: `${field}the input is ${fmt(size)} bytes, over the limit of ${MB(maxBytes)} (${fmt(maxBytes)} bytes)` }] };
  }
  if (scan.tooDeep) return { ok: false, issues: [{ path: shortPath(scan.tooDeep), message: `nested deeper than the limit of ${maxDepth} levels` }] };
  if (!text.trim()) return { ok: false, issues: [{ path: '(input)', message: 'is empty: expected a JSON document' }] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, issues: [syntaxIssue(text, e as Error)] };
  }
  const issues = checkJsonValue(value, maxDepth);
  return issues.length ? { ok: false, issues } : { ok: true, value };
}
