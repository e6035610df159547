// Scans of one description that take time linear in its length, whatever it holds (a 1 MB word, a megabyte
// of digits, "status" repeated without a full stop). They find exactly what the backtracking patterns they
// replace found (lint.test.ts compares them on random text); those patterns tried every start position and
// scanned to the end of a run from each, which is quadratic on a long run.

const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAlnum = (c: number) => isLetter(c) || (c >= 48 && c <= 57);
// . _ - / :
const isSeparator = (c: number) => c === 46 || c === 95 || c === 45 || c === 47 || c === 58;

/**
 * Name-like tokens with at least one separator, in order: the matches of
 * /[A-Za-z_][A-Za-z0-9]*(?:[._\-/:][A-Za-z0-9]+)+/g, at most `limit` of them.
 */
export function nameTokens(s: string, limit = Infinity): string[] {
  const out: string[] = [];
  const n = s.length;
  let p = 0;
  while (p < n && out.length < limit) {
    const c = s.charCodeAt(p);
    if (!isLetter(c) && c !== 95) {
      p++;
      continue;
    }
    let q = p + 1;
    while (q < n && isAlnum(s.charCodeAt(q))) q++;
    const run = q;
    let end = -1;
    while (q + 1 < n && isSeparator(s.charCodeAt(q)) && isAlnum(s.charCodeAt(q + 1))) {
      q += 2;
      while (q < n && isAlnum(s.charCodeAt(q))) q++;
      end = q;
    }
    if (end > 0) {
      out.push(s.slice(p, end));
      p = end;
    } else p = run; // a later start inside this run ends where this one did, and fails as it did
  }
  return out;
}

const CODE_WORD = /\bcodes?\b|status|代碼|狀態/gi;
const RANGE = /\b(\d+)\s*(?:to|-|–|—|~|through|至|到)\s*(\d+)\b/gi;
const STOP = /[.。]/g;

/**
 * A range of codes, as /(\bcodes?\b|status|代碼|狀態)[^.。]*?\b(\d+)\s*(?:to|-|…)\s*(\d+)\b/i finds it: the
 * first word for codes that is followed, in the same sentence, by a range; the range is the first after it.
 * Each keyword, range and full stop is searched for once, from where the last search stopped.
 */
export function codeRange(text: string): [string, string] | null {
  let range: RegExpExecArray | null | undefined;
  let stop: RegExpExecArray | null | undefined;
  CODE_WORD.lastIndex = 0;
  for (let k = CODE_WORD.exec(text); k; k = CODE_WORD.exec(text)) {
    const from = k.index + k[0].length;
    if (range === undefined || (range && range.index < from)) {
      RANGE.lastIndex = from;
      range = RANGE.exec(text);
    }
    if (!range) return null; // no range after this keyword: none after a later one either
    if (stop === undefined || (stop && stop.index < from)) {
      STOP.lastIndex = from;
      stop = STOP.exec(text);
    }
    if (!stop || stop.index >= range.index) return [range[1], range[2]];
  }
  return null;
}

/** `s` cut to `max` characters (a finding quotes text; a megabyte of it helps nobody). */
export function clip(s: string, max = 200): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
