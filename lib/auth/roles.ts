// Who may do what: the roles, what each permits, and the decision every door asks for. Framework-free:
// pages, route handlers, server actions and the CLI all come here (through a thin adapter: app/_auth/guard.ts, components/auth/action-guard.ts).

import { ROLES, type Actor, type Role } from '../schema/actor';
export { ROLES, actorLabel, actorUserId, type Actor, type Role } from '../schema/actor';

export const PERMISSIONS = {
  /** see experiments, runs, trials, reviews and exports */
  read: 'read',
  /** import an experiment, save a new version, drafts, MCP imports */
  'experiment.write': 'experiment.write',
  /** start, pause, resume and cancel runs */
  'run.control': 'run.control',
  /** write a reviewer's reading of a verdict */
  'review.write': 'review.write',
  /** add users and change their roles */
  'users.manage': 'users.manage',
  /**
   * start a program of one's choosing on the server (a stdio MCP server's command) and reach any address
   * from it (an MCP URL): without it, only the servers and URLs an admin configured (lib/mcp/policy.ts)
   */
  'server.exec': 'server.exec',
} as const;
export type Permission = keyof typeof PERMISSIONS;

/** The one table of what each role may do. */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  admin: ['read', 'experiment.write', 'run.control', 'review.write', 'users.manage', 'server.exec'],
  researcher: ['read', 'experiment.write', 'run.control'],
  reviewer: ['read', 'review.write'],
  viewer: ['read'],
};

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  admin: 'users and roles, any MCP server command or URL, and everything the other roles may do',
  researcher: 'create and edit experiments (MCP imports from the servers and URLs an admin configured); start, pause, resume and cancel runs',
  reviewer: 'write reviews of verdicts',
  viewer: 'read only',
};

export function isRole(x: unknown): x is Role {
  return typeof x === 'string' && (ROLES as readonly string[]).includes(x);
}

export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** The roles that may do something, e.g. for a message saying who can. */
export function rolesWith(permission: Permission): Role[] {
  return ROLES.filter((r) => can(r, permission));
}

export const SINGLE_USER_ACTOR: Actor = { kind: 'local', label: 'local user (single-user mode)', role: 'admin' };

export function commandLineActor(osUser: string): Actor {
  return { kind: 'local', label: `command line (${osUser})`, role: 'admin' };
}

export type Access = { ok: true; actor: Actor } | { ok: false; status: 401 | 403; message: string };

/** The decision: nobody → 401; a role without the permission → 403. */
export function decide(actor: Actor | null, permission: Permission): Access {
  if (!actor) return { ok: false, status: 401, message: 'sign in first' };
  if (!can(actor.role, permission))
    return { ok: false, status: 403, message: `your role (${actor.role}) may not do this; it needs ${rolesWith(permission).join(' or ')}` };
  return { ok: true, actor };
}

export class AccessDenied extends Error {
  constructor(
    readonly status: 401 | 403,
    message: string,
  ) {
    super(message);
    this.name = 'AccessDenied';
  }
}

/** The throwing form, for code that has an actor in hand (lib functions, the CLI). */
export function requirePermission(actor: Actor | null, permission: Permission): Actor {
  const d = decide(actor, permission);
  if (!d.ok) throw new AccessDenied(d.status, d.message);
  return d.actor;
}
