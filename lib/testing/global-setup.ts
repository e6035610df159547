import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { dropDatabase, ensureDatabase, migrate } from '../db/migrate';

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
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
  };
}
