import { describe, expect, it } from 'vitest';
import { Checkpoint, CheckStatus } from '../schema/verdict';
import { TrialStatus } from '../schema/run-status';
import { oneOf, oneOfOrNull, recordOfOrNull, StoredValueError } from './checked';

describe('union columns checked at the repository edge', () => {
  const status = oneOf(TrialStatus.options, 'trials.status');

  it('returns a member as the union', () => {
    for (const s of TrialStatus.options) expect(status(s)).toBe(s);
  });

  it('refuses anything else, naming the column and the value', () => {
    expect(() => status('done')).toThrow(StoredValueError);
    expect(() => status('done')).toThrow('stored trials.status is "done", not one of queued, running, passed, failed, untested, unresolved, cancelled');
    expect(() => status(null)).toThrow('stored trials.status is null');
    expect(() => status(undefined)).toThrow('stored trials.status is undefined');
    expect(() => status('Passed')).toThrow(StoredValueError);
    // a member of Object.prototype is no member of the union
    expect(() => status('toString')).toThrow(StoredValueError);
  });

  it('reads null as null where the column is nullable', () => {
    const category = oneOfOrNull(['wrong_tool', 'no_call'] as const, 'verdicts.category');
    expect(category(null)).toBeNull();
    expect(category('no_call')).toBe('no_call');
    expect(() => category('')).toThrow('stored verdicts.category is "", not one of wrong_tool, no_call');
  });

  it('reads a record of every checkpoint, and refuses a missing, an extra or a wrong one', () => {
    const checkpoints = recordOfOrNull(Checkpoint.options, CheckStatus.options, 'trials.checkpoints');
    const whole = { visibility: 'pass', selection: 'fail', parameters: 'untested', interpretation: 'untested', completion: 'untested' };
    expect(checkpoints(whole)).toBe(whole);
    expect(checkpoints(null)).toBeNull();
    const { completion: _, ...four } = whole;
    expect(() => checkpoints(four)).toThrow(StoredValueError);
    expect(() => checkpoints({ ...four, finished: 'pass' })).toThrow(StoredValueError);
    expect(() => checkpoints({ ...whole, completion: 'maybe' })).toThrow('stored trials.checkpoints is "maybe"');
    expect(() => checkpoints([])).toThrow(StoredValueError);
  });
});
