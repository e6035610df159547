import { ensureDatabase, migrate } from '../lib/db/migrate';
import { env } from '../lib/env';

const url = env().DATABASE_URL;
const created = await ensureDatabase(url);
const applied = await migrate(url);
console.error(`[tclab] database ${created ? 'created' : 'ready'}; ${applied.length ? `applied ${applied.join(', ')}` : 'migrations up to date'}`);
