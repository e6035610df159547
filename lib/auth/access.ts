import { env } from '../env';
import { anyUser } from '../db/users';
import { auth } from './better-auth';
import { crossSiteRefusal, hostName, isLoopbackHost } from './origin';
import { hasLocalSession } from './local-link';
import { decide, isRole, SINGLE_USER_ACTOR, type Access, type Actor, type Permission } from './roles';

// The check every door makes, from the request's headers alone (no framework): the Next adapter in
// app/_auth (and components/auth/action-guard.ts) passes `headers()` or the route handler's Request.

export type AuthMode = 'single-user' | 'accounts';

/** Whether the configured listening address is reachable from this machine only. */
export function listensOnLoopback(): boolean {
  return isLoopbackHost(env().HOST);
}

/**
 * Single-user mode: the app listens on loopback and no account exists, so whoever can reach it is the
 * person at this machine. As soon as it is exposed (HOST) or any account exists, everyone signs in.
 */
export async function authMode(): Promise<AuthMode> {
  if (!listensOnLoopback()) return 'accounts';
  return (await anyUser()) ? 'accounts' : 'single-user';
}

/**
 * Who sent the request: the local user in single-user mode (the browser that opened the link the server
 * printed: lib/auth/local-link.ts), the session's account, or nobody. `url`: the request's URL, whose host
 * stands in for a missing Host header (a Request made in a test).
 */
export async function resolveActor(headers: Headers, url?: string): Promise<Actor | null> {
  if ((await authMode()) === 'single-user') {
    // a page of another site that resolves its name to 127.0.0.1 (DNS rebinding) sends its own Host
    const host = headers.get('host') ?? (url ? new URL(url).host : null);
    if (!host || !isLoopbackHost(hostName(host))) return null;
    // another program or user of this machine reaches loopback too: only the link's cookie admits
    return (await hasLocalSession(headers)) ? SINGLE_USER_ACTOR : null;
  }
  const s = await (await auth()).api.getSession({ headers });
  if (!s) return null;
  const role = (s.user as { role?: unknown }).role;
  if (!isRole(role)) return null;
  return { kind: 'user', userId: s.user.id, email: s.user.email, name: s.user.name, role };
}

export async function authorize(headers: Headers, permission: Permission, url?: string): Promise<Access> {
  return decide(await resolveActor(headers, url), permission);
}

/** For state-changing route handlers: cross-site refusal first (403), then the role check. */
/** Why a state-changing request from another site is refused, or null (this site's hosts: Host, TCLAB_PUBLIC_URL). */
export function crossSiteCheck(method: string, headers: Headers): string | null {
  const publicUrl = env().TCLAB_PUBLIC_URL;
  return crossSiteRefusal({ method, headers, extraHosts: publicUrl ? [new URL(publicUrl).host] : [] });
}

export async function authorizeChange(method: string, headers: Headers, permission: Permission, url?: string): Promise<Access> {
  const refused = crossSiteCheck(method, headers);
  if (refused) return { ok: false, status: 403, message: refused };
  return authorize(headers, permission, url);
}
