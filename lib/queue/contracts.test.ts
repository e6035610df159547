import { describe, expect, it } from 'vitest';
import { batchOfJobId, runJobId, takeoverJobId, trialJobId } from './contracts';

describe('batchOfJobId', () => {
  it("reads back the run and batch of a batch's job and of a takeover, whatever the run id holds", () => {
    for (const runId of ['r1', 'run-b7-x', 'cmb8x-b12', 'a-b3-t4']) {
      expect(batchOfJobId(trialJobId(runId, 0))).toEqual({ runId, batch: 0 });
      expect(batchOfJobId(trialJobId(runId, 62_499))).toEqual({ runId, batch: 62_499 });
      expect(batchOfJobId(takeoverJobId(runId, 5, 17))).toEqual({ runId, batch: 5 });
    }
  });

  it('is null for the id of another kind of job', () => {
    expect(batchOfJobId(runJobId('r1', 'start'))).toBeNull();
    expect(batchOfJobId('r1-bx')).toBeNull();
    expect(batchOfJobId('-b3')).toBeNull();
  });
});
