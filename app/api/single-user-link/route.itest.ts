import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NextRequest } from 'next/server';
import { closeDb, pool } from '@/lib/db/client';
import { issueLocalLink } from '@/lib/auth/local-link';
import { resolveActor } from '@/lib/auth/access';
import { proxy } from '@/proxy';
import { GET as openLink } from './route';
import { GET as progress } from '@/app/api/runs/[id]/progress/route';
import { POST as control } from '@/app/api/runs/[id]/control/route';

// Single-user mode admits only the browser that opened the link the server printed. The
// doors in single-user mode, through the real proxy and route handlers against the real database.

const ORIGIN = 'http://127.0.0.1:3000';
const dir = mkdtempSync(path.join(tmpdir(), 'tclab-link-itest-'));
const p = <T>(v: T) => ({ params: Promise.resolve(v) });
const req = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
  new Request(`${ORIGIN}${url}`, { method, headers: { host: '127.0.0.1:3000', ...headers }, body: method === 'POST' ? '{"action":"cancel"}' : undefined });

/** The link as a browser opens it: the proxy rewrites `/?token=…` to the route handler, which answers. */
async function open(link: string, cookie?: string): Promise<Response> {
  const viaProxy = proxy(new NextRequest(link, { headers: { host: '127.0.0.1:3000', ...(cookie ? { cookie } : {}) } }));
  const rewrite = viaProxy.headers.get('x-middleware-rewrite');
  expect(rewrite, 'the proxy sends the link to its route handler').toMatch(/\/api\/single-user-link\?/);
  return openLink(req(new URL(rewrite!).pathname + new URL(rewrite!).search, cookie ? { cookie } : {}));
}

let link: string;
let file: string;

beforeAll(async () => {
  await pool().query('DELETE FROM users'); // single-user mode: loopback, no account
  ({ url: link, file } = await issueLocalLink(dir));
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await closeDb();
});

describe('single-user mode: the link printed at start', () => {
  it('is a random 32-byte token, written to an owner-only file and stored only as a hash', async () => {
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(file, 'utf8').trim()).toBe(link);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token = new URL(link).searchParams.get('token')!;
    const stored = await pool().query<{ value: string }>("SELECT value FROM verifications WHERE identifier = 'tclab:single-user-link'");
    expect(stored.rows.length).toBe(1);
    expect(stored.rows[0].value).toMatch(/^[0-9a-f]{64}$/);
    expect((await pool().query('SELECT 1 FROM verifications WHERE strpos(value, $1) > 0', [token])).rowCount).toBe(0);
  });

  it('without the cookie: 401 from route handlers, nobody for pages (the sign-in page); the link admits once; the cookie keeps working', async () => {
    // another local program: loopback Host, no cookie
    expect((await progress(req('/api/runs/r_none/progress'), p({ id: 'r_none' }))).status).toBe(401);
    expect((await control(req('/api/runs/r_none/control', { 'content-type': 'application/json' }, 'POST'), p({ id: 'r_none' }))).status).toBe(401);
    expect(await resolveActor(new Headers({ host: '127.0.0.1:3000' }))).toBeNull();
    // a made-up cookie does not count
    expect(await resolveActor(new Headers({ host: '127.0.0.1:3000', cookie: 'tclab_local_3000=forged' }))).toBeNull();

    const first = await open(`${link}&view=x`);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/?view=x'); // the same address without the token
    const setCookie = first.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^tclab_local_\d+=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    const cookie = setCookie.split(';')[0];

    // a second use is refused (another client that read the link after it was used)
    const second = await open(link);
    expect(second.status).toBe(403);
    expect(await second.text()).toMatch(/used already/);
    expect(second.headers.get('set-cookie')).toBeNull();
    expect((await open(`${ORIGIN}/?token=wrong`)).status).toBe(403);

    // the browser with the cookie gets in, and may open the link again without harm
    expect(await resolveActor(new Headers({ host: '127.0.0.1:3000', cookie }))).toMatchObject({ kind: 'local' });
    expect((await progress(req('/api/runs/r_none/progress', { cookie }), p({ id: 'r_none' }))).status).toBe(404);
    expect((await open(link, cookie)).status).toBe(303);
    // not under another name (DNS rebinding), even with the cookie
    expect(await resolveActor(new Headers({ host: 'evil.example:3000', cookie }))).toBeNull();
  });

  it('a restart issues a new link and the old one stops working', async () => {
    const before = await issueLocalLink(dir);
    const again = await issueLocalLink(dir);
    expect(again.url).not.toBe(before.url);
    expect((await open(before.url)).status).toBe(403);
    expect((await open(again.url)).status).toBe(303);
    expect((await open(again.url)).status).toBe(403);
  });
});
