import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

// Prisma's CLI cannot run migrations here (its schema engine binary cannot be downloaded), so the SQL
// files in Prisma's own layout are applied in order by this runner, which records what it applied.
// An advisory lock keeps two starters (app + worker) from migrating at once.
const LOCK_ID = 7_350_001;

export async function migrate(databaseUrl: string, migrationsDir = path.resolve('prisma/migrations')): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_ID]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_tclab_migrations" (
      "name" TEXT PRIMARY KEY, "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now())`);
    const done = new Set((await client.query<{ name: string }>('SELECT name FROM "_tclab_migrations"')).rows.map((r) => r.name));
    const names = (await readdir(migrationsDir, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    const applied: string[] = [];
    for (const name of names) {
      if (done.has(name)) continue;
      const sql = await readFile(path.join(migrationsDir, name, 'migration.sql'), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO "_tclab_migrations"(name) VALUES ($1)', [name]);
        await client.query('COMMIT');
        applied.push(name);
      } catch (e) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${name} failed: ${(e as Error).message}`);
      }
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]).catch(() => {});
    await client.end();
  }
}

/** Runs `fn` on the server's `postgres` database, as the same role (to create or drop the named one). */
async function withAdmin<T>(databaseUrl: string, fn: (client: pg.Client, name: string, quoted: string) => Promise<T>): Promise<T> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return await fn(client, name, `"${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/** CREATE DATABASE if missing; true when it was created. */
export function ensureDatabase(databaseUrl: string): Promise<boolean> {
  return withAdmin(databaseUrl, async (client, name, quoted) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return false;
    await client.query(`CREATE DATABASE ${quoted}`);
    return true;
  });
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  await withAdmin(databaseUrl, (client, _name, quoted) => client.query(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`));
}
