import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import type { IncomingMessage } from 'node:http';

// The SDKs take a custom `fetch`. This one speaks HTTP/1.1 through node:http(s) with keep-alive agents and
// reads the whole body before answering: a run makes thousands of small non-streaming requests, and
// global fetch's WHATWG streams, signals and per-request object graph cost more CPU than the exchange
// itself (a worker near one full core adds its event-loop delay to every request it holds a slot for).
// Failures look as they do with global fetch: TypeError('fetch failed') with the socket error as its
// cause, and an AbortError when the SDK's signal fires, so the SDKs and our classifier see no difference.

export type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const agents = {
  'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo' }),
};

/**
 * A Response whose body has already been read: text() and json() serve it as is (no second stream, no
 * second UTF-8 round trip). `body` is null, so it is for callers that read with text()/json() only.
 */
export class ReadResponse extends Response {
  readonly #text: string;
  /** The body's bytes when `text` does not hold them exactly (not UTF-8, or a leading BOM); null otherwise. */
  readonly rawBytes: Uint8Array | null;

  constructor(text: string, init: ResponseInit, rawBytes: Uint8Array | null = null) {
    super(null, init);
    this.#text = text;
    this.rawBytes = rawBytes;
  }

  override text(): Promise<string> {
    return Promise.resolve(this.#text);
  }

  override json(): Promise<unknown> {
    return this.text().then((t) => JSON.parse(t) as unknown);
  }
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

export const nodeFetch: FetchFn = (input, init = {}) => {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  const agent = agents[url.protocol as keyof typeof agents];
  if (!agent) return Promise.reject(new TypeError('fetch failed', { cause: new Error(`unsupported protocol ${url.protocol}`) }));
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  const body = typeof init.body === 'string' ? init.body : init.body == null ? null : undefined;
  if (body === undefined) return Promise.reject(new TypeError('nodeFetch: only string bodies are supported'));
  const headers = plainHeaders(init.headers);
  if (body !== null) headers['content-length'] = String(Buffer.byteLength(body));
  headers['accept-encoding'] ??= 'gzip, deflate, br';

  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? abortError(signal) : new TypeError('fetch failed', { cause: error }));
    };
    const req = (url.protocol === 'https:' ? https : http).request(url, { method: init.method ?? 'GET', headers, agent }, (res) => {
      readBody(res).then(({ text, rawBytes }) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        // name/value pairs: the Response fills its own header list from them once (a Headers instance would be
        // built here and then copied)
        const h: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) h.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
        resolve(new ReadResponse(text, { status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: h }, rawBytes));
      }, fail);
    });
    const onAbort = () => {
      req.destroy();
      fail(undefined);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', fail);
    req.end(body ?? undefined);
  });
};

/**
 * The request's headers as one lower-cased record, as `new Headers(init)` would give them (names lower-cased,
 * repeated names joined with ", "), without building a Headers object per request: the SDKs hand over a
 * Headers instance, a plain record or name/value pairs.
 */
export function plainHeaders(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    const v = String(value).trim();
    out[key] = key in out ? `${out[key]}, ${v}` : v;
  };
  if (init === undefined || init === null) return out;
  if (Array.isArray(init)) for (const [name, value] of init) add(name, value);
  else if (typeof (init as Headers).forEach === 'function') (init as Headers).forEach((value, name) => (out[name.toLowerCase()] = value));
  else for (const name of Object.keys(init)) add(name, (init as Record<string, string>)[name]);
  return out;
}

const utf8 = new TextDecoder();
const exactUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A body's text as fetch's text() gives it (UTF-8, a leading BOM dropped, bad sequences replaced by U+FFFD),
 * and its bytes when that text does not hold them exactly: they are what is stored then (docs/faults.md).
 */
export function decodeBody(bytes: Uint8Array): { text: string; rawBytes: Uint8Array | null } {
  try {
    const text = exactUtf8.decode(bytes);
    if (text.charCodeAt(0) !== 0xfeff) return { text, rawBytes: null };
  } catch {
    // not UTF-8: the bytes are kept beside the replaced text
  }
  return { text: utf8.decode(bytes), rawBytes: bytes };
}

function readBody(res: IncomingMessage): Promise<{ text: string; rawBytes: Uint8Array | null }> {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const stream =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? res.pipe(zlib.createGunzip())
      : encoding === 'deflate'
        ? res.pipe(zlib.createInflate())
        : encoding === 'br'
          ? res.pipe(zlib.createBrotliDecompress())
          : res;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(decodeBody(Buffer.concat(chunks))));
    stream.on('error', reject);
    // a socket that dies mid-body: 'aborted' on the response, never 'end'
    res.on('aborted', () => reject(Object.assign(new Error('other side closed'), { code: 'ECONNRESET' })));
    if (stream !== res) res.on('error', reject);
  });
}
