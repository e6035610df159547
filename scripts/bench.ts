// `npm run bench`: throughput of the real engine — queue, worker process, PostgreSQL, the OpenAI SDK —
// against a loopback provider with a fixed latency L. Prints one JSON line per configuration:
//   {"n","c","latencyMs","busyCores","wallMs","idealMs","ratio","trialsPerSec","peakRssMb","bareWallMs","engineRatio",
//    "bytesPerTrial","cpuMsPerTrial","workerCores","workerSysShare","bareCpuMsPerExchange","extraCpuMsPerTrial","serverCpuMsPerExchange","loadAvg"}
// and, with no arguments (both guard configurations), a last line {"guard": [...]}: each configuration's engineRatio,
// trials/s, CPU and bytes per trial, to compare with the log (docs/benchmarks.md). The retired targets on them
// (C = 64 engineRatio ≤ 1.10; C = 256 ≥ 1,000 trials/s beside a busy core) were retired (docs/benchmarks.md): unreachable on
// the 2-core machine class, where the bare client alone reaches 940–1,174/s.
// idealMs = N·L/C; ratio = wallMs/idealMs. wallMs runs from enqueueing the run's start (as the Run button
// does) to the run's completion.
// bareWallMs: in the same run, a bare client in a process of its own (scripts/bench-bare.ts: the same OpenAI
// provider code, no queue, no database) sends the same N requests C at a time to the same server;
// engineRatio = wallMs / bareWallMs: what the engine costs beyond the exchanges themselves, on this machine as
// loaded as it is now (loadAvg: 1, 5, 15 minutes). bareCpuMsPerExchange: the bare client's CPU per exchange.
// busyCores: cores kept busy by `yes > /dev/null` during both (the C = 256 guard: one; BENCH_BUSY_CORES=k with
// arguments).
// cpuMsPerTrial (utime + stime from /proc, during the engine's run): the worker process; the PostgreSQL
// backends connected to the bench database; the Redis server (one process, shared with whatever else uses it).
// workerCores = worker CPU / wall (near 1: its event loop is the limit); workerSysShare: the kernel's part of it.
// peakRssMb is the worker process's peak resident set (VmHWM). bytesPerTrial: what the run added to the disk of
// the product's tables (heap, TOAST, indexes, dead row versions; before any vacuum) per trial. Uses a database
// and key prefix of its own.
// BENCH_SERIES=1: a `series` line on standard error, every 250 ms of the engine's run the requests in flight at
// the loopback server and those answered so far (where the run served in waves).
// BENCH_BATCH=1 (`npm run bench -- N` with it; default N = 5000): the same run in batch mode (docs/batch.md) —
// one provider batch of N items through the OpenAI SDK's files + batches calls to the loopback server, polled
// every 200 ms. Its wall time is the polling, not the engine: the figures are CPU and rows per trial
// (`"mode": "batch"`; no bare client, no engineRatio, no target).
import { execSync, fork, spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadavg } from 'node:os';
import { randomBytes } from 'node:crypto';
import { ensureDatabase, migrate, dropDatabase } from '../lib/db/migrate';
import { resetEnvCache } from '../lib/env';
import { isFinalRunStatus } from '../lib/schema/run-status';
import { deleteRedisPrefix } from '../lib/testing/cleanup';

interface Config {
  n: number;
  c: number;
  latencyMs: number;
  /** Cores kept busy by another process (`yes > /dev/null`) during both the engine's and the bare client's run. */
  busyCores: number;
  /** The guard this configuration is (no arguments: both), named as the retired targets were. */
  guard?: string;
}
// `npm run bench | head -1`: a reader that goes away (EPIPE) must not end the script before cleanup() has
// removed its database and keys
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

const batchMode = process.env.BENCH_BATCH === '1';
const configs: Config[] = batchMode
  ? [{ n: Number(process.argv[2] ?? 5000), c: 64, latencyMs: 0, busyCores: 0 }]
  : process.argv[2]
    ? [{ n: Number(process.argv[2]), c: Number(process.argv[3]), latencyMs: Number(process.argv[4]), busyCores: Number(process.env.BENCH_BUSY_CORES ?? 0) }]
    : [
        { n: 5000, c: 64, latencyMs: 100, busyCores: 0, guard: 'C=64' },
        { n: 20000, c: 256, latencyMs: 100, busyCores: 1, guard: 'C=256, one core busy' },
      ];
