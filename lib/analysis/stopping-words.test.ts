import { describe, expect, it } from 'vitest';
import type { ComparisonStop } from '../schema/stopping';
import { readVerdict, VERDICT_LABELS } from './reading';
import { stopWords, thresholdSentence } from './stopping-words';

function comparison(over: Partial<ComparisonStop> & { afterPairs?: number | null; threshold?: number | null; reason?: 'e-value' | 'precision' }): ComparisonStop {
  const { afterPairs = 13, threshold = 40, reason = 'e-value', ...rest } = over;
  return {
    treatment: 't',
    decision:
      afterPairs === null
        ? null
        : {
            reason,
            afterPairs,
            improved: 9,
            regressed: 0,
            eValue: 45,
            maxEValue: 45,
            threshold: reason === 'e-value' ? threshold : null,
            interval: { lo: 0.05, hi: 0.9 },
            text: 'x',
          },
    improved: 10,
    regressed: 1,
    pairs: 15,
    eValue: 50,
    anytimeValid: { label: 'anytime-valid 95% confidence sequence', interval: { lo: -0.02, hi: 0.8 }, text: '' },
    ...rest,
  };
}

describe('stopWords: the stopping panel in words that agree with its numbers', () => {
  it('names both pair counts when the decision and the interval are over different pairs', () => {
    const w = stopWords(comparison({}), 0.05, 2);
    expect(w.pairsText).toBe('decided after 13 pairs; the interval is over 15 pairs (the 2 in flight at the decision included)');
  });

  it('says "the same" when they agree, and "not decided" without a decision', () => {
    expect(stopWords(comparison({ afterPairs: 15 }), 0.05, 1).pairsText).toBe('decided after 15 pairs; the interval is over the same 15 pairs');
    expect(stopWords(comparison({ afterPairs: null }), 0.05, 1).pairsText).toBe('not decided; the interval is over all 15 complete pairs');
  });

  it('never reads "improved" beside an interval that includes zero', () => {
    const w = stopWords(comparison({}), 0.05, 2);
    expect(w.reading.verdict).toBe('not-shown');
    expect(w.reading.label).toBe(VERDICT_LABELS['not-shown']);
    expect(w.reading.why).toBe('the interval includes zero');
  });

  it('reads "improved" when the anytime-valid interval is above zero, in the one vocabulary', () => {
    const w = stopWords(comparison({ anytimeValid: { label: 'l', interval: { lo: 0.1, hi: 0.8 }, text: '' } }), 0.05, 1);
    expect(w.reading.label).toBe('improved');
    expect(w.reading.why).toBe('the interval is above zero');
  });

  it('no complete pairs: too few pairs to tell', () => {
    const w = stopWords(comparison({ afterPairs: null, pairs: 0, improved: 0, regressed: 0 }), 0.05, 1);
    expect(w.reading.verdict).toBe('too-few');
  });

  it('explains each threshold in one sentence: k/α under Holm, 1/α for the last one standing', () => {
    expect(thresholdSentence(40, 0.05, 2)).toBe(
      "threshold 40 = 2/α: 2 of the run's 2 comparisons were still undecided, so Holm asks 2 times 1/α to keep the chance of any false stop at α = 0.05.",
    );
    expect(thresholdSentence(20, 0.05, 2)).toBe(
      'threshold 20 = 1/α: an e-value reaches it by chance with probability at most α = 0.05 (the last comparison still standing, Holm).',
    );
    expect(thresholdSentence(20, 0.05, 1)).toBe('threshold 20 = 1/α: an e-value reaches it by chance with probability at most α = 0.05.');
    for (const t of [20, 40, 60]) expect(thresholdSentence(t, 0.05, 3).split('. ').length).toBe(1);
  });

  it('a precision stop or no decision has no threshold sentence', () => {
    expect(stopWords(comparison({ reason: 'precision' }), 0.05, 1).thresholdText).toBeNull();
    expect(stopWords(comparison({ afterPairs: null }), 0.05, 1).thresholdText).toBeNull();
  });

  it('property: the reading agrees with the interval it is read on', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 500; i++) {
      const pairs = 2 + Math.floor(rnd() * 60);
      const improved = Math.floor(rnd() * (pairs + 1));
      const regressed = Math.floor(rnd() * (pairs - improved + 1));
      const est = (improved - regressed) / pairs;
      const half = rnd() * 0.6;
      const c = comparison({ pairs, improved, regressed, anytimeValid: { label: 'l', interval: { lo: est - half, hi: est + half }, text: '' } });
      const w = stopWords(c, 0.05, 1);
      if (w.reading.verdict === 'improved') expect(est - half).toBeGreaterThan(0);
      if (w.reading.verdict === 'worse') expect(est + half).toBeLessThan(0);
      if (est - half <= 0 && est + half >= 0) expect(w.reading.verdict).not.toMatch(/improved|worse/);
      expect(w.reading.verdict).toBe(
        readVerdict({ pairs, improved, regressed, clusters: pairs, estimate: est, ci95: [est - half, est + half], p: null }, { cluster: 'pair' }).verdict,
      );
    }
  });
});
