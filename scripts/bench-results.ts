// `npm run bench:results` (a script, not a test): a run of 100,000 trials built through the product's own
// storage functions — createRun's trial rows, then every trial claimed, answered by the simulated provider,
// scored and recorded by processTrial, as a worker does, without the queue — then the result pages, APIs
// and exports timed against `next start` (the built app) on a database of its own. Prints one JSON line:
//   {trials, runPageMs, table1Ms, trialsFirstPageMs, reviewPageMs, comparePageMs, exportCsvMs, exportJsonMs,
//    exportPeakRssMb, progressMs, homeMs, experimentPageMs, …}
// Page and API times are server time as a client on the same machine sees it (request to last byte),
// the median of 5 after one warm-up. Exports are timed first on a fresh server, so its peak RSS (VmHWM of
// the server's processes) is the exports'; the CLI's export (`tclab export`) is timed as its own process.
// Needs `npm run build` first. Env: BENCH_TRIALS (default 100000), PORT (default 3050).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { ensureDatabase, migrate, dropDatabase } from '../lib/db/migrate';
import { resetEnvCache } from '../lib/env';
import { deleteRedisPrefix } from '../lib/testing/cleanup';

const ROOT = path.resolve(import.meta.dirname, '..');
const N = Number(process.env.BENCH_TRIALS ?? 100_000);
const PORT = Number(process.env.PORT ?? 3050);
const suffix = `${process.pid}_${randomBytes(2).toString('hex')}`;
const base = new URL(process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres');
base.pathname = `/tclab_bench_results_${suffix}`;
process.env.DATABASE_URL = base.toString();
process.env.TCLAB_QUEUE_PREFIX = `tclab-bench-results-${suffix}`;
process.env.TCLAB_LOG_LEVEL = 'warn';
resetEnvCache();
if (!existsSync(path.join(ROOT, '.next', 'BUILD_ID'))) throw new Error('build the app first: npm run build');

const load = { cores: cpus().length, loadAtStart: loadavg().map((x) => Math.round(x * 100) / 100), loadAtEnd: [] as number[] };
await ensureDatabase(process.env.DATABASE_URL);
await migrate(process.env.DATABASE_URL);
const { saveExperiment, getExperiment } = await import('../lib/db/experiments');
const { createRun } = await import('../lib/runner/start');
const { processTrial } = await import('../lib/runner/trial');
const { setRunStatus, completeRunIfDone } = await import('../lib/db/runs');
const { loadRunSummary } = await import('../lib/db/results');
const { closeDb, pool } = await import('../lib/db/client');
const { closeQueues } = await import('../lib/queue/connection');
const { benchSpec } = await import('../lib/testing/bench-spec');

let server: ChildProcess | undefined;
let keptRun = '';
const dir = mkdtempSync(path.join(tmpdir(), 'tclab-bench-results-'));
async function cleanup() {
  if (server?.pid) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
  await closeQueues().catch(() => {});
  await closeDb().catch(() => {});
  if (process.env.BENCH_KEEP_DB) process.stderr.write(`kept ${process.env.DATABASE_URL} (run ${keptRun})\n`);
  else await dropDatabase(process.env.DATABASE_URL!).catch(() => {});
  await deleteRedisPrefix(process.env.REDIS_URL || 'redis://127.0.0.1:6379', process.env.TCLAB_QUEUE_PREFIX!).catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanup().finally(() => process.exit(130)));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number) => Math.round(x);

/** Peak RSS (VmHWM) of a process and its descendants, in MB. */
function peakRssMb(pid: number): number {
  let pids = [pid];
  try {
    pids = pids.concat(
      execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
        .split(/\s+/)
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    /* no children */
  }
  let max = 0;
  for (const p of pids) {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) max = Math.max(max, Number(m[1]) / 1024);
    } catch {
      /* gone */
    }
  }
  return max;
}

