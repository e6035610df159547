import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { findUserByEmail } from '../db/users';
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

export async function createUser(input: NewUser): Promise<{ id: string; email: string; role: Role }> {
  const parsed = NewUser.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.') || '(root)', message: i.message }));
    throw new SpecError(`user: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
  }
  const u = parsed.data;
  if (await findUserByEmail(u.email)) throw new SpecError(`email: a user ${u.email} exists already`, [{ path: 'email', message: 'exists already' }]);
  const ctx = await (await auth()).$context;
  const hash = await ctx.password.hash(u.password);
  const user = await ctx.internalAdapter.createUser({ email: u.email, name: u.name || u.email, emailVerified: true, role: u.role }, { method: 'admin' });
  await ctx.internalAdapter.linkAccount({ userId: user.id, providerId: 'credential', accountId: user.id, password: hash });
  return { id: user.id, email: u.email, role: u.role };
}
