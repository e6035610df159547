import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeForJsonb, jsonbText, restoreFromJsonb } from './jsonb-escape';

// Strings of any UTF-16 code units (NUL, lone surrogates, U+FFFF and its would-be escapes among them), and
// JSON values built of them, keys included.
const unit = fc.oneof(
  fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\uffff', '\uffff0000', '\uffffzz', 'a', '\\u0000', '😀', '\ud83d', '\ude00'),
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
);
const anyString = fc.array(unit, { maxLength: 24 }).map((parts) => parts.join(''));
const anyJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    anyString,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(anyString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** What PostgreSQL's jsonb and text refuse or cannot encode: U+0000 and lone surrogates. */
function unstorable(s: string): boolean {
  return /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v !== null && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      strings(x, out);
    }
  return out;
}

describe('escapeForJsonb / restoreFromJsonb', () => {
  it('round-trips every JSON value, and what it writes holds nothing jsonb refuses', () => {
    fc.assert(
      fc.property(anyJson, (v) => {
        const escaped = escapeForJsonb(v);
        expect(strings(escaped).some(unstorable)).toBe(false);
        expect(restoreFromJsonb(escaped)).toEqual(v);
        // through JSON text too, as the writers send it and the readers get it back
        expect(restoreFromJsonb(JSON.parse(jsonbText(v)))).toEqual(v);
      }),
      { numRuns: 2000, seed: 38 },
    );
  });

  it('leaves a value without NUL, lone surrogates or U+FFFF as it is (the same object, the same JSON text)', () => {
    const ordinary = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.string({ unit: 'grapheme' }).filter((s) => !/[\u0000\uffff]/.test(s)),
        fc.integer(),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(ordinary, (v) => {
        expect(escapeForJsonb(v)).toBe(v);
        expect(jsonbText(v)).toBe(JSON.stringify(v));
      }),
      { numRuns: 1000, seed: 38 },
    );
  });

  it('writes the documented form', () => {
    expect(escapeForJsonb({ 'a\u0000': ['x\ud800y', '\uffff', '😀'] })).toEqual({ 'a\uffff0000': ['x\uffffd800y', '\uffffffff', '😀'] });
    expect(restoreFromJsonb('\uffff12')).toBe('\uffff12'); // not an escape it wrote: kept
  });
});
