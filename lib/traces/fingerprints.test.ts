import { describe, expect, it } from 'vitest';
import { sha256 } from '../hash';
import { FingerprintSet } from './fingerprints';

describe('FingerprintSet', () => {
  it('answers as a Set of the hashes does, through many doublings', () => {
    const set = new FingerprintSet();
    const ref = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const h = sha256(String(i % 13_000)); // the last 7,000 are seen again
      expect(set.add(h)).toBe(!ref.has(h));
      ref.add(h);
    }
    expect(set.size).toBe(13_000);
    expect(ref.size).toBe(13_000);
  });

  it('tells hashes apart that differ only in their last kept bit, and keeps the all-zero one', () => {
    const set = new FingerprintSet();
    const zero = '0'.repeat(64);
    const one = '0'.repeat(31) + '1' + 'f'.repeat(32);
    expect(set.add(zero)).toBe(true);
    expect(set.add(zero)).toBe(false);
    expect(set.add(one)).toBe(true);
    expect(set.add(one)).toBe(false);
    expect(set.size).toBe(2);
  });

  it('refuses what is not a hex digest', () => {
    expect(() => new FingerprintSet().add('xyz')).toThrow(/not a hex digest/);
  });
});
