import { distance } from 'fastest-levenshtein';
import { describe, expect, it } from 'vitest';
import { NearDuplicateIndex } from './near';

// The index answers as a comparison with every head does (the rule it replaces): seeded texts near and far,
// short and long, over a small alphabet so that near-duplicates are common, with heads let go at capacity.

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** The rule spelled out: the oldest of the heads kept at least `similarity` alike. */
class EveryHead {
  private heads: { hash: string; text: string }[] = [];
  constructor(
    private readonly similarity: number,
    private readonly capacity: number,
  ) {}
  find(text: string): string | null {
    const h = this.heads.find((x) => {
      const longest = Math.max(x.text.length, text.length);
      return longest === 0 || 1 - distance(x.text, text) / longest >= this.similarity;
    });
    return h?.hash ?? null;
  }
  add(hash: string, text: string): void {
    this.heads.push({ hash, text });
    if (this.heads.length > this.capacity) this.heads.shift();
  }
}

describe('NearDuplicateIndex', () => {
  it('finds the same head as a comparison with every head (seeded, 2,000 texts, heads let go at 150)', () => {
    const r = rng(11);
    const base = Array.from({ length: 40 }, () => Array.from({ length: 20 + Math.floor(r() * 120) }, () => 'abcde '[Math.floor(r() * 6)]).join(''));
    const index = new NearDuplicateIndex(0.9, 150);
    const every = new EveryHead(0.9, 150);
    let grouped = 0;
    for (let i = 0; i < 2000; i++) {
      // a base text with a few edits (near), or a fresh one (far), or a tiny one
      const b = base[Math.floor(r() * base.length)];
      const kind = r();
      let text =
        kind < 0.05
          ? 'ab'.slice(0, Math.floor(r() * 3))
          : kind < 0.3
            ? Array.from({ length: 30 + Math.floor(r() * 90) }, () => 'abcde '[Math.floor(r() * 6)]).join('')
            : b;
      const edits = Math.floor(r() * 16);
      for (let e = 0; e < edits && text.length > 0; e++) {
        const at = Math.floor(r() * text.length);
        const op = r();
        text = op < 0.33 ? text.slice(0, at) + text.slice(at + 1) : op < 0.66 ? text.slice(0, at) + 'x' + text.slice(at) : text.slice(0, at) + 'y' + text.slice(at + 1);
      }
      const want = every.find(text);
      expect(index.find(text), `text ${i}: ${JSON.stringify(text)}`).toBe(want);
      if (want === null) {
        index.add(`h${i}`, text);
        every.add(`h${i}`, text);
      } else grouped++;
    }
    expect(grouped).toBeGreaterThan(200); // near-duplicates were common, and found
    expect(index.size).toBe(150);
  }, 30_000); // the every-head rule it is held to is the slow side (3 s with both cores busy)

  it('the empty text is near the empty text only; a head let go is not found', () => {
    const index = new NearDuplicateIndex(0.9, 2);
    index.add('empty', '');
    expect(index.find('')).toBe('empty');
    expect(index.find('a')).toBeNull();
    index.add('one', 'find a table in Lyon for four');
    index.add('two', 'book the cheapest room in Nice');
    expect(index.find('')).toBeNull(); // 'empty' was let go
    expect(index.find('find a table in Lyon for four!')).toBe('one');
    expect(index.find('find a table in Lyon for five')).toBeNull(); // three edits in 29: 0.897
  });
});
