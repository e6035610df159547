// `npm run worker`: one more worker process. Any number of them, here or on other machines pointing at
// the same PostgreSQL and Redis, share the runs.
import { setFlagsFromString } from 'node:v8';
import { startWorker } from '../lib/runner/worker';
import { warmRunResults } from '../lib/runs/warm';
import { closeDb } from '../lib/db/client';
import { closeQueues } from '../lib/queue/connection';

// Grow the heap by 2× per major GC instead of V8's up-to-4×: a worker's live set is small (~60 MB) but
// it makes garbage fast, and left to the default its heap swells to several times the live set. Set
// here, not on a command line, so every way of starting a worker gets it (V8 reads it at every GC).
// Measured quietly (npm run bench, C = 64 engineRatio / worker peak RSS): 1.5× 1.12–1.13 / ~205 MB, 2×
// 1.11 / 222–272 MB (C = 256: 275 MB), 3× 1.09–1.10 / 266–272 MB but 309 MB at C = 256, V8's default
// 1.08–1.11 / 282–289 MB: 2× is the most the worker's 300 MB budget allows.
setFlagsFromString('--heap-growing-percent=100');

// a large run's pages are computed as it completes (Table 1, the grid's matrices, the review list, the funnel)
const worker = startWorker({ onRunCompleted: warmRunResults });
// started with an IPC channel (the benchmark): say when connected and warmed up
if (process.send) void worker.ready.then(() => process.send?.('ready'));
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
