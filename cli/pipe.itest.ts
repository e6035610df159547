import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb } from '../lib/db/client';
import { runCli } from '../lib/testing/engine';
import { tinyExperiment } from '../lib/testing/tiny-experiment';

// Every command that prints JSON, as a process whose stdout is a pipe read by another process
// (`tclab … --json | node -e 'JSON.parse(…)'`, through sh, as a CI job pipes it into jq). Before the fix the
// CLI exited while a pipe still held most of a long document: 64–128 KiB arrived, exit 0.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'tclab-pipe-'));
const file = (name: string, text: string) => {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
};
const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
const MB = 1024 * 1024;
const MANY_TOOLS = path.join(ROOT, 'lib/testing/fixtures/many-tools-mcp-server.mjs');
// 60 tools of 20,000 characters: a 1.2 MB tools/list
const SMALL_CATALOG = ['--env', 'TOOLS=60', '--env', 'DESCRIPTION_CHARS=20000'];

// the reader parses the whole document and prints its length and the top-level keys
const READER = `let s = ''; process.stdin.setEncoding('utf8').on('data', (d) => (s += d)).on('end', () => { const v = JSON.parse(s); process.stdout.write(JSON.stringify({ bytes: Buffer.byteLength(s), keys: Array.isArray(v) ? ['(array)', v.length] : Object.keys(v) })); });`;

/** `{ tclab ARGS; echo $? >CODE; } | READER` in sh: what the reader saw, its exit code, the CLI's exit code and stderr. */
function piped(args: string[], reader = `node -e ${quote(READER)}`): Promise<{ cliCode: number; readerCode: number; reader: string; stderr: string }> {
  const stem = path.join(dir, `run-${Math.random().toString(36).slice(2)}`);
  const cli = ['node', 'cli/tclab.mjs', ...args].map(quote).join(' ');
  const script = `{ ${cli} 2>${quote(`${stem}.err`)}; echo $? >${quote(`${stem}.code`)}; } | ${reader}`;
  return new Promise((resolve, reject) => {
    const proc = spawn('sh', ['-c', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('error', reject);
    proc.on('exit', (code) =>
      resolve({ reader: out, readerCode: code ?? 1, cliCode: Number(readFileSync(`${stem}.code`, 'utf8')), stderr: readFileSync(`${stem}.err`, 'utf8') }),
    );
  });
}

async function expectWhole(args: string[], minBytes: number): Promise<{ bytes: number; keys: unknown[] }> {
  const r = await piped(args);
  expect(r.readerCode, `reader: ${r.reader.slice(0, 300)} / tclab: ${r.stderr.slice(0, 300)}`).toBe(0);
  expect(r.cliCode, r.stderr).toBe(0);
  const parsed = JSON.parse(r.reader) as { bytes: number; keys: unknown[] };
  expect(parsed.bytes).toBeGreaterThan(minBytes);
  return parsed;
}

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await closeDb();
});

describe('tclab … --json through a pipe: the whole document arrives', () => {
  it('bfcl score (20,000 questions: > 1 MB)', async () => {
    const fn = {
      name: 'get_weather',
      description: 'Current weather of a city.',
      parameters: { type: 'dict', properties: { city: { type: 'string' } }, required: ['city'] },
    };
    const ids = Array.from({ length: 20_000 }, (_, i) => `simple_python_${i}`);
    const questions = file(
      'BFCL_v4_simple_python.json',
      ids.map((id) => JSON.stringify({ id, question: [[{ role: 'user', content: 'Weather in Oslo?' }]], function: [fn] })).join('\n'),
    );
    const answers = file('answers.json', ids.map((id) => JSON.stringify({ id, ground_truth: [{ get_weather: { city: ['Oslo'] } }] })).join('\n'));
    const results = file('results.json', ids.map((id, i) => JSON.stringify({ id, result: i % 2 ? 'I cannot tell.' : [{ get_weather: { city: 'Oslo' } }] })).join('\n'));
    const r = await expectWhole(['bfcl', 'score', '--questions', questions, '--answers', answers, '--results', results, '--json'], MB);
    expect(r.keys).toEqual(['category', 'total', 'correct', 'accuracy', 'results']);
  });

  it('lint of a tool file (100 tools described alike: every pair a finding, > 256 KiB)', async () => {
    const sentence = 'Returns the record with this identifier, with every field it has, unchanged. ';
    const tools = Array.from({ length: 100 }, (_, i) => ({
      name: `get_record_${i}`,
      description: `${i} ${sentence.repeat(4)}`,
      inputSchema: { type: 'object', properties: { record_id: { type: 'string' } }, required: ['record_id'] },
    }));
    const r = await expectWhole(['lint', file('tools.json', JSON.stringify({ tools })), '--json'], 256 * 1024);
    expect(r.keys).toContain('findings');
  });

  it('mcp list (a real MCP server listing 1.2 MB of tools) and lint --mcp-stdio (> 256 KiB of findings)', async () => {
    const list = await expectWhole(['mcp', 'list', '--stdio', `${process.execPath} ${MANY_TOOLS}`, ...SMALL_CATALOG, '--json'], MB);
    expect(list.keys).toContain('tools');
    const lint = await expectWhole(
      ['lint', '--mcp-stdio', `${process.execPath} ${MANY_TOOLS}`, '--env', 'TOOLS=100', '--env', 'DESCRIPTION_CHARS=300', '--json'],
      256 * 1024,
    );
    expect(lint.keys).toContain('findings');
  });

  it('plan and compare (small documents, the same exit path)', async () => {
    await expectWhole(['plan', '--template', 'reference-study', '--json'], 1000);
    const fixtures = path.join(ROOT, 'lib/scoring/fixtures');
    await expectWhole(['compare', path.join(fixtures, 'example-read-record.card.json'), path.join(fixtures, 'example-read-record.observations.json'), '--json'], 100);
  });

  it('runs compare and user list (database commands)', async () => {
    const spec = file('tiny.json', JSON.stringify(tinyExperiment('pipe-tiny')));
    const run = await runCli(['run', '--experiment', spec, '--target', 'simulated:simulated-lexical-v1', '--target', 'simulated:simulated-position-biased-v1']);
    expect(run.code, run.stderr).toBe(0);
    const ids = [...run.stderr.matchAll(/^run (r_\w+) \(/gm)].map((m) => m[1]);
    expect(ids).toHaveLength(2);
    const cmp = await expectWhole(['runs', 'compare', ...ids, '--json'], 100);
    expect(cmp.keys).toContain('format');
    await expectWhole(['user', 'list', '--json'], 1);
  });

  it('a reader that goes away (| head -c 100) ends the command quietly with its own exit code', async () => {
    const ids = Array.from({ length: 5_000 }, (_, i) => `simple_python_${i}`);
    const fn = { name: 'f', description: 'F.', parameters: { type: 'dict', properties: {}, required: [] } };
    const questions = file(
      'BFCL_v4_simple_python.json',
      ids.map((id) => JSON.stringify({ id, question: [[{ role: 'user', content: 'x' }]], function: [fn] })).join('\n'),
    );
    const answers = file('a2.json', ids.map((id) => JSON.stringify({ id, ground_truth: [{ f: {} }] })).join('\n'));
    const results = file('r2.json', ids.map((id) => JSON.stringify({ id, result: [{ f: {} }] })).join('\n'));
    const r = await piped(['bfcl', 'score', '--questions', questions, '--answers', answers, '--results', results, '--json'], 'head -c 100 >/dev/null');
    expect(r.cliCode).toBe(0);
    expect(r.stderr).toBe('');
  });
});
