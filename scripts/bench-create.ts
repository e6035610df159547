// `npm run bench:create -- --trials 1000000` (a script, not a test): the peak RSS of `tclab run` creating a
// run of N trials (docs/benchmarks.md: a 1,000,000-trial run is created under 256 MB). The CLI runs as a user
// runs it, a process of its own with the defaults (no NODE_OPTIONS), on a database of its own:
//   tclab run --experiment SPEC --provider openai --model m --yes --no-worker
// with no OpenAI key, so the run's rows are created and its pre-check then fails (nothing is sent anywhere,
// and no queue is filled): what is measured is the creation. Peak RSS is the process's maximum resident set
// (`/usr/bin/time -f %M`, getrusage of the child). Prints one JSON line:
//   {trials, peakRssMb, limitMb, wallMs, rows, cliExit, load}
// and exits 1 when the peak passes the limit or the run does not hold N trial rows.
// Options: --trials N (default 1000000; a multiple of 200), --replicates R (default 100: N / 2R distinct cases;
// 1 gives a case per pair of trials), --limit-mb M (default 256), --keep (keep the database).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { dropDatabase, ensureDatabase, migrate } from '../lib/db/migrate';
import { closeDb, pool } from '../lib/db/client';
import { resetEnvCache } from '../lib/env';
import { benchSpec } from '../lib/testing/bench-spec';

const TIME = '/usr/bin/time';
const ROOT = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '1000000' },
    replicates: { type: 'string', default: '100' },
    'limit-mb': { type: 'string', default: '256' },
    keep: { type: 'boolean', default: false },
  },
});
const N = Number(values.trials);
const LIMIT_MB = Number(values['limit-mb']);
const R = Number(values.replicates);
if (!Number.isSafeInteger(R) || R < 1 || R > 100 || (N / 2) % R !== 0)
  throw new Error(`--replicates: a whole number from 1 to 100 dividing N / 2 (got ${values.replicates})`);
if (!Number.isSafeInteger(N) || N < 200 || N % 200 !== 0) throw new Error(`--trials: a multiple of 200 (got ${values.trials})`);
if (!existsSync(TIME)) throw new Error(`${TIME} is needed to read the CLI's peak RSS (apt-get install time)`);

const db = new URL(process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres');
db.pathname = `/tclab_bench_create_${process.pid}_${randomBytes(2).toString('hex')}`;
const url = db.toString();
process.env.DATABASE_URL = url;
resetEnvCache();
const dir = mkdtempSync(path.join(tmpdir(), 'tclab-bench-create-'));
const loadNow = () => loadavg().map((x) => Math.round(x * 100) / 100);
const load = { cores: cpus().length, atStart: loadNow(), atEnd: [] as number[] };

await ensureDatabase(url);
await migrate(url);
try {
  const spec = path.join(dir, 'spec.json');
  // one pre-check: with no key it fails, so the run ends at its creation (nothing enqueued, no worker awaited)
  writeFileSync(
    spec,
    JSON.stringify({ ...benchSpec(N, { replicates: R }), id: `bench-create-${N}`, prechecks: [{ study: 'selection', condition: 'vague', caseId: 'c0' }] }),
  );
  const rss = path.join(dir, 'rss');
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url, TCLAB_LOG_LEVEL: 'warn', TCLAB_QUEUE_PREFIX: `tclab-bench-create-${process.pid}` };
  delete env.NODE_OPTIONS; // the defaults: no heap cap by hand
  delete env.OPENAI_API_KEY; // the pre-check fails for want of a key: nothing is sent, nothing is enqueued
  delete env.OPENAI_BASE_URL;
  const started = performance.now();
  const cliExit = await new Promise<number>((resolve, reject) => {
    const child = spawn(
      TIME,
      [
        '-f',
        '%M',
        '-o',
        rss,
        process.execPath,
        path.join(ROOT, 'cli/tclab.mjs'),
        'run',
        '--experiment',
        spec,
        '--provider',
        'openai',
        '--model',
        'm',
        '--yes',
        '--no-worker',
      ],
      { env, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
  const wallMs = Math.round(performance.now() - started);
  const peakKb = Number(readFileSync(rss, 'utf8').trim().split('\n').at(-1));
  const rows = Number((await pool().query<{ n: string }>(`SELECT count(*) AS n FROM trials`)).rows[0].n);
  await closeDb();
  load.atEnd = loadNow();
  const peakRssMb = Math.round(peakKb / 1024);
  process.stdout.write(`${JSON.stringify({ trials: N, replicates: R, cases: N / 2 / R, peakRssMb, limitMb: LIMIT_MB, wallMs, rows, cliExit, load })}\n`);
  if (rows !== N) process.stderr.write(`bench-create: the run holds ${rows} trial rows, not ${N}\n`);
  if (peakRssMb >= LIMIT_MB) process.stderr.write(`bench-create: peak RSS ${peakRssMb} MB is not under ${LIMIT_MB} MB\n`);
  process.exitCode = rows === N && peakRssMb < LIMIT_MB ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
  if (values.keep) process.stderr.write(`bench-create: kept database ${db.pathname.slice(1)}\n`);
  else await dropDatabase(url);
}
