import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tinyExperiment } from '../lib/testing/tiny-experiment';

// The CI recipe for MCP server authors (docs/ci-recipe.md), its script run as a workflow runs it: a real stdio MCP
// server as "the release" and as "the pull request", the offline simulated model, gates, JUnit, the Markdown
// summary and the one-file report. Green when the pull request's descriptions help, red when they hurt, 2 on
// invalid input.

const ROOT = path.resolve(import.meta.dirname, '..');
const SCRIPT = path.join(ROOT, 'scripts/ci/mcp-pull-request.sh');
const SERVER = path.join(ROOT, 'lib/testing/fixtures/invoice-mcp-server.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'tclab-ci-recipe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// the write tool listed first: with the same vague sentence for both tools, the simulated model's tie goes to it
// (a wrong pick for a look-up); a description that says "looks up" wins the look-up for the read tool
const spec = tinyExperiment(`ci-recipe-${Date.now().toString(36)}`, 'Look up invoice INV-7.');
spec.scenarios[0].tools.reverse();
const experiment = path.join(dir, 'experiment.json');
writeFileSync(experiment, JSON.stringify(spec));

function recipe(name: string, env: Record<string, string>): Promise<{ code: number; stderr: string; out: string; summary: string }> {
  const out = path.join(dir, name);
  const summary = path.join(dir, `${name}-step-summary.md`);
  writeFileSync(summary, '');
  return new Promise((resolve) => {
    const proc = spawn('bash', [SCRIPT], {
      cwd: dir,
      env: {
        ...process.env,
        EXPERIMENT: experiment,
        RELEASED_CONDITION: 'overlapping',
        PR_CONDITION: 'clear',
        OUT: out,
        GITHUB_STEP_SUMMARY: summary,
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    proc.on('close', (code) => resolve({ code: code ?? -1, stderr, out, summary: readFileSync(summary, 'utf8') }));
  });
}

const server = (descriptions: 'clear' | 'vague') => `env DESCRIPTIONS=${descriptions} ${process.execPath} ${SERVER}`;

describe('the CI recipe for MCP server authors', () => {
  it('green when the pull request makes the descriptions clear: gates hold, JUnit, summary and report written', async () => {
    const r = await recipe('green', { RELEASED_SERVER: server('vague'), PR_SERVER: server('clear') });
    expect(r.code, r.stderr).toBe(0);
    for (const f of ['released-tools.json', 'pr-tools.json', 'experiment.json', 'run.json', 'junit.xml', 'summary.md', 'report.html'])
      expect(existsSync(path.join(r.out, f)), f).toBe(true);
    const spec = JSON.parse(readFileSync(path.join(r.out, 'experiment.json'), 'utf8')) as {
      studies: { conditions: { id: string; tools: { invoice: { en: { description: string }[] } } }[] }[];
    };
    const descriptions = (id: string) => spec.studies[0].conditions.find((c) => c.id === id)!.tools.invoice.en.map((d) => d.description);
    expect(descriptions('overlapping')).toEqual(['Handles invoice-related requests.', 'Handles invoice-related requests.']);
    expect(descriptions('clear').sort()).toEqual(['Read-only: looks up an invoice.', 'Writes: submits a payment for an invoice.']);
    const run = JSON.parse(readFileSync(path.join(r.out, 'run.json'), 'utf8')) as { summary: { studies: { pairs: { improved: number; regressed: number } }[] } };
    expect(run.summary.studies[0].pairs).toMatchObject({ improved: 1, regressed: 0 });
    expect(r.summary).toContain('| **Total** |');
    expect(readFileSync(path.join(r.out, 'report.html'), 'utf8')).toContain('data-testid="table1"');
  });

  it('red when the pull request makes them vague: the gate fails, exit 1, and says which', async () => {
    const r = await recipe('red', { RELEASED_SERVER: server('clear'), PR_SERVER: server('vague') });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('selection.regressed <= 0');
    expect(existsSync(path.join(r.out, 'report.html'))).toBe(true);
  });

  it('exit 2 on invalid input: a condition the experiment does not have, a server that lists nothing', async () => {
    const noCondition = await recipe('invalid-condition', { RELEASED_SERVER: server('clear'), PR_SERVER: server('clear'), PR_CONDITION: 'nope' });
    expect(noCondition.code).toBe(2);
    expect(noCondition.stderr).toContain('condition "nope": no study has it');
    const noServer = await recipe('invalid-server', { RELEASED_SERVER: `${process.execPath} -e "process.exit(3)"`, PR_SERVER: server('clear') });
    expect(noServer.code).toBe(2);
    expect(existsSync(path.join(noServer.out, 'run.json'))).toBe(false);
  });
});
