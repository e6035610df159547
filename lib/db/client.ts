import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';
import { env } from '../env';

// lib/db is the only importer of Prisma. One pg pool serves both Prisma (through its adapter) and the
// hand-written SQL of the hot path (claim, result), so a worker holds one set of connections. The Prisma
// client is made on first use: a worker never uses it, and never loads its query engine.
type Handles = { pool: pg.Pool; prisma?: PrismaClient; url: string };
const globalForDb = globalThis as unknown as { __tclabDb?: Handles };

function handles(): Handles {
  const url = env().DATABASE_URL;
  const existing = globalForDb.__tclabDb;
  if (existing && existing.url === url) return existing;
  // jit=off: PostgreSQL's JIT added up to 2 s to one grouped query over 100,000 trials (README › Results at scale)
  const pool = new pg.Pool({ connectionString: url, max: env().TCLAB_DB_POOL, options: '-c jit=off' });
  pool.on('error', () => {}); // idle client errors (server restart) must not crash the process
  globalForDb.__tclabDb = { pool, url };
  return globalForDb.__tclabDb;
}

export function db(): PrismaClient {
  const h = handles();
  h.prisma ??= new PrismaClient({ adapter: new PrismaPg(h.pool) });
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

export async function closeDb(): Promise<void> {
  const h = globalForDb.__tclabDb;
  globalForDb.__tclabDb = undefined;
  if (!h) return;
  await h.prisma?.$disconnect().catch(() => {});
  await h.pool.end().catch(() => {});
}
