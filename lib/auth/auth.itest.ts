import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../db/client';
import { resetEnvCache } from '../env';
import { auth, resetAuth } from './better-auth';
import { authMode, authorize, authorizeChange, resolveActor } from './access';
import { createUser } from './users';
import { SpecError } from '../schema/common';
import { bootstrapAccounts, createFirstAdmin, setupTokenOk } from './bootstrap';

// Accounts through Better Auth against the real database: sign-in, sessions, the role on the session,
// single-user mode only on loopback with no account, failed sign-ins slowed down (counted in PostgreSQL).

const ORIGIN = 'http://127.0.0.1:3060';
const password = 'correct horse battery staple';

async function signIn(email: string, pw: string, ip: string): Promise<Response> {
  return (await auth()).handler(
    new Request(`${ORIGIN}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, host: '127.0.0.1:3060', 'x-forwarded-for': ip },
      body: JSON.stringify({ email, password: pw }),
    }),
  );
}

function cookieOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

beforeAll(async () => {
  resetEnvCache();
  resetAuth();
  await pool().query('DELETE FROM users');
});

afterAll(async () => {
  await pool().query('DELETE FROM users');
  await pool().query('DELETE FROM rate_limits');
  resetAuth();
  await closeDb();
});

/** Runs `fn` with some environment variables set (lib/env.ts parses them again). */
async function withEnv(vars: Record<string, string>, fn: () => Promise<void>): Promise<void> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  resetEnvCache();
  try {
    await fn();
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    resetEnvCache();
  }
}

describe('exposed (HOST=0.0.0.0)', () => {
  it('needs sign-in even with no account, and prints a one-time set-up link that makes the first admin once', async () => {
    await withEnv({ HOST: '0.0.0.0' }, async () => {
      expect(await authMode()).toBe('accounts');
      expect(await resolveActor(new Headers({ host: '127.0.0.1:3060' }))).toBeNull();
      const b = await bootstrapAccounts();
      expect(b.kind).toBe('setup-link');
      const token = b.kind === 'setup-link' ? b.token : '';
      expect(await setupTokenOk(token)).toBe(true);
      expect(await setupTokenOk(`${token}x`)).toBe(false);
      // only the hash is stored
      expect(JSON.stringify((await pool().query('SELECT * FROM verifications')).rows)).not.toContain(token);
      expect(await createFirstAdmin(`${token}x`, { email: 'first@lab.example', password })).toMatchObject({ ok: false });
      expect(await createFirstAdmin(token, { email: 'first@lab.example', password })).toEqual({ ok: true, email: 'first@lab.example' });
      expect(await createFirstAdmin(token, { email: 'second@lab.example', password })).toMatchObject({ ok: false });
      expect((await pool().query('SELECT email, role FROM users')).rows).toEqual([{ email: 'first@lab.example', role: 'admin' }]);
      expect(await bootstrapAccounts()).toEqual({ kind: 'exists' });
    });
    await pool().query('DELETE FROM users');
  });

  it('makes the first admin from TCLAB_ADMIN_EMAIL / TCLAB_ADMIN_PASSWORD', async () => {
    await withEnv({ HOST: '0.0.0.0', TCLAB_ADMIN_EMAIL: 'boss@lab.example', TCLAB_ADMIN_PASSWORD: password }, async () => {
      expect(await bootstrapAccounts()).toEqual({ kind: 'admin-created', email: 'boss@lab.example' });
      expect((await pool().query('SELECT email, role FROM users')).rows).toEqual([{ email: 'boss@lab.example', role: 'admin' }]);
      const res = await signIn('boss@lab.example', password, '203.0.113.50');
      expect(res.status).toBe(200);
    });
    await pool().query('DELETE FROM users');
    await pool().query('DELETE FROM audit_events');
  });
});

describe('accounts', () => {
  it('is single-user on loopback until an account exists, then needs a session', async () => {
    expect(await authMode()).toBe('single-user');
    const local = await resolveActor(new Headers({ host: '127.0.0.1:3060' }));
    expect(local).toMatchObject({ kind: 'local', role: 'admin' });
    // a rebinding attacker's page reaches 127.0.0.1 under its own name
    expect(await resolveActor(new Headers({ host: 'evil.example:3060' }))).toBeNull();

    await createUser({ email: 'Res@Lab.example', role: 'researcher', password });
    expect(await authMode()).toBe('accounts');
    expect(await resolveActor(new Headers({ host: '127.0.0.1:3060' }))).toBeNull();
  });

  it('signs in with email and password; the session carries the role; the hash is not the password', async () => {
    const res = await signIn('res@lab.example', password, '203.0.113.1');
    expect(res.status).toBe(200);
    const headers = new Headers({ host: '127.0.0.1:3060', cookie: cookieOf(res) });
    expect(await resolveActor(headers)).toMatchObject({ kind: 'user', email: 'res@lab.example', role: 'researcher' });
    expect(await authorize(headers, 'run.control')).toMatchObject({ ok: true });
    expect(await authorize(headers, 'review.write')).toMatchObject({ ok: false, status: 403 });
    expect(await authorize(new Headers({ host: '127.0.0.1:3060' }), 'read')).toMatchObject({ ok: false, status: 401 });
    const stored = await pool().query<{ password: string }>('SELECT password FROM accounts');
    expect(stored.rows[0].password).not.toContain(password);
    expect(stored.rows[0].password.length).toBeGreaterThan(40);
  });

  it('refuses a cross-site change even with a valid session', async () => {
    const res = await signIn('res@lab.example', password, '203.0.113.2');
    const cookie = cookieOf(res);
    const cross = new Headers({ host: '127.0.0.1:3060', cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(await authorizeChange('POST', cross, 'run.control')).toMatchObject({ ok: false, status: 403 });
    const same = new Headers({ host: '127.0.0.1:3060', cookie, origin: ORIGIN, 'sec-fetch-site': 'same-origin' });
    expect(await authorizeChange('POST', same, 'run.control')).toMatchObject({ ok: true });
  });

  it('slows down repeated failed sign-ins, counting in PostgreSQL', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await signIn('res@lab.example', 'wrong password!!', '203.0.113.9')).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    // even the right password waits out the window from that client
    expect((await signIn('res@lab.example', password, '203.0.113.9')).status).toBe(429);
    const rows = await pool().query<{ key: string; count: number }>(`SELECT key, count FROM rate_limits WHERE key LIKE '203.0.113.9%'`);
    expect(rows.rows).toEqual([{ key: '203.0.113.9|/sign-in/email', count: 5 }]);
  });

  it('refuses a bad new user, naming the field, and stores nothing', async () => {
    const before = (await pool().query<{ n: number }>('SELECT count(*)::int AS n FROM users')).rows[0].n;
    await expect(createUser({ email: 'not-an-email', role: 'viewer', password })).rejects.toThrow(/email/);
    await expect(createUser({ email: 'v@lab.example', role: 'boss' as never, password })).rejects.toThrow(/role/);
    await expect(createUser({ email: 'v@lab.example', role: 'viewer', password: 'short' })).rejects.toThrow(SpecError);
    await expect(createUser({ email: 'RES@lab.example', role: 'viewer', password })).rejects.toThrow(/exists already/);
    expect((await pool().query<{ n: number }>('SELECT count(*)::int AS n FROM users')).rows[0].n).toBe(before);
  });
});
