import { headers } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { authMode, authorize, authorizeChange } from '@/lib/auth/access';
import type { Actor, Permission } from '@/lib/auth/roles';
import { PATH_HEADER } from '@/lib/auth/headers';

// The thin Next adapter over lib/auth: every page and route handler calls one of these first (a server
// action calls components/auth/action-guard.ts). The rules (roles, permissions, single-user mode, cross-site refusal) live in lib/auth.

/** A page: nobody signed in → the sign-in page (back here afterwards); a role without the permission → 403. */
export async function pageActor(permission: Permission): Promise<Actor> {
  const h = await headers();
  const access = await authorize(h, permission);
  if (access.ok) return access.actor;
  if (access.status === 401) redirect(`/sign-in?next=${encodeURIComponent(h.get(PATH_HEADER) ?? '/')}`);
  forbidden();
}

/**
 * A route handler: the actor, or the response to send instead (401 / 403 as JSON). State-changing methods
 * also refuse cross-site requests.
 */
export async function routeActor(req: Request, permission: Permission): Promise<{ actor: Actor; denied?: undefined } | { denied: Response; actor?: undefined }> {
  const access = await authorizeChange(req.method, req.headers, permission, req.url);
  if (access.ok) return { actor: access.actor };
  return { denied: Response.json({ ok: false, error: access.message }, { status: access.status }) };
}

/** What the header shows: single-user mode, or who is signed in. */
export async function viewer(): Promise<{ mode: 'single-user' | 'accounts'; actor: Actor | null }> {
  const h = await headers();
  const mode = await authMode();
  const access = await authorize(h, 'read');
  return { mode, actor: access.ok ? access.actor : null };
}
