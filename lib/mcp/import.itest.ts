import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { closeDb } from '../db/client';
import { countToolSnapshots, getToolSnapshot, importServerTools } from '../experiments/tool-snapshots';
import { McpListError, withMcpClient, type McpTargetInput } from './client';

// The reference MCP servers published on npm (devDependencies), started for real: server-everything over
// stdio and over Streamable HTTP, server-filesystem over stdio with a temporary root.
const EVERYTHING = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const everythingStdio: McpTargetInput = { kind: 'stdio', command: process.execPath, args: [EVERYTHING] };

/** What tools/list returns, read with the SDK directly (every page), to compare the import against. */
async function sdkToolsList(transport: StdioClientTransport): Promise<{ name: string; annotations?: { readOnlyHint?: boolean; idempotentHint?: boolean } }[]> {
  const client = new Client({ name: 'itest', version: '0' }, { capabilities: {} });
  await client.connect(transport);
  const out: { name: string; annotations?: { readOnlyHint?: boolean } }[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    out.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  await client.close();
  return out;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

let root: string;
let http: ChildProcess | undefined;
let httpUrl: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tclab-mcp-fs-'));
  writeFileSync(join(root, 'note.txt'), 'hello');
  const port = await freePort();
  httpUrl = `http://127.0.0.1:${port}/mcp`;
  http = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { PATH: process.env.PATH, PORT: String(port) } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // the server says so on stderr once it listens
  await new Promise<void>((resolve, reject) => {
    let err = '';
    http!.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      if (/listening on port/i.test(err)) resolve();
    });
    http!.once('exit', (code) => reject(new Error(`server-everything (streamableHttp) exited with ${code}: ${err}`)));
  });
});

afterAll(async () => {
  if (http && http.exitCode === null) {
    const gone = new Promise((r) => http!.once('exit', r));
    http.kill('SIGTERM');
    await gone;
  }
  rmSync(root, { recursive: true, force: true });
  await closeDb();
});