try {
  // 1. the run, through the product's storage functions
  const t0 = performance.now();
  const saved = await saveExperiment(benchSpec(N, { orderPolicy: 'reverse-swap' }));
  const exp = (await getExperiment(saved.id))!;
  const run = await createRun(exp.id, { provider: 'simulated', model: 'heuristic' });
  if (!(await setRunStatus(run.id, ['created'], 'running'))) throw new Error('run did not start');
  const ids = (await pool().query<{ id: string }>(`SELECT id FROM trials WHERE run_id = $1 ORDER BY trial_key`, [run.id])).rows.map((r) => r.id);
  let next = 0;
  await Promise.all(
    Array.from({ length: 128 }, async () => {
      while (next < ids.length) {
        const trialId = ids[next++];
        const r = await processTrial({ trialId, runId: run.id }, { owner: 'bench-results' });
        if (r.kind !== 'done') throw new Error(`trial ${trialId}: ${JSON.stringify(r)}`);
      }
    }),
  );
  await completeRunIfDone(run.id);
  const buildMs = performance.now() - t0;
  keptRun = run.id;
  if (process.env.BENCH_BUILD_ONLY) throw new Error('BENCH_BUILD_ONLY: stopping after the build');

  // 2. Table 1 from the grouped queries: before and after ANALYZE (autovacuum is off here)
  const table1 = async () => {
    const s = performance.now();
    await loadRunSummary(run.id, exp.spec);
    return performance.now() - s;
  };
  const table1BeforeAnalyzeMs = await table1();
  const a0 = performance.now();
  await pool().query('ANALYZE trials; ANALYZE observations; ANALYZE verdicts; ANALYZE attempts');
  const analyzeMs = performance.now() - a0;
  const table1Ms = median([await table1(), await table1(), await table1(), await table1(), await table1()]);

  // 3. the built app on this database: exports first (fresh process: its peak RSS is theirs), then pages
  server = spawn(process.execPath, [path.join(ROOT, 'node_modules/next/dist/bin/next'), 'start', '-p', String(PORT), '-H', '127.0.0.1'], {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    detached: true,
    stdio: 'ignore',
  });
  const url = (p: string) => `http://127.0.0.1:${PORT}${p}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(url('/api/health'))).ok) break;
    } catch {
      /* not up yet */
    }
    if (i > 600) throw new Error('next start did not come up');
    await new Promise((r) => setTimeout(r, 100));
  }
  const get = async (p: string) => {
    const s = performance.now();
    const res = await fetch(url(p));
    let bytes = 0;
    for await (const chunk of res.body!) bytes += (chunk as Uint8Array).byteLength;
    if (!res.ok) throw new Error(`${p}: HTTP ${res.status}`);
    return { ms: performance.now() - s, bytes };
  };
  const rid = encodeURIComponent(run.id);
  const csv = await get(`/api/runs/${rid}/export/trials.csv`);
  const json = await get(`/api/runs/${rid}/export/json`);
  const httpExportPeakRssMb = peakRssMb(server.pid!);

  const timed = async (p: string) => {
    await get(p);
    const xs: number[] = [];
    for (let i = 0; i < 5; i++) xs.push((await get(p)).ms);
    return round(median(xs));
  };
  const runPageMs = await timed(`/runs/${rid}`);
  const reviewPageMs = await timed(`/runs/${rid}/review`);
  const trialsFirstPageMs = await timed(`/api/runs/${rid}/trials`);
  const progressMs = await timed(`/api/runs/${rid}/progress`);
  const homeMs = await timed('/');
  const experimentPageMs = await timed(`/experiments/${encodeURIComponent(exp.id)}`);
  const compare = existsSync(path.join(ROOT, 'app/compare/page.tsx')) ? await timed(`/compare?runs=${rid}`).catch((e: Error) => `error: ${e.message}`) : null;

  // 4. `tclab export` as its own process (one node process, so its VmHWM is the export's)
  const cli = async (args: string[]) => {
    const s = performance.now();
    const p = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'cli/tclab.ts'), 'export', run.id, ...args], {
      cwd: ROOT,
      env: process.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let peak = 0;
    let errText = '';
    p.stderr!.on('data', (d: Buffer) => (errText += d.toString()));
    const sampler = setInterval(() => (peak = Math.max(peak, peakRssMb(p.pid!))), 100);
    const code = await new Promise<number>((r) => p.on('exit', (c) => r(c ?? 1)));
    clearInterval(sampler);
    if (code !== 0) throw new Error(`tclab export ${args.join(' ')}: exit ${code}: ${errText}`);
    return { ms: round(performance.now() - s), peakRssMb: round(peak) };
  };
  const cliJson = await cli(['--out', path.join(dir, 'run.json')]);
  const cliCsv = await cli(['--csv', path.join(dir, 'trials.csv')]);

  load.loadAtEnd = loadavg().map((x) => Math.round(x * 100) / 100);
  process.stdout.write(
    `${JSON.stringify({
      trials: ids.length,
      runPageMs,
      table1Ms: round(table1Ms),
      trialsFirstPageMs,
      reviewPageMs,
      comparePageMs: typeof compare === 'number' ? compare : null,
      ...(typeof compare !== 'number' && { comparePage: compare ?? 'absent: no compare page (app/compare) on this checkout' }),
      exportCsvMs: round(csv.ms),
      exportJsonMs: round(json.ms),
      exportPeakRssMb: round(Math.max(httpExportPeakRssMb, cliJson.peakRssMb, cliCsv.peakRssMb)),
      progressMs,
      homeMs,
      experimentPageMs,
      detail: {
        buildMs: round(buildMs),
        table1BeforeAnalyzeMs: round(table1BeforeAnalyzeMs),
        analyzeMs: round(analyzeMs),
        csvMb: Math.round(csv.bytes / 1e5) / 10,
        jsonMb: Math.round(json.bytes / 1e5) / 10,
        httpExportPeakRssMb: round(httpExportPeakRssMb),
        cliExportJson: cliJson,
        cliExportCsv: cliCsv,
        ...load,
      },
    })}\n`,
  );
} finally {
  await cleanup();
}
