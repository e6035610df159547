// `npm run bench:results` (a script, not a test): a run of 100,000 trials built through the product's own
// storage functions — createRun's trial rows, then every trial claimed, answered by the simulated provider,
// scored and recorded by processTrial, as a worker does, without the queue — then the result pages, APIs
// and exports timed against `next start` (the built app) on a database of its own. Prints one JSON line:
//   {trials, runPageMs, table1Ms, trialsFirstPageMs, reviewPageMs, comparePageMs, exportCsvMs, exportJsonMs, exportParquetMs, reportMs,
//    exportPeakRssMb, progressMs, homeMs, experimentPageMs, designerOpenMs, …, missedTargets, errors, detail}
// always, to the end: a measurement that fails or passes BENCH_TIMEOUT_MS is null, with its reason in
// `errors`, and the others are still taken.
// Page and API times are server time as a client on the same machine sees it (request to last byte, read by
// node:http; the client's own CPU per export in detail.clientCpuMs),
// the median of 5 after one warm-up. Exports are timed first on a fresh server, so its peak RSS (VmHWM of
// the server's processes) is the exports'; the CLI's export (`tclab export`) is timed as its own process.
// The server runs in single-user mode (loopback, no account: HOST=127.0.0.1, no TCLAB_ADMIN_*), so no
// session is needed; a database that holds accounts is refused for the pages.
//
// Needs `npm run build` first. `--trials N` (or BENCH_TRIALS): trials of each run (default 100000). The targets:
// pages < 300 ms, the trials table's first page and the progress API < 150 ms, the JSON and CSV exports < 8 s,
// the Parquet zip < 4 s and at most 1/8 of the JSON's bytes (docs/export.md#parquet) — a completed run's, its
// tables stored as it completed (docs/export.md#stored-parquet-tables); the same export with nothing stored, built from
// the trials, is timed too (detail.exportParquetBuiltMs, detail.cliExportParquetBuilt: no target); from 1,000,000
// trials the pages and the progress API < 1 s, the trials table's first page < 300 ms, and
// no target on an export's time. Every export's peak RSS < 256 MB. Env:
//   BENCH_TRIALS      trials of the run (default 100000)
//   PORT              the server's port (default 3050)
//   BENCH_DB=name     use (and keep) this database: a completed run of BENCH_TRIALS trials in it is reused
//                     without rebuilding (migrations are still applied); otherwise it is (re)built there
//   BENCH_REBUILD=1   with BENCH_DB: drop it and build anew
//   BENCH_KEEP=1      keep the randomly named database (its name is printed on stderr, for BENCH_DB)
//   BENCH_ONLY=…      comma list of table1, exports, pages, cli, designer (default all); e.g. BENCH_ONLY=pages
//                     (designer: `npm run bench:designer`'s open time of the reference study, as designerOpenMs)
//   BENCH_TIMEOUT_MS  the most one request / CLI export may take (default 300000)
//   BENCH_COMPARE=0   skip the second run of the same experiment version (the position-biased simulated
//                     model) that the compare page is timed on; comparePageMs is then null
//   BENCH_BUILD_ONLY=1  stop after building (with BENCH_DB or BENCH_KEEP, to build once for later)
// After the CLI's exports, their Parquet tables are read back by DuckDB and compared with their JSON row for row
// (detail.parquetEqualsJson: {trials, differences}; a difference is reported in missedTargets), and the stored
// tables' bytes with those built afresh (detail.parquetStoredEqualsBuilt), and the CLI's stored export is checked
// to have read them back (detail.parquetReadBack).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { ensureDatabase, migrate, dropDatabase } from '../lib/db/migrate';
import { deleteRedisPrefix } from '../lib/testing/cleanup';
import { parquetAgainstJson, runJsonFileTrials } from '../lib/testing/parquet-json';
import { benchEnvironment, startBuiltApp, stopBuiltApp, openSingleUserLink, peakRssMb } from './bench-server';

