import type { Command } from 'commander';
import { controlRunAs, type ControlAction } from '../../lib/runs/control';
import { getRun, runProgress } from '../../lib/runs/read';
import { UsageError } from '../errors';
import { cliActor, shutdown } from './shared';
import { out, setExitCode } from '../output';
import { runBatchState } from '../../lib/runs/batch';
import { isFinalRunStatus } from '../../lib/schema/run-status';

export function register(program: Command): void {
  for (const action of ['pause', 'resume', 'cancel'] as ControlAction[]) {
    program
      .command(`${action} <runId>`)
      .description(
        action === 'pause'
          ? 'stop sending new requests until resumed'
          : action === 'resume'
            ? 'resume a paused (or stopped) run'
            : 'stop new requests; what was sent stays recorded',
      )
      .action(async (runId: string) => {
        const r = await controlRunAs(cliActor(), runId, action);
        await shutdown();
        if (r.status === 'missing') throw new UsageError(r.message);
        out(`${runId}: ${r.message}\n`);
        setExitCode(r.ok ? 0 : 1);
      });
  }
  program
    .command('status <runId>')
    .description('print the run’s status and progress as JSON')
    .action(async (runId: string) => {
      const run = await getRun(runId);
      if (!run) {
        await shutdown();
        throw new UsageError(`no run "${runId}"`);
      }
      const progress = await runProgress(runId);
      // batch mode: the provider batches' state and the estimated saving (absent for a run sent one by one)
      const batch = await runBatchState(runId);
      await shutdown();
      // why a worker left its trials unsent (its configuration does not fit the run's base URL), while it has some to send
      const unsent = run.unsentReason !== null && !isFinalRunStatus(run.status) ? { unsentReason: run.unsentReason } : {};
      out(`${JSON.stringify({ id: run.id, status: run.status, statusReason: run.statusReason, ...unsent, progress, ...(batch ? { batch } : {}) }, null, 2)}\n`);
    });
}
