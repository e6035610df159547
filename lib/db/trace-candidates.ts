import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { pool, withTransaction } from './client';
import { recordAudit } from './audit';
import type { Actor } from '../schema/actor';
import { actorLabel, actorUserId } from '../schema/actor';
import { isCaseCard, isTraceCandidate, type CaseCard, type CatalogCompleteness, type TraceCandidate } from '../schema/trace-candidate';

// Trace imports and their candidates (docs/traces.md): rows in, rows out. An import is written in one
// transaction (TraceImportWriter): the candidates as they come, the report and the audit entry last; a
// failure rolls all of it back.

export interface CandidateRow {
  importId: string;
  seq: number;
  hash: string;
  groupHash: string;
  groupSize: number;
  stratum: string;
  catalogCompleteness: CatalogCompleteness;
  candidate: TraceCandidate;
  status: 'unreviewed' | 'accepted' | 'rejected';
  /** The reviewer's card of an accepted candidate; null otherwise. */
  card: CaseCard | null;
  rejectReason: string | null;
  reviewer: string | null;
  reviewedAt: Date | null;
}

export interface NewCandidate {
  hash: string;
  groupHash: string;
  stratum: string;
  catalogCompleteness: CatalogCompleteness;
  candidate: TraceCandidate;
}

export interface TraceImportRow {
  id: string;
  createdAt: Date;
  actor: string;
  format: string;
  file: string;
  experimentId: string | null;
  report: unknown;
}

export class TraceImportWriter {
  private seq = 0;
  private constructor(
    readonly id: string,
    private readonly client: PoolClient,
  ) {}

  static async begin(input: { actor: Actor; format: string; file: string; experimentId: string | null }): Promise<TraceImportWriter> {
    const client = await pool().connect();
    try {
      await client.query('BEGIN');
      const id = randomUUID();
      await client.query(`INSERT INTO trace_imports (id, actor, actor_user_id, format, file, experiment_id, report) VALUES ($1, $2, $3, $4, $5, $6, '{}')`, [
        id,
        actorLabel(input.actor),
        actorUserId(input.actor),
        input.format,
        input.file,
        input.experimentId,
      ]);
      return new TraceImportWriter(id, client);
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
      throw e;
    }
  }

  async insert(rows: NewCandidate[]): Promise<void> {
    if (rows.length === 0) return;
    const seqs = rows.map(() => ++this.seq);
    await this.client.query(
      `INSERT INTO trace_candidates (import_id, seq, hash, group_hash, stratum, catalog_completeness, candidate)
       SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[])`,
      [
        this.id,
        seqs,
        rows.map((r) => r.hash),
        rows.map((r) => r.groupHash),
        rows.map((r) => r.stratum),
        rows.map((r) => r.catalogCompleteness),
        rows.map((r) => JSON.stringify(r.candidate)),
      ],
    );
  }

  /** The report, the group sizes, the audit entry; then COMMIT. */
  async commit(report: unknown, actor: Actor): Promise<void> {
    try {
      await this.client.query(`UPDATE trace_imports SET report = $2 WHERE id = $1`, [this.id, JSON.stringify(report)]);
      await this.client.query(
        `UPDATE trace_candidates c SET group_size = g.n
           FROM (SELECT group_hash, count(*)::int AS n FROM trace_candidates WHERE import_id = $1 GROUP BY group_hash) g
          WHERE c.import_id = $1 AND c.hash = c.group_hash AND g.group_hash = c.hash`,
        [this.id],
      );
      const r = await this.client.query<{ experiment_id: string | null }>(`SELECT experiment_id FROM trace_imports WHERE id = $1`, [this.id]);
      await recordAudit(actor, 'traces.imported', { experimentId: r.rows[0].experiment_id }, { importId: this.id, report }, this.client);
      await this.client.query('COMMIT');
    } catch (e) {
      await this.client.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      this.client.release();
    }
  }

  async rollback(): Promise<void> {
    try {
      await this.client.query('ROLLBACK');
    } finally {
      this.client.release();
    }
  }
}

