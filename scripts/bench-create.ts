// `npm run bench:create -- --trials 1000000` (a script, not a test): the peak RSS of `tclab run` creating a
// run of N trials (docs/benchmarks.md: a 1,000,000-trial run is created under 256 MB). The CLI runs as a user
// runs it, a process of its own with the defaults (no NODE_OPTIONS), on a database of its own:
//   tclab run --experiment SPEC --provider openai --model m --yes --no-worker
// with no OpenAI key, so the run's rows are created and its pre-check then fails (nothing is sent anywhere,
// and no queue is filled): what is measured is the creation. Peak RSS is the process's maximum resident set
// (`/usr/bin/time -f %M`, getrusage of the child). Prints one JSON line:
//   {trials, peakRssMb, limitMb, wallMs, rows, cliExit, load}
// and exits 1 when the peak passes the limit or the run does not hold N trial rows.
// --start: created and started instead (the simulated provider, the CLI's own worker), measured until every batch
// has its job (the worker's `run enqueued` log line), then the CLI is killed.
// Options: --trials N (default 1000000; a multiple of 200), --replicates R (default 100: N / 2R distinct cases;
// 1 gives a case per pair of trials), --limit-mb M (default 256), --keep (keep the database).
// --copies K: the reference study's cases K times under new ids instead (152 × K × R trials; --trials is then
// ignored): a spec of many distinct cases, each richer than benchSpec's.
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
import { deleteRedisPrefix } from '../lib/testing/cleanup';
import { referenceStudyInput } from '../lib/templates/reference-study';
import type { ExperimentSpecInput } from '../lib/schema/experiment';

/** The reference study's formal trials at one replicate. */
const REFERENCE_TRIALS = 152;

/** The reference study with each study's cases `copies` times (the first copy under the original ids, so its pre-checks hold). */
function referenceCopies(copies: number, replicates: number): ExperimentSpecInput {
  const input = referenceStudyInput();
  return {
    ...input,
    id: `bench-create-reference-x${copies}`,
    replicates,
    studies: input.studies.map((s) => ({
      ...s,
      cases: Array.from({ length: copies }, (_, k) => (s.cases as { id: string }[]).map((c) => (k === 0 ? c : { ...c, id: `${c.id}-x${k}` }))).flat(),
    })),
  };
}

const TIME = '/usr/bin/time';
const ROOT = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '1000000' },
    replicates: { type: 'string', default: '100' },
    'limit-mb': { type: 'string', default: '256' },
    keep: { type: 'boolean', default: false },
    copies: { type: 'string' },
    start: { type: 'boolean', default: false },
  },
});
const COPIES = values.copies === undefined ? undefined : Number(values.copies);
if (COPIES !== undefined && (!Number.isSafeInteger(COPIES) || COPIES < 1)) throw new Error(`--copies: a whole number of at least 1 (got ${values.copies})`);
const R = Number(values.replicates);
const N = COPIES === undefined ? Number(values.trials) : REFERENCE_TRIALS * COPIES * R;
const LIMIT_MB = Number(values['limit-mb']);
if (!Number.isSafeInteger(R) || R < 1 || R > 100 || (COPIES === undefined && (N / 2) % R !== 0))
  throw new Error(`--replicates: a whole number from 1 to 100 dividing N / 2 (got ${values.replicates})`);
if (COPIES === undefined && (!Number.isSafeInteger(N) || N < 200 || N % 200 !== 0)) throw new Error(`--trials: a multiple of 200 (got ${values.trials})`);
if (!existsSync(TIME)) throw new Error(`${TIME} is needed to read the CLI's peak RSS (apt-get install time)`);