const guards: Record<string, unknown>[] = [];
const suffix = `${process.pid}_${randomBytes(2).toString('hex')}`;
const base = new URL(process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres');
base.pathname = `/tclab_bench_${suffix}`;
process.env.DATABASE_URL = base.toString();
process.env.TCLAB_QUEUE_PREFIX = `tclab-bench-${suffix}`;
process.env.OPENAI_API_KEY = 'sk-bench-not-a-key';
process.env.TCLAB_LOG_LEVEL = 'warn';
resetEnvCache();

await ensureDatabase(process.env.DATABASE_URL);
await migrate(process.env.DATABASE_URL);
const { startLoopbackServer, echoScript } = await import('../lib/testing/loopback-server');
const { saveExperiment } = await import('../lib/experiments/versions');
const { createRun } = await import('../lib/runner/start');
const { enqueueRunStart } = await import('../lib/queue/enqueue');
const { getRun } = await import('../lib/db/runs');
const { closeDb } = await import('../lib/db/client');
const { closeQueues } = await import('../lib/queue/connection');
const { spawnWorker } = await import('../lib/testing/engine');
const { benchSpec } = await import('../lib/testing/bench-spec');
const { pool } = await import('../lib/db/client');

const TICK_MS = 1000 / Number(execSync('getconf CLK_TCK', { encoding: 'utf8' }).trim() || 100);

/** utime + stime of a process, in ms (0 when it is gone). */
function cpuMs(pid: number): number {
  const { user, sys } = cpuSplit(pid);
  return user + sys;
}

/** utime and stime of a process, in ms (0 when it is gone). */
function cpuSplit(pid: number): { user: number; sys: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the 3rd (state) on
    return { user: Number(f[11]) * TICK_MS, sys: Number(f[12]) * TICK_MS };
  } catch {
    return { user: 0, sys: 0 };
  }
}

