import { describe, expect, it } from 'vitest';
import { clusteredProportion, pairedDifference } from '../stats/clustered';
import { clusteredCi, diffCi, differenceCi, formatDifference, pct, plural, pts, rateCi, rateWithInterval, wilsonCi } from './format';

describe('the one format of rates, differences and intervals', () => {
  it('rates in %, differences in signed percentage points, each interval in its own unit', () => {
    expect(pct(0.5833)).toBe('58.3%');
    expect(pts(0.75)).toBe('+75.0 pts');
    expect(pts(-0.031)).toBe('-3.1 pts');
    expect(pts(-0.0001)).toBe('-0.0 pts');
    expect(pts(0)).toBe('+0.0 pts');
    expect(rateCi([0.441, 0.712])).toEqual({ text: '[44.1%, 71.2%]', reason: null });
    // a bug once shipped: a difference's interval printed as rates
    expect(diffCi([0.625, 0.875])).toEqual({ text: '[+62.5 pts, +87.5 pts]', reason: null });
    expect(diffCi([-0.031, 0.28]).text).toBe('[-3.1 pts, +28.0 pts]');
  });

  it('k/n with its Wilson interval, one decimal, never the old [9–53] form', () => {
    // Wilson 3/10: [10.8%, 60.3%]
    expect(rateWithInterval(3, 10)).toBe('30.0% [10.8%, 60.3%]');
    expect(rateWithInterval(0, 0)).toBe('—');
    // a Wilson interval has width for every n ≥ 1, at 0% and at 100% too
    for (const [k, n] of [
      [0, 1],
      [1, 1],
      [0, 300],
      [300, 300],
    ])
      expect(wilsonCi(k, n).reason).toBeNull();
    expect(wilsonCi(0, 0)).toEqual({ text: '—', reason: 'no decided trials' });
  });

  it('no interval: "—" with the reason, never a zero-width interval', () => {
    expect(rateCi(null, 'one cluster')).toEqual({ text: '—', reason: 'one cluster' });
    // even if a caller passes one, a zero-width interval (or one that rounds to it) is not printed
    expect(rateCi([0.5, 0.5]).text).toBe('—');
    expect(rateCi([0.50001, 0.50002]).reason).toMatch(/no width/);
    expect(diffCi([0, 0]).text).toBe('—');
  });

  it('explains a missing clustered interval from the exported numbers alone', () => {
    // 4/8 as 2/4 + 2/4: the page used to print CR1 [50.0%, 50.0%] · SE 0.000
    const same = clusteredProportion([
      { sum: 2, n: 4 },
      { sum: 2, n: 4 },
    ]);
    expect(clusteredCi(same)).toEqual({ text: '—', reason: expect.stringMatching(/^no variance between clusters/) });
    const one = clusteredProportion([{ sum: 2, n: 4 }]);
    expect(clusteredCi(one).reason).toBe('1 cluster: a cluster-robust interval needs two or more');
    const none = clusteredProportion([]);
    expect(clusteredCi(none).reason).toBe('no observations');
    const some = clusteredProportion([
      { sum: 2, n: 2 },
      { sum: 0, n: 2 },
      { sum: 1, n: 2 },
    ]);
    expect(clusteredCi(some).text).toMatch(/^\[\d+\.\d%, \d+\.\d%\]$/);
  });

  it('the paired difference: pts with a pts interval, or the reason and no "1 clusters, 0 df"', () => {
    const d = pairedDifference([
      { pairs: 2, improved: 2, regressed: 0 },
      { pairs: 2, improved: 1, regressed: 0 },
      { pairs: 2, improved: 0, regressed: 0 },
    ]);
    expect(formatDifference(d)).toMatch(/^\+50\.0 pts \[[-+]\d+\.\d pts, \+\d+\.\d pts\] \(CR1 SE 0\.\d{3}, 6 pairs in 3 clusters, t on 2 df\)$/);
    const one = pairedDifference([{ pairs: 4, improved: 3, regressed: 1 }]);
    expect(formatDifference(one)).toBe('+50.0 pts — (1 cluster: a cluster-robust interval needs two or more; 4 pairs in 1 cluster)');
    expect(differenceCi(one).text).toBe('—');
    expect(plural(1, 'cluster')).toBe('1 cluster');
    expect(plural(0, 'cluster')).toBe('0 clusters');
  });
});

describe('κ', () => {
  it('two decimals; a zero-width interval is never printed', async () => {
    const { kappaCi } = await import('./format');
    expect(kappaCi([0.151, 0.649]).text).toBe('[0.15, 0.65]');
    expect(kappaCi([0.9991, 0.9994]).text).toBe('—');
    expect(kappaCi(null, 'the grader gave every item the same reading')).toEqual({ text: '—', reason: 'the grader gave every item the same reading' });
  });
});
