import { closeDb } from '../db/client';
import { ensureDatabase, migrate } from '../db/migrate';
import { env } from '../env';
import { closeQueues } from '../queue/connection';

// Use case: a process's connections — the database made and migrated before a command that stores runs, both
// connections closed when a command or a worker ends, and waiting out a database that restarts meanwhile.

export { withDatabaseRetry, type DatabaseRetryOptions } from '../db/client';

/** The configured database, created when missing and migrated (`tclab run` works on a fresh machine). */
export async function prepareDatabase(): Promise<void> {
  const url = env().DATABASE_URL;
  await ensureDatabase(url);
  await migrate(url);
}

/** Close the queue's Redis connections and the database pool: nothing of this process keeps running. */
export async function closeConnections(): Promise<void> {
  await closeQueues();
  await closeDb();
}
