// `npm run bench:null-oracle -- --loops 200` (a script, not a test): the null oracle through the whole engine
// (docs/optimise.md "What it guarantees"). Each loop is the improve loop as `tclab optimize --rewriter` runs it
// — a rewriter's proposal, the select run, the freeze, the confirmation — through the real openai SDK, queue,
// worker and database against a loopback model for which no description matters (lib/testing/null-oracle.ts):
// every candidate is null, so a loop read *confirmed* is a false claim. On a database and key prefix of its
// own, removed at the end. Prints one JSON line:
//   {loops, cases, candidates, selectSignificant, frozen, confirmed, failed, winnersSelectMean, winnersConfirmMean,
//    confirmedShare, selectSignificantShare, wallMs}
// and exits 1 when the share confirmed passes 0.05 or a loop failed.
// Options: --loops N (default 200), --cases C (default 60: 40/30/30 → 18 select and 18 confirm cases, two
// orders each), --hand H (padded hand candidates, default 3), --parallel P (loops at once, default 8),
// --first F (the first loop's seed, default 0).
import { parseArgs } from 'node:util';
import { dropDatabase, ensureDatabase, migrate } from '../lib/db/migrate';
import { closeDb } from '../lib/db/client';
import { resetEnvCache } from '../lib/env';
import { deleteRedisPrefix } from '../lib/testing/cleanup';
import { benchEnvironment } from './bench-server';

const { values } = parseArgs({
  options: {
    loops: { type: 'string', default: '200' },
    cases: { type: 'string', default: '60' },
    hand: { type: 'string', default: '3' },
    parallel: { type: 'string', default: '8' },
    first: { type: 'string', default: '0' },
  },
});
const whole = (name: string, v: string | undefined, min: number) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`--${name}: a whole number of at least ${min} (got ${v})`);
  return n;
};
const loops = whole('loops', values.loops, 1);
const cases = whole('cases', values.cases, 10);
const hand = whole('hand', values.hand, 0);
const parallel = whole('parallel', values.parallel, 1);
const first = whole('first', values.first, 0);

const { url: databaseUrl } = benchEnvironment('null');
await ensureDatabase(databaseUrl);
await migrate(databaseUrl);

const { startLoopbackServer } = await import('../lib/testing/loopback-server');
const { nullOracleScript, runNullOracle } = await import('../lib/testing/null-oracle');
const { startWorker } = await import('../lib/runner/worker');
const { closeQueues } = await import('../lib/queue/connection');

const server = await startLoopbackServer({ script: nullOracleScript(), record: false });
process.env.OPENAI_API_KEY = 'sk-bench-not-a-key';
process.env.OPENAI_BASE_URL = server.openaiBaseUrl;
delete process.env.TCLAB_ALLOWED_BASE_URLS;
resetEnvCache();
const worker = startWorker({ concurrency: 32 });
await worker.ready;
const t0 = Date.now();
let code = 0;
try {
  const f = await runNullOracle({
    loops,
    parallel,
    cases,
    hand,
    first,
    onLoop: (_, done) => {
      if (done % 10 === 0) process.stderr.write(`${done}/${loops} loops, ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
    },
  });
  const out = {
    loops: f.loops,
    cases,
    candidates: f.candidates,
    selectSignificant: f.selectSignificant,
    frozen: f.frozen,
    confirmed: f.confirmed,
    failed: f.failed,
    winnersSelectMean: f.winnersSelectMean,
    winnersConfirmMean: f.winnersConfirmMean,
    confirmedShare: f.confirmed / f.loops,
    selectSignificantShare: f.selectSignificant / f.loops,
    wallMs: Date.now() - t0,
  };
  console.log(JSON.stringify(out));
  if (out.confirmedShare > 0.05 || out.failed > 0) code = 1;
} finally {
  await worker.close();
  await closeQueues();
  await closeDb();
  await server.close();
  await dropDatabase(process.env.DATABASE_URL!);
  await deleteRedisPrefix(process.env.REDIS_URL || 'redis://127.0.0.1:6379', process.env.TCLAB_QUEUE_PREFIX!);
}
// the exit code set, stdout left to drain (a piped JSON line is never cut)
process.exitCode = code;
