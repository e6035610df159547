import pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client';
import { env } from '../env';

// lib/db is the only importer of Prisma. One pg pool serves both Prisma (through its adapter) and the
// hand-written SQL of the hot path (claim, result), so a worker holds one set of connections. The Prisma
// client is loaded and made on first use: a worker and the exports never use it, so they load neither
// its runtime and adapter (about 30 MB of a `tclab export`'s RSS) nor its query engine.
// A `timestamp` column (without time zone) holds UTC, as Prisma reads and writes it: every session's TimeZone is UTC
// (what now() stores), a Date sent is written in UTC and one read is parsed as UTC, whatever the time zone of this
// process or of the server (docs/architecture.md#times).
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (text: string) => utcTimestamp(text));
pg.defaults.parseInputDatesAsUTC = true;

type Handles = { pool: pg.Pool; prisma?: Promise<PrismaClient>; url: string };
const globalForDb = globalThis as unknown as { __tclabDb?: Handles };

function handles(): Handles {
  const url = env().DATABASE_URL;
  const existing = globalForDb.__tclabDb;
  if (existing && existing.url === url) return existing;
  // jit=off: PostgreSQL's JIT added up to 2 s to one grouped query over 100,000 trials (docs/benchmarks.md › Results at scale)
  const pool = new pg.Pool({ connectionString: url, max: env().TCLAB_DB_POOL, options: '-c jit=off -c TimeZone=UTC' });
  pool.on('error', () => {}); // idle client errors (server restart) must not crash the process
  globalForDb.__tclabDb = { pool, url };
  return globalForDb.__tclabDb;
}

export function db(): Promise<PrismaClient> {
  const h = handles();
  h.prisma ??= Promise.all([import('../generated/prisma/client'), import('@prisma/adapter-pg')]).then(
    ([{ PrismaClient }, { PrismaPg }]) => new PrismaClient({ adapter: new PrismaPg(h.pool) }),
  );
  return h.prisma;
}

export function pool(): pg.Pool {
  return handles().pool;
}

/** A `timestamp` column read as text, the way Prisma reads it: as UTC. */
export function utcTimestamp(text: string): Date;
export function utcTimestamp(text: string | null): Date | null;
export function utcTimestamp(text: string | null): Date | null {
  return text === null ? null : new Date(`${text.replace(' ', 'T')}+00:00`);
}

/**
 * `fn` inside one transaction on one connection: committed when it returns, rolled back when it throws (the
 * error goes on), the connection released either way. `begin` opens it (an isolation level, read only).
 */
export async function withTransaction<T>(fn: (client: pg.PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const client = await pool().connect();
  try {
    await client.query(begin);
    const out = await fn(client);
    await client.query('COMMIT');
    return out;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

export async function closeDb(): Promise<void> {
  const h = globalForDb.__tclabDb;
  globalForDb.__tclabDb = undefined;
  if (!h) return;
  await h.prisma?.then((p) => p.$disconnect()).catch(() => {});
  await h.pool.end().catch(() => {});
}

// Errors that say the database is (for now) out of reach — restarting, shutting down, refusing connections —
// rather than that a statement was wrong. Callers that wait on a run reconnect on these.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01', // admin_shutdown: terminating connection due to administrator command
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the database system is starting up / shutting down
  '08000',
  '08001',
  '08003',
  '08004',
  '08006', // connection exceptions
  '53300', // too_many_connections
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection ended unexpectedly/;

export function isDatabaseUnavailable(e: unknown): boolean {
  const seen = new Set<unknown>();
  const stack: unknown[] = [e];
  while (stack.length > 0) {
    const x = stack.pop();
    if (!x || typeof x !== 'object' || seen.has(x)) continue;
    seen.add(x);
    const { code, message, cause, errors } = x as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    stack.push(cause);
    if (Array.isArray(errors)) stack.push(...errors); // AggregateError: every address refused
  }
  return false;
}

export interface DatabaseRetryOptions {
  /** Called when the database is found unavailable, before each wait. */
  onUnavailable?: (error: Error, delayMs: number, downForMs: number) => void;
  /** Called once the database answers again after an outage. */
  onBack?: (downForMs: number) => void;
  /** Give up after the database has been unavailable this long (default 5 minutes). */
  maxWaitMs?: number;
  baseMs?: number;
  capMs?: number;
}

export class DatabaseUnavailableError extends Error {}

/**
 * Run `fn`, and while the database is unavailable (see isDatabaseUnavailable) run it again with exponential
 * backoff (base 200 ms, at most 5 s apart) until it answers or `maxWaitMs` has passed. Other errors pass.
 */
export async function withDatabaseRetry<T>(fn: () => Promise<T>, opts: DatabaseRetryOptions = {}): Promise<T> {
  const { maxWaitMs = 300_000, baseMs = 200, capMs = 5000 } = opts;
  let downSince: number | null = null;
  for (let attempt = 0; ; attempt++) {
    try {
      const value = await fn();
      if (downSince !== null) opts.onBack?.(Date.now() - downSince);
      return value;
    } catch (e) {
      if (!isDatabaseUnavailable(e)) throw e;
      downSince ??= Date.now();
      const downFor = Date.now() - downSince;
      const message = e instanceof Error ? e.message : String(e);
      if (downFor >= maxWaitMs) throw new DatabaseUnavailableError(`the database is unreachable (for ${Math.round(downFor / 1000)} s): ${message}`);
      const delay = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 10));
      opts.onUnavailable?.(e instanceof Error ? e : new Error(message), delay, downFor);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
