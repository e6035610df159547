'use server';

import { revalidatePath } from 'next/cache';
import { actionActor } from '@/components/auth/action-guard';
import { addAccountAs, changeRoleAs, generatePassword } from '@/lib/accounts/accounts';
import { SpecError } from '@/lib/schema/common';

export interface UsersFormState {
  message: string | null;
  issues: { path: string; message: string }[];
  /** The generated password of the account just added: shown once, never stored in clear. */
  added?: { email: string; role: string; password: string };
}

const text = (form: FormData, k: string) => (typeof form.get(k) === 'string' ? (form.get(k) as string) : '');
const refused = (e: unknown): UsersFormState => {
  if (e instanceof SpecError) return { message: e.message.split('\n')[0], issues: e.issues.map((i) => ({ path: i.path || '(root)', message: i.message })) };
  throw e;
};

/** Add an account with a generated password, shown once to the admin who added it. */
export async function addUserAction(_prev: UsersFormState, form: FormData): Promise<UsersFormState> {
  const actor = await actionActor('users.manage');
  const password = generatePassword();
  try {
    const u = await addAccountAs(actor, { email: text(form, 'email'), name: text(form, 'name') || undefined, role: text(form, 'role') as never, password });
    revalidatePath('/admin/users');
    return { message: null, issues: [], added: { email: u.email, role: u.role, password } };
  } catch (e) {
    return refused(e);
  }
}

/** Give an account another role; its sessions end so the new role applies at once. */
export async function setRoleAction(_prev: UsersFormState, form: FormData): Promise<UsersFormState> {
  const actor = await actionActor('users.manage');
  try {
    const r = await changeRoleAs(actor, { email: text(form, 'email'), role: text(form, 'role') });
    revalidatePath('/admin/users');
    return { message: r.from === r.to ? `${r.email} is ${r.to} already.` : `${r.email}: ${r.from} → ${r.to}; their sessions ended.`, issues: [] };
  } catch (e) {
    return refused(e);
  }
}
