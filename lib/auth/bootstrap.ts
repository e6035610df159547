import { createHash, randomBytes } from 'node:crypto';
import { env, forgetAdminPassword } from '../env';
import { anyUser, consumeSetupToken, setupTokenValid, storeSetupToken } from '../db/users';
import { recordAudit } from '../db/audit';
import { createUser, NewUser } from './users';
import { listensOnLoopback } from './access';
import { commandLineActor } from './roles';

// The first admin: from TCLAB_ADMIN_EMAIL / TCLAB_ADMIN_PASSWORD, or through a one-time set-up link printed
// on the server's console when the app is exposed without any account.

const SETUP_TTL_MS = 24 * 60 * 60 * 1000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type Bootstrap = { kind: 'exists' } | { kind: 'single-user' } | { kind: 'admin-created'; email: string } | { kind: 'setup-link'; token: string };

/**
 * At server start. Nothing to do when an account exists. Once one does, TCLAB_ADMIN_PASSWORD is removed from
 * this process's environment (no child process inherits it; scripts/serve.sh keeps it out of the server's
 * start-up environment altogether).
 */
export async function bootstrapAccounts(): Promise<Bootstrap> {
  if (await anyUser()) {
    forgetAdminPassword();
    return { kind: 'exists' };
  }
  const e = env();
  if (e.TCLAB_ADMIN_EMAIL && e.TCLAB_ADMIN_PASSWORD) {
    const u = await createUser({ email: e.TCLAB_ADMIN_EMAIL, password: e.TCLAB_ADMIN_PASSWORD, role: 'admin' });
    forgetAdminPassword();
    await recordAudit(commandLineActor('TCLAB_ADMIN_EMAIL'), 'user.added', {}, { email: u.email, role: u.role });
    return { kind: 'admin-created', email: u.email };
  }
  if (listensOnLoopback()) return { kind: 'single-user' };
  const token = randomBytes(24).toString('base64url');
  await storeSetupToken(hashToken(token), new Date(Date.now() + SETUP_TTL_MS));
  return { kind: 'setup-link', token };
}

export function setupTokenOk(token: string): Promise<boolean> {
  return setupTokenValid(hashToken(token));
}

/** The set-up link's form: the first admin, once. */
export async function createFirstAdmin(token: string, input: Omit<NewUser, 'role'>): Promise<{ ok: true; email: string } | { ok: false; message: string }> {
  const parsed = NewUser.safeParse({ ...input, role: 'admin' });
  if (!parsed.success) return { ok: false, message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  if (await anyUser()) return { ok: false, message: 'an account exists already: sign in' };
  // used up first, so that of two people racing with one link only one makes an admin
  if (!(await consumeSetupToken(hashToken(token)))) return { ok: false, message: 'this set-up link is not valid (used, expired, or replaced by a restart)' };
  const u = await createUser(parsed.data);
  await recordAudit(
    { kind: 'user', userId: u.id, email: u.email, name: u.email, role: 'admin' },
    'user.added',
    {},
    { email: u.email, role: 'admin', via: 'set-up link' },
  );
  return { ok: true, email: u.email };
}
