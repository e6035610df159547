import { randomUUID } from 'node:crypto';
import { pool, utcTimestamp } from './client';
import type { Actor } from '../schema/actor';
import { actorLabel, actorUserId } from '../schema/actor';
import type {
  OptimisationCandidate,
  OptimisationRequest,
  OptimisationResult,
  OptimisationRow,
  OptimisationStage,
  SplitShares,
  StoredSelectionRule,
} from '../schema/optimisation';

// The improve-descriptions records (docs/optimise.md): rows in, rows out. Every step fills what was empty and
// moves the stage forward only from the stage it expects, so nothing stored is overwritten: the rule and the
// candidates are written with the row, the winner(s) once (select → frozen), the look number once.

type Row = {
  id: string;
  created_at: string;
  updated_at: string;
  actor: string;
  experiment_id: string;
  study_id: string;
  split_seed: number;
  split_shares: SplitShares;
  sealed_count: number;
  sealed_hash: string;
  rule: StoredSelectionRule;
  targets: string[];
  candidates: OptimisationCandidate[];
  stage: OptimisationStage;
  select_experiment_id: string | null;
  select_run_id: string | null;
  winners: string[] | null;
  frozen_at: string | null;
  look: number | null;
  confirm_experiment_id: string | null;
  confirm_run_ids: string[] | null;
  result: OptimisationResult | null;
  error: string | null;
};

const COLUMNS = `id, created_at::text AS created_at, updated_at::text AS updated_at, actor, experiment_id, study_id, split_seed,
  split_shares, sealed_count, sealed_hash, rule, targets, candidates, stage, select_experiment_id, select_run_id, winners,
  frozen_at::text AS frozen_at, look, confirm_experiment_id, confirm_run_ids, result, error`;

const toRow = (r: Row): OptimisationRow => ({
  id: r.id,
  createdAt: utcTimestamp(r.created_at),
  updatedAt: utcTimestamp(r.updated_at),
  actor: r.actor,
  experimentId: r.experiment_id,
  studyId: r.study_id,
  splitSeed: r.split_seed,
  splitShares: r.split_shares,
  sealed: { count: r.sealed_count, sha256: r.sealed_hash },
  rule: r.rule,
  targets: r.targets,
  candidates: r.candidates,
  stage: r.stage,
  selectExperimentId: r.select_experiment_id,
  selectRunId: r.select_run_id,
  winners: r.winners,
  frozenAt: utcTimestamp(r.frozen_at),
  look: r.look,
  confirmExperimentId: r.confirm_experiment_id,
  confirmRunIds: r.confirm_run_ids,
  result: r.result,
  error: r.error,
});

/** A new record: the row's fields known before anything runs, who starts it, and what the worker needs. */
export type NewOptimisation = Pick<OptimisationRow, 'experimentId' | 'studyId' | 'splitSeed' | 'splitShares' | 'sealed' | 'rule' | 'targets' | 'candidates'> & {
  actor: Actor;
  /** What the worker needs to continue the record (lib/optimise/loop.ts advanceOptimisation). */
  request: OptimisationRequest;
};

/** A new record at stage `select`: the rule and the candidates are stored before anything runs. */
export async function insertOptimisation(o: NewOptimisation): Promise<OptimisationRow> {
  const r = await pool().query<Row>(
    `INSERT INTO optimisations (id, actor, actor_user_id, experiment_id, study_id, split_seed, split_shares, sealed_count, sealed_hash, rule, targets, candidates, request)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${COLUMNS}`,
    [
      `opt_${randomUUID()}`,
      actorLabel(o.actor),
      actorUserId(o.actor),
      o.experimentId,
      o.studyId,
      o.splitSeed,
      JSON.stringify(o.splitShares),
      o.sealed.count,
      o.sealed.sha256,
      JSON.stringify(o.rule),
      JSON.stringify(o.targets),
      JSON.stringify(o.candidates),
      JSON.stringify(o.request),
    ],
  );
  return toRow(r.rows[0]);
}

export async function getOptimisation(id: string): Promise<OptimisationRow | null> {
  const r = await pool().query<Row>(`SELECT ${COLUMNS} FROM optimisations WHERE id = $1`, [id]);
  return r.rows[0] ? toRow(r.rows[0]) : null;
}

/** Every record of a source version's study, oldest first. */
export async function listOptimisations(experimentId: string, studyId?: string): Promise<OptimisationRow[]> {
  const r = await pool().query<Row>(`SELECT ${COLUMNS} FROM optimisations WHERE experiment_id = $1 AND ($2::text IS NULL OR study_id = $2) ORDER BY created_at, id`, [
    experimentId,
    studyId ?? null,
  ]);
  return r.rows.map(toRow);
}

/** The record a run belongs to — its select run or one of its confirm runs — with the stage; null for any other run. */
export async function optimisationOfRun(runId: string): Promise<{ id: string; experimentId: string; stage: 'select' | 'confirm' } | null> {
  const r = await pool().query<{ id: string; experiment_id: string; select_run_id: string | null }>(
    `SELECT id, experiment_id, select_run_id FROM optimisations WHERE select_run_id = $1 OR confirm_run_ids ? $1 ORDER BY created_at, id LIMIT 1`,
    [runId],
  );
  const row = r.rows[0];
  return row ? { id: row.id, experimentId: row.experiment_id, stage: row.select_run_id === runId ? 'select' : 'confirm' } : null;
}

class StageError extends Error {
  constructor(id: string, expected: string, what: string) {
    super(`optimisation ${id}: ${what} needs stage ${expected}`);
    this.name = 'StageError';
  }
}

