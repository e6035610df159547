// Use case: what a door shows of a run as stored — the run, its group, its progress, a page of its trials,
// one trial with its attempts, the pre-flight checks and the run's audit trail. Plain reads with nothing to
// compose: lib/db stores the rows, and the doors read them here (docs/architecture.md).

export { getRun, listRunGroup, listRuns, runProgress, runsProgress } from '../db/runs';
export { trialPage } from '../db/trial-page';
export { getTrialRecord, precheckAttempts } from '../db/results';
export { runAudit } from '../db/audit';
