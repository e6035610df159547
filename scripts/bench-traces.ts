// `npm run bench:traces -- --mb 300` (a script, not a test): the peak RSS of `tclab cases import` reading a
// large request/response log (docs/traces.md). The log is made by the official openai SDK against the loopback
// server (lib/testing/trace-traffic.ts: a real exchange, recorded as an application's log records it), then
// grown to the size asked by repeating those lines with a different request in each (a new city, party size and
// e-mail address, so that no line is a duplicate of another and every line has something to redact). The CLI
// runs as a user runs it, a process of its own with the defaults, on a database of its own:
//   tclab cases import openai-log FILE [--sample N] --json
// Peak RSS is the process's maximum resident set (`/usr/bin/time -f %M`). One JSON line:
//   {mb, lines, sample, peakRssMb, limitMb, wallMs, read, imported, grouped, duplicate, notSampled, cliExit, load}
// Exit 1 when the peak passes the limit or the report does not count every line read.
// Options: --mb M (default 300), --sample N (default none: every candidate kept), --limit-mb L (default 256),
// --distinct (requests of random words: most lines head a group of their own, where by default the log is one
// request asked over and over, grouped as near-duplicates), --keep (keep the database and the log),
// --http (the Traces page's way instead of the CLI: the file streamed as one request's body to the built app's
// import route, `next start` in single-user mode — `npm run build` first; the peak is the server's, its
// processes' VmHWM, measured from a fresh start).
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import OpenAI from 'openai';
import { dropDatabase, ensureDatabase, migrate } from '../lib/db/migrate';
import { resetEnvCache } from '../lib/env';
import { startLoopbackServer } from '../lib/testing/loopback-server';
import { createReadStream } from 'node:fs';
import { request } from 'node:http';
import { openSingleUserLink, peakRssMb, singleUserMode, startBuiltApp, stopBuiltApp } from './bench-server';
import { askWithTools, recordingFetch, restaurantScript, TRACE_USER, type ExchangeLine } from '../lib/testing/trace-traffic';

const TIME = '/usr/bin/time';
const ROOT = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '300' },
    sample: { type: 'string' },
    'limit-mb': { type: 'string', default: '256' },
    keep: { type: 'boolean', default: false },
    distinct: { type: 'boolean', default: false },
    http: { type: 'boolean', default: false },
  },
});
const MB = Number(values.mb);
const LIMIT_MB = Number(values['limit-mb']);
if (!(MB > 0 && MB <= 4096)) throw new Error(`--mb: a size from 1 to 4096 (got ${values.mb})`);
if (!existsSync(TIME)) throw new Error(`${TIME} is needed to read the CLI's peak RSS (apt-get install time)`);

