import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { addressRefusal, bareHost, hostNameRefusal } from './address';

// The fetch a guarded MCP import uses (lib/mcp/policy.ts decides who is guarded). Every request — the
// first and any the transport makes later, redirects within the origin included — is decided before a
// connection is made: the host name is resolved here (every address, IPv4 and IPv6), refused if ANY
// address is not public (lib/mcp/address.ts), and the connection goes to exactly the addresses checked
// (a lookup pinned to them), so a name that resolves differently a moment later (DNS rebinding) changes
// nothing. A URL an admin listed (TCLAB_MCP_ALLOWED_URLS) is fetched as usual.

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;
type Address = { address: string; family: number };

export class AddressRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddressRefused';
  }
}

/** An allow-list entry or a URL as compared: origin plus path without trailing slashes. */
export function normalizeUrl(url: string): string | null {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

/** A list of URLs (comma- or space-separated) as normalized entries; entries that do not parse are ignored. */
export function parseAllowedUrls(list: string | undefined): string[] {
  return (list ?? '')
    .split(/[\s,]+/)
    .map((x) => (x === '' ? null : normalizeUrl(x)))
    .filter((x): x is string => x !== null);
}

/** Listed: the URL itself, a path above it, or its origin (an entry without a path). */
function listed(url: URL, allowed: string[]): boolean {
  const wanted = normalizeUrl(url.href)!;
  return allowed.some((a) => wanted === a || wanted.startsWith(`${a}/`));
}

/**
 * Decide a URL before anything is sent: 'listed' (an admin allowed it), or the checked addresses to
 * connect to. Throws AddressRefused naming the URL and the address that is not allowed.
 */
export async function checkUrl(url: URL, allowed: string[]): Promise<'listed' | Address[]> {
  const refuse = (why: string) => new AddressRefused(`refused to reach ${url.href}: ${why} (an admin can list it in TCLAB_MCP_ALLOWED_URLS)`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AddressRefused(`refused to reach ${url.href}: only http and https`);
  if (listed(url, allowed)) return 'listed';
  const host = bareHost(url.hostname);
  const byName = hostNameRefusal(host);
  if (byName) throw refuse(byName);
  if (isIP(host.replace(/%.*$/, ''))) {
    const why = addressRefusal(host);
    if (why) throw refuse(why);
    return [{ address: host, family: isIP(host) }];
  }
  let found: Address[];
  try {
    found = await lookup(host, { all: true, verbatim: true });
  } catch (e) {
    throw new AddressRefused(`nothing answered at ${url.href}: ${host} does not resolve (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  for (const a of found) {
    const why = addressRefusal(a.address);
    if (why) throw refuse(`${host} resolves to ${why}`);
  }
  if (found.length === 0) throw refuse(`${host} resolves to no address`);
  return found;
}

/** The fetch for a guarded import: each request checked, then sent to the checked addresses only. */
export function guardedFetch(allowed: string[]): FetchLike {
  return async (input, init = {}) => {
    const url = new URL(typeof input === 'string' ? input : input.href);
    const checked = await checkUrl(url, allowed);
    if (checked === 'listed') return fetch(url, init);
    return fetchPinned(url, init, checked);
  };
}

/** One HTTP exchange over node:http(s) whose lookup answers only the checked addresses. Redirects are not followed. */
export async function fetchPinned(url: URL, init: RequestInit, addresses: Address[]): Promise<Response> {
  const req = new Request(url, { ...init, redirect: 'manual' });
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.from(await req.arrayBuffer());
  const pinned: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as (e: null, a: Address[]) => void)(null, addresses);
    else cb(null, addresses[0].address, addresses[0].family);
  };
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise<Response>((resolve, reject) => {
    const r = mod.request(
      url,
      { method: req.method, headers: Object.fromEntries(req.headers), agent: false, lookup: pinned, signal: init.signal ?? undefined },
      (res) => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) for (const x of [v ?? []].flat()) headers.append(k, x);
        const status = res.statusCode ?? 502;
        const noBody = req.method === 'HEAD' || [204, 205, 304].includes(status);
        if (noBody) res.resume();
        resolve(new Response(noBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, statusText: res.statusMessage, headers }));
      },
    );
    r.once('error', reject);
    r.end(body);
  });
}
