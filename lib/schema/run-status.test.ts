import { describe, expect, it } from 'vitest';
import { controlAllowed, FINAL_RUN_STATUSES, isFinalRunStatus, RUN_CONTROL, RUN_STATUS_LABELS, RunStatus, runStatusLabel, runSucceeded } from './run-status';

describe('run statuses', () => {
  it('labels every status, the unresolved completion in words', () => {
    expect(Object.keys(RUN_STATUS_LABELS).sort()).toEqual([...RunStatus.options].sort());
    expect(runStatusLabel('completed_with_unresolved')).toBe('completed with unresolved trials');
    expect(runStatusLabel('passed')).toBe('passed'); // a trial status reads as itself
  });

  it('counts a run with unresolved trials as final but not as a plain success', () => {
    expect(isFinalRunStatus('completed_with_unresolved')).toBe(true);
    expect(isFinalRunStatus('prechecking')).toBe(false);
    expect(runSucceeded('completed')).toBe(true);
    expect(runSucceeded('completed_with_unresolved')).toBe(false);
    expect(runSucceeded('completed_with_unresolved', { allowUnresolved: true })).toBe(true);
    expect(runSucceeded('failed', { allowUnresolved: true })).toBe(false);
  });

  it('never lets a control action leave a finished run (failed may resume: a stopped run)', () => {
    for (const [action, rule] of Object.entries(RUN_CONTROL)) {
      for (const s of FINAL_RUN_STATUSES.filter((x) => x !== 'failed')) expect(controlAllowed(action as keyof typeof RUN_CONTROL, s), `${action} ${s}`).toBe(false);
      expect(RunStatus.options).toContain(rule.to);
    }
  });
});
