// `npm run worker`: one more worker process. Any number of them, here or on other machines pointing at
// the same PostgreSQL and Redis, share the runs.
import { startWorker } from '../lib/runner/worker';
import { closeDb } from '../lib/db/client';
import { closeQueues } from '../lib/queue/connection';

const worker = startWorker();
let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await worker.close();
  await closeQueues();
  await closeDb();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
