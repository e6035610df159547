import { randomBytes } from 'node:crypto';
import { pool, withTransaction } from './client';

// Single-user mode's one-time link and the browser sessions it opens (lib/auth/local-link.ts), kept as
// hashes in Better Auth's `verifications` table under identifiers of ours: nothing here is usable as stored.

const LINK = 'tclab:single-user-link';
const SESSION = 'tclab:single-user-session';

/** The link of this server start: the one before it (an earlier start's) stops working. */
export async function storeLocalLink(tokenHash: string): Promise<void> {
  return withTransaction(async (c) => {
    await c.query('DELETE FROM verifications WHERE identifier = $1', [LINK]);
    await c.query("INSERT INTO verifications (id, identifier, value, expires_at) VALUES ($1, $2, $3, now() + interval '100 years')", [
      randomBytes(12).toString('hex'),
      LINK,
      tokenHash,
    ]);
  });
}

/** Uses the link up: true only for the one caller that deleted it. */
export async function consumeLocalLink(tokenHash: string): Promise<boolean> {
  const r = await pool().query('DELETE FROM verifications WHERE identifier = $1 AND value = $2', [LINK, tokenHash]);
  return r.rowCount === 1;
}

export async function storeLocalSession(sessionHash: string, expiresAt: Date): Promise<void> {
  await pool().query('DELETE FROM verifications WHERE identifier = $1 AND expires_at <= now()', [SESSION]);
  await pool().query('INSERT INTO verifications (id, identifier, value, expires_at) VALUES ($1, $2, $3, $4)', [
    randomBytes(12).toString('hex'),
    SESSION,
    sessionHash,
    expiresAt,
  ]);
}

export async function localSessionValid(sessionHash: string): Promise<boolean> {
  const r = await pool().query('SELECT 1 FROM verifications WHERE identifier = $1 AND value = $2 AND expires_at > now()', [SESSION, sessionHash]);
  return (r.rowCount ?? 0) > 0;
}
