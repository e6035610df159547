import pg from 'pg';
import { env } from '../env';
import { PENDING_TRIAL_STATUSES } from '../schema/run-status';
import { pool } from './client';

// Heartbeats in PostgreSQL, beside the claims they protect (docs/faults.md › Recovery after a crash). A holder
// — a worker, or a process sending a run's pre-checks — renews its row (alive_until) about once a second. A
// trial claimed by a holder whose row has lapsed is claimable at once, exactly like one whose lease ran out:
// the takeover is the same compare-and-set on the trial row (the lease token bumped, the dead holder's
// sending mark booked `lost`), decided on the database clock in the claim statement itself. A holder with
// no row (a test's owner name) is never presumed dead: its claims wait for their leases as before.

/** SQL: the holder named by `owner` (an SQL expression) has a row, and that row has lapsed. */
export function lapsedHolder(owner: string): string {
  return `EXISTS (SELECT 1 FROM holders h WHERE h.id = ${owner} AND h.alive_until < now())`;
}

/** The holder of a pre-check claim: its owner is `<holder id>#<claim>` (each claim fenced on its own name). */
export function precheckHolderOf(owner: string): string {
  return `split_part(${owner}, '#', 1)`;
}

/**
 * The heartbeat's own connection (not the pool: a busy pool must never delay a renewal). Reconnects on the
 * next renewal after an error; every statement is bounded by `timeoutMs`.
 */
export class HeartbeatConnection {
  private client: pg.Client | undefined;

  constructor(private readonly timeoutMs: number) {}

  /** Renew these holders (rows made when missing) until now + ttlMs on the database clock. */
  async renew(ids: string[], ttlMs: number): Promise<void> {
    try {
      const client = await this.connection();
      await client.query({
        name: 'tclab_heartbeat_v1',
        text: `INSERT INTO holders (id, alive_until) SELECT unnest($1::text[]), now() + make_interval(secs => $2::float8 / 1000)
               ON CONFLICT (id) DO UPDATE SET alive_until = EXCLUDED.alive_until, swept_at = NULL`,
        values: [ids, ttlMs],
      });
    } catch (e) {
      this.close();
      throw e;
    }
  }

  /** Drop the connection; not waited for (ending a broken connection may never settle, and nothing may wait on it). */
  close(): void {
    const c = this.client;
    this.client = undefined;
    void c?.end().catch(() => {});
  }

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({ connectionString: env().DATABASE_URL, connectionTimeoutMillis: this.timeoutMs, query_timeout: this.timeoutMs });
    client.on('error', () => {
      if (this.client === client) this.client = undefined;
    });
    await client.connect();
    this.client = client;
    return client;
  }
}

/** Holders that have lapsed and whose claims were not yet given new jobs (never `except`, this process's own). */
export async function lapsedHolders(except: string[]): Promise<string[]> {
  const r = await pool().query<{ id: string }>(
    `SELECT id FROM holders WHERE alive_until < now() AND swept_at IS NULL AND NOT (id = ANY($1::text[])) ORDER BY id LIMIT 100`,
    [except],
  );
  return r.rows.map((x) => x.id);
}

/** Their claims have new jobs: not looked at again unless they renew and lapse again. Old rows are deleted. */
export async function markSwept(ids: string[], forgetAfterMs: number): Promise<void> {
  await pool().query(`UPDATE holders SET swept_at = now() WHERE id = ANY($1::text[]) AND alive_until < now()`, [ids]);
  await pool().query(`DELETE FROM holders WHERE alive_until < now() - make_interval(secs => $1::float8 / 1000)`, [forgetAfterMs]);
}

export interface HeldBatch {
  runId: string;
  batch: number;
  /** The highest lease token among the lapsed holders' trials of the batch: names this takeover's job. */
  token: number;
  /** Every trial of the batch that is not final (a job delivers what is pending when it arrives). */
  trialIds: string[];
}

/** The batches of running runs with a trial held by one of these (lapsed) holders. */
export async function batchesHeldBy(holders: string[]): Promise<HeldBatch[]> {
  const r = await pool().query<{ run_id: string; batch: number; token: number; ids: string[] }>(
    `WITH held AS (
       SELECT t.run_id, t.batch, max(t.lease_token)::int AS token
         FROM trials t
        WHERE t.run_id IN (SELECT id FROM runs WHERE status = 'running') AND t.status = 'running' AND t.lease_owner = ANY($1::text[])
        GROUP BY t.run_id, t.batch)
     SELECT h.run_id, h.batch, h.token, array_agg(p.id ORDER BY p.id) AS ids
       FROM held h JOIN trials p ON p.run_id = h.run_id AND p.batch = h.batch AND p.status = ANY($2::text[])
      GROUP BY h.run_id, h.batch, h.token`,
    [holders, PENDING_TRIAL_STATUSES],
  );
  return r.rows.map((x) => ({ runId: x.run_id, batch: x.batch, token: x.token, trialIds: x.ids }));
}
