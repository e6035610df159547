// Is PostgreSQL / Redis at this URL answering? Exit 0 if yes. Used by scripts/services.sh.
// A missing database counts as answering (setup creates it); bad credentials do not.
import pg from 'pg';
import { Redis } from 'ioredis';

const [kind, url] = process.argv.slice(2);
const timeout = setTimeout(() => process.exit(3), 4000);
try {
  if (kind === 'pg') {
    const admin = new URL(url);
    admin.pathname = '/postgres';
    const c = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3000 });
    await c.connect();
    await c.query('SELECT 1');
    await c.end();
  } else {
    const r = new Redis(url, { maxRetriesPerRequest: 0, connectTimeout: 3000, retryStrategy: () => null, lazyConnect: true });
    await r.connect();
    await r.ping();
    r.disconnect();
  }
  clearTimeout(timeout);
  process.exit(0);
} catch (e) {
  console.error(String(e?.message ?? e));
  process.exit(1);
}