type Row = {
  import_id: string;
  seq: number;
  hash: string;
  group_hash: string;
  group_size: number;
  stratum: string;
  catalog_completeness: string;
  candidate: unknown;
  status: CandidateRow['status'];
  card: unknown;
  reject_reason: string | null;
  reviewer: string | null;
  reviewed_at: Date | null;
};
/** A stored row, its JSON checked here so that no caller casts it: a row that is not what the import and the review write is refused. */
function toRow(r: Row): CandidateRow {
  const { candidate, card } = r;
  if (!isTraceCandidate(candidate) || candidate.catalogCompleteness !== r.catalog_completeness)
    throw new Error(`trace candidate ${r.import_id}/${r.seq}: the stored candidate is not one an importer writes`);
  if (card !== null && !isCaseCard(card)) throw new Error(`trace candidate ${r.import_id}/${r.seq}: the stored card is not one a review writes`);
  return {
    importId: r.import_id,
    seq: r.seq,
    hash: r.hash,
    groupHash: r.group_hash,
    groupSize: r.group_size,
    stratum: r.stratum,
    catalogCompleteness: candidate.catalogCompleteness,
    candidate,
    status: r.status,
    card,
    rejectReason: r.reject_reason,
    reviewer: r.reviewer,
    reviewedAt: r.reviewed_at,
  };
}

export async function getTraceImport(id: string): Promise<TraceImportRow | null> {
  const r = await pool().query<{ id: string; created_at: Date; actor: string; format: string; file: string; experiment_id: string | null; report: unknown }>(
    `SELECT id, created_at, actor, format, file, experiment_id, report FROM trace_imports WHERE id = $1`,
    [id],
  );
  const x = r.rows[0];
  return x ? { id: x.id, createdAt: x.created_at, actor: x.actor, format: x.format, file: x.file, experimentId: x.experiment_id, report: x.report } : null;
}

export async function listTraceImports(limit = 50): Promise<TraceImportRow[]> {
  const r = await pool().query<{ id: string; created_at: Date; actor: string; format: string; file: string; experiment_id: string | null; report: unknown }>(
    `SELECT id, created_at, actor, format, file, experiment_id, report FROM trace_imports ORDER BY created_at DESC, id LIMIT $1`,
    [limit],
  );
  return r.rows.map((x) => ({ id: x.id, createdAt: x.created_at, actor: x.actor, format: x.format, file: x.file, experimentId: x.experiment_id, report: x.report }));
}

/** The group heads of an import, in the order they were read (the review queue). */
export async function listCandidateHeads(importId: string): Promise<CandidateRow[]> {
  const r = await pool().query<Row>(`SELECT * FROM trace_candidates WHERE import_id = $1 AND hash = group_hash ORDER BY seq`, [importId]);
  return r.rows.map(toRow);
}

export async function getCandidate(importId: string, seq: number): Promise<CandidateRow | null> {
  const r = await pool().query<Row>(`SELECT * FROM trace_candidates WHERE import_id = $1 AND seq = $2`, [importId, seq]);
  return r.rows[0] ? toRow(r.rows[0]) : null;
}

/** The reviewer's decision on a group head (its group goes with it), audited in the same transaction. */
export async function saveCandidateReview(
  importId: string,
  seq: number,
  review: { status: 'accepted'; card: CaseCard } | { status: 'rejected'; reason: string },
  actor: Actor,
): Promise<void> {
  return withTransaction(async (client) => {
    const r = await client.query(
      `UPDATE trace_candidates SET status = $3, card = $4, reject_reason = $5, reviewer = $6, reviewer_user_id = $7, reviewed_at = now()
        WHERE import_id = $1 AND seq = $2`,
      [
        importId,
        seq,
        review.status,
        review.status === 'accepted' ? JSON.stringify(review.card) : null,
        review.status === 'rejected' ? review.reason : null,
        actorLabel(actor),
        actorUserId(actor),
      ],
    );
    if (r.rowCount === 0) throw new Error(`no candidate ${seq} in import ${importId}`);
    const imp = await client.query<{ experiment_id: string | null }>(`SELECT experiment_id FROM trace_imports WHERE id = $1`, [importId]);
    await recordAudit(actor, 'candidate.reviewed', { experimentId: imp.rows[0]?.experiment_id ?? null }, { importId, seq, status: review.status }, client);
  });
}

export async function listAcceptedCandidates(importId: string): Promise<(CandidateRow & { card: CaseCard })[]> {
  const r = await pool().query<Row>(`SELECT * FROM trace_candidates WHERE import_id = $1 AND status = 'accepted' ORDER BY seq`, [importId]);
  return r.rows.map(toRow).map((row) => {
    const { card } = row;
    if (card === null) throw new Error(`trace candidate ${row.importId}/${row.seq}: accepted without a card`);
    return { ...row, card };
  });
}
