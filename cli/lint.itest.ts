import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../lib/testing/engine';
import { benchSpec } from '../lib/testing/bench-spec';
import { generatedCatalog } from '../lib/testing/lint-catalog';

// `tclab lint`: the description linter and catalog token estimates from the command line.

const dir = await mkdtemp(path.join(tmpdir(), 'tclab-lint-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('tclab lint', () => {
  it('reports the reference study baselines and exits 1 on their errors; --json carries every catalog', async () => {
    const text = await runCli(['lint', '--template', 'reference-study']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('error duplicate-description: restaurant_service: has the same description as "restaurant_gateway"');
    expect(text.stdout).toMatch(/selection\/clear\/restaurant\/en\s+2\s+\d+\s+clean/);
    const json = await runCli(['lint', '--template', 'reference-study', '--json']);
    const out = JSON.parse(json.stdout) as { tokenizer: string; catalogs: { tokens: number }[]; findings: { rule: string }[] };
    expect(out.tokenizer).toBe('o200k_base');
    expect(out.catalogs).toHaveLength(16);
    expect(out.catalogs.every((c) => c.tokens > 0)).toBe(true);
    expect(out.findings.some((f) => f.rule === 'codes-without-meanings')).toBe(true);
  });

  it('exits 0 on warnings only, and 2 naming the field on an invalid spec', async () => {
    const ok = path.join(dir, 'bench.json');
    await writeFile(ok, JSON.stringify(benchSpec(200)));
    const warned = await runCli(['lint', ok]); // its vague condition: short descriptions, no two alike
    expect(warned.stdout).toContain('warning too-short: lookup_order');
    expect(warned.stdout).toMatch(/\d+ findings \(0 errors, \d+ warnings\)/);
    expect(warned.code).toBe(0);
    const bad = path.join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ ...benchSpec(200), locales: ['english!'] }));
    const refused = await runCli(['lint', bad]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('locales');
  });
});

describe('tclab lint on tool files and live MCP servers; tclab mcp list', () => {
  const fixtures = path.join(process.cwd(), 'lib/mcp/fixtures/mcp-tools');
  const everything = `"${process.execPath}" node_modules/@modelcontextprotocol/server-everything/dist/index.js`;

  it('lints an MCP tools/list JSON, a JSON array of MCP tools and an OpenAI tools array; --json prints {findings: [{tool, rule, level, message}]}', async () => {
    const fetch = await runCli(['lint', path.join(fixtures, 'reference-servers-snapshots/mcp-server-fetch.json'), '--json']);
    expect(fetch.code).toBe(1); // model-directed-instruction is an error
    const out = JSON.parse(fetch.stdout) as { findings: Record<string, string>[]; catalog: { tools: number; tokens: number } };
    expect(out.catalog.tools).toBe(1);
    expect(out.findings.find((f) => f.rule === 'model-directed-instruction')).toEqual({
      tool: 'fetch',
      rule: 'model-directed-instruction',
      level: 'error',
      message: expect.stringContaining('internet access'),
    });
    for (const f of out.findings) expect(Object.keys(f).sort()).toEqual(['level', 'message', 'rule', 'tool']);

    const array = path.join(dir, 'array.json');
    await writeFile(
      array,
      JSON.stringify([
        {
          name: 'list_rooms',
          description: 'Lists the meeting rooms of one building, with their capacity.',
          inputSchema: { type: 'object' },
          annotations: { readOnlyHint: true },
        },
      ]),
    );
    const clean = await runCli(['lint', array]);
    expect(clean.stdout).toContain('1 tools');
    expect(clean.stdout).toContain('0 findings');
    expect(clean.code).toBe(0);

    const openai = path.join(dir, 'openai.json');
    await writeFile(openai, JSON.stringify([{ type: 'function', function: { name: 'book', description: 'Books.', parameters: { type: 'object' } } }]));
    const warned = await runCli(['lint', openai]);
    expect(warned.stdout).toContain('warning too-short: book');
    expect(warned.code).toBe(0);

    const neither = path.join(dir, 'neither.json');
    await writeFile(neither, JSON.stringify({ hello: 1 }));
    const refused = await runCli(['lint', neither]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not a tool file.*or an experiment spec/s);
  });

  it('lints a live server over stdio and lists its tools; a server that hangs is a clear error (exit 2)', async () => {
    const live = await runCli(['lint', '--mcp-stdio', everything, '--json']);
    const out = JSON.parse(live.stdout) as { findings: { tool: string; rule: string }[]; catalog: { tools: number } };
    const listed = await runCli(['mcp', 'list', '--stdio', everything, '--json']);
    expect(listed.code).toBe(0);
    const json = JSON.parse(listed.stdout) as { server: { name: string }; sha256: string; tools: { name: string }[] };
    expect(json.server.name).toBe('mcp-servers/everything');
    expect(out.catalog.tools).toBe(json.tools.length);
    const text = await runCli(['mcp', 'list', '--stdio', everything]);
    expect(text.stdout).toMatch(/^echo\s+read\s+\(readOnlyHint true\)/m);
    expect(text.stdout).toContain(json.sha256);
    const hang = await runCli(['mcp', 'list', '--stdio', `"${process.execPath}" -e "setInterval(() => {}, 1000)"`, '--timeout-ms', '800']);
    expect(hang.code).toBe(2);
    expect(hang.stderr).toContain('did not answer within 800 ms');
    const usage = await runCli(['mcp', 'list']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('give one server');
  });
});

describe('tclab lint: its time limit and empty catalogs (docs/edge-inputs.md)', () => {
  it('stops at --timeout-ms on a large catalog, exit 2 naming the limit; the same catalog is linted within the default', async () => {
    const large = path.join(dir, 'large.json');
    await writeFile(large, JSON.stringify(generatedCatalog(10_000)));
    const stopped = await runCli(['lint', large, '--timeout-ms', '100']);
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toContain('the linter did not finish within 100 ms (--timeout-ms)');
    expect(stopped.stdout).toBe('');
    const done = await runCli(['lint', large]);
    expect(done.code).toBe(1); // the planted duplicates are errors
    expect(done.stdout).toContain('10000 tools');
    expect(done.stdout).toContain('error duplicate-description');
  });

  it('refuses an empty tool list (exit 2, naming the file), as every other door does', async () => {
    for (const [name, value] of [
      ['empty-array.json', []],
      ['empty-list.json', { tools: [] }],
    ] as const) {
      const file = path.join(dir, name);
      await writeFile(file, JSON.stringify(value));
      const refused = await runCli(['lint', file]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`${file}: the tool list is empty (0 tools)`);
      expect(refused.stdout).not.toContain('0 tools');
    }
  });
});
