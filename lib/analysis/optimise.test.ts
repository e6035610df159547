import { describe, expect, it } from 'vitest';
import { confirmReadings, confirmSentence, rankCandidates, selectWinners } from './optimise';

const clusters = (n: number, improved: number, regressed: number, pairs = 7) =>
  Array.from({ length: n }, (_, i) => ({ pairs, improved: i < improved ? 1 : 0, regressed: i < regressed ? 1 : 0 }));

describe('select', () => {
  it('ranks every candidate, the placebo too, and never picks the placebo', () => {
    const ranked = rankCandidates([
      { candidate: 'a', placebo: false, clusters: clusters(10, 2, 1) },
      { candidate: 'placebo', placebo: true, clusters: clusters(10, 6, 0) },
      { candidate: 'b', placebo: false, clusters: clusters(10, 4, 0) },
      { candidate: 'c', placebo: false, clusters: clusters(10, 0, 3) },
    ]);
    expect(ranked.map((r) => r.candidate)).toEqual(['placebo', 'b', 'a', 'c']);
    expect(ranked.find((r) => r.candidate === 'b')!.beatsPlacebo).toBe(false);
    expect(selectWinners(ranked, { kind: 'best' }).map((r) => r.candidate)).toEqual(['b']);
    expect(selectWinners(ranked, { kind: 'top', m: 5 }).map((r) => r.candidate)).toEqual(['b', 'a']);
    expect(() => selectWinners(ranked, { kind: 'top', m: 0 })).toThrow(/rule\.m/);
  });
});

describe('confirm', () => {
  const strong = clusters(20, 15, 0);
  it('confirmed: Holm-adjusted p ≤ α, positive, beats the placebo', () => {
    const [r] = confirmReadings([{ candidate: 'w', selectEstimate: 0.2, clusters: strong, vsPlacebo: strong }]);
    expect(r.reading).toBe('confirmed');
    expect(r.claims).toBe(1);
    expect(confirmSentence(r)).toMatch(/^confirmed: \+10\.7 pp/);
  });
  it('every earlier look counts in the correction', () => {
    const modest = clusters(20, 6, 0); // exact p = 2/64
    const [once] = confirmReadings([{ candidate: 'w', selectEstimate: 0.2, clusters: modest, vsPlacebo: null }]);
    const [third] = confirmReadings([{ candidate: 'w', selectEstimate: 0.2, clusters: modest, vsPlacebo: null }], [0.2, 0.4]);
    expect(once.reading).toBe('confirmed');
    expect(third.claims).toBe(3);
    expect(third.pHolm).toBeGreaterThan(once.pHolm);
    expect(third.reading).toBe('not-confirmed');
  });
  it('not confirmed shows the select and confirm numbers side by side; a placebo as good is named', () => {
    const [r] = confirmReadings([{ candidate: 'w', selectEstimate: 0.25, clusters: clusters(20, 2, 2), vsPlacebo: null }]);
    expect(confirmSentence(r)).toBe('not confirmed: the select-split gain was not reproduced (select +25.0 pp, confirm +0.0 pp)');
    const [p] = confirmReadings([{ candidate: 'w', selectEstimate: 0.2, clusters: strong, vsPlacebo: clusters(20, 1, 1) }]);
    expect(p.reading).toBe('no-better-than-placebo');
    expect(confirmSentence(p)).toMatch(/^no better than the placebo/);
  });
  it('a gain without an interval (two confirm cases at one rate) is read as too few cases, not as a gain lost', () => {
    const [r] = confirmReadings([{ candidate: 'w', selectEstimate: 0.5, clusters: [7, 7].map((n) => ({ pairs: n, improved: n, regressed: 0 })), vsPlacebo: null }]);
    expect(r.reading).toBe('not-confirmed');
    expect(confirmSentence(r)).toMatch(
      /^not confirmed: the sealed split gives no interval \(no variance between clusters.*; select \+50\.0 pp, confirm \+100\.0 pp over 2 cases\)$/,
    );
  });
});
