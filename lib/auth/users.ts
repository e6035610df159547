import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { anyUser, findUserByEmail, setUserRole } from '../db/users';
import { SpecError } from '../schema/common';
import { auth } from './better-auth';
import { ROLES, type Role } from './roles';

// Accounts are made here only (the CLI, the users page, the first admin); Better Auth hashes the password.

export const NewUser = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email()),
  name: z.string().trim().max(200).optional(),
  role: z.enum(ROLES),
  password: z.string().min(12, 'at least 12 characters').max(128),
});
export type NewUser = z.input<typeof NewUser>;

export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

const fieldError = (what: string, issues: { path: string; message: string }[]) =>
  new SpecError(`${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
const zodIssues = (e: z.ZodError) => e.issues.map((i) => ({ path: i.path.join('.') || '(root)', message: i.message }));

export async function createUser(input: NewUser): Promise<{ id: string; email: string; role: Role }> {
  const parsed = NewUser.safeParse(input);
  if (!parsed.success) throw fieldError('user', zodIssues(parsed.error));
  const u = parsed.data;
  if (await findUserByEmail(u.email)) throw new SpecError(`email: a user ${u.email} exists already`, [{ path: 'email', message: 'exists already' }]);
  const ctx = await (await auth()).$context;
  const hash = await ctx.password.hash(u.password);
  const user = await ctx.internalAdapter.createUser({ email: u.email, name: u.name || u.email, emailVerified: true, role: u.role }, { method: 'admin' });
  await ctx.internalAdapter.linkAccount({ userId: user.id, providerId: 'credential', accountId: user.id, password: hash });
  return { id: user.id, email: u.email, role: u.role };
}

const RoleChangeInput = z.object({ email: z.string().trim().toLowerCase().pipe(z.email()), role: z.enum(ROLES) });

/** Give an account another role (its sessions end); the last admin stays admin. Errors name the field. */
export async function changeRole(input: { email: unknown; role: unknown }): Promise<{ email: string; from: Role; to: Role }> {
  const parsed = RoleChangeInput.safeParse(input);
  if (!parsed.success) throw fieldError('role change', zodIssues(parsed.error));
  const { email, role } = parsed.data;
  const user = await findUserByEmail(email);
  if (!user) throw fieldError('role change', [{ path: 'email', message: `no user ${email}` }]);
  const r = await setUserRole(user.id, role);
  if (!r.ok)
    throw fieldError('role change', [
      r.reason === 'last-admin' ? { path: 'role', message: `${email} is the last admin; make another admin first` } : { path: 'email', message: `no user ${email}` },
    ]);
  return { email, from: r.from, to: r.to };
}

/**
 * A new account from a door (the users page, `tclab user add`): the first account must be an admin — once
 * one exists everyone signs in, and somebody must be able to manage the others.
 */
export async function addAccount(input: NewUser): Promise<{ id: string; email: string; role: Role }> {
  if (input.role !== 'admin' && !(await anyUser()))
    throw fieldError('user', [{ path: 'role', message: 'the first account must be an admin: from then on everyone signs in, and someone must manage the accounts' }]);
  return createUser(input);
}
