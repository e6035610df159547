// `npm run bench:designer` (a script, not a test): how long the designer takes to open the reference study in
// a real browser (Debian's Chromium, as the e2e suite drives it) against `next start` (the built app) on a
// database of its own. Prints one JSON line:
//   {openMs, serverMs, jumpMs, heightPx, elements, expandMs, expandedHeightPx, expandedElements, byWidth, missedTargets, detail}
// openMs: navigation start → the page's contents list hydrated (React has attached to it, so a click on it
// works); serverMs: navigation start → the page's first byte; jumpMs: a click on the contents' link to one tool
// description → that field focused (its sections opened, rendered and scrolled to). The median of 5 after one
// warm-up, at 1440 × 900 and at 390 × 844 px; heightPx and elements: the page's height and its number of
// elements once opened (collapsed); expandMs, expandedHeightPx and expandedElements: then every section opened
// (each <details> of the page, until none is closed), the whole draft's fields at once. Target (docs/designer.md): opens in < 2 s on a 2-core machine.
// Needs `npm run build` first. Env:
//   PORT                 the server's port (default 3060)
//   BENCH_RUNS           timed opens per width (default 5)
//   BENCH_CPU_SLOWDOWN   Chromium's CPU throttling rate (default 1: none; 4 ≈ a busy, slower laptop)
import { cpus, loadavg } from 'node:os';
import { chromium, type Page } from '@playwright/test';
import { ensureDatabase, migrate, dropDatabase } from '../lib/db/migrate';
import { deleteRedisPrefix } from '../lib/testing/cleanup';
import { benchEnvironment, startBuiltApp, stopBuiltApp, openSingleUserLink } from './bench-server';

const PORT = Number(process.env.PORT ?? 3060);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SLOWDOWN = Number(process.env.BENCH_CPU_SLOWDOWN ?? 1);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('BENCH_RUNS: a whole number of runs, at least 1');
if (!(SLOWDOWN >= 1)) throw new Error('BENCH_CPU_SLOWDOWN: a rate of at least 1');
const TARGET_OPEN_MS = 2000;
const TOOL = 'get_payment_status';
const WHERE = 'clear, invoice/en';

const { url: databaseUrl } = benchEnvironment('designer', { singleUser: true });