const ROOT = path.resolve(import.meta.dirname, '..');
const trialsArg = process.argv.indexOf('--trials');
const N = Number(trialsArg >= 0 ? process.argv[trialsArg + 1] : (process.env.BENCH_TRIALS ?? 100_000));
if (!Number.isInteger(N) || N < 4)
  throw new Error(`--trials: a whole number of trials, at least 4 (got ${trialsArg >= 0 ? process.argv[trialsArg + 1] : process.env.BENCH_TRIALS})`);
const MILLION = N >= 1_000_000;
const PORT = Number(process.env.PORT ?? 3050);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 300_000);
const ONLY = new Set((process.env.BENCH_ONLY ?? 'table1,exports,pages,cli,designer').split(',').map((x) => x.trim()));
const named = process.env.BENCH_DB?.trim();
if (named && !/^[a-z0-9_]+$/.test(named)) throw new Error('BENCH_DB: lower-case letters, digits and _ only');
const keep = Boolean(named || process.env.BENCH_KEEP || process.env.BENCH_KEEP_DB);
// single-user mode for the server and the CLI: loopback, and no first admin made at start
const { url: databaseUrl } = benchEnvironment('results', { database: named, singleUser: true });
const base = new URL(databaseUrl);
if (!process.env.BENCH_BUILD_ONLY && !existsSync(path.join(ROOT, '.next', 'BUILD_ID'))) throw new Error('build the app first: npm run build');

const loadNow = () => loadavg().map((x) => Math.round(x * 100) / 100);
const load = { cores: cpus().length, loadAtStart: loadNow(), loadAtEnd: [] as number[] };
const log = (m: string) => process.stderr.write(`bench-results: ${m} (load ${loadNow().join(' ')})\n`);
if (named && process.env.BENCH_REBUILD) await dropDatabase(databaseUrl);
await ensureDatabase(databaseUrl);
await migrate(databaseUrl);
const { getExperiment } = await import('../lib/db/experiments');
const { saveExperiment } = await import('../lib/experiments/versions');
const { createRun } = await import('../lib/runner/start');
const { processTrial } = await import('../lib/runner/trial');
const { setRunStatus, completeRunIfDone } = await import('../lib/db/runs');
const { loadRunSummary } = await import('../lib/runs/summary');
const { warmRunResults } = await import('../lib/runs/warm');
const { dropStoredExport, storedExportVersion } = await import('../lib/db/stored-exports');
const { anyUser } = await import('../lib/db/users');
const { closeDb, pool } = await import('../lib/db/client');
const { closeQueues } = await import('../lib/queue/connection');
const { benchSpec } = await import('../lib/testing/bench-spec');
const { SIMULATED_POSITION_BIASED } = await import('../lib/simulator');

let server: ChildProcess | undefined;
let keptRun = '';
const dir = mkdtempSync(path.join(tmpdir(), 'tclab-bench-results-'));
async function cleanup() {
  stopBuiltApp(server);
  await closeQueues().catch(() => {});
  await closeDb().catch(() => {});
  if (keep) process.stderr.write(`kept database ${base.pathname.slice(1)} (run ${keptRun || 'not built'}): BENCH_DB=${base.pathname.slice(1)} reuses it\n`);
  else await dropDatabase(process.env.DATABASE_URL!).catch(() => {});
  await deleteRedisPrefix(process.env.REDIS_URL || 'redis://127.0.0.1:6379', process.env.TCLAB_QUEUE_PREFIX!).catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanup().finally(() => process.exit(130)));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number) => Math.round(x);

/** A completed run of N trials already in the database (BENCH_DB), or null. */
async function existingRun(model: string): Promise<{ runId: string; experimentId: string } | null> {
  const r = await pool().query<{ id: string; experiment_id: string; n: number }>(
    `SELECT r.id, r.experiment_id, (SELECT count(*)::int FROM trials t WHERE t.run_id = r.id) AS n
       FROM runs r WHERE r.status = 'completed' AND r.model = $1 ORDER BY r.created_at DESC LIMIT 1`,
    [model],
  );
  const x = r.rows[0];
  return x && x.n === N ? { runId: x.id, experimentId: x.experiment_id } : null;
}

