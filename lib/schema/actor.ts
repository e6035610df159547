// Who acts, as stored beside what they did (audit entries, reviews, users): the roles and the actor. The
// decisions (what a role may do) live in lib/auth/roles.ts, which re-exports these.

export const ROLES = ['admin', 'researcher', 'reviewer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Who is acting. `user`: a signed-in account. `local`: nobody signed in because nobody needs to — the app runs
 * in single-user mode on loopback, or a command line on the server's own machine.
 */
export type Actor = { kind: 'user'; userId: string; email: string; name: string; role: Role } | { kind: 'local'; label: string; role: 'admin' };

/** The name an audit entry or a review shows for an actor. */
export function actorLabel(actor: Actor): string {
  return actor.kind === 'user' ? actor.email : actor.label;
}

export function actorUserId(actor: Actor): string | null {
  return actor.kind === 'user' ? actor.userId : null;
}
