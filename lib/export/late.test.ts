import { describe, expect, it } from 'vitest';
import { lateAttemptNumbers, withLateAnswers } from './late';

describe('late answers (docs/export.md, "Formal and late attempts")', () => {
  it('of two ok answers to the same turn, the later attempt is formal and the earlier one late', () => {
    const attempts = [
      { n: 1, turn: 1, outcome: 'ok' },
      { n: 2, turn: 1, outcome: 'ok' },
    ];
    expect([...lateAttemptNumbers(attempts)]).toEqual([1]);
    expect(withLateAnswers(attempts).map((a) => a.outcome)).toEqual(['late', 'ok']);
  });

  it('an ordinary trial is unchanged: retries, lost rows and the turns of a conversation are not late', () => {
    const attempts = [
      { n: 1, turn: 1, outcome: 'transport_error' },
      { n: 2, turn: 1, outcome: 'lost' },
      { n: 3, turn: 1, outcome: 'ok' },
      { n: 4, turn: 2, outcome: 'ok' },
      { n: 5, turn: 3, outcome: 'ok' },
    ];
    expect(lateAttemptNumbers(attempts).size).toBe(0);
    expect(withLateAnswers(attempts)).toEqual(attempts);
  });

  it('a late answer to one turn of a conversation leaves its other turns formal', () => {
    const attempts = [
      { n: 1, turn: 1, outcome: 'ok' },
      { n: 2, turn: 2, outcome: 'ok' }, // the frozen holder's answer, recorded after the takeover
      { n: 3, turn: 2, outcome: 'ok' },
      { n: 4, turn: 3, outcome: 'ok' },
    ];
    expect([...lateAttemptNumbers(attempts)]).toEqual([2]);
    expect(withLateAnswers(attempts).filter((a) => a.outcome === 'ok')).toHaveLength(3);
  });
});
