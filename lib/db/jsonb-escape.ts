// What PostgreSQL cannot hold, escaped reversibly at the repository edge (docs/faults.md › What a provider
// sends is kept). `jsonb` refuses U+0000 (22P05) and `text` refuses the NUL byte; a lone surrogate (half of a
// UTF-16 pair, legal in a JS string and in JSON's \uXXXX escapes) cannot be encoded as UTF-8 at all, so the
// driver would silently store U+FFFD instead. Every value a provider's answer reaches `jsonb` or a `text`
// column with (observations, verdicts, turns, a trial's `visible`, error messages) goes through
// escapeForJsonb before it is written, and every reader restores it with restoreFromJsonb.
//
// The escape: in every string (object keys too), each UTF-16 code unit that is U+0000, a lone surrogate, or
// U+FFFF (the escape character itself, a noncharacter) becomes U+FFFF followed by its four lower-case hex
// digits: NUL → "\uffff0000", a lone U+D800 → "\uffffd800", U+FFFF → "\uffffffff". Nothing else changes, so
// a value without those characters is stored exactly as it was (ordinary runs are byte for byte what they
// were), and restoreFromJsonb(escapeForJsonb(v)) equals v for every JSON value v.

const ESC = 0xffff;
const ESC_CHAR = '\uffff';
/** A string that may need escaping: NUL, any surrogate (paired ones are checked one by one), or the escape character. */
const SUSPECT = /[\u0000\ud800-\udfff\uffff]/;
/** JSON text of a value that may need escaping: stringify writes NUL and lone surrogates as \u escapes. */
const SUSPECT_JSON = /\\u0000|\\ud[89a-f]|\uffff/i;

const HEX_UNITS = [...'0123456789abcdef'].map((d) => d.charCodeAt(0));

// Both directions write the code units of their result into one buffer and read it back as a string in
// chunks: appending piece by piece to a string made a rope of millions of short strings for a 5 MB answer made
// of NULs and lone surrogates, whose garbage collection cost seconds per answer (docs/faults.md › What a
// provider sends is kept). The buffer is only used for a string that holds something to escape or restore.

/** `n` code units of `buf` as a string (lone surrogates kept: String.fromCharCode takes code units as they are). */
function fromUnits(buf: Uint16Array, n: number): string {
  const CHUNK = 8192;
  const parts: string[] = [];
  for (let i = 0; i < n; i += CHUNK) parts.push(String.fromCharCode.apply(null, buf.subarray(i, Math.min(n, i + CHUNK)) as unknown as number[]));
  return parts.join('');
}

/** How many code units of `s` are escaped (each becomes five). */
function escapedUnits(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0 || c === ESC) n++;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else n++;
    } else if (c >= 0xdc00 && c <= 0xdfff) n++;
  }
  return n;
}

/** One string, escaped (the same string when there is nothing to escape). */
function escapeString(s: string): string {
  if (!SUSPECT.test(s)) return s;
  const buf = new Uint16Array(s.length + 4 * escapedUnits(s));
  let o = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let escape = c === 0 || c === ESC;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        // a valid pair: kept as it is
        buf[o++] = c;
        buf[o++] = next;
        i++;
        continue;
      }
      escape = true;
    } else if (c >= 0xdc00 && c <= 0xdfff) escape = true;
    if (escape) {
      buf[o++] = ESC;
      buf[o++] = HEX_UNITS[c >> 12];
      buf[o++] = HEX_UNITS[(c >> 8) & 15];
      buf[o++] = HEX_UNITS[(c >> 4) & 15];
      buf[o++] = HEX_UNITS[c & 15];
    } else buf[o++] = c;
  }
  return fromUnits(buf, o);
}

/** The value of a lower-case hex digit's code unit, or -1. */
function hexDigit(unit: number): number {
  return unit >= 0x30 && unit <= 0x39 ? unit - 0x30 : unit >= 0x61 && unit <= 0x66 ? unit - 0x57 : -1;
}

/** One string, restored: U+FFFF and four hex digits → that code unit. */
function restoreString(s: string): string {
  if (s.indexOf(ESC_CHAR) < 0) return s;
  const buf = new Uint16Array(s.length);
  let o = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // a U+FFFF not followed by four lower-case hex digits was not written by escapeString: kept as it is
    if (c === ESC && i + 4 < s.length) {
      const d = (hexDigit(s.charCodeAt(i + 1)) << 12) | (hexDigit(s.charCodeAt(i + 2)) << 8) | (hexDigit(s.charCodeAt(i + 3)) << 4) | hexDigit(s.charCodeAt(i + 4));
      if (d >= 0) {
        buf[o++] = d;
        i += 4;
        continue;
      }
    }
    buf[o++] = c;
  }
  return fromUnits(buf, o);
}

function walk(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v = walk(value[i], f);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const k2 = f(k);
    const v2 = walk(v, f);
    if (k2 !== k || v2 !== v) changed = true;
    out[k2] = v2;
  }
  return changed ? out : value;
}

/** `value` with every string (keys too) escaped as above; the same object when nothing needed escaping. */
export function escapeForJsonb<T>(value: T): T {
  return walk(value, escapeString) as T;
}

/** The inverse of escapeForJsonb: what a reader of a stored `jsonb` value or `text` column applies. */
export function restoreFromJsonb<T>(value: T): T {
  return walk(value, restoreString) as T;
}

/**
 * `value` as JSON text for a `jsonb` parameter, escaped: JSON.stringify's text as it is when it holds nothing
 * to escape (checked on the text, so an ordinary value is not walked).
 */
export function jsonbText(value: unknown): string {
  const text = JSON.stringify(value);
  return text !== undefined && SUSPECT_JSON.test(text) ? JSON.stringify(escapeForJsonb(value)) : text;
}