async function buildRun(model: string, experimentId?: string): Promise<{ runId: string; experimentId: string }> {
  const expId = experimentId ?? (await saveExperiment(benchSpec(N, { orderPolicy: 'reverse-swap' }))).id;
  const exp = (await getExperiment(expId))!;
  const run = await createRun(exp.id, { provider: 'simulated', model });
  if (!(await setRunStatus(run.id, ['created'], 'running'))) throw new Error('run did not start');
  const ids = (await pool().query<{ id: string }>(`SELECT id FROM trials WHERE run_id = $1 ORDER BY trial_key`, [run.id])).rows.map((r) => r.id);
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: 128 }, async () => {
      while (next < ids.length) {
        const trialId = ids[next++];
        const r = await processTrial({ trialId, runId: run.id }, { owner: 'bench-results' });
        if (r.kind !== 'done') throw new Error(`trial ${trialId}: ${JSON.stringify(r)}`);
        if (++done % 10_000 === 0) log(`${done} of ${ids.length} trials`);
      }
    }),
  );
  await completeRunIfDone(run.id);
  return { runId: run.id, experimentId: exp.id };
}

const errors: Record<string, string> = {};
/** Runs one measurement; a failure (or timeout) is recorded in `errors` and gives null, so the rest still run. */
async function measure<T>(name: string, f: () => Promise<T>): Promise<T | null> {
  try {
    const v = await f();
    log(`${name}: ${JSON.stringify(v)}`);
    return v;
  } catch (e) {
    errors[name] = (e as Error).message;
    log(`${name} failed: ${(e as Error).message}`);
    return null;
  }
}

