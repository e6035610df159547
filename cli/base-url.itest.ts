import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunsFromForm } from '@/components/experiments/start-actions';
import { SINGLE_USER_ACTOR } from '../lib/auth/roles';
import { closeDb, pool } from '../lib/db/client';
import { saveExperiment } from '../lib/experiments/versions';
import { createRun, startRun } from '../lib/runner/start';
import { SpecError } from '../lib/schema/common';
import { runCli } from '../lib/testing/engine';
import { startLoopbackServer, type LoopbackServer } from '../lib/testing/loopback-server';
import { failure, selectionRequest, setProviderEnv, settingsFor } from '../lib/testing/provider-fixtures';
import { getProvider } from '../lib/providers/registry';
import { ensureTemplateExperiment } from '../lib/experiments/templates';
import { tinyExperiment } from '../lib/testing/tiny-experiment';

// Base URLs are configuration, not input (docs/providers.md#keys-and-base-urls): a run that names a base URL neither configured
// beside the key nor allow-listed is refused before any request, at every door that creates a run, and a
// stand-in attacker server receives nothing — not the key, not a single request. The allowed path works.

const KEY = 'sk-tclab-BASEURL-KEY-0123456789abcdef';
let dir: string;
let specFile: string;
let experimentId: string;
let home: LoopbackServer; // the server OPENAI_BASE_URL points at
let attacker: LoopbackServer;
let restoreEnv: () => void;

const runCount = async () => (await pool().query<{ n: number }>('SELECT count(*)::int AS n FROM runs')).rows[0].n;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tclab-baseurl-'));
  specFile = path.join(dir, 'tiny.json');
  await writeFile(specFile, JSON.stringify(tinyExperiment('base-url-tiny')));
  experimentId = (await saveExperiment(tinyExperiment('base-url-tiny'))).id;
  home = await startLoopbackServer();
  attacker = await startLoopbackServer();
  restoreEnv = setProviderEnv({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: home.openaiBaseUrl, TCLAB_ALLOWED_BASE_URLS: undefined });
});

afterAll(async () => {
  restoreEnv();
  await home.close();
  await attacker.close();
  await closeDb();
});

const cliEnv = (extra: Record<string, string | undefined> = {}) => ({
  OPENAI_API_KEY: KEY,
  OPENAI_BASE_URL: home.openaiBaseUrl,
  TCLAB_ALLOWED_BASE_URLS: undefined,
  ...extra,
});
const cliRun = (baseUrl: string, extra: Record<string, string | undefined> = {}) =>
  runCli(['run', '--experiment', specFile, '--provider', 'openai', '--model', 'm', '--base-url', baseUrl], cliEnv(extra));

describe('a per-run base URL that is not configured or allowed', () => {
  it('tclab run --base-url ATTACKER: exit 2 naming baseUrl, no run stored, the attacker receives nothing', async () => {
    const before = await runCount();
    const r = await cliRun(attacker.openaiBaseUrl);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/baseUrl: http:\/\/127\.0\.0\.1:\d+ is not an allowed base URL for openai/);
    expect(r.stderr).toContain('TCLAB_ALLOWED_BASE_URLS');
    expect(r.stderr).not.toContain(KEY);
    expect(await runCount()).toBe(before);
    expect(attacker.count).toBe(0);
  });

  it('credentials inside a URL are refused too, even for an allowed host', async () => {
    const withCreds = attacker.openaiBaseUrl.replace('http://', 'http://user:s3cret@');
    const r = await cliRun(withCreds, { TCLAB_ALLOWED_BASE_URLS: attacker.url });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/baseUrl: a base URL must not carry credentials/);
    expect(attacker.count).toBe(0);
  });

  it('the Run form (server action): the issue names baseUrl, nothing is stored, the attacker receives nothing', async () => {
    const before = await runCount();
    const form = new FormData();
    for (const [k, v] of Object.entries({ provider: 'openai', model: 'm', baseUrl: attacker.openaiBaseUrl, concurrency: '1', maxAttempts: '1', timeoutMs: '1000' }))
      form.set(k, v);
    // the action's work after its role check (the check itself: e2e/accounts/doors.spec.ts)
    const r = await startRunsFromForm(SINGLE_USER_ACTOR, experimentId, form);
    expect(r.ok).toBe(false);
    expect(r.ok ? [] : r.state.issues).toEqual([{ path: 'baseUrl', message: expect.stringContaining('is not an allowed base URL for openai') }]);
    expect(await runCount()).toBe(before);
    expect(attacker.count).toBe(0);
  });

  it('createRun (every door goes through it) throws a SpecError on baseUrl for the simulator too', async () => {
    await expect(createRun(experimentId, { provider: 'simulated', baseUrl: attacker.url })).rejects.toThrow(SpecError);
    await expect(createRun(experimentId, { provider: 'simulated', baseUrl: attacker.url })).rejects.toThrow(/baseUrl: the simulated provider sends no requests/);
  });

  it('a stored run whose base URL is no longer allowed sends nothing: it waits, naming baseUrl, for a process that may send there', async () => {
    const reference = await ensureTemplateExperiment('reference-study'); // it has pre-checks
    const undo = setProviderEnv({ TCLAB_ALLOWED_BASE_URLS: attacker.url });
    const run = await createRun(reference.id, { provider: 'openai', model: 'm', baseUrl: attacker.openaiBaseUrl });
    undo(); // the operator removed it from the allow-list before the run started
    const started = await startRun(run.id);
    expect(started).toEqual({ ok: false, waiting: true, reason: expect.stringMatching(/cannot send to the run's base URL .*baseUrl: .* is not an allowed base URL/s) });
    expect(attacker.count).toBe(0);
    await pool().query(`UPDATE runs SET status = 'cancelled' WHERE id = $1`, [run.id]);
  });

  it('and the adapter itself refuses to send the key there (defence in depth)', async () => {
    const r = await getProvider('openai').send(selectionRequest(), { settings: settingsFor({ provider: 'openai', model: 'm', baseUrl: attacker.openaiBaseUrl }) });
    expect(failure(r)).toMatchObject({ kind: 'http_4xx', message: expect.stringMatching(/^baseUrl: .* is not an allowed base URL/) });
    expect(JSON.stringify(r)).not.toContain(KEY);
    expect(attacker.count).toBe(0);
  });
});

describe('the allowed path still works', () => {
  it('without --base-url the run goes to OPENAI_BASE_URL, and says so', async () => {
    const sent = home.count;
    const r = await runCli(['run', '--experiment', specFile, '--provider', 'openai', '--model', 'm'], cliEnv());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`requests go to ${home.openaiBaseUrl} (fixed on the run)`);
    expect(home.count).toBeGreaterThan(sent);
    expect(attacker.count).toBe(0);
  });

  it('a base URL in TCLAB_ALLOWED_BASE_URLS may be named, and gets the requests', async () => {
    const r = await cliRun(attacker.openaiBaseUrl, { TCLAB_ALLOWED_BASE_URLS: `https://example.invalid/v1, ${attacker.openaiBaseUrl}` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`requests go to ${attacker.openaiBaseUrl} (fixed on the run)`);
    expect(attacker.count).toBeGreaterThan(0);
    expect(attacker.requests.every((q) => q.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });
});
