import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { closeDb, pool } from '@/lib/db/client';
import { countToolSnapshots } from '@/lib/db/tool-snapshots';
import { resetEnvCache } from '@/lib/env';
import { auth, resetAuth } from '@/lib/auth/better-auth';
import { createUser } from '@/lib/auth/users';
import { AddressRefused, fetchPinned, guardedFetch } from '@/lib/mcp/guarded-fetch';
import { POST } from './route';

// The MCP import door in exposed mode (HOST=0.0.0.0, accounts), with real sign-ins, real child processes and
// a real loopback listener: a researcher starts only what an admin configured and reaches no private address.

const EVERYTHING = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const ORIGIN = 'http://127.0.0.1:3061';
const password = 'correct horse battery staple';
const saved: Record<string, string | undefined> = {};
let dir: string;
let cookies: { admin: string; researcher: string };
let listener: Server;
let connections = 0;
let loopbackUrl: string;
let http: ChildProcess;
let everythingUrl: string;

async function signIn(email: string): Promise<string> {
  const res = await (
    await auth()
  ).handler(
    new Request(`${ORIGIN}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, host: '127.0.0.1:3061', 'x-forwarded-for': `198.51.100.${email.length}` },
      body: JSON.stringify({ email, password }),
    }),
  );
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

const post = (cookie: string, body: unknown) =>
  POST(
    new Request(`${ORIGIN}/api/tool-snapshots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, host: '127.0.0.1:3061', cookie },
      body: JSON.stringify(body),
    }),
  );

function setEnv(vars: Record<string, string>) {
  for (const [k, v] of Object.entries(vars)) {
    if (!(k in saved)) saved[k] = process.env[k];
    process.env[k] = v;
  }
  resetEnvCache();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tclab-mcp-door-'));
  // a loopback listener that counts every TCP connection made to it
  listener = createServer((_req, res) => res.writeHead(404).end());
  listener.on('connection', () => connections++);
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  loopbackUrl = `http://127.0.0.1:${(listener.address() as { port: number }).port}/mcp`;
  // server-everything over Streamable HTTP on loopback, for a URL an admin lists
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  everythingUrl = `http://127.0.0.1:${port}/mcp`;
  http = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { PATH: process.env.PATH, PORT: String(port) } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let err = '';
    http.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      if (/listening on port/i.test(err)) resolve();
    });
    http.once('exit', (code) => reject(new Error(`server-everything exited with ${code}: ${err}`)));
  });

  setEnv({
    HOST: '0.0.0.0',
    TCLAB_SIGNIN_MAX: '100',
    TCLAB_MCP_SERVERS: JSON.stringify([{ name: 'everything', command: process.execPath, args: [EVERYTHING] }]),
    TCLAB_MCP_ALLOWED_URLS: everythingUrl,
  });
  resetAuth();
  await pool().query('DELETE FROM users');
  await createUser({ email: 'admin@door.example', password, role: 'admin' });
  await createUser({ email: 'researcher@door.example', password, role: 'researcher' });
  cookies = { admin: await signIn('admin@door.example'), researcher: await signIn('researcher@door.example') };
});

afterAll(async () => {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  resetEnvCache();
  resetAuth();
  await pool().query('DELETE FROM users');
  await pool().query('DELETE FROM rate_limits');
  await new Promise((r) => listener.close(r));
  if (http.exitCode === null) {
    const gone = new Promise((r) => http.once('exit', r));
    http.kill('SIGTERM');
    await gone;
  }
  rmSync(dir, { recursive: true, force: true });
  await closeDb();
});

describe('POST /api/tool-snapshots in exposed mode', () => {
  it("refuses a researcher's own command with 403 and starts nothing", async () => {
    const marker = join(dir, 'MARKER');
    const before = await countToolSnapshots();
    const res = await post(cookies.researcher, { command: `sh -c 'touch ${marker}'` });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toMatch(/may not start a command.*TCLAB_MCP_SERVERS/);
    expect(existsSync(marker)).toBe(false);
    expect(await countToolSnapshots()).toBe(before);
  });

  it('imports from a server an admin configured, picked by name; an unknown name is refused', async () => {
    const res = await post(cookies.researcher, { server: 'everything' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { server: { name: string }; tools: { name: string }[] };
    expect(body.server.name).toBe('mcp-servers/everything');
    expect(body.tools.map((t) => t.name)).toContain('echo');
    const unknown = await post(cookies.researcher, { server: 'shell' });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toContain('no MCP server named "shell" is configured (TCLAB_MCP_SERVERS)');
  });

  it('lets an admin start a command of their own', async () => {
    const marker = join(dir, 'ADMIN-MARKER');
    const res = await post(cookies.admin, { command: `sh -c 'touch ${marker}'` });
    expect(res.status).toBe(502); // sh is no MCP server: it ran, then exited
    expect(existsSync(marker)).toBe(true);
    expect((await post(cookies.admin, { command: `${process.execPath} ${EVERYTHING}` })).status).toBe(201);
  });

  it('refuses a loopback URL for a researcher before connecting: the listener sees no connection', async () => {
    const port = new URL(loopbackUrl).port;
    for (const url of [loopbackUrl, `http://localhost:${port}/mcp`, `http://[::ffff:127.0.0.1]:${port}/mcp`, `http://[::1]:${port}/mcp`, `http://0.0.0.0:${port}/mcp`]) {
      const res = await post(cookies.researcher, { url });
      expect(res.status, url).toBe(403);
      expect(((await res.json()) as { error: string }).error, url).toMatch(/refused to reach .*(loopback|unspecified).*TCLAB_MCP_ALLOWED_URLS/);
    }
    expect(connections).toBe(0);
    // the same URL from an admin is reached (the listener answers 404: no MCP server there)
    expect((await post(cookies.admin, { url: loopbackUrl })).status).toBe(502);
    expect(connections).toBeGreaterThan(0);
  });

  it('imports from a loopback URL an admin listed in TCLAB_MCP_ALLOWED_URLS', async () => {
    const res = await post(cookies.researcher, { url: everythingUrl });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain('echo');
  });
});

describe('the guarded fetch', () => {
  it('decides every request itself, before connecting (a later request of the transport, a redirect)', async () => {
    const before = connections;
    const f = guardedFetch([]);
    await expect(f(loopbackUrl, { method: 'POST', body: '{}' })).rejects.toThrow(AddressRefused);
    await expect(f(new URL(loopbackUrl.replace('127.0.0.1', 'localhost')))).rejects.toThrow(/localhost resolves to .*loopback/);
    expect(connections).toBe(before);
    // listed: fetched as usual (the listener's 404)
    expect((await guardedFetch([new URL(loopbackUrl).origin])(loopbackUrl)).status).toBe(404);
  });

  it('connects to the checked address only: a name that cannot resolve reaches the server pinned to it', async () => {
    const url = new URL(everythingUrl);
    url.hostname = 'mcp.pinned.invalid'; // never resolved: the connection goes to the address given
    const transport = new StreamableHTTPClientTransport(url, { fetch: (u, init) => fetchPinned(new URL(String(u)), init ?? {}, [{ address: '127.0.0.1', family: 4 }]) });
    const client = new Client({ name: 'itest', version: '0' }, { capabilities: {} });
    await client.connect(transport);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('echo');
    await client.close();
  });
});
