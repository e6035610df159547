import { describe, expect, it } from 'vitest';
import { jsonValueSpan } from './span';

/** A seeded generator of JSON values (strings with quotes, backslashes, braces, NUL and non-ASCII included). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}
function value(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * (depth > 3 ? 5 : 7));
  if (k === 0) return null;
  if (k === 1) return r() < 0.5;
  if (k === 2) return Math.round((r() - 0.5) * 1e6) / 100;
  if (k === 3 || k === 4) return ['a"b', 'x\\y', '{[}]', '\u0000', 'é ü', ',:', ''][Math.floor(r() * 7)] + String(Math.floor(r() * 10));
  if (k === 5) return Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(r() * 4) }, (_, j) => [`k${j}${['"', '}', ''][j % 3]}`, value(r, depth + 1)]));
}

describe('jsonValueSpan', () => {
  it('finds the exact text of a value at a path, as JSON.parse reads it (seeded, 500 documents)', () => {
    const r = rng(2024);
    for (let t = 0; t < 500; t++) {
      const inner = value(r, 0);
      const doc = { custom_id: `c${t}`, response: { status_code: 200, body: inner, after: value(r, 1) }, error: null };
      const text = t % 2 ? JSON.stringify(doc) : JSON.stringify(doc, null, 2);
      const span = jsonValueSpan(text, ['response', 'body']);
      expect(span).not.toBeNull();
      expect(JSON.parse(span!)).toStrictEqual(inner);
      expect(text.includes(span!)).toBe(true);
      expect(JSON.parse(jsonValueSpan(text, ['custom_id'])!)).toBe(`c${t}`);
    }
  });

  it('keeps the text as written (spacing, escapes, number forms) and takes the last of a repeated key', () => {
    const text = '{"a": {"b": 1}, "a" : { "b" :  [1.50, "\\u00e9\\"}" , {"c":null}] }}';
    expect(jsonValueSpan(text, ['a', 'b'])).toBe('[1.50, "\\u00e9\\"}" , {"c":null}]');
    expect(jsonValueSpan(text, ['a'])).toBe('{ "b" :  [1.50, "\\u00e9\\"}" , {"c":null}] }');
  });

  it('finds a value nested 20,000 levels deep, and its neighbours after it', () => {
    const deep = `${'['.repeat(20_000)}1${']'.repeat(20_000)}`;
    const text = `{"result":{"type":"succeeded","message":${deep},"z":true}}`;
    expect(jsonValueSpan(text, ['result', 'message'])).toBe(deep);
    expect(jsonValueSpan(text, ['result', 'z'])).toBe('true');
  });

  it('is null for a missing path, a path through a non-object, or text that is not JSON', () => {
    expect(jsonValueSpan('{"a":1}', ['b'])).toBeNull();
    expect(jsonValueSpan('{"a":1}', ['a', 'b'])).toBeNull();
    expect(jsonValueSpan('[{"a":1}]', ['a'])).toBeNull();
    expect(jsonValueSpan('{"a":"unterminated', ['a'])).toBeNull();
    expect(jsonValueSpan('{"a":[1,2}', ['a'])).toBeNull();
    expect(jsonValueSpan('{"a" 1}', ['a'])).toBeNull();
    expect(jsonValueSpan('', ['a'])).toBeNull();
  });
});
