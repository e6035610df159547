import { addAccount, changeRole, type NewUser } from '../auth/users';
import type { Actor, Role } from '../schema/actor';
import { recordAudit } from '../db/audit';

// Use case: the accounts and their roles, each change attributed (docs/access.md). The admin page's actions
// and `tclab user` add accounts and change roles here; lib/auth/users.ts checks the input and stores them.

export { listUsers } from '../db/users';
export { userAudit } from '../db/audit';
export { generatePassword } from '../auth/users';

/** Add an account for `actor`, audited. Bad input throws a SpecError naming the field; nothing is stored. */
export async function addAccountAs(actor: Actor, input: NewUser): Promise<{ id: string; email: string; role: Role }> {
  const u = await addAccount(input);
  await recordAudit(actor, 'user.added', {}, { email: u.email, role: u.role });
  return u;
}

/** Give an account another role for `actor`; a change is audited (the same role again is no change). */
export async function changeRoleAs(actor: Actor, input: { email: unknown; role: unknown }): Promise<{ email: string; from: Role; to: Role }> {
  const r = await changeRole(input);
  if (r.from !== r.to) await recordAudit(actor, 'user.role_changed', {}, { email: r.email, from: r.from, to: r.to });
  return r;
}
