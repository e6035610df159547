import { randomBytes } from 'node:crypto';
import { pool } from './client';
import type { Role } from '../schema/actor';

// Users are Better Auth's rows (lib/auth/better-auth.ts); these are the few reads and writes of ours.

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  createdAt: Date;
}

export async function anyUser(): Promise<boolean> {
  const r = await pool().query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM users) AS any');
  return r.rows[0].any;
}

export async function listUsers(): Promise<UserRow[]> {
  const r = await pool().query<{ id: string; email: string; name: string; role: Role; created_at: Date }>(
    'SELECT id, email, name, role, created_at FROM users ORDER BY created_at, email',
  );
  return r.rows.map((u) => ({ id: u.id, email: u.email, name: u.name, role: u.role, createdAt: u.created_at }));
}

export async function findUserByEmail(email: string): Promise<UserRow | null> {
  const r = await pool().query<{ id: string; email: string; name: string; role: Role; created_at: Date }>(
    'SELECT id, email, name, role, created_at FROM users WHERE email = $1',
    [email.toLowerCase()],
  );
  const u = r.rows[0];
  return u ? { id: u.id, email: u.email, name: u.name, role: u.role, createdAt: u.created_at } : null;
}

export type RoleChange = { ok: true; from: Role; to: Role } | { ok: false; reason: 'no-such-user' | 'last-admin' };

/**
 * Change a role; the user's sessions end so the new role applies at once. The last admin keeps the role
 * (nobody could manage users afterwards): the admins are locked while it is checked, so two admins demoting
 * each other at once cannot both succeed.
 */
export async function setUserRole(userId: string, role: Role): Promise<RoleChange> {
  const client = await pool().connect();
  try {
    await client.query('BEGIN');
    const admins = await client.query<{ id: string }>("SELECT id FROM users WHERE role = 'admin' ORDER BY id FOR UPDATE");
    const cur = await client.query<{ role: Role }>('SELECT role FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const from = cur.rows[0]?.role;
    let out: RoleChange;
    if (!from) out = { ok: false, reason: 'no-such-user' };
    else if (from === 'admin' && role !== 'admin' && admins.rows.length <= 1) out = { ok: false, reason: 'last-admin' };
    else {
      if (from !== role) {
        await client.query('UPDATE users SET role = $2, updated_at = now() WHERE id = $1', [userId, role]);
        await client.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
      }
      out = { ok: true, from, to: role };
    }
    await client.query(out.ok ? 'COMMIT' : 'ROLLBACK');
    return out;
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  } finally {
    client.release();
  }
}

/**
 * The secret that signs session cookies: the configured one, else one generated on first use and kept in
 * the database, so every web process and every restart agree on it.
 */
export async function authSecret(configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await pool().query('INSERT INTO auth_secret (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [randomBytes(32).toString('base64url')]);
  const r = await pool().query<{ secret: string }>('SELECT secret FROM auth_secret WHERE id = 1');
  return r.rows[0].secret;
}

const SETUP_IDENTIFIER = 'tclab:first-admin';

/** A one-time set-up token for the first admin (only its hash is stored); replaces an earlier one. */
export async function storeSetupToken(tokenHash: string, expiresAt: Date): Promise<void> {
  await pool().query('DELETE FROM verifications WHERE identifier = $1', [SETUP_IDENTIFIER]);
  await pool().query('INSERT INTO verifications (id, identifier, value, expires_at) VALUES ($1, $2, $3, $4)', [
    randomBytes(12).toString('hex'),
    SETUP_IDENTIFIER,
    tokenHash,
    expiresAt,
  ]);
}

export async function setupTokenValid(tokenHash: string): Promise<boolean> {
  const r = await pool().query('SELECT 1 FROM verifications WHERE identifier = $1 AND value = $2 AND expires_at > now()', [SETUP_IDENTIFIER, tokenHash]);
  return r.rowCount === 1;
}

/** Uses the token up: true only for the one caller that deleted it while it was valid. */
export async function consumeSetupToken(tokenHash: string): Promise<boolean> {
  const r = await pool().query('DELETE FROM verifications WHERE identifier = $1 AND value = $2 AND expires_at > now()', [SETUP_IDENTIFIER, tokenHash]);
  return r.rowCount === 1;
}
