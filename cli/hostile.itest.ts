import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseCard, baseObservations, baseSpec, hostileCases, type Family, type HostileCase } from '../lib/testing/hostile-inputs';
import { parseSpecBytes } from '../lib/experiments/parse';
import { escapeControl } from './output';
import { runTclab } from './main';
import { runCli } from '../lib/testing/engine';
import { pool, closeDb } from '../lib/db/client';
import { importExperimentForm, type ActionState } from '../lib/experiments/import';
import { SINGLE_USER_ACTOR } from '../lib/auth/roles';

// Every hostile spec through `tclab run --experiment` (in-process) and
// the import form's server action (as a file and as a paste), and a representative subset through the CLI
// as real processes (run, lint, compare). Each is refused naming the field, exit 2 on the CLI, no stack
// trace, and no row is written (experiments, runs, trials, attempts counted before and after).

const cases = hostileCases();
const specs = cases.filter((c) => c.kind === 'spec');
const dir = mkdtempSync(path.join(tmpdir(), 'tclab-hostile-it-'));
const file = (name: string, bytes: Uint8Array | string) => {
  const f = path.join(dir, name);
  writeFileSync(f, bytes);
  return f;
};
const TABLES = ['experiments', 'runs', 'trials', 'attempts', 'observations', 'verdicts'];
async function rowCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) out[t] = (await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t}`)).rows[0].n;
  return out;
}
let before: Record<string, number>;

beforeAll(async () => {
  before = await rowCounts();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await closeDb();
});

const names = (c: HostileCase, lines: string[]) => lines.some((l) => l.includes(escapeControl(c.expect.path)) && l.includes(escapeControl(c.expect.message)));

function assertRefused(c: HostileCase, f: string, r: { code: number; stderr: string }) {
  expect(r.code, c.name).toBe(2);
  const lines = r.stderr.split('\n').filter(Boolean);
  for (const l of lines) expect(l.startsWith(`tclab: ${f}: `), `${c.name}: ${l.slice(0, 200)}`).toBe(true);
  expect(names(c, lines), `${c.name}: ${r.stderr.slice(0, 300)}`).toBe(true);
  expect(r.stderr).not.toMatch(/^\s+at /m);
}

async function viaForm(fields: Record<string, string | File>): Promise<ActionState> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  // the action's work after its role check (the check itself: e2e/accounts/doors.spec.ts)
  const r = await importExperimentForm(SINGLE_USER_ACTOR, form);
  return r.ok ? { issues: [], message: `stored as ${r.id}` } : r.state;
}

describe('door: tclab run --experiment (in-process)', () => {
  it.each(specs.map((c, i) => [c.name, c, i] as const))(
    'refuses %s',
    async (_n, c, i) => {
      const f = file(`run-${i}.json`, c.bytes);
      const err: string[] = [];
      const code = await runTclab(['run', '--experiment', f, '--no-wait'], { out: () => {}, err: (s) => err.push(s) });
      assertRefused(c, f, { code, stderr: err.join('') });
    },
    30_000,
  );
});

describe('door: the import form (server action), by file and by paste', () => {
  it.each(specs.map((c) => [c.name, c] as const))(
    'refuses %s, naming the field',
    async (_n, c) => {
      const parsed = parseSpecBytes(c.bytes);
      const expected = parsed.ok ? [] : parsed.issues;
      // an empty file part is what a browser sends when no file was chosen: that is the paste's door
      if (c.bytes.length > 0) {
        const byFile = await viaForm({ json: '', file: new File([new Uint8Array(c.bytes)], 'spec.json', { type: 'application/json' }) });
        expect(byFile.message, c.name).toContain('nothing was stored');
        expect(byFile.issues).toEqual(expected); // the same verdict as every other door
        expect(
          names(
            c,
            byFile.issues.map((x) => `${x.path}: ${x.message}`),
          ),
          c.name,
        ).toBe(true);
      }
      if (c.pasteable) {
        const byPaste = await viaForm({ json: new TextDecoder().decode(c.bytes) });
        if (c.family === 'syntax' && c.expect.path === '(input)') expect(byPaste.message).toBe('Nothing to import.');
        else expect(byPaste.issues, c.name).toEqual(expected);
      }
    },
    30_000,
  );
});

describe('doors as real processes (a representative case of each family)', () => {
  const pick = (kind: HostileCase['kind'], family: Family) => cases.find((c) => c.kind === kind && c.family === family);
  const reps = (['syntax', 'encoding', 'types', 'limits', 'references', 'semantics', 'prototype-keys', 'control-characters', 'depth', 'size'] as Family[]).map((f) =>
    pick('spec', f)!,
  );

  // a process costs seconds: run and lint take turns over the families (the in-process door sees every case)
  it.each(reps.map((c, i) => [i % 2 ? 'lint' : 'run --experiment', c.name, c, i] as const))(
    'tclab %s refuses %s (exit 2)',
    async (cmd, _n, c, i) => {
      const f = file(`proc-${i}.json`, c.bytes);
      assertRefused(c, f, await runCli([...cmd.split(' '), f]));
    },
    120_000,
  );

  it('tclab compare refuses a hostile card and a hostile observation file (exit 2)', async () => {
    const card = pick('card', 'depth')!;
    const obs = pick('observations', 'control-characters')!;
    const [cf, of, vc, vo] = [
      file('p-card.json', card.bytes),
      file('p-obs.json', obs.bytes),
      file('v-card.json', JSON.stringify(baseCard())),
      file('v-obs.json', JSON.stringify(baseObservations())),
    ];
    assertRefused(card, cf, await runCli(['compare', cf, vo]));
    assertRefused(obs, of, await runCli(['compare', vc, of]));
  }, 120_000);

  it('an unexpected error is one line, with a stack trace only under TCLAB_DEBUG=1; printed input is escaped', async () => {
    // a database that does not answer: not invalid input, so exit 1
    const down = { DATABASE_URL: 'postgresql://tclab@127.0.0.1:9/none' };
    const plain = await runCli(['status', 'r_nope'], down);
    expect(plain.code).toBe(1);
    expect(plain.stderr.trim().split('\n')).toHaveLength(1);
    expect(plain.stderr).toMatch(/^tclab: /);
    const debug = await runCli(['status', 'r_nope'], { ...down, TCLAB_DEBUG: '1' });
    expect(debug.stderr).toMatch(/^\s+at /m);
    // a BFCL result id carrying an ANSI sequence is echoed escaped, never raw
    const q = file(
      'q.json',
      `${JSON.stringify({ id: 'simple_python_0', question: [[{ role: 'user', content: 'hi' }]], function: [{ name: 'f', description: 'd', parameters: { type: 'dict', properties: {}, required: [] } }] })}\n`,
    );
    const a = file('a.json', `${JSON.stringify({ id: 'simple_python_0', ground_truth: [{ f: {} }] })}\n`);
    const res = file(
      'r.json',
      `${JSON.stringify({ id: 'simple_python_0', result: [{ f: {} }] })}\n${JSON.stringify({ id: '\u001b]0;pwned\u0007\u001b[31mx', result: [] })}\n`,
    );
    const scored = await runCli(['bfcl', 'score', '--questions', q, '--answers', a, '--results', res]);
    expect(scored.stderr).toContain('\\u001b]0;pwned\\u0007\\u001b[31mx');
    expect(scored.stderr + scored.stdout).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/);
  }, 120_000);
});

describe('nothing is stored', () => {
  it('no door wrote a row: every table counted before and after', async () => {
    expect(await rowCounts()).toEqual(before);
  });

  it('the same valid spec is stored by the import form, so the count would have moved', async () => {
    const spec = baseSpec(`hostile-valid-${Date.now()}`);
    expect(await viaForm({ json: JSON.stringify(spec) })).toEqual({ issues: [], message: expect.stringMatching(/^stored as /) });
    const n = (await pool().query<{ n: number }>('SELECT count(*)::int AS n FROM experiments WHERE slug = $1', [spec.id])).rows[0].n;
    expect(n).toBe(1);
  });
});
