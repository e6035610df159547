// `npm run worker`: one more worker process. Any number of them, here or on other machines pointing at
// the same PostgreSQL and Redis, share the runs.
import { limitHeapGrowth } from '../lib/heap';
import { startWorker } from '../lib/runner/worker';
import { warmRunResults } from '../lib/runs/warm';
import { closeConnections } from '../lib/runs/connections';

limitHeapGrowth(); // lib/heap.ts: the worker's heap grows 2× per major GC, within its 300 MB budget

// the improve-descriptions loop (and the linter, templates and catalogs it reads) is loaded on its first job:
// imported at start it held ~80 MB of every worker's resident set, most of which never runs an optimisation
const advanceOptimisation = async (id: string) => (await import('../lib/optimise/loop')).advanceOptimisation(id);
// a large run's pages are computed as it completes (Table 1, the grid's matrices, the review list, the funnel)
const worker = startWorker({ onRunCompleted: warmRunResults, advanceOptimisation });
// started with an IPC channel (the benchmark): say when connected and warmed up
if (process.send) void worker.ready.then(() => process.send?.('ready'));
let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await worker.close();
  await closeConnections();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
