// Remove a test database and every Redis key under a queue prefix (used by scripts/e2e.sh).
import { dropDatabase } from '../lib/db/migrate';
import { deleteRedisPrefix } from '../lib/testing/cleanup';

const [databaseUrl, prefix] = process.argv.slice(2);
if (databaseUrl) await dropDatabase(databaseUrl);
if (prefix) await deleteRedisPrefix(process.env.REDIS_URL || 'redis://127.0.0.1:6379', prefix);
