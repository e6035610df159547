import { pool } from './client';
import { jsonbText } from './jsonb-escape';
import { actorLabel, actorUserId, type Actor } from '../schema/actor';
import type { AuditAction, AuditEntry } from '../schema/audit';

// Who did what, when. Each change of an experiment, a run or a review is recorded by the door that made it.

export { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from '../schema/audit';

export async function recordAudit(
  actor: Actor,
  action: AuditAction,
  target: { experimentId?: string | null; runId?: string | null },
  detail: Record<string, unknown> = {},
  /** A transaction's client, to record the event with the change it attributes (default: the pool). */
  db: { query: (sql: string, params: unknown[]) => Promise<unknown> } = pool(),
): Promise<void> {
  await db.query(
    `INSERT INTO audit_events (actor, actor_user_id, action, experiment_id, run_id, detail) VALUES ($1, $2, $3, $4, $5, $6)`,
    auditValues(actor, action, target, detail),
  );
}

/** recordAudit that returns the entry's id (to be read back with auditEvent). */
export async function recordAuditWithId(
  actor: Actor,
  action: AuditAction,
  target: { experimentId?: string | null; runId?: string | null },
  detail: Record<string, unknown> = {},
): Promise<string> {
  const r = await pool().query<{ id: string }>(
    `INSERT INTO audit_events (actor, actor_user_id, action, experiment_id, run_id, detail) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::text AS id`,
    auditValues(actor, action, target, detail),
  );
  return r.rows[0].id;
}

function auditValues(actor: Actor, action: AuditAction, target: { experimentId?: string | null; runId?: string | null }, detail: Record<string, unknown>): unknown[] {
  return [
    actorLabel(actor),
    actorUserId(actor),
    action,
    target.experimentId ?? null,
    target.runId ?? null,
    jsonbText(detail), // a model's answer may hold U+0000 (docs/faults.md)
  ];
}

type Row = {
  at: Date;
  actor: string;
  actor_user_id: string | null;
  action: AuditAction;
  experiment_id: string | null;
  run_id: string | null;
  detail: Record<string, unknown>;
};
const toEntry = (r: Row): AuditEntry => ({
  at: r.at,
  actor: r.actor,
  actorUserId: r.actor_user_id,
  action: r.action,
  experimentId: r.experiment_id,
  runId: r.run_id,
  detail: r.detail,
});
const COLS = 'at, actor, actor_user_id, action, experiment_id, run_id, detail';

/** One entry by its id (recordAuditWithId), or null. */
export async function auditEvent(id: string): Promise<AuditEntry | null> {
  if (!/^[0-9]{1,18}$/.test(id)) return null;
  const r = await pool().query<Row>(`SELECT ${COLS} FROM audit_events WHERE id = $1`, [id]);
  return r.rows[0] ? toEntry(r.rows[0]) : null;
}

/** A run's entries, oldest first. */
export async function runAudit(runId: string): Promise<AuditEntry[]> {
  const r = await pool().query<Row>(`SELECT ${COLS} FROM audit_events WHERE run_id = $1 ORDER BY at, id`, [runId]);
  return r.rows.map(toEntry);
}

/** An experiment's entries and those of its runs, oldest first. */
export async function experimentAudit(experimentId: string): Promise<AuditEntry[]> {
  const r = await pool().query<Row>(
    `SELECT ${COLS} FROM audit_events
      WHERE experiment_id = $1 OR run_id IN (SELECT id FROM runs WHERE experiment_id = $1) ORDER BY at, id`,
    [experimentId],
  );
  return r.rows.map(toEntry);
}

/** The accounts' entries (added, role changed), oldest first. */
export async function userAudit(): Promise<AuditEntry[]> {
  const r = await pool().query<Row>(`SELECT ${COLS} FROM audit_events WHERE action IN ('user.added', 'user.role_changed') ORDER BY at, id`);
  return r.rows.map(toEntry);
}