describe('MCP import from live reference servers', () => {
  it('server-everything over stdio: every tool of tools/list, effects from annotations, the same hash on a second import', async () => {
    const listed = await sdkToolsList(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING], stderr: 'ignore' }));
    const before = await countToolSnapshots();
    const first = await importServerTools(everythingStdio);
    expect(first.tools).toHaveLength(listed.length);
    expect(first.raw.map((t) => (t as { name: string }).name)).toEqual(listed.map((t) => t.name));
    expect(first.server?.name).toBe('mcp-servers/everything');
    expect(first.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const t of first.tools) {
      const raw = listed.find((x) => x.name === t.name)!;
      expect([t.name, t.effect]).toEqual([t.name, raw.annotations?.readOnlyHint === true ? 'read' : 'write']);
    }
    expect(first.tools.filter((t) => t.effect === 'read').length).toBeGreaterThan(0);
    expect(first.tools.filter((t) => t.effect === 'write').length).toBeGreaterThan(0);

    const stored = await getToolSnapshot(first.id);
    expect(stored).toMatchObject({ sha256: first.sha256, server: first.server, protocolVersion: first.protocolVersion, source: { kind: 'stdio', args: [EVERYTHING] } });
    expect(stored!.raw).toEqual(first.raw);
    const second = await importServerTools(everythingStdio);
    expect(second.sha256).toBe(first.sha256);
    expect(second.id).not.toBe(first.id);
    expect(await countToolSnapshots()).toBe(before + 2);
  });

  it('server-everything over Streamable HTTP: the same tools as over stdio', async () => {
    const overStdio = await importServerTools(everythingStdio);
    const overHttp = await importServerTools({ kind: 'http', url: httpUrl, headers: { 'x-test': 'itest' } });
    expect(overHttp.tools.map((t) => [t.name, t.effect])).toEqual(overStdio.tools.map((t) => [t.name, t.effect]));
    expect(overHttp.source).toEqual({ kind: 'http', url: httpUrl, headerNames: ['x-test'] });
    expect(overHttp.protocolVersion).toBe(overStdio.protocolVersion);
  });

  it('server-filesystem over stdio with a temporary root: readOnlyHint → read, otherwise write', async () => {
    const target: McpTargetInput = { kind: 'stdio', command: process.execPath, args: [FILESYSTEM, root] };
    const listed = await sdkToolsList(new StdioClientTransport({ command: process.execPath, args: [FILESYSTEM, root], stderr: 'ignore' }));
    const snap = await importServerTools(target);
    expect(snap.tools).toHaveLength(listed.length);
    const effect = Object.fromEntries(snap.tools.map((t) => [t.name, t.effect]));
    expect(effect).toMatchObject({ read_text_file: 'read', list_directory: 'read', write_file: 'write', edit_file: 'write', move_file: 'write' });
    // idempotentHint on a tool that may write → the idempotent fact; exactly the tools the server marks so
    const marked = listed.filter((t) => t.annotations?.readOnlyHint !== true && t.annotations?.idempotentHint === true).map((t) => t.name);
    expect(marked).toContain('write_file');
    expect(snap.tools.filter((t) => t.facts.includes('idempotent')).map((t) => t.name)).toEqual(marked);
    expect((await importServerTools(target)).sha256).toBe(snap.sha256);
  });

  it('gives a stdio server only the environment it is given, never a provider key', async () => {
    const saved = { OPENAI_API_KEY: process.env.OPENAI_API_KEY, TCLAB_ADMIN_PASSWORD: process.env.TCLAB_ADMIN_PASSWORD };
    process.env.OPENAI_API_KEY = 'sk-itest-parent-only-4f2a';
    process.env.TCLAB_ADMIN_PASSWORD = 'admin-password-parent-only-9c1e';
    const { result } = await withMcpClient({ ...everythingStdio, env: { TCLAB_MCP_PROBE: 'given' } }, { timeoutMs: 15_000 }, (client, request) =>
      client.callTool({ name: 'get-env', arguments: {} }, undefined, request),
    );
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    const text = JSON.stringify(result);
    expect(text).toContain('TCLAB_MCP_PROBE');
    expect(text).not.toContain('sk-itest-parent-only-4f2a');
    expect(text).not.toContain('admin-password-parent-only-9c1e');
    for (const key of ['OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'OPENAI_COMPATIBLE_API_KEY', 'DATABASE_URL', 'REDIS_URL', 'TCLAB_ADMIN_PASSWORD'])
      expect(text).not.toContain(key);
    await expect(withMcpClient({ ...everythingStdio, env: { OPENAI_API_KEY: 'x' } }, {}, async () => 1)).rejects.toThrow(/provider key/);
  });

  it('a server that hangs, one that exits at once, a URL where nothing listens: a clear error and nothing stored', async () => {
    const before = await countToolSnapshots();
    const hang = importServerTools({ kind: 'stdio', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }, { timeoutMs: 1500 });
    await expect(hang).rejects.toThrow(McpListError);
    await expect(hang).rejects.toMatchObject({ reason: 'timeout', message: expect.stringMatching(/did not answer within 1500 ms/) });
    const exits = importServerTools({ kind: 'stdio', command: process.execPath, args: ['-e', 'console.error("no config"); process.exit(3)'] }, { timeoutMs: 10_000 });
    await expect(exits).rejects.toMatchObject({ reason: 'exited', message: expect.stringMatching(/exited before answering.*no config/) });
    // a Node server that throws: the message says the error line, not the tail ("Node.js v20…") of its stderr
    const throws = importServerTools(
      { kind: 'stdio', command: process.execPath, args: ['-e', 'console.error("mcp-demo starting"); throw new Error("MCP_DEMO_TOKEN is not set")'] },
      { timeoutMs: 10_000 },
    );
    const thrown = (await throws.catch((e: unknown) => e)) as McpListError;
    expect(thrown.reason).toBe('exited');
    expect(thrown.message).toMatch(/its stderr says: Error: MCP_DEMO_TOKEN is not set$/);
    expect(thrown.message).not.toMatch(/Node\.js v\d/);
    const port = await freePort();
    const nobody = importServerTools({ kind: 'http', url: `http://127.0.0.1:${port}/mcp` }, { timeoutMs: 10_000 });
    await expect(nobody).rejects.toMatchObject({
      reason: 'unreachable',
      message: expect.stringMatching(/nothing answered at http:\/\/127\.0\.0\.1:\d+\/mcp.*ECONNREFUSED/),
    });
    expect(await countToolSnapshots()).toBe(before);
  });
});