const result: Record<string, unknown> = {};
const detail: Record<string, unknown> = {};
try {
  // 1. the run, through the product's storage functions (or the one kept in BENCH_DB)
  const t0 = performance.now();
  let ref = named ? await existingRun('heuristic') : null;
  if (ref) {
    detail.reused = `${base.pathname.slice(1)}: run ${ref.runId}`;
    log(`reusing run ${ref.runId} in ${base.pathname.slice(1)}`);
  } else {
    if (named && (await pool().query('SELECT 1 FROM runs LIMIT 1')).rowCount) {
      log(`${base.pathname.slice(1)} holds no completed run of ${N} trials: rebuilding it`);
      await closeDb();
      await dropDatabase(databaseUrl);
      await ensureDatabase(databaseUrl);
      await migrate(databaseUrl);
    }
    log(`building a run of ${N} trials`);
    ref = await buildRun('heuristic');
    detail.buildMs = round(performance.now() - t0);
  }
  const bytesOnDisk = async () => {
    const r = await pool().query<{ db: string; trials: number; attempts: number; tables: Record<string, number> }>(
      `SELECT pg_database_size(current_database()) AS db, (SELECT count(*)::int FROM trials) AS trials, (SELECT count(*)::int FROM attempts) AS attempts,
              (SELECT json_object_agg(c.relname, pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = 'public' AND c.relkind = 'r' AND pg_total_relation_size(c.oid) > 1e6) AS tables`,
    );
    const x = r.rows[0];
    return {
      bytesPerTrial: Math.round(Number(x.db) / x.trials),
      trials: x.trials,
      attempts: x.attempts,
      tableBytesPerTrial: Object.fromEntries(Object.entries(x.tables ?? {}).map(([k, v]) => [k, Math.round(v / x.trials)])),
    };
  };
  const { runId, experimentId } = ref;
  keptRun = runId;
  let otherRunId: string | null = null;
  let builtOther = false;
  if (process.env.BENCH_COMPARE !== '0') {
    let other = await existingRun(SIMULATED_POSITION_BIASED);
    if (!other) {
      log(`building a second run (${SIMULATED_POSITION_BIASED})`);
      other = await buildRun(SIMULATED_POSITION_BIASED, experimentId);
      builtOther = true;
    }
    otherRunId = other.runId;
    keptRun += ` and ${otherRunId}`;
  }
  // autovacuum may be off (it is here): the statistics of what was just built, before anything reads it
  if (detail.buildMs !== undefined || builtOther) await pool().query('VACUUM ANALYZE trials, attempts, observations, verdicts');
  if (detail.buildMs !== undefined) {
    detail.disk = await bytesOnDisk();
    log(`on disk: ${JSON.stringify(detail.disk)}`);
  }
  const exp = (await getExperiment(experimentId))!;
  result.trials = (await pool().query<{ n: number }>('SELECT count(*)::int AS n FROM trials WHERE run_id = $1', [runId])).rows[0].n;
  if (process.env.BENCH_BUILD_ONLY) ONLY.clear();

  // 2. Table 1 from the grouped queries: before and after ANALYZE (autovacuum is off here)
  const table1 = async () => {
    const s = performance.now();
    await loadRunSummary(runId, exp.spec);
    return performance.now() - s;
  };
  if (ONLY.has('table1')) {
    detail.table1BeforeAnalyzeMs = await measure('table1BeforeAnalyzeMs', async () => round(await table1()));
    const a0 = performance.now();
    await pool().query('ANALYZE trials; ANALYZE observations; ANALYZE verdicts; ANALYZE attempts');
    detail.analyzeMs = round(performance.now() - a0);
    result.table1Ms = await measure('table1Ms', async () => round(median([await table1(), await table1(), await table1(), await table1(), await table1()])));
  } else if (ONLY.size) await pool().query('ANALYZE trials; ANALYZE observations; ANALYZE verdicts; ANALYZE attempts');

  // what a worker stores as a large run completes (lib/runs/warm.ts, its onRunCompleted), stored here too before
  // the pages and exports are timed, as in production (Table 1 above is timed as computed on a fresh build; a
  // run already warmed reads its stored values back)
  // (the Parquet tables among them: docs/export.md#stored-parquet-tables; `parquetStoredBefore`: already stored by an
  // earlier invocation on this database, so warmMs did not build them)
  detail.parquetStoredBefore = (await storedExportVersion(runId, 'parquet')) !== null;
  const w0 = performance.now();
  for (const id of [runId, otherRunId]) if (id) await warmRunResults(id);
  detail.warmMs = round(performance.now() - w0);
  log(`stored what the pages read (warmRunResults) in ${detail.warmMs} ms`);

  // 3. the built app on this database: exports first (fresh process: its peak RSS is theirs), then pages
  const mode = (await anyUser()) ? 'accounts' : 'single-user';
  detail.authMode = mode;
  const rid = encodeURIComponent(runId);
  if (ONLY.has('exports') || ONLY.has('pages')) {
    server = await startBuiltApp(PORT);
    const url = (p: string) => `http://127.0.0.1:${PORT}${p}`;
    // single-user mode admits the client that opened the link the server printed (docs/access.md): open it once
    const cookie = mode === 'single-user' ? await openSingleUserLink(PORT) : '';
    // a redirect (to sign-in) or any status but 200 is an error, never a timed page
    // node:http, not fetch: on two cores the client shares the machine with the server and PostgreSQL, and
    // fetch's web stream spent 2.4–3.1 s of CPU taking in the 271 MB JSON export where node:http spends about 1 s
    // and curl 0.05 s — an export timed through fetch was partly the client's time (docs/benchmarks.md,
    // "Results at scale", session 25). `clientCpuMs`: what this client spent, beside each export's time.
    const get = async (p: string) => {
      if (mode !== 'single-user') throw new Error('the database holds accounts, so the server asks for a session: use a database without users');
      const s = performance.now();
      const cpu = process.cpuUsage();
      const { status, location, bytes } = await new Promise<{ status: number; location?: string; bytes: number }>((resolve, reject) => {
        const signal = AbortSignal.timeout(TIMEOUT_MS);
        const failed = (e: Error) => reject(signal.aborted ? new Error(`${p}: longer than ${TIMEOUT_MS} ms (BENCH_TIMEOUT_MS)`) : e);
        const req = http.get(url(p), { headers: { cookie }, signal }, (res) => {
          let n = 0;
          res.on('data', (chunk: Buffer) => (n += chunk.length));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, bytes: n }));
          res.on('error', failed);
        });
        req.on('error', failed);
      });
      if (status !== 200) throw new Error(`${p}: HTTP ${status}${location ? ` → ${location}` : ''}`);
      const used = process.cpuUsage(cpu);
      return { ms: performance.now() - s, bytes, clientCpuMs: Math.round((used.user + used.system) / 1000) };
    };
    if (ONLY.has('exports')) {
      const csv = await measure('exportCsvMs', () => get(`/api/runs/${rid}/export/trials.csv`));
      detail.httpCsvPeakRssMb = round(peakRssMb(server.pid!));
      const json = await measure('exportJsonMs', () => get(`/api/runs/${rid}/export/json`));
      detail.httpExportPeakRssMb = round(peakRssMb(server.pid!));
      result.exportCsvMs = csv && round(csv.ms);
      result.exportJsonMs = json && round(json.ms);
      if (csv) detail.csvMb = Math.round(csv.bytes / 1e5) / 10;
      if (json) detail.jsonMb = Math.round(json.bytes / 1e5) / 10;
      // the Parquet tables in one zip (docs/export.md#parquet) with nothing stored: built from the trials (and stored
      // again), as the first export after a review or of a run below TCLAB_WARM_MIN_TRIALS is (no target:
      // docs/export.md#stored-parquet-tables); then as a completed run's download is, read back as stored — its time, and
      // its bytes against the JSON's
      await dropStoredExport(runId, 'parquet');
      const built = await measure('exportParquetBuiltMs', () => get(`/api/runs/${rid}/export/parquet.zip`));
      detail.exportParquetBuiltMs = built && round(built.ms);
      detail.httpParquetBuiltPeakRssMb = round(peakRssMb(server.pid!));
      // the server stores the tables it built once the zip has been sent: wait for them
      for (const until = Date.now() + 60_000; (await storedExportVersion(runId, 'parquet')) === null && Date.now() < until;) await new Promise((r) => setTimeout(r, 50));
      const parquet = await measure('exportParquetMs', () => get(`/api/runs/${rid}/export/parquet.zip`));
      detail.httpParquetPeakRssMb = round(peakRssMb(server.pid!));
      result.exportParquetMs = parquet && round(parquet.ms);
      if (parquet) detail.parquetMb = Math.round(parquet.bytes / 1e5) / 10;
      if (parquet && json) detail.parquetToJsonBytes = Math.round((1000 * parquet.bytes) / json.bytes) / 1000;
      detail.clientCpuMs = { csv: csv?.clientCpuMs ?? null, json: json?.clientCpuMs ?? null, parquet: parquet?.clientCpuMs ?? null };
      // the one-file report (docs/report.md)
      const report = await measure('reportMs', () => get(`/api/runs/report?ids=${rid}`));
      result.reportMs = report && round(report.ms);
      if (report) detail.reportKb = Math.round(report.bytes / 1e3);
    }
    if (ONLY.has('pages')) {
      const timed = (name: string, p: string) =>
        measure(name, async () => {
          await get(p);
          const xs: number[] = [];
          for (let i = 0; i < 5; i++) xs.push((await get(p)).ms);
          return round(median(xs));
        });
      result.runPageMs = await timed('runPageMs', `/runs/${rid}`);
      result.reviewPageMs = await timed('reviewPageMs', `/runs/${rid}/review`);
      result.trialsFirstPageMs = await timed('trialsFirstPageMs', `/api/runs/${rid}/trials`);
      result.progressMs = await timed('progressMs', `/api/runs/${rid}/progress`);
      result.homeMs = await timed('homeMs', '/');
      result.experimentPageMs = await timed('experimentPageMs', `/experiments/${encodeURIComponent(exp.id)}`);
      if (otherRunId) result.comparePageMs = await timed('comparePageMs', `/runs/compare?ids=${rid},${encodeURIComponent(otherRunId)}`);
      else errors.comparePageMs = 'not timed: BENCH_COMPARE=0 skips the second run it needs';
    }
  }

  // 4. `tclab export` as its own process: the `bin` (cli/tclab.mjs runs the compiled bundle in one node process,
  // so its VmHWM is the export's), built beforehand so that no build is timed
  if (ONLY.has('cli')) {
    execFileSync(process.execPath, [path.join(ROOT, 'cli/bundle.mjs')], { cwd: ROOT, stdio: 'inherit' });
    const cli = async (args: string[]) => {
      const s = performance.now();
      const p = spawn(process.execPath, [path.join(ROOT, 'cli/tclab.mjs'), 'export', runId, ...args], {
        cwd: ROOT,
        env: process.env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let peak = 0;
      let errText = '';
      p.stderr!.on('data', (d: Buffer) => (errText += d.toString()));
      const sampler = setInterval(() => (peak = Math.max(peak, peakRssMb(p.pid!))), 100);
      const killer = setTimeout(() => p.kill('SIGKILL'), TIMEOUT_MS);
      const code = await new Promise<number | string>((r) => p.on('exit', (c, sig) => r(c ?? sig ?? 1)));
      clearInterval(sampler);
      clearTimeout(killer);
      if (code !== 0) throw new Error(`tclab export ${args[0]}: ${code === 'SIGKILL' ? `killed after ${TIMEOUT_MS} ms` : `exit ${code}`}: ${errText.slice(-500)}`);
      return { ms: round(performance.now() - s), peakRssMb: round(peak) };
    };
    detail.cliExportJson = await measure('cliExportJson', () => cli(['--out', path.join(dir, 'run.json')]));
    detail.cliExportCsv = await measure('cliExportCsv', () => cli(['--csv', path.join(dir, 'trials.csv')]));
    // read back as stored (`parquetReadBack`: the stored set untouched — an export that could not read it builds and
    // stores the tables again), then with nothing stored
    const storedAt = async () =>
      (await pool().query<{ at: string }>(`SELECT stored_at::text AS at FROM stored_exports WHERE run_id = $1 AND kind = 'parquet'`, [runId])).rows[0]?.at ?? null;
    const before = await storedAt();
    detail.cliExportParquet = await measure('cliExportParquet', () => cli(['--parquet', path.join(dir, 'parquet')]));
    detail.parquetReadBack = before !== null && (await storedAt()) === before;
    // with nothing stored: built from the trials (and stored again)
    await dropStoredExport(runId, 'parquet');
    detail.cliExportParquetBuilt = await measure('cliExportParquetBuilt', () => cli(['--parquet', path.join(dir, 'parquet-built')]));
    // the Parquet tables read back by DuckDB against the JSON, row for row (lib/testing/parquet-json.ts): what they
    // hold, not a time; and the stored tables' bytes against those built
    if (detail.cliExportJson && detail.cliExportParquet)
      detail.parquetEqualsJson = await measure('parquetEqualsJson', () => parquetAgainstJson(path.join(dir, 'parquet'), runJsonFileTrials(path.join(dir, 'run.json'))));
    if (detail.cliExportParquet && detail.cliExportParquetBuilt)
      detail.parquetStoredEqualsBuilt = ['trials', 'attempts', 'checks', 'choices'].every((t) =>
        readFileSync(path.join(dir, 'parquet', `${t}.parquet`)).equals(readFileSync(path.join(dir, 'parquet-built', `${t}.parquet`))),
      );
  }
  const peaks = [
    detail.httpExportPeakRssMb,
    (detail.cliExportJson as { peakRssMb?: number } | null)?.peakRssMb,
    (detail.cliExportCsv as { peakRssMb?: number } | null)?.peakRssMb,
    detail.httpParquetPeakRssMb,
    detail.httpParquetBuiltPeakRssMb,
    (detail.cliExportParquet as { peakRssMb?: number } | null)?.peakRssMb,
    (detail.cliExportParquetBuilt as { peakRssMb?: number } | null)?.peakRssMb,
  ];
  const known = peaks.filter((x): x is number => typeof x === 'number');
  result.exportPeakRssMb = known.length ? Math.max(...known) : null;

  // 5. the designer opening the reference study in Chromium (scripts/bench-designer.ts: its own database and port)
  if (ONLY.has('designer')) {
    const designer = await measure('designer', async () => {
      const out = execFileSync(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), path.join(ROOT, 'scripts/bench-designer.ts')], {
        cwd: ROOT,
        env: { ...process.env, PORT: String(PORT + 10) },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        timeout: TIMEOUT_MS,
      });
      return JSON.parse(out.trim().split('\n').at(-1)!) as { openMs?: number };
    });
    result.designerOpenMs = designer?.openMs ?? null;
    detail.designer = designer;
  }
} catch (e) {
  errors.run = (e as Error).message;
} finally {
  load.loadAtEnd = loadNow();
  const page = MILLION ? 1000 : 300;
  const targets: [string, number][] = [
    ['runPageMs', page],
    ['reviewPageMs', page],
    ['comparePageMs', page],
    ['homeMs', page],
    ['experimentPageMs', page],
    ['trialsFirstPageMs', MILLION ? 300 : 150],
    ['progressMs', MILLION ? 1000 : 150],
    ['designerOpenMs', 2000],
    ...(MILLION
      ? []
      : ([
          ['exportCsvMs', 8_000],
          ['exportJsonMs', 8_000],
          ['exportParquetMs', 4_000],
        ] as [string, number][])),
    ['exportPeakRssMb', 256],
  ];
  const cliMs = (k: string) => (detail[k] as { ms?: number } | null)?.ms;
  const missedTargets = [
    ...targets.filter(([k, t]) => typeof result[k] === 'number' && (result[k] as number) >= t).map(([k, t]) => `${k} ${result[k]} ≥ ${t}`),
    ...['cliExportJson', 'cliExportCsv'].filter((k) => !MILLION && (cliMs(k) ?? 0) >= 8_000).map((k) => `${k}.ms ${cliMs(k)} ≥ 8000`),
    ...['cliExportParquet'].filter((k) => !MILLION && (cliMs(k) ?? 0) >= 4_000).map((k) => `${k}.ms ${cliMs(k)} ≥ 4000`),
    ...(typeof detail.parquetToJsonBytes === 'number' && detail.parquetToJsonBytes > 0.125 ? [`parquetToJsonBytes ${detail.parquetToJsonBytes} > 1/8`] : []),
    ...(detail.parquetStoredEqualsBuilt === false ? ['parquetStoredEqualsBuilt: the stored tables differ from those built'] : []),
    ...(detail.parquetReadBack === false ? ['parquetReadBack: `tclab export --parquet` built the tables instead of reading them back'] : []),
    ...((detail.parquetEqualsJson as { differences?: string[] } | null)?.differences?.length
      ? [`parquetEqualsJson: ${(detail.parquetEqualsJson as { differences: string[] }).differences[0]}`]
      : []),
  ];
  const keys = [
    'trials',
    'runPageMs',
    'table1Ms',
    'trialsFirstPageMs',
    'reviewPageMs',
    'comparePageMs',
    'exportCsvMs',
    'exportJsonMs',
    'exportParquetMs',
    'reportMs',
    'exportPeakRssMb',
    'progressMs',
    'homeMs',
    'experimentPageMs',
    'designerOpenMs',
  ];
  process.stdout.write(`${JSON.stringify({ ...Object.fromEntries(keys.map((k) => [k, result[k] ?? null])), missedTargets, errors, detail: { ...detail, ...load } })}\n`);
  await cleanup();
}
