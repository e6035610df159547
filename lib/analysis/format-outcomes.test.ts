import { describe, expect, it } from 'vitest';
import type { StudyPower } from '../schema/outcomes';
import { formatPower } from './format-outcomes';

const tooFew: StudyPower = {
  alpha: 0.05,
  power: 0.8,
  pairs: 56,
  psi: 0.5,
  icc: 1,
  pairsPerCluster: 7,
  designEffect: 7,
  minimumDetectable: null,
  reason: 'too few pairs for any difference at this discordant share',
};

describe('formatPower beside a reading', () => {
  it('is unchanged without a verdict, or beside not shown / too few pairs to tell', () => {
    const plain = 'minimum detectable difference — (too few pairs for any difference at this discordant share)';
    expect(formatPower(tooFew)).toBe(plain);
    expect(formatPower(tooFew, 'not-shown')).toBe(plain);
    expect(formatPower(tooFew, 'too-few')).toBe(plain);
    expect(formatPower(tooFew, null)).toBe(plain);
  });

  it('beside a significant result it says what the figure is: a planning figure that does not qualify the result', () => {
    expect(formatPower(tooFew, 'improved')).toBe(
      'minimum detectable difference — (too few pairs for any difference at this discordant share); this is a planning figure for a new run of this size at 80% power, and does not qualify the difference this run shows (improved)',
    );
    const some = { ...tooFew, minimumDetectable: 0.142, reason: null, designEffect: 1.35 };
    expect(formatPower(some, 'worse')).toMatch(/^this run could detect ≥ 14\.2 points .*; this is a planning figure .*\(worse\)$/);
  });
});
