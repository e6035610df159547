import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { ROLES, can, type Role } from '../../lib/auth/roles';
import { importViaForm, startRun, tinyExperiment } from '../helpers';
import { ACTIONS, PAGES, ROUTES, type DoorNeed } from './doors';
import { recordOpenAiLog } from '../trace-log';
import { runTrialConditions, tableRowCounts } from '../../lib/db/inspect';
import { account, signInPage, signInRequest } from './users';

// Every door of the app, found on the file system, against the door table (doors.ts): nobody → sign-in
// (pages) or 401; a role without the permission → 403; the database unchanged by every refused request;
// every state-changing route handler refuses a cross-site request even from an admin.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const baseURL = process.env.E2E_ACCOUNTS_URL ?? 'http://127.0.0.1:3101';
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// what signing in writes by itself; every other table must not change under a refused request
const AUTH_BOOKKEEPING = new Set(['sessions', 'verifications', 'rate_limits', '_tclab_migrations']);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}
const rel = (f: string) => path.relative(ROOT, f).split(path.sep).join('/');
const sources = [...walk(path.join(ROOT, 'app')), ...walk(path.join(ROOT, 'components'))].filter((f) => /\.(ts|tsx)$/.test(f));

function foundPages(): string[] {
  return sources.map(rel).filter((f) => f.startsWith('app/') && /\/page\.tsx?$|^app\/page\.tsx?$/.test(f) && !f.split('/').some((s) => s.startsWith('_')));
}
function foundRoutes(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of sources.filter((x) => /\/route\.ts$/.test(x))) {
    const text = readFileSync(f, 'utf8');
    const methods = new Set<string>();
    for (const m of text.matchAll(/export\s+(?:async\s+)?function\s+(\w+)/g)) methods.add(m[1]);
    for (const m of text.matchAll(/export\s+const\s+(\w+)\s*=/g)) methods.add(m[1]);
    for (const m of text.matchAll(/export\s+const\s+\{([^}]*)\}/g))
      for (const n of m[1].split(','))
        methods.add(
          n
            .trim()
            .split(/\s*:\s*/)
            .pop()!,
        );
    out[rel(f)] = [...methods].filter((x) => (METHODS as readonly string[]).includes(x)).sort();
  }
  return out;
}
function foundActions(): string[] {
  const out: string[] = [];
  for (const f of sources) {
    const text = readFileSync(f, 'utf8');
    if (!/^\s*(?:\/\/[^\n]*\n\s*)*['"]use server['"]/.test(text)) continue;
    for (const m of text.matchAll(/export\s+(?:async\s+function\s+(\w+)|const\s+(\w+)\s*=\s*async)/g)) out.push(`${rel(f)}#${m[1] ?? m[2]}`);
  }
  return out.sort();
}

test('the door table names every page, route handler and server action, and nothing else', () => {
  expect(foundPages().sort(), 'pages missing from (or extra in) e2e/accounts/doors.ts PAGES').toEqual(Object.keys(PAGES).sort());
  const routes = foundRoutes();
  expect(Object.keys(routes).sort(), 'route handlers missing from (or extra in) ROUTES').toEqual(Object.keys(ROUTES).sort());
  for (const [f, methods] of Object.entries(routes)) expect(methods, `${f}: methods`).toEqual(Object.keys(ROUTES[f]).sort());
  expect(foundActions(), 'server actions missing from (or extra in) ACTIONS').toEqual(Object.keys(ACTIONS).sort());
});

const databaseUrl = process.env.E2E_ACCOUNTS_DATABASE_URL ?? '';
const ids = { experiment: '', run: '', baseline: '', treatment: '', draft: '', traceImport: '' };
const contexts = new Map<Role | 'nobody', APIRequestContext>();

const rowCounts = () => tableRowCounts(databaseUrl, AUTH_BOOKKEEPING);

/** A door's path with its dynamic segments filled with ids of a real run. */
function concrete(file: string): string {
  const p = file
    .replace(/^app/, '')
    .replace(/\/(page|route)\.tsx?$/, '')
    .replace('[baseline]', ids.baseline)
    .replace('[treatment]', ids.treatment)
    .replace('[trialId]', ids.baseline)
    .replace('[kind]', 'json')
    .replace(/^\/docs\/\[slug\]$/, '/docs/statistics')
    .replace('[slug]', ids.draft)
    .replace('[importId]', ids.traceImport)
    .replace('[seq]', '1')
    .replace('[...all]', 'get-session');
  const withId = /(^|\/)experiments\//.test(p) ? p.replace('[id]', ids.experiment) : p.replace('[id]', ids.run);
  if (file.endsWith('/tcc/route.ts')) return `${withId}?part=card`;
  if (file.endsWith('/runs/report/route.ts')) return `${withId}?ids=${ids.run}`;
  return withId === '' ? '/' : withId;
}

test.beforeAll(async ({ browser }) => {
  // a finished run to point the doors at, made by a researcher
  const page = await browser.newPage({ baseURL });
  await signInPage(page, 'researcher');
  await importViaForm(page, tinyExperiment(`e2e-doors-${Date.now()}`));
  await page.waitForURL(/\/experiments\//);
  ids.experiment = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  ids.run = await startRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 60_000 });
  // a designer draft of the experiment
  await page.goto(`/experiments/${encodeURIComponent(ids.experiment)}`);
  await page.getByRole('button', { name: 'Edit in designer' }).click();
  await page.waitForURL(/\/designer\//);
  ids.draft = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  // a trace import with its candidates (a request/response log the OpenAI SDK wrote)
  await page.goto('/cases');
  await page.getByLabel('Format').selectOption('openai-log');
  await page.getByLabel('File', { exact: true }).setInputFiles(await recordOpenAiLog());
  await page.getByRole('button', { name: 'Import' }).click();
  await page.waitForURL(/\/cases\/[^/]+$/);
  ids.traceImport = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  await page.close();
  const trials = await runTrialConditions(databaseUrl, ids.run);
  ids.baseline = trials.find((t) => t.condition === 'overlapping')!.id;
  ids.treatment = trials.find((t) => t.condition === 'clear')!.id;

  contexts.set('nobody', await playwrightRequest.newContext({ baseURL }));
  for (const role of ROLES) {
    const ctx = await playwrightRequest.newContext({ baseURL });
    await signInRequest(ctx, baseURL, role);
    contexts.set(role, ctx);
  }
});

test.afterAll(async () => {
  for (const c of contexts.values()) await c.dispose();
});

/** A door with checks of its own, not a permission of a role. */
const ownCheck = (need: DoorNeed): need is 'public' | 'better-auth' | 'single-user-link' => need === 'public' || need === 'better-auth' || need === 'single-user-link';
const denied = (need: DoorNeed) => ROLES.filter((r) => !ownCheck(need) && !can(r, need));
const allowed = (need: DoorNeed) => ROLES.filter((r) => ownCheck(need) || can(r, need));

test('pages: nobody is sent to sign in, every role with the permission sees the page', async () => {
  for (const [file, need] of Object.entries(PAGES)) {
    const url = concrete(file);
    const anon = await contexts.get('nobody')!.get(url, { maxRedirects: 0 });
    if (need === 'public') expect(anon.status(), `${file} (nobody)`).toBe(200);
    else {
      expect(anon.status(), `${file} (nobody)`).toBe(307);
      expect(anon.headers()['location'], file).toContain(`/sign-in?next=${encodeURIComponent(url)}`);
    }
    for (const role of denied(need)) expect((await contexts.get(role)!.get(url, { maxRedirects: 0 })).status(), `${file} (${role})`).toBe(403);
    for (const role of allowed(need)) expect((await contexts.get(role)!.get(url, { maxRedirects: 0 })).status(), `${file} (${role})`).toBe(200);
  }
});

/** The build's manifest of server actions: id → file#export and a page that serves it. */
function actionIds(): Map<string, { id: string; page: string }> {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, '.next/server/server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { filename: string; exportedName: string; workers: Record<string, unknown> }>;
  };
  const out = new Map<string, { id: string; page: string }>();
  for (const [id, a] of Object.entries(manifest.node)) out.set(`${a.filename}#${a.exportedName}`, { id, page: concrete(`${Object.keys(a.workers)[0]}.tsx`) });
  return out;
}

test('route handlers and server actions: 401 for nobody, 403 for a role without the permission, nothing changed', async () => {
  const before = await rowCounts();
  for (const [file, methods] of Object.entries(ROUTES)) {
    for (const [method, need] of Object.entries(methods)) {
      if (need === 'better-auth') continue;
      const url = concrete(file);
      const send = (who: Role | 'nobody') =>
        contexts.get(who)!.fetch(url, {
          method,
          headers: { origin: baseURL, 'content-type': 'application/json' },
          data: method === 'GET' ? undefined : { action: 'cancel' },
          maxRedirects: 0,
        });
      if (need === 'public') {
        expect((await send('nobody')).status(), `${method} ${file} (nobody)`).toBe(200);
        continue;
      }
      if (need === 'single-user-link') {
        // this app has accounts: the link of single-user mode is no door into it, whoever asks
        for (const who of ['nobody', ...ROLES] as const) expect((await send(who)).status(), `${method} ${file} (${who})`).toBe(404);
        continue;
      }
      expect((await send('nobody')).status(), `${method} ${file} (nobody)`).toBe(401);
      for (const role of denied(need)) expect((await send(role)).status(), `${method} ${file} (${role})`).toBe(403);
      if (method === 'GET') for (const role of allowed(need)) expect((await send(role)).status(), `${method} ${file} (${role})`).toBe(200);
    }
  }
  const actions = actionIds();
  for (const [key, need] of Object.entries(ACTIONS)) {
    if (need === 'public') continue;
    const a = actions.get(key);
    expect(a, `${key} is in the build's server-action manifest`).toBeDefined();
    const send = (who: Role | 'nobody') =>
      contexts.get(who)!.post(a!.page, {
        headers: { 'next-action': a!.id, origin: baseURL, 'content-type': 'text/plain;charset=UTF-8', accept: 'text/x-component' },
        data: JSON.stringify([ids.experiment, { issues: [], message: null }, '$undefined']),
        maxRedirects: 0,
      });
    expect((await send('nobody')).status(), `${key} (nobody)`).toBe(401);
    for (const role of denied(need)) expect((await send(role)).status(), `${key} (${role})`).toBe(403);
  }
  expect(await rowCounts()).toEqual(before);
});

test('a cross-site request to each state-changing route handler is refused, even from an admin', async () => {
  const before = await rowCounts();
  const admin = contexts.get('admin')!;
  for (const [file, methods] of Object.entries(ROUTES)) {
    for (const method of Object.keys(methods).filter((m) => CHANGING.has(m))) {
      const url = file.includes('[...all]') ? '/api/auth/sign-out' : concrete(file);
      const variants: Record<string, string>[] = [
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        { origin: 'https://evil.example' },
        { 'sec-fetch-site': 'cross-site' },
      ];
      for (const headers of variants) {
        const res = await admin.fetch(url, { method, headers: { ...headers, 'content-type': 'application/json' }, data: { action: 'cancel' } });
        expect(res.status(), `${method} ${url} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
  }
  // and a server action posted from another site (Next compares Origin with Host)
  const a = actionIds().get('components/experiments/actions.ts#startRunAction')!;
  const res = await admin.post(a.page, {
    headers: { 'next-action': a.id, origin: 'https://evil.example', 'content-type': 'text/plain;charset=UTF-8' },
    data: JSON.stringify([ids.experiment]),
  });
  expect(res.status()).toBeGreaterThanOrEqual(400);
  expect(await rowCounts()).toEqual(before);
  // the admin's session still works (nothing was refused for a wrong reason)
  expect((await admin.get(`/api/runs/${encodeURIComponent(ids.run)}/progress`)).status()).toBe(200);
  expect(account('admin').email).toBe('admin@e2e.example');
});
