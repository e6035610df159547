// Remove a test database and every Redis key under a queue prefix (used by scripts/e2e.sh).
import { Redis } from 'ioredis';
import { dropDatabase } from '../lib/db/migrate';

const [databaseUrl, prefix] = process.argv.slice(2);
if (databaseUrl) await dropDatabase(databaseUrl);
if (prefix) {
  const redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}
