import { randomBytes } from 'node:crypto';
import { dropDatabase, ensureDatabase, migrate } from '../db/migrate';
import { deleteRedisPrefix } from './cleanup';

// Integration tests share the machine's PostgreSQL and Redis with CI and other checkouts: each run makes
// a database and a Redis key prefix of its own and removes both afterwards.
export default async function setup() {
  const suffix = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const base = new URL(process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres');
  base.pathname = `/tclab_test_${suffix}`;
  const databaseUrl = base.toString();
  const prefix = `tclab-test-${suffix}`;
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

  await ensureDatabase(databaseUrl);
  await migrate(databaseUrl);
  process.env.DATABASE_URL = databaseUrl;
  process.env.REDIS_URL = redisUrl;
  process.env.TCLAB_QUEUE_PREFIX = prefix;
  process.env.TCLAB_LOG_LEVEL = process.env.TCLAB_LOG_LEVEL || 'warn';

  return async () => {
    await dropDatabase(databaseUrl);
    await deleteRedisPrefix(redisUrl, prefix);
  };
}