async function updateOne(id: string, expected: OptimisationStage, what: string, set: string, values: unknown[]): Promise<OptimisationRow> {
  const r = await pool().query<Row>(`UPDATE optimisations SET ${set}, updated_at = now() WHERE id = $1 AND stage = $2 RETURNING ${COLUMNS}`, [id, expected, ...values]);
  if (!r.rows[0]) throw new StageError(id, expected, what);
  return toRow(r.rows[0]);
}

/** What the worker needs to continue the record (null for a record stored before it was kept). */
export async function getOptimisationRequest(id: string): Promise<OptimisationRequest | null> {
  const r = await pool().query<{ request: OptimisationRequest | null }>(`SELECT request FROM optimisations WHERE id = $1`, [id]);
  return r.rows[0]?.request ?? null;
}

/** The select version and its run (once: a second select run for the same record is refused). */
export async function setSelectRun(id: string, selectExperimentId: string, selectRunId: string): Promise<OptimisationRow> {
  const r = await pool().query<Row>(
    `UPDATE optimisations SET select_experiment_id = $3, select_run_id = $4, updated_at = now()
     WHERE id = $1 AND stage = $2 AND select_run_id IS NULL RETURNING ${COLUMNS}`,
    [id, 'select', selectExperimentId, selectRunId],
  );
  if (!r.rows[0]) throw new StageError(id, 'select without a select run', 'the select run');
  return toRow(r.rows[0]);
}

/**
 * Freeze the winner(s): select → frozen (or no-winner when none), with the select ranking in `result` and the
 * time of the freeze. Only from stage `select`: a frozen record is never frozen again.
 */
export function freezeWinners(id: string, winners: string[], result: OptimisationResult, frozenAt: Date): Promise<OptimisationRow> {
  return updateOne(id, 'select', 'freezing the winners', `stage = $3, winners = $4, result = $5, frozen_at = ($6::timestamptz AT TIME ZONE 'UTC')`, [
    winners.length ? 'frozen' : 'no-winner',
    JSON.stringify(winners),
    JSON.stringify(result),
    frozenAt.toISOString(),
  ]);
}

/**
 * The next look at this sealed split: 1 + the highest look of any record of the same source version, study
 * and seal (a unique index keeps two confirmations from taking one number; the loser retries). Frozen only.
 */
export async function takeLook(id: string, confirmExperimentId: string): Promise<OptimisationRow> {
  for (let tries = 0; ; tries++) {
    try {
      const r = await pool().query<Row>(
        `UPDATE optimisations o SET look = 1 + coalesce((SELECT max(x.look) FROM optimisations x
            WHERE x.experiment_id = o.experiment_id AND x.study_id = o.study_id AND x.sealed_hash = o.sealed_hash), 0),
           confirm_experiment_id = $3, updated_at = now()
         WHERE o.id = $1 AND o.stage = $2 AND o.look IS NULL RETURNING ${COLUMNS}`,
        [id, 'frozen', confirmExperimentId],
      );
      if (!r.rows[0]) throw new StageError(id, 'frozen', 'a confirm look');
      return toRow(r.rows[0]);
    } catch (e) {
      if ((e as { code?: string }).code === '23505' && tries < 5) continue;
      throw e;
    }
  }
}

/** The confirm runs (once: a second set for the same record is refused). */
export async function setConfirmRuns(id: string, runIds: string[]): Promise<OptimisationRow> {
  const r = await pool().query<Row>(
    `UPDATE optimisations SET confirm_run_ids = $3, updated_at = now() WHERE id = $1 AND stage = $2 AND confirm_run_ids IS NULL RETURNING ${COLUMNS}`,
    [id, 'frozen', JSON.stringify(runIds)],
  );
  if (!r.rows[0]) throw new StageError(id, 'frozen without confirm runs', 'the confirm runs');
  return toRow(r.rows[0]);
}

/**
 * Holds the record for one advance at a time (a session advisory lock on its own connection, released by
 * `release`): a job delivered twice continues the record once. Null when another advance holds it.
 */
export async function holdOptimisation(id: string): Promise<{ release: () => Promise<void> } | null> {
  const client = await pool().connect();
  try {
    const r = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(hashtext('optimisation:' || $1)) AS ok`, [id]);
    if (!r.rows[0].ok) {
      client.release();
      return null;
    }
  } catch (e) {
    client.release();
    throw e;
  }
  return {
    async release() {
      try {
        await client.query(`SELECT pg_advisory_unlock(hashtext('optimisation:' || $1))`, [id]);
      } finally {
        client.release();
      }
    },
  };
}

/** The confirmation's readings: frozen → confirmed. */
export function storeConfirmation(id: string, result: OptimisationResult): Promise<OptimisationRow> {
  return updateOne(id, 'frozen', 'the confirmation', `stage = 'confirmed', result = $3`, [JSON.stringify(result)]);
}

/** A loop that could not go on (a run that did not complete): the reason, kept beside what was stored. */
export async function failOptimisation(id: string, error: string): Promise<OptimisationRow | null> {
  const r = await pool().query<Row>(
    `UPDATE optimisations SET stage = 'failed', error = $2, updated_at = now() WHERE id = $1 AND stage IN ('select', 'frozen') RETURNING ${COLUMNS}`,
    [id, error],
  );
  return r.rows[0] ? toRow(r.rows[0]) : null;
}

/** The earlier looks at the same sealed split (records with a look number below `look` and readings stored). */
export async function earlierLooks(experimentId: string, studyId: string, sealedHash: string, look: number): Promise<OptimisationRow[]> {
  const r = await pool().query<Row>(`SELECT ${COLUMNS} FROM optimisations WHERE experiment_id = $1 AND study_id = $2 AND sealed_hash = $3 AND look < $4 ORDER BY look`, [
    experimentId,
    studyId,
    sealedHash,
    look,
  ]);
  return r.rows.map(toRow);
}
