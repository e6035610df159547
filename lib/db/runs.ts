import { randomBytes } from 'node:crypto';
import { StoredRunBudget, type RunSettings, RunSettings as RunSettingsSchema } from '../schema/run';
import { COMPLETED_RUN_STATUSES, FINISHED_STAMP_STATUSES, PENDING_TRIAL_STATUSES, RunStatus } from '../schema/run-status';
import { oneOf } from './checked';
import { db, pool, utcTimestamp } from './client';
import type { RunProgress, RunRow } from '../schema/run-row';

export type { RunProgress, RunRow } from '../schema/run-row';

export function newRunGroupId(): string {
  return `g_${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
}

export function newRunId(): string {
  return `r_${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
}

const runStatus = oneOf(RunStatus.options, 'runs.status');

function toRunRow(r: { settings: unknown; status: string; budget?: unknown } & Omit<RunRow, 'settings' | 'status' | 'budget'>): RunRow {
  const {
    budgetSent: _s,
    budgetInputTokens: _i,
    budgetOutputTokens: _o,
    stopping: _stopping, // read through lib/db/stopping.ts
    ...rest
  } = r as typeof r & Record<'budgetSent' | 'budgetInputTokens' | 'budgetOutputTokens' | 'stopping', unknown>;
  return {
    ...rest,
    settings: RunSettingsSchema.parse(r.settings),
    status: runStatus(r.status),
    budget: r.budget === null || r.budget === undefined ? null : StoredRunBudget.parse(r.budget),
  };
}

export async function insertRun(run: {
  id: string;
  experimentId: string;
  settings: RunSettings;
  totalTrials: number;
  groupId?: string | null;
  budget?: StoredRunBudget | null;
  name?: string | null;
  note?: string | null;
}): Promise<RunRow> {
  // plain SQL (as getRun): a CLI that creates a run never loads Prisma's query engine
  await pool().query(
    `INSERT INTO runs (id, experiment_id, provider, model, settings, total_trials, group_id, budget, name, note) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      run.id,
      run.experimentId,
      run.settings.provider,
      run.settings.model,
      JSON.stringify(run.settings),
      run.totalTrials,
      run.groupId ?? null,
      run.budget ? JSON.stringify(run.budget) : null,
      run.name ?? null,
      run.note ?? null,
    ],
  );
  const row = await getRun(run.id);
  if (!row) throw new Error(`run ${run.id} was not stored`);
  return row;
}

// Plain SQL rather than Prisma: workers read runs all the time, and a process that never queries
// through Prisma never loads its query engine (~80 MB resident).
export async function getRun(id: string): Promise<RunRow | null> {
  const r = await pool().query<{
    id: string;
    experiment_id: string;
    provider: string;
    model: string;
    settings: unknown;
    status: string;
    status_reason: string | null;
    total_trials: number;
    created_at: string;
    started_at: string | null;
    finished_at: string | null;
    group_id: string | null;
    budget: unknown;
    name: string | null;
    note: string | null;
    unsent_reason: string | null;
  }>(
    `SELECT id, experiment_id, provider, model, settings, status, status_reason, total_trials,
            created_at::text AS created_at, started_at::text AS started_at, finished_at::text AS finished_at, group_id, budget, name, note,
            unsent_reason
       FROM runs WHERE id = $1`,
    [id],
  );
  const x = r.rows[0];
  if (!x) return null;
  return toRunRow({
    id: x.id,
    experimentId: x.experiment_id,
    provider: x.provider,
    model: x.model,
    settings: x.settings,
    status: x.status,
    statusReason: x.status_reason,
    totalTrials: x.total_trials,
    createdAt: utcTimestamp(x.created_at),
    startedAt: utcTimestamp(x.started_at),
    finishedAt: utcTimestamp(x.finished_at),
    groupId: x.group_id,
    budget: x.budget,
    name: x.name,
    note: x.note,
    unsentReason: x.unsent_reason,
  });
}

/**
 * A run stored before base URLs were fixed on runs (no baseUrl in its settings): this base URL is fixed on it
 * now, unless another process fixed one first. Returns the run's settings as stored afterwards.
 */
export async function fixRunBaseUrl(runId: string, baseUrl: string): Promise<RunSettings | null> {
  await pool().query(
    `UPDATE runs SET settings = jsonb_set(settings, '{baseUrl}', to_jsonb($2::text))
      WHERE id = $1 AND (settings->'baseUrl' IS NULL OR settings->'baseUrl' = 'null'::jsonb)`,
    [runId, baseUrl],
  );
  return (await getRun(runId))?.settings ?? null;
}

/** Why a worker left the run's trials unsent (null clears it: a worker that can send there took the run). */
export async function setUnsentReason(runId: string, reason: string | null): Promise<void> {
  await pool().query(`UPDATE runs SET unsent_reason = $2 WHERE id = $1 AND unsent_reason IS DISTINCT FROM $2`, [runId, reason]);
}

/** The runs of one group, oldest first (the order their targets were given). */
export async function listRunGroup(groupId: string): Promise<RunRow[]> {
  const rows = await (await db()).run.findMany({ where: { groupId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map(toRunRow);
}

/** The newest 200 runs (of one experiment); `q`: only those whose name or note contains it (any case). */
export async function listRuns(experimentId?: string, q?: string): Promise<RunRow[]> {
  const term = q?.trim();
  const rows = await (
    await db()
  ).run.findMany({
    where: {
      ...(experimentId ? { experimentId } : {}),
      ...(term ? { OR: [{ name: { contains: term, mode: 'insensitive' as const } }, { note: { contains: term, mode: 'insensitive' as const } }] } : {}),
    },
    orderBy: { createdAt: 'desc' },
    take: 200,
  });
  return rows.map(toRunRow);
}

/** Set a run's name and note (already checked: lib/schema/run-label.ts). False when there is no such run. */
export async function setRunLabel(id: string, label: { name: string | null; note: string | null }): Promise<boolean> {
  const r = await pool().query(`UPDATE runs SET name = $2, note = $3 WHERE id = $1`, [id, label.name, label.note]);
  return (r.rowCount ?? 0) > 0;
}

/** Compare-and-set of the run's status: returns false when the run was not in one of `from`. */
export async function setRunStatus(id: string, from: RunStatus[], to: RunStatus, reason: string | null = null): Promise<boolean> {
  return (await changeRunStatus(id, from, to, reason)) !== null;
}

/** setRunStatus, saying which status the run left (null: it was in none of `from`, nothing changed). */
export async function changeRunStatus(id: string, from: RunStatus[], to: RunStatus, reason: string | null = null): Promise<{ from: RunStatus } | null> {
  const stamps = to === 'running' ? ', started_at = COALESCE(started_at, now())' : FINISHED_STAMP_STATUSES.includes(to) ? ', finished_at = now()' : '';
  // the subquery reads the statement's snapshot: the status before this update
  const r = await pool().query<{ from_status: RunStatus }>(
    `UPDATE runs SET status = $2, status_reason = $3${stamps} WHERE id = $1 AND status = ANY($4::text[])
     RETURNING (SELECT status FROM runs WHERE id = $1) AS from_status`,
    [id, to, reason, from],
  );
  return r.rows[0] ? { from: r.rows[0].from_status } : null;
}

/**
 * Marks a running run finished once no trial is left queued or running: `completed`, or
 * `completed_with_unresolved` when any trial ended unresolved (with how many in the reason).
 * Cheap: uses (run_id, status).
 */
export async function completeRunIfDone(id: string): Promise<boolean> {
  return (await completeRun(id)) !== null;
}

/** How a run finished: its final status and reason, its trials, and how long it ran (null: unknown). */
export interface RunFinish {
  status: RunStatus;
  reason: string | null;
  trials: number;
  durationMs: number | null;
}

/** completeRunIfDone, saying how the run finished (null: it did not finish now). */
export async function completeRun(id: string): Promise<RunFinish | null> {
  // The progress is frozen in the same statement (one snapshot): nothing is pending, and a completed run has
  // no way back, so its trials and formal attempts change no more (runsProgress and resultsVersion read it).
  const r = await pool().query(
    `WITH u AS (SELECT count(*)::int AS n FROM trials WHERE run_id = $1 AND status = 'unresolved')
     UPDATE runs SET finished_at = now(),
            status = CASE WHEN (SELECT n FROM u) > 0 THEN $3 ELSE $2 END,
            status_reason = CASE WHEN (SELECT n FROM u) > 0
              THEN (SELECT n FROM u) || ' of ' || total_trials || ' trials unresolved (every attempt failed in transport)' END,
            final_progress = (${PROGRESS_SQL.replaceAll('$1', 'ARRAY[$1]')})
       WHERE id = $1 AND status = 'running'
         AND NOT EXISTS (SELECT 1 FROM trials WHERE run_id = $1 AND status = ANY($4::text[]))
     RETURNING status, status_reason, total_trials, round(extract(epoch FROM finished_at - started_at) * 1000)::bigint::text AS ms`,
    [id, 'completed' satisfies RunStatus, 'completed_with_unresolved' satisfies RunStatus, PENDING_TRIAL_STATUSES],
  );
  const done = r.rows[0] as { status: RunStatus; status_reason: string | null; total_trials: number; ms: string | null } | undefined;
  return done ? { status: done.status, reason: done.status_reason, trials: done.total_trials, durationMs: done.ms === null ? null : Number(done.ms) } : null;
}

/**
 * Progress counts of runs $1 (text[]) as one jsonb per run: trials per status and the formal attempts'
 * totals. One value per run when the statement names one run (completeRunIfDone).
 */
const PROGRESS_SQL = `
  SELECT jsonb_build_object('byStatus', COALESCE((SELECT jsonb_object_agg(s.status, s.n) FROM (SELECT status, count(*)::int AS n FROM trials WHERE run_id = ANY($1::text[]) GROUP BY status) s), '{}'::jsonb),
           'attempts', a.attempts, 'transportErrors', a.transport, 'lostAttempts', a.lost, 'inputTokens', a.input, 'outputTokens', a.output)
    FROM (SELECT count(*)::int AS attempts, count(*) FILTER (WHERE outcome = 'transport_error')::int AS transport,
                 count(*) FILTER (WHERE outcome = 'lost')::int AS lost, COALESCE(sum(input_tokens), 0)::bigint AS input, COALESCE(sum(output_tokens), 0)::bigint AS output
            FROM attempts WHERE run_id = ANY($1::text[]) AND kind = 'formal') a`;

export async function runProgress(id: string): Promise<RunProgress> {
  return (await runsProgress([id])).get(id)!;
}

interface FrozenProgress {
  byStatus: Record<string, number>;
  attempts: number;
  transportErrors: number;
  lostAttempts: number;
  inputTokens: number;
  outputTokens: number;
}

function progressOf(byStatus: Record<string, number>, row: Omit<FrozenProgress, 'byStatus'>): RunProgress {
  const total = Object.values(byStatus).reduce((s, n) => s + n, 0);
  const queued = byStatus.queued ?? 0;
  const inFlight = byStatus.running ?? 0;
  return {
    total,
    byStatus,
    queued,
    inFlight,
    done: total - queued - inFlight,
    attempts: Number(row.attempts),
    transportErrors: Number(row.transportErrors),
    lostAttempts: Number(row.lostAttempts),
    inputTokens: Number(row.inputTokens),
    outputTokens: Number(row.outputTokens),
  };
}

/**
 * Progress of several runs: a completed run's from the progress frozen when it completed (one row), the
 * others' in two grouped queries (list pages: not two queries per run).
 */
export async function runsProgress(ids: string[]): Promise<Map<string, RunProgress>> {
  const frozen = await pool().query<{ id: string; final_progress: FrozenProgress }>(
    `SELECT id, final_progress FROM runs WHERE id = ANY($1::text[]) AND status = ANY($2::text[]) AND final_progress IS NOT NULL`,
    [ids, COMPLETED_RUN_STATUSES],
  );
  const out = new Map<string, RunProgress>();
  for (const r of frozen.rows) out.set(r.id, progressOf(r.final_progress.byStatus, r.final_progress));
  const live = ids.filter((id) => !out.has(id));
  if (live.length === 0) return new Map(ids.map((id) => [id, out.get(id)!]));
  for (const [id, p] of await liveProgress(live)) out.set(id, p);
  return new Map(ids.map((id) => [id, out.get(id)!]));
}

async function liveProgress(ids: string[]): Promise<Map<string, RunProgress>> {
  const [t, a] = await Promise.all([
    pool().query<{ run_id: string; status: string; n: string }>(
      'SELECT run_id, status, count(*)::text AS n FROM trials WHERE run_id = ANY($1::text[]) GROUP BY run_id, status',
      [ids],
    ),
    pool().query<{ run_id: string; attempts: string; transport: string; lost: string; input: string | null; output: string | null }>(
      `SELECT run_id, count(*)::text AS attempts,
              count(*) FILTER (WHERE outcome = 'transport_error')::text AS transport,
              count(*) FILTER (WHERE outcome = 'lost')::text AS lost,
              sum(input_tokens)::text AS input, sum(output_tokens)::text AS output
         FROM attempts WHERE run_id = ANY($1::text[]) AND kind = 'formal' GROUP BY run_id`,
      [ids],
    ),
  ]);
  const statuses = new Map<string, Record<string, number>>(ids.map((id) => [id, {}]));
  for (const r of t.rows) statuses.get(r.run_id)![r.status] = Number(r.n);
  const attempts = new Map(a.rows.map((r) => [r.run_id, r]));
  const out = new Map<string, RunProgress>();
  for (const [id, byStatus] of statuses) {
    const row = attempts.get(id);
    out.set(
      id,
      progressOf(byStatus, {
        attempts: Number(row?.attempts ?? 0),
        transportErrors: Number(row?.transport ?? 0),
        lostAttempts: Number(row?.lost ?? 0),
        inputTokens: Number(row?.input ?? 0),
        outputTokens: Number(row?.output ?? 0),
      }),
    );
  }
  return out;
}

/** Runs whose trials should be flowing (for reconcile). */
export async function activeRunIds(): Promise<string[]> {
  const r = await pool().query<{ id: string }>(`SELECT id FROM runs WHERE status = 'running'`);
  return r.rows.map((x) => x.id);
}

/** The batches of these runs with a trial that is not final, per run (what reconcile compares with the queue's open jobs). */
export async function pendingBatchesByRun(runIds: string[]): Promise<Map<string, number[]>> {
  const r = await pool().query<{ run_id: string; batches: number[] }>(
    `SELECT run_id, array_agg(DISTINCT batch) AS batches FROM trials WHERE run_id = ANY($1::text[]) AND status = ANY($2::text[]) GROUP BY run_id`,
    [runIds, PENDING_TRIAL_STATUSES],
  );
  return new Map(r.rows.map((x) => [x.run_id, x.batches]));
}
