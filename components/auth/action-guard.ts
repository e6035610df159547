import { headers } from 'next/headers';
import { forbidden, unauthorized } from 'next/navigation';
import { authorize } from '@/lib/auth/access';
import type { Actor, Permission } from '@/lib/auth/roles';

// The thin Next adapter over lib/auth for the server actions (components/**/actions.ts, *-actions.ts): each
// calls it first. It lives beside them, not in app/_auth (one door never imports another, and lib/ is
// framework-free); pages and route handlers have theirs in app/_auth/guard.ts.

/** A server action: 401 / 403 (Next checks the Origin of every action against the Host itself). */
export async function actionActor(permission: Permission): Promise<Actor> {
  const access = await authorize(await headers(), permission);
  if (access.ok) return access.actor;
  if (access.status === 401) unauthorized();
  forbidden();
}
