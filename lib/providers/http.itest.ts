import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFetch, plainHeaders } from './http';
import { errorFacts } from './errors';

// The SDKs' transport against a real HTTP server: what global fetch would give, for everything our
// providers rely on.

let server: Server;
let base: string;
const seen: { method?: string; headers: Record<string, string | string[] | undefined>; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const json = JSON.stringify({ ok: true, text: 'héllo 你好' });
      switch (req.url) {
        case '/gzip':
          return res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(zlib.gzipSync(json));
        case '/br':
          return res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' }).end(zlib.brotliCompressSync(json));
        case '/deflate':
          return res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' }).end(zlib.deflateSync(json));
        case '/bom':
          return res.writeHead(200, { 'content-type': 'application/json' }).end(`\ufeff${json}`);
        case '/status':
          return res.writeHead(429, 'Too Many', { 'retry-after': '7', 'x-request-id': 'req_1' }).end('{"error":{"message":"slow down"}}');
        case '/slow':
          return; // never answers: afterAll closes the connection
        case '/cut':
          // headers and half a body, then the connection dies
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
          return res.write('{"ok":', () => res.socket?.destroy());
        default:
          return res.writeHead(200, { 'content-type': 'application/json' }).end(json);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('nodeFetch', () => {
  it('takes request headers as global fetch does: a Headers object, a record or pairs, names lower-cased, repeats joined', () => {
    const inputs: HeadersInit[] = [
      new Headers({ 'X-Stainless-Lang': 'js', Authorization: 'Bearer k' }),
      { 'Content-Type': 'application/json', 'X-Padded': '  v  ' },
      [
        ['Accept', 'application/json'],
        ['accept', 'text/plain'],
        ['X-One', '1'],
      ],
      {},
    ];
    for (const init of inputs) expect(plainHeaders(init)).toEqual(Object.fromEntries(new Headers(init)));
    expect(plainHeaders(undefined)).toEqual({});
  });

  it('sends the method, headers and body as given, and reads the answer as text and JSON', async () => {
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'ünïcode ✓' }] });
    const res = await nodeFetch(`${base}/plain`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k' }, body });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ ok: true, text: 'héllo 你好' });
    const got = seen.at(-1)!;
    expect(got).toMatchObject({ method: 'POST', body });
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(got.headers.authorization).toBe('Bearer k');
  });

  it.each(['gzip', 'br', 'deflate'])('decodes a %s body', async (encoding) => {
    const res = await nodeFetch(`${base}/${encoding}`);
    expect(await res.text()).toBe(JSON.stringify({ ok: true, text: 'héllo 你好' }));
  });

  it('drops a leading byte-order mark, as fetch does', async () => {
    const res = await nodeFetch(`${base}/bom`);
    expect((await res.text()).charCodeAt(0)).toBe('{'.charCodeAt(0));
  });

  it('keeps an error status, its text and headers', async () => {
    const res = await nodeFetch(`${base}/status`);
    expect(res.status).toBe(429);
    expect(res.statusText).toBe('Too Many');
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.headers.get('x-request-id')).toBe('req_1');
    expect(await res.text()).toContain('slow down');
  });

  it('rejects with the abort reason when the signal fires (the SDKs call that a timeout)', async () => {
    // /slow never answers: only the signal can settle the request
    const error = await nodeFetch(`${base}/slow`, { signal: AbortSignal.timeout(100) }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('TimeoutError');
    const aborted = new AbortController();
    aborted.abort();
    expect(((await nodeFetch(`${base}/plain`, { signal: aborted.signal }).catch((e: unknown) => e)) as Error).name).toBe('AbortError');
  });

  it('reports a connection that dies mid-body, or never opens, as fetch does: TypeError("fetch failed") with the cause', async () => {
    const cut = await nodeFetch(`${base}/cut`).catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(TypeError);
    expect((cut as Error).message).toBe('fetch failed');
    expect(errorFacts(cut).codes).toContain('ECONNRESET');

    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const refused = await nodeFetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect((refused as Error).message).toBe('fetch failed');
    expect(errorFacts(refused).codes).toContain('ECONNREFUSED');
  });
});