const db = new URL(process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres');
db.pathname = `/tclab_bench_traces_${process.pid}_${randomBytes(2).toString('hex')}`;
const url = db.toString();
process.env.DATABASE_URL = url;
resetEnvCache();
const dir = mkdtempSync(path.join(tmpdir(), 'tclab-bench-traces-'));
const loadNow = () => loadavg().map((x) => Math.round(x * 100) / 100);
const load = { cores: cpus().length, atStart: loadNow(), atEnd: [] as number[] };

// a real exchange of the official SDK, recorded as an application's log records it
const server = await startLoopbackServer({ script: restaurantScript });
const recorded: ExchangeLine[] = [];
try {
  const client = new OpenAI({ apiKey: 'sk-loopback', baseURL: server.openaiBaseUrl, maxRetries: 0, fetch: recordingFetch(recorded) });
  await askWithTools(client, TRACE_USER);
} finally {
  await server.close();
}
const template = JSON.stringify(recorded[0]);
if (!template.includes(TRACE_USER)) throw new Error('bench-traces: the recorded exchange does not hold the request');

// the log, grown line by line to the size asked (each line's request its own)
const file = path.join(dir, 'app.jsonl');
const out = createWriteStream(file);
const CITIES = ['Lyon', 'Nantes', 'Lille', 'Rennes', 'Nice', 'Dijon', 'Metz', 'Brest', 'Tours', 'Caen'];
const WORDS =
  'quiet busy cheap fancy vegan halal kosher spicy sunny shaded rooftop garden terrace harbour station market castle river bridge museum late early brunch dinner lunch birthday anniversary business family date'.split(
    ' ',
  );
let lines = 0;
let bytes = 0;
let seed = 1;
const pick = () => WORDS[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % WORDS.length];
while (bytes < MB * 1024 * 1024) {
  // --distinct: requests of six random words each, so that most lines head a group of their own
  const ask = values.distinct
    ? `Find me a ${pick()} ${pick()} place in ${CITIES[lines % CITIES.length]}, ${pick()} ${pick()} ${pick()} ${pick()}, for ${2 + (lines % 7)} people; mail guest${lines}@example.org.`
    : `Find me a quiet place in ${CITIES[lines % CITIES.length]} for ${2 + (lines % 7)} people, order ${lines}; mail guest${lines}@example.org.`;
  const line = `${template.replace(JSON.stringify(TRACE_USER).slice(1, -1), ask)}\n`;
  bytes += Buffer.byteLength(line);
  lines++;
  if (!out.write(line)) await once(out, 'drain');
}
out.end();
await once(out, 'finish');

await ensureDatabase(url);
await migrate(url);
try {
  let peakRssMb: number;
  let wallMs: number;
  let cliExit: number;
  let report: Record<string, number> | null;
  if (values.http) ({ peakRssMb, wallMs, cliExit, report } = await overHttp());
  else {
    const rss = path.join(dir, 'rss');
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url, TCLAB_LOG_LEVEL: 'warn', TCLAB_QUEUE_PREFIX: `tclab-bench-traces-${process.pid}` };
    delete env.NODE_OPTIONS; // the defaults: no heap cap by hand
    const args = [path.join(ROOT, 'cli/tclab.mjs'), 'cases', 'import', 'openai-log', file, '--json', ...(values.sample ? ['--sample', values.sample] : [])];
    const started = performance.now();
    const stdout: Buffer[] = [];
    cliExit = await new Promise<number>((resolve, reject) => {
      const child = spawn(TIME, ['-f', '%M', '-o', rss, process.execPath, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
      child.stdout.on('data', (c: Buffer) => stdout.push(c));
      child.on('error', reject);
      child.on('exit', (code) => resolve(code ?? 1));
    });
    wallMs = Math.round(performance.now() - started);
    const peakKb = Number(readFileSync(rss, 'utf8').trim().split('\n').at(-1));
    report = cliExit === 0 ? (JSON.parse(Buffer.concat(stdout).toString('utf8')) as { report: Record<string, number> }).report : null;
    peakRssMb = Math.round(peakKb / 1024);
  }
  load.atEnd = loadNow();
  const counts = report && { read: report.read, imported: report.imported, grouped: report.grouped, duplicate: report.duplicate, notSampled: report.notSampled };
  const fileMb = Math.round((statSync(file).size / 1024 / 1024) * 10) / 10;
  process.stdout.write(
    `${JSON.stringify({ mb: fileMb, lines, sample: values.sample ? Number(values.sample) : null, via: values.http ? 'http' : 'cli', peakRssMb, limitMb: LIMIT_MB, wallMs, ...counts, cliExit, load })}\n`,
  );
  const allRead = report !== null && report.read === lines;
  if (!allRead) process.stderr.write(`bench-traces: the report counts ${report?.read ?? 'no'} lines read, not ${lines}\n`);
  if (peakRssMb >= LIMIT_MB) process.stderr.write(`bench-traces: peak RSS ${peakRssMb} MB is not under ${LIMIT_MB} MB\n`);
  process.exitCode = allRead && peakRssMb < LIMIT_MB ? 0 : 1;
} finally {
  if (values.keep) process.stderr.write(`bench-traces: kept database ${db.pathname.slice(1)} and ${file}\n`);
  else {
    rmSync(dir, { recursive: true, force: true });
    await dropDatabase(url);
  }
}

/**
 * The import as the Traces page sends it: the file as one request's body to the built app's route, in single-user
 * mode on this database; the server's peak from its start (so the upload's), and the import's report read back.
 */
async function overHttp(): Promise<{ peakRssMb: number; wallMs: number; cliExit: number; report: Record<string, number> | null }> {
  const port = Number(process.env.PORT ?? 3070);
  singleUserMode();
  process.env.TCLAB_LOG_LEVEL = 'warn';
  process.env.TCLAB_QUEUE_PREFIX = `tclab-bench-traces-${process.pid}`;
  const app = await startBuiltApp(port);
  try {
    const cookie = await openSingleUserLink(port);
    const base = `http://127.0.0.1:${port}`;
    const q = new URLSearchParams({ format: 'openai-log', file: path.basename(file), ...(values.sample ? { sample: values.sample } : {}) });
    const started = performance.now();
    // node:http, not fetch: fetch gives up waiting for the answer's headers after 300 s, and the import of a
    // large log of distinct requests takes longer than that
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const up = request(
        `${base}/api/trace-imports?${q.toString()}`,
        { method: 'POST', headers: { cookie, origin: base, 'content-type': 'application/octet-stream', 'content-length': String(statSync(file).size) } },
        (res) => {
          let t = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (t += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: t }));
          res.on('error', reject);
        },
      );
      up.on('error', reject);
      createReadStream(file).pipe(up);
    });
    let body: { importId?: string } = {};
    try {
      body = JSON.parse(text) as { importId?: string };
    } catch {
      process.stderr.write(`bench-traces: HTTP ${status}, not JSON: ${text.slice(0, 300)}\n`);
    }
    const wallMs = Math.round(performance.now() - started);
    const peak = Math.round(peakRssMb(app.pid!));
    if (status !== 201 || !body.importId) return { peakRssMb: peak, wallMs, cliExit: status, report: null };
    const { getTraceImport } = await import('../lib/db/trace-candidates');
    const imp = await getTraceImport(body.importId);
    return { peakRssMb: peak, wallMs, cliExit: 0, report: (imp?.report ?? null) as Record<string, number> | null };
  } finally {
    stopBuiltApp(app);
    const { closeDb } = await import('../lib/db/client');
    await closeDb().catch(() => {});
  }
}
