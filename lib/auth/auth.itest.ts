import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../db/client';
import { execFileSync } from 'node:child_process';
import { env, resetEnvCache } from '../env';
import { auth, resetAuth } from './better-auth';
import { authMode, authorize, authorizeChange, resolveActor } from './access';
import { addAccount, changeRole, createUser } from './users';
import { SpecError } from '../schema/common';
import { runCli } from '../testing/engine';
import { bootstrapAccounts, createFirstAdmin, setupTokenOk } from './bootstrap';
import { localSessionCookie } from '../testing/local-session';

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
      // the password is gone from the server's environment: no child process inherits it
      expect(process.env.TCLAB_ADMIN_PASSWORD).toBeUndefined();
      expect(env().TCLAB_ADMIN_PASSWORD).toBeUndefined();
      expect(execFileSync('sh', ['-c', 'env'], { encoding: 'utf8' })).not.toContain(password);
    });
    // an admin exists already: a password still given is forgotten at start as well
    await withEnv({ HOST: '0.0.0.0', TCLAB_ADMIN_EMAIL: 'boss@lab.example', TCLAB_ADMIN_PASSWORD: 'another password 2026' }, async () => {
      expect(await bootstrapAccounts()).toEqual({ kind: 'exists' });
      expect(process.env.TCLAB_ADMIN_PASSWORD).toBeUndefined();
      expect(execFileSync('sh', ['-c', 'env'], { encoding: 'utf8' })).not.toContain('another password 2026');
    });
    await pool().query('DELETE FROM users');
    await pool().query('DELETE FROM audit_events');
  });
});

describe('accounts', () => {
  it('is single-user on loopback until an account exists, then needs a session', async () => {
    expect(await authMode()).toBe('single-user');
    // the browser that opened the server's link (app/api/single-user-link/route.itest.ts); another local client is nobody
    const cookie = await localSessionCookie();
    const local = await resolveActor(new Headers({ host: '127.0.0.1:3060', cookie }));
    expect(local).toMatchObject({ kind: 'local', role: 'admin' });
    expect(await resolveActor(new Headers({ host: '127.0.0.1:3060' }))).toBeNull();
    // a rebinding attacker's page reaches 127.0.0.1 under its own name
    expect(await resolveActor(new Headers({ host: 'evil.example:3060', cookie }))).toBeNull();

    await createUser({ email: 'Res@Lab.example', role: 'researcher', password });
    expect(await authMode()).toBe('accounts');
    expect(await resolveActor(new Headers({ host: '127.0.0.1:3060', cookie }))).toBeNull();
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

describe('roles', () => {
  const sessions = async (email: string) =>
    (await pool().query<{ n: number }>('SELECT count(*)::int AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1', [email])).rows[0].n;
  const roleOf = async (email: string) => (await pool().query<{ role: string }>('SELECT role FROM users WHERE email = $1', [email])).rows[0]?.role;

  it('the first account must be an admin; later ones may have any role', async () => {
    await pool().query('DELETE FROM users');
    await expect(addAccount({ email: 'early@lab.example', role: 'viewer', password })).rejects.toThrow(/role: the first account must be an admin/);
    expect((await pool().query('SELECT 1 FROM users')).rowCount).toBe(0);
    await addAccount({ email: 'chief@lab.example', role: 'admin', password });
    await addAccount({ email: 'rev@lab.example', role: 'reviewer', password });
    expect(await roleOf('rev@lab.example')).toBe('reviewer');
  });

  it("a changed role ends that user's sessions, and the next session carries the new role", async () => {
    const first = await signIn('rev@lab.example', password, '203.0.113.20');
    expect(first.status).toBe(200);
    expect(await sessions('rev@lab.example')).toBe(1);
    expect(await changeRole({ email: 'REV@lab.example', role: 'researcher' })).toEqual({ email: 'rev@lab.example', from: 'reviewer', to: 'researcher' });
    expect(await sessions('rev@lab.example')).toBe(0);
    expect(await resolveActor(new Headers({ host: '127.0.0.1:3060', cookie: cookieOf(first) }))).toBeNull();
    const again = await signIn('rev@lab.example', password, '203.0.113.21');
    expect(await resolveActor(new Headers({ host: '127.0.0.1:3060', cookie: cookieOf(again) }))).toMatchObject({ role: 'researcher' });
  });

  it('the last admin keeps the role; with two admins one may step down; errors name the field', async () => {
    await expect(changeRole({ email: 'chief@lab.example', role: 'viewer' })).rejects.toThrow(/role: chief@lab.example is the last admin/);
    expect(await roleOf('chief@lab.example')).toBe('admin');
    await expect(changeRole({ email: 'nobody@lab.example', role: 'viewer' })).rejects.toThrow(/email: no user nobody@lab.example/);
    await expect(changeRole({ email: 'rev@lab.example', role: 'boss' })).rejects.toThrow(/role/);
    await expect(changeRole({ email: 'not an email', role: 'viewer' })).rejects.toThrow(/email/);
    await changeRole({ email: 'rev@lab.example', role: 'admin' });
    // two admins demoting each other at once: exactly one succeeds
    const both = await Promise.allSettled([changeRole({ email: 'chief@lab.example', role: 'viewer' }), changeRole({ email: 'rev@lab.example', role: 'viewer' })]);
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await pool().query("SELECT 1 FROM users WHERE role = 'admin'")).rowCount).toBe(1);
  });

  it('the command line: tclab user list, tclab user role (audited as the command line), refusals exit 2 naming the field', async () => {
    const list = await runCli(['user', 'list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    const users = JSON.parse(list.stdout) as { email: string; role: string }[];
    const admin = users.find((u) => u.role === 'admin')!;
    const other = users.find((u) => u.role !== 'admin')!;
    const changed = await runCli(['user', 'role', other.email, 'reviewer']);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toContain(`${other.email}: ${other.role} → reviewer`);
    expect(await roleOf(other.email)).toBe('reviewer');
    const audit = await pool().query<{ actor: string; detail: { email: string; to: string } }>(
      "SELECT actor, detail FROM audit_events WHERE action = 'user.role_changed' ORDER BY id DESC LIMIT 1",
    );
    expect(audit.rows[0].actor).toMatch(/^command line \(/);
    expect(audit.rows[0].detail).toMatchObject({ email: other.email, to: 'reviewer' });
    const last = await runCli(['user', 'role', admin.email, 'viewer']);
    expect(last.code).toBe(2);
    expect(last.stderr).toContain(`role: ${admin.email} is the last admin`);
    const bad = await runCli(['user', 'role', admin.email, 'boss']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/role/);
    expect(await roleOf(admin.email)).toBe('admin');
  });
});
