import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordMarkdown } from '../lib/optimise/markdown';
import { recordLatex } from '../lib/optimise/latex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../lib/db/client';
import { getOptimisation, listOptimisations } from '../lib/optimise/read';
import { ensureTemplateExperiment } from '../lib/experiments/templates';
import { runCli } from '../lib/testing/engine';

// `tclab optimize` end to end (docs/optimise.md): the real CLI process with its in-process worker, on the
// politely-ignored template and its simulated model; --json is the stored record; bad flags are named.

let experimentId: string;
beforeAll(async () => {
  experimentId = (await ensureTemplateExperiment('politely-ignored')).id;
});
afterAll(closeDb);

const count = async () => (await pool().query<{ n: number }>('SELECT count(*)::int AS n FROM optimisations')).rows[0].n;

describe('tclab optimize', () => {
  it('--json prints the stored record; the text names the seal, every candidate ranked, the winner, the reading per target and transfer', async () => {
    // the integration files share one database, and others run the loop on this template too: this test's
    // records are the ones it made, and its looks come after whatever looks came before at the same seal
    const before = new Set((await listOptimisations(experimentId, 'selection')).map((r) => r.id));
    const dir = mkdtempSync(join(tmpdir(), 'tclab-optimize-'));
    const json = await runCli(['optimize', '--experiment-id', experimentId, '--study', 'selection', '--json', '--md', join(dir, 'r.md'), '--tex', join(dir, 'r.tex')]);
    expect(json.code, json.stderr).toBe(0);
    const printed = JSON.parse(json.stdout) as { id: string; look: number; sealed: { count: number; sha256: string } };
    const stored = (await getOptimisation(printed.id))!;
    expect(printed).toEqual(JSON.parse(JSON.stringify(stored)));
    // --md and --tex: the stored record as the page's downloads give it
    expect(readFileSync(join(dir, 'r.md'), 'utf8')).toBe(recordMarkdown(stored));
    expect(readFileSync(join(dir, 'r.tex'), 'utf8')).toBe(recordLatex(stored));
    rmSync(dir, { recursive: true, force: true });
    expect(json.stderr).toContain(`sealed: ${printed.sealed.count} cases, ${printed.sealed.sha256}`);

    const text = await runCli([
      'optimize',
      '--experiment-id',
      experimentId,
      '--study',
      'selection',
      '--rule',
      'top:2',
      '--targets',
      'simulated:simulated-generic-preferring-v1,simulated:simulated-lexical-v1',
    ]);
    expect(text.code, text.stderr).toBe(0);
    // (another file may run the loop on the template meanwhile: this run's record is the one with its rule)
    const made = (await listOptimisations(experimentId, 'selection')).filter((r) => !before.has(r.id) && r.id !== printed.id && r.rule.kind === 'top');
    expect(made).toHaveLength(1);
    const second = made[0];
    expect(second.look).toBeGreaterThan(printed.look);
    expect(second.rule).toEqual({ kind: 'top', m: 2 });
    expect(text.stdout).toContain(`sealed: ${second.sealed.count} cases, ${second.sealed.sha256}`);
    for (const c of second.candidates) expect(text.stdout).toContain(`${c.condition} (${c.provenance}): `);
    expect(text.stdout).toMatch(/1\. rewritten \(hand\): \+50\.0 pp .*← winner/);
    // top 2: the hand rewrite and the rule fix that says the facts the template records (both +50 pp; ties in the order given)
    expect(second.winners).toEqual(['rewritten', 'published-fix-fact-not-said']);
    expect(text.stdout).toContain('frozen: rewritten, published-fix-fact-not-said at ');
    expect(text.stdout).toContain(`confirm look ${second.look} on simulated:simulated-generic-preferring-v1`);
    expect(text.stdout).toContain(`confirm look ${second.look} on simulated:simulated-lexical-v1`);
    // Holm over this look's claims and every earlier look's at the same seal (at least the first one's)
    expect(Number(/Holm-adjusted p = [0-9.e-]+ over (\d+) claims/.exec(text.stdout)?.[1])).toBeGreaterThanOrEqual(2);
    expect(text.stdout).toContain('transfer of rewritten: simulated:simulated-generic-preferring-v1 +100.0 pp');
  }, 240_000);

  it('bad input names the flag (exit 2) and stores nothing', async () => {
    const before = await count();
    const cases: [string[], string][] = [
      [['--study', 'selection'], '--experiment-id'],
      [['--experiment-id', experimentId], '--study'],
      [['--experiment-id', experimentId, '--study', 'selection', '--split', '50/30/30'], '--split'],
      [['--experiment-id', experimentId, '--study', 'selection', '--rule', 'top:x'], '--rule'],
      [['--experiment-id', experimentId, '--study', 'selection', '--candidates', '21'], '--candidates'],
      [['--experiment-id', experimentId, '--study', 'selection', '--seed', '-1'], '--seed'],
      [['--experiment-id', experimentId, '--study', 'selection', '--targets', 'nobody'], '--targets'],
      [['--experiment-id', experimentId, '--study', 'nope'], '--study'],
      [['--experiment-id', experimentId, '--study', 'selection', '--rewriter', 'nobody'], '--rewriter'],
      // a simulated model writes no descriptions: refused before anything is asked or stored
      [['--experiment-id', experimentId, '--study', 'selection', '--rewriter', 'simulated:simulated-lexical-v1'], '--rewriter'],
      [['--experiment-id', 'nope-v1', '--study', 'selection'], '--experiment-id'],
    ];
    for (const [args, flag] of cases) {
      const r = await runCli(['optimize', ...args]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(flag);
    }
    expect(await count()).toBe(before);
  }, 120_000);
});