function pidsNamed(comm: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/comm`, 'utf8').trim() === comm;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The PostgreSQL backends serving the bench database, with their CPU so far. */
async function backendCpu(): Promise<Map<number, number>> {
  const r = await pool().query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
  return new Map(r.rows.map((x) => [x.pid, cpuMs(x.pid)]));
}

/**
 * The same N exchanges at concurrency C through the provider alone (no queue, no database), in a child
 * process of its own (scripts/bench-bare.ts): its wall and its CPU while sending.
 */
async function bare(specId: string, n: number, c: number, baseUrl: string): Promise<{ wallMs: number; cpuMs: number }> {
  const child = fork(path.join(import.meta.dirname, 'bench-bare.ts'), [specId, String(n), String(c), baseUrl], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the bare client exited (${code}) before it answered`))));
  const next = () => Promise.race([new Promise<Record<string, number>>((resolve) => child.once('message', (m) => resolve(m as Record<string, number>))), exited]);
  try {
    await next(); // ready: requests built, modules loaded
    child.send('go');
    const r = await next();
    return { wallMs: Math.round(r.wallMs), cpuMs: r.cpuMs };
  } finally {
    exited.catch(() => {});
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** Processes this script started, stopped by cleanup() however the script ends (the worker, `yes`). */
const children = new Set<() => unknown>();

/** Another process keeping one core busy (`yes > /dev/null`), as the C = 256 guard has it. */
function busyCore(): { stop(): void } {
  const devNull = openSync('/dev/null', 'w');
  const p = spawn('yes', [], { stdio: ['ignore', devNull, 'ignore'] });
  closeSync(devNull);
  const stop = () => {
    children.delete(stop);
    p.kill('SIGKILL');
  };
  children.add(stop);
  return { stop };
}

const server = await startLoopbackServer({ script: echoScript, record: false });
process.env.TCLAB_ALLOWED_BASE_URLS = server.url; // the runs name the loopback server as their base URL
resetEnvCache();
// Interrupted (Ctrl-C, a timeout): still remove the bench database and keys.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanup().finally(() => process.exit(130)));
let rowsBefore: Record<string, { upd: number; hot: number; ins: number }> = {};
let commitsBefore = 0;
/** This script's status polls so far (each a committed transaction in the bench database). */
let polls = 0;
/** Bytes on disk of the product's tables (heap, TOAST, indexes) in the bench database. */
async function diskBytes(): Promise<number> {
  const r = await pool().query<{ bytes: string }>(
    `SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0)::text AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r'`,
  );
  return Number(r.rows[0].bytes);
}
try {
  for (const { n, c, latencyMs, busyCores, guard } of configs) {
    server.setLatency(latencyMs);
    const bytes0 = await diskBytes();
    const exp = await saveExperiment(benchSpec(n));
    // a benchmark of many requests to a loopback server: confirmed (the spend guard counts every non-simulated request)
    const run = await createRun(
      exp.id,
      { provider: 'openai', model: 'bench', baseUrl: server.openaiBaseUrl, concurrency: c, timeoutMs: 30_000, ...(batchMode ? { batch: true } : {}) },
      { confirm: { yes: true } },
    );
    // BENCH_PROFILE_DIR=dir writes the worker's CPU profile there (node --cpu-prof).
    const prof = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
    // BENCH_WORKER_ARGS: more node options for the worker (e.g. to try a V8 flag)
    prof.push(...(process.env.BENCH_WORKER_ARGS ?? '').split(' ').filter(Boolean));
    // twice C trials in hand (as the default 128 is for runs of 64): half hold slots, half are being claimed,
    // recorded or wait ready for the next free slot
    // BENCH_WORKERS=k: k worker processes share the run (default 1); their CPU and peak RSS are summed / maxed
    const workers = Array.from({ length: Math.max(1, Number(process.env.BENCH_WORKERS ?? 1)) }, () =>
      spawnWorker(
        {
          TCLAB_WORKER_CONCURRENCY: process.env.BENCH_JOBS ?? String(2 * c),
          TCLAB_DB_POOL: process.env.BENCH_DB_POOL ?? String(Math.round(Math.min(40, Math.max(10, c / 6)))),
          ...(batchMode ? { TCLAB_BATCH_POLL_MS: '200', TCLAB_BATCH_MAX_ITEMS: String(Math.min(50_000, n)) } : {}),
        },
        prof,
        { ready: true },
      ),
    );
    const stopWorker = () => Promise.all(workers.map((w) => w.kill('SIGKILL')));
    children.add(stopWorker);
    const busy = Array.from({ length: busyCores }, busyCore);
    // the clock starts once the worker has loaded, connected and warmed up, as a worker started before the
    // Run button is pressed has (a fixed 1.5 s was not enough on a loaded machine)
    await Promise.all(workers.map((w) => w.ready));
    let peakRssMb = 0;
    const sampler = setInterval(() => {
      try {
        for (const w of workers) {
          const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${w.proc.pid}/status`, 'utf8'));
          if (m) peakRssMb = Math.max(peakRssMb, Number(m[1]) / 1024);
        }
      } catch {
        /* the worker is starting or gone */
      }
    }, 100);
    server.resetLoad();
    const redisPids = pidsNamed('redis-server');
    const workerCpu = () =>
      workers.reduce(
        (s, w) => {
          const x = cpuSplit(w.proc.pid!);
          return { user: s.user + x.user, sys: s.sys + x.sys };
        },
        { user: 0, sys: 0 },
      );
    const w0 = workerCpu();
    const cpu0 = { worker: w0.user + w0.sys, redis: redisPids.reduce((s, p) => s + cpuMs(p), 0), pg: await backendCpu() };
    const own0 = process.cpuUsage();
    const t0 = performance.now();
    const series: [number, number, number][] = [];
    const tracer = process.env.BENCH_SERIES ? setInterval(() => series.push([Math.round(performance.now() - t0), server.inFlight, server.load().finished]), 250) : null;
    await enqueueRunStart(run.id); // as the Run button does: the worker runs the pre-checks and enqueues the trials
    for (;;) {
      polls++;
      const r = await getRun(run.id);
      if (r && isFinalRunStatus(r.status)) {
        if (r.status !== 'completed') throw new Error(`run ended ${r.status}: ${r.statusReason}`);
        break;
      }
      const exited = workers.find((w) => w.proc.exitCode !== null);
      if (exited) throw new Error(`the worker exited:\n${exited.output().slice(-2000)}`);
      await new Promise((res) => setTimeout(res, 20));
    }
    const t1 = performance.now();
    if (tracer) {
      clearInterval(tracer);
      console.error(JSON.stringify({ diagnostics: 'series', series }));
    }
    const own = process.cpuUsage(own0);
    const wallMs = Math.round(t1 - t0);
    const w1 = workerCpu();
    const workerMs = w1.user + w1.sys - cpu0.worker;
    const pg1 = await backendCpu();
    const perTrial = (ms: number) => +(ms / n).toFixed(3);
    const cpuMsPerTrial = {
      worker: perTrial(workerMs),
      postgres: perTrial([...pg1].reduce((s, [pid, ms]) => s + ms - (cpu0.pg.get(pid) ?? 0), 0)),
      redis: perTrial(redisPids.reduce((s, p) => s + cpuMs(p), 0) - cpu0.redis),
    };
    // the kernel's share of the worker's CPU (system time: sockets, timers, memory)
    const workerSysShare = +((w1.sys - w0.sys) / workerMs).toFixed(2);
    const load = server.load();
    // what the run added to the disk, per trial: rows, their dead versions (a trial row is updated as it is
    // claimed, sent and recorded) and index entries, before any vacuum
    const bytesPerTrial = Math.round(((await diskBytes()) - bytes0) / n);
    clearInterval(sampler);
    await Promise.all(workers.map((w) => w.kill('SIGTERM')));
    children.delete(stopWorker);
    server.resetLoad();
    const b = batchMode ? null : await bare(exp.id, n, c, server.openaiBaseUrl).finally(() => busy.forEach((x) => x.stop()));
    const bareLoad = server.load();
    const idealMs = Math.round((n * latencyMs) / c);
    const bareCpu = b ? +(b.cpuMs / n).toFixed(3) : 0;
    if (!b) {
      const batches = server.batchStats();
      console.log(
        JSON.stringify({
          mode: 'batch',
          n,
          wallMs,
          batches: batches.submissions,
          items: batches.items,
          peakRssMb: Math.round(peakRssMb),
          bytesPerTrial,
          cpuMsPerTrial,
          cpuMsPerTrialTotal: +(cpuMsPerTrial.worker + cpuMsPerTrial.postgres + cpuMsPerTrial.redis).toFixed(3),
          workerSysShare,
          loadAvg: loadavg().map((x) => +x.toFixed(2)),
        }),
      );
    }
    const line = b && {
      n,
      c,
      latencyMs,
      busyCores,
      wallMs,
      idealMs,
      ratio: +(wallMs / idealMs).toFixed(3),
      trialsPerSec: Math.round((n / wallMs) * 1000),
      peakRssMb: Math.round(peakRssMb),
      bareWallMs: b.wallMs,
      engineRatio: +(wallMs / b.wallMs).toFixed(3),
      bytesPerTrial,
      cpuMsPerTrial,
      // cores the worker process kept busy during the run (CPU time / wall): near 1, its event loop is the limit
      workerCores: +((cpuMsPerTrial.worker * n) / wallMs).toFixed(2),
      workerSysShare,
      // the bare client's own CPU per exchange: the SDK and the HTTP exchange, which the worker pays too
      bareCpuMsPerExchange: bareCpu,
      // what the engine spends per trial beyond that: worker + PostgreSQL + Redis − bare client
      extraCpuMsPerTrial: +(cpuMsPerTrial.worker + cpuMsPerTrial.postgres + cpuMsPerTrial.redis - bareCpu).toFixed(3),
      // this script's process during the engine's run: the loopback server (and a status poll every 20 ms)
      serverCpuMsPerExchange: +((own.user + own.system) / 1000 / n).toFixed(3),
      loadAvg: loadavg().map((x) => +x.toFixed(2)),
    };
    if (line) console.log(JSON.stringify(line));
    if (guard && line)
      guards.push({ guard, engineRatio: line.engineRatio, trialsPerSec: line.trialsPerSec, cpuMsPerTrial: line.cpuMsPerTrial, bytesPerTrial: line.bytesPerTrial });
    // Where the time went, seen from the provider: before the first request, the mean concurrency it
    // served while busy, and after the last answer until the run was marked completed.
    if (load.firstAtMs !== null && load.lastEndMs !== null) {
      const span = load.lastEndMs - load.firstAtMs;
      console.error(
        JSON.stringify({
          diagnostics: true,
          toFirstRequestMs: Math.round(load.firstAtMs - t0),
          servingMs: Math.round(span),
          meanInFlight: +(load.busyMs / span).toFixed(1),
          maxInFlight: load.maxInFlight,
          toMaxInFlightMs: load.maxAtMs === null ? null : Math.round(load.maxAtMs - t0),
          meanServedMs: +(load.busyMs / load.finished).toFixed(1),
          afterLastAnswerMs: Math.round(t1 - load.lastEndMs),
        }),
      );
    }
    // Row versions written per trial (the worker's backends have exited, so their statistics are flushed):
    // an update that is not HOT writes a new entry into every index of its table.
    const tup = await pool().query<{ relname: string; upd: string; hot: string; ins: string }>(
      `SELECT relname, n_tup_upd::text AS upd, n_tup_hot_upd::text AS hot, n_tup_ins::text AS ins FROM pg_stat_user_tables WHERE relname IN ('trials', 'attempts')`,
    );
    // transactions committed in the bench database, less this script's status polls: each hot-path statement
    // of the worker is one, so this is about its statements per trial
    const committed = await pool().query<{ n: string }>('SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = current_database()');
    const commits = Number(committed.rows[0].n) - polls;
    const rowsNow = Object.fromEntries(tup.rows.map((r) => [r.relname, { upd: Number(r.upd), hot: Number(r.hot), ins: Number(r.ins) }]));
    console.error(
      JSON.stringify({
        diagnostics: 'rows per trial',
        commits: +((commits - commitsBefore) / n).toFixed(2),
        ...Object.fromEntries(
          Object.entries(rowsNow).map(([t, x]) => {
            const was = rowsBefore[t] ?? { upd: 0, hot: 0, ins: 0 };
            return [t, { updates: +((x.upd - was.upd) / n).toFixed(2), hot: +((x.hot - was.hot) / n).toFixed(2), inserts: +((x.ins - was.ins) / n).toFixed(2) }];
          }),
        ),
      }),
    );
    rowsBefore = rowsNow;
    commitsBefore = commits;
    if (bareLoad.firstAtMs !== null && bareLoad.lastEndMs !== null) {
      const span = bareLoad.lastEndMs - bareLoad.firstAtMs;
      console.error(
        JSON.stringify({
          diagnostics: 'bare',
          servingMs: Math.round(span),
          meanInFlight: +(bareLoad.busyMs / span).toFixed(1),
          maxInFlight: bareLoad.maxInFlight,
          meanServedMs: +(bareLoad.busyMs / bareLoad.finished).toFixed(1),
        }),
      );
    }
  }
  if (guards.length > 0) console.log(JSON.stringify({ guard: guards, loadAvg: loadavg().map((x) => +x.toFixed(2)) }));
} finally {
  await server.close();
  await cleanup();
}

async function cleanup(): Promise<void> {
  await Promise.all([...children].map((stop) => stop()));
  await closeQueues();
  await closeDb();
  await dropDatabase(process.env.DATABASE_URL!);
  await deleteRedisPrefix(process.env.REDIS_URL || 'redis://127.0.0.1:6379', process.env.TCLAB_QUEUE_PREFIX!);
}