const loadNow = () => loadavg().map((x) => Math.round(x * 100) / 100);
const load = { cores: cpus().length, cpu: cpus()[0]?.model ?? '', loadAtStart: loadNow(), loadAtEnd: [] as number[] };
const log = (m: string) => process.stderr.write(`bench-designer: ${m} (load ${loadNow().join(' ')})\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await ensureDatabase(databaseUrl);
await migrate(databaseUrl);
const { ensureTemplateExperiment } = await import('../lib/experiments/templates');
const { draftFromVersion } = await import('../lib/db/drafts');
const { closeDb } = await import('../lib/db/client');
const { closeQueues } = await import('../lib/queue/connection');

let server: Awaited<ReturnType<typeof startBuiltApp>> | undefined;
let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
async function cleanup() {
  await browser?.close().catch(() => {});
  stopBuiltApp(server);
  await closeQueues().catch(() => {});
  await closeDb().catch(() => {});
  await dropDatabase(process.env.DATABASE_URL!).catch(() => {});
  await deleteRedisPrefix(process.env.REDIS_URL || 'redis://127.0.0.1:6379', process.env.TCLAB_QUEUE_PREFIX!).catch(() => {});
}
// interrupted: everything is closed, so the open the page was waiting on fails and the JSON line (what was measured
// so far) is still written; the process then ends on its own, its output drained
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    process.exitCode = 130;
    void cleanup();
  });

type Open = {
  openMs: number;
  serverMs: number;
  jumpMs: number;
  heightPx: number;
  elements: number;
  expandMs: number;
  expandedHeightPx: number;
  expandedElements: number;
};

/** One open of the designer in a fresh page: timed from the navigation's start as the browser saw it. */
async function openOnce(page: Page, url: string): Promise<Open> {
  await page.goto(url, { waitUntil: 'commit' });
  const contents = page.getByRole('navigation', { name: 'Designer contents' });
  await contents.waitFor();
  // hydrated: React's fiber on the contents list (before that a click on a link only changes the hash)
  await page.waitForFunction(
    () => {
      const nav = document.querySelector('nav[aria-label="Designer contents"]');
      return Boolean(nav && Object.keys(nav).some((k) => k.startsWith('__reactFiber')));
    },
    undefined,
    { polling: 'raf' },
  );
  const { openMs, serverMs, heightPx, elements } = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return {
      openMs: performance.now(),
      serverMs: nav.responseStart,
      heightPx: document.documentElement.scrollHeight,
      elements: document.getElementsByTagName('*').length,
    };
  });
  const target = `Description of ${TOOL} (${WHERE})`;
  const t = Date.now();
  await contents.getByRole('link', { name: target }).click();
  await page.getByRole('textbox', { name: target, exact: true }).and(page.locator(':focus')).waitFor();
  const jumpMs = Date.now() - t;
  // then every section opened, as one page holding every field (what the designer rendered before its sections)
  const expanded = await page.evaluate(async () => {
    const start = performance.now();
    for (let quiet = 0; quiet < 2;) {
      const closed = [...document.querySelectorAll('details:not([open])')] as HTMLDetailsElement[];
      for (const d of closed) d.open = true;
      quiet = closed.length === 0 ? quiet + 1 : 0;
      // two frames: React renders the opened sections, and their own sections mount (no named helper here: tsx
      // would wrap it in a __name call the page does not have)
      for (let f = 0; f < 2; f++) await new Promise((r) => requestAnimationFrame(r));
    }
    return { expandMs: performance.now() - start, expandedHeightPx: document.documentElement.scrollHeight, expandedElements: document.getElementsByTagName('*').length };
  });
  return { openMs, serverMs, jumpMs, heightPx, elements, ...expanded };
}

const result: Record<string, unknown> = {};
const missedTargets: string[] = [];
try {
  // what "Edit in designer" does on the template's version: a draft of it, which the designer opens
  const experiment = await ensureTemplateExperiment('reference-study');
  const draft = await draftFromVersion(experiment.id);
  log(`stored ${experiment.id} and its draft ${draft.slug}`);
  server = await startBuiltApp(PORT);
  const cookie = await openSingleUserLink(PORT);
  const [name, ...value] = cookie.split('=');
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const url = `http://127.0.0.1:${PORT}/designer/${encodeURIComponent(draft.slug)}`;
  const byWidth: Record<string, Open> = {};
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    const context = await browser.newContext({ viewport: { width, height } });
    await context.addCookies([{ name, value: value.join('='), domain: '127.0.0.1', path: '/' }]);
    const opens: Open[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const page = await context.newPage();
      if (SLOWDOWN > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN });
      const open = await openOnce(page, url);
      await page.close();
      if (i > 0) opens.push(open); // the first is the warm-up
      log(
        `${width} px, open ${i}${i === 0 ? ' (warm-up)' : ''}: ${Math.round(open.openMs)} ms, jump ${open.jumpMs} ms, every section opened ${Math.round(open.expandMs)} ms`,
      );
    }
    await context.close();
    byWidth[width] = {
      openMs: Math.round(median(opens.map((o) => o.openMs))),
      serverMs: Math.round(median(opens.map((o) => o.serverMs))),
      jumpMs: Math.round(median(opens.map((o) => o.jumpMs))),
      heightPx: median(opens.map((o) => o.heightPx)),
      elements: median(opens.map((o) => o.elements)),
      expandMs: Math.round(median(opens.map((o) => o.expandMs))),
      expandedHeightPx: median(opens.map((o) => o.expandedHeightPx)),
      expandedElements: median(opens.map((o) => o.expandedElements)),
    };
    if (byWidth[width].openMs >= TARGET_OPEN_MS) missedTargets.push(`openMs at ${width} px: ${byWidth[width].openMs} ≥ ${TARGET_OPEN_MS}`);
  }
  Object.assign(result, byWidth[1440], { byWidth });
} finally {
  load.loadAtEnd = loadNow();
  process.stdout.write(`${JSON.stringify({ ...result, missedTargets, detail: { runs: RUNS, cpuSlowdown: SLOWDOWN, ...load } })}\n`);
  await cleanup();
}
