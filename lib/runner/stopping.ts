import { lookAtRun } from '../analysis/stopping';
import { addStopDecisions, cancelUnsentPairs, stoppingTrials, storedStopDecisions } from '../db/stopping';
import { log } from '../log/logger';
import type { RunContext } from './context';

/**
 * Stop when decided, in the engine (docs/statistics.md): after a job's pair is recorded, one look at the run —
 * new decisions are stored (never replaced), and each study whose comparisons are all decided has its unsent
 * pairs cancelled; what is in flight finishes and is recorded. Looks of one run in this process never overlap:
 * one asked for while another runs is made once it ends (a look sees every pair recorded before it starts).
 * Returns whether anything was cancelled (the caller checks whether the run is done).
 */
export function lookAfterPair(ctx: RunContext): Promise<boolean> {
  const opts = ctx.settings.stopWhenDecided;
  if (!opts) return Promise.resolve(false);
  const state = looks.get(ctx.runId);
  if (state) {
    state.again = true;
    return state.done;
  }
  const s: LookState = { again: false, done: Promise.resolve(false) };
  s.done = (async () => {
    let cancelled = false;
    try {
      do {
        s.again = false;
        cancelled = (await look(ctx)) || cancelled;
      } while (s.again);
    } finally {
      looks.delete(ctx.runId);
    }
    return cancelled;
  })();
  looks.set(ctx.runId, s);
  return s.done;
}

interface LookState {
  again: boolean;
  done: Promise<boolean>;
}
const looks = new Map<string, LookState>();

async function look(ctx: RunContext): Promise<boolean> {
  const opts = ctx.settings.stopWhenDecided!;
  const [trials, decided] = await Promise.all([stoppingTrials(ctx.runId), storedStopDecisions(ctx.runId)]);
  const { decisions, stoppedStudies } = lookAtRun(ctx.spec, trials, opts, decided);
  const fresh = Object.keys(decisions).filter((k) => !decided[k]);
  if (fresh.length > 0) {
    await addStopDecisions(ctx.runId, Object.fromEntries(fresh.map((k) => [k, decisions[k]])));
    for (const k of fresh) log('info', 'comparison decided', { runId: ctx.runId, comparison: k, reason: decisions[k].reason, afterPairs: decisions[k].afterPairs });
  }
  let cancelled = 0;
  for (const study of stoppedStudies) cancelled += await cancelUnsentPairs(ctx.runId, study);
  if (cancelled > 0) log('info', 'stopped when decided', { runId: ctx.runId, studies: stoppedStudies, trialsNotSent: cancelled });
  return cancelled > 0;
}