const db = new URL(process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres');
db.pathname = `/tclab_bench_create_${process.pid}_${randomBytes(2).toString('hex')}`;
const url = db.toString();
process.env.DATABASE_URL = url;
resetEnvCache();
const PREFIX = `tclab-bench-create-${process.pid}`;
const dir = mkdtempSync(path.join(tmpdir(), 'tclab-bench-create-'));
const loadNow = () => loadavg().map((x) => Math.round(x * 100) / 100);
const load = { cores: cpus().length, atStart: loadNow(), atEnd: [] as number[] };

await ensureDatabase(url);
await migrate(url);
try {
  const spec = path.join(dir, 'spec.json');
  // created only: one pre-check that fails for want of a key, so the run ends at its creation (nothing
  // enqueued, no worker awaited); started: the pre-checks pass (the simulated provider)
  writeFileSync(
    spec,
    JSON.stringify(
      COPIES === undefined
        ? { ...benchSpec(N, { replicates: R }), id: `bench-create-${N}`, prechecks: [{ study: 'selection', condition: 'vague', caseId: 'c0' }] }
        : referenceCopies(COPIES, R),
    ),
  );
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url, TCLAB_LOG_LEVEL: values.start ? 'debug' : 'warn', TCLAB_QUEUE_PREFIX: PREFIX };
  delete env.NODE_OPTIONS; // the defaults: no heap cap by hand
  delete env.OPENAI_API_KEY; // the pre-check fails for want of a key: nothing is sent, nothing is enqueued
  delete env.OPENAI_BASE_URL;
  const started = performance.now();
  const { cliExit, peakKb } = values.start ? await createAndEnqueue(spec, env) : await createOnly(spec, env);
  const wallMs = Math.round(performance.now() - started);
  const rows = Number((await pool().query<{ n: string }>(`SELECT count(*) AS n FROM trials`)).rows[0].n);
  await closeDb();
  load.atEnd = loadNow();
  const peakRssMb = Math.round(peakKb / 1024);
  const cases = COPIES === undefined ? N / 2 / R : `reference × ${COPIES}`;
  process.stdout.write(`${JSON.stringify({ trials: N, replicates: R, cases, started: values.start, peakRssMb, limitMb: LIMIT_MB, wallMs, rows, cliExit, load })}\n`);
  if (rows !== N) process.stderr.write(`bench-create: the run holds ${rows} trial rows, not ${N}\n`);
  if (peakRssMb >= LIMIT_MB) process.stderr.write(`bench-create: peak RSS ${peakRssMb} MB is not under ${LIMIT_MB} MB\n`);
  process.exitCode = rows === N && peakRssMb < LIMIT_MB ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
  await deleteRedisPrefix(process.env.REDIS_URL || 'redis://127.0.0.1:6379', `${PREFIX}:`); // the killed CLI's run left its jobs
  if (values.keep) process.stderr.write(`bench-create: kept database ${db.pathname.slice(1)}\n`);
  else await dropDatabase(url);
}

/** Created only (`tclab run … --no-worker`, the pre-check failing): the peak from /usr/bin/time. */
async function createOnly(spec: string, env: NodeJS.ProcessEnv): Promise<{ cliExit: number; peakKb: number }> {
  const rss = path.join(dir, 'rss');
  const args = [path.join(ROOT, 'cli/tclab.mjs'), 'run', '--experiment', spec, '--provider', 'openai', '--model', 'm', '--yes', '--no-worker'];
  const cliExit = await new Promise<number>((resolve, reject) => {
    const child = spawn(TIME, ['-f', '%M', '-o', rss, process.execPath, ...args], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
  return { cliExit, peakKb: Number(readFileSync(rss, 'utf8').trim().split('\n').at(-1)) };
}

/**
 * Created and started (`tclab run … --yes` on the simulated provider, its worker in the CLI's process): the
 * peak is the process's high-water mark (VmHWM) read when its worker logs that every batch of the run has its
 * job; the CLI is then killed (its run would go on sending).
 */
async function createAndEnqueue(spec: string, env: NodeJS.ProcessEnv): Promise<{ cliExit: number; peakKb: number }> {
  const args = [path.join(ROOT, 'cli/tclab.mjs'), 'run', '--experiment', spec, '--provider', 'simulated', '--model', 'sim-contract-aware', '--yes'];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const hwmKb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
  let peakKb = 0;
  const cliExit = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      buffered += d;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.includes('"run enqueued"')) {
          if (/"level":"(warn|error)"/.test(line)) process.stderr.write(`${line}\n`);
          continue;
        }
        peakKb = hwmKb();
        child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(signal === 'SIGKILL' && peakKb > 0 ? 0 : (code ?? 1)));
  });
  if (peakKb === 0) process.stderr.write('bench-create: the CLI ended before its run was enqueued\n');
  return { cliExit, peakKb };
}
