'use server';

import { redirect } from 'next/navigation';
import { createFirstAdmin } from '@/lib/auth/bootstrap';
import { SpecError } from '@/lib/schema/common';

export interface SetupState {
  message: string | null;
}

/** The one-time set-up link's form: a public door, checked by its token (lib/auth/bootstrap.ts). */
export async function createFirstAdminAction(token: string, _prev: SetupState, form: FormData): Promise<SetupState> {
  const text = (k: string) => (typeof form.get(k) === 'string' ? (form.get(k) as string) : '');
  let r: Awaited<ReturnType<typeof createFirstAdmin>>;
  try {
    r = await createFirstAdmin(token, { email: text('email'), password: text('password'), name: text('name') || undefined });
  } catch (e) {
    if (e instanceof SpecError) return { message: e.message };
    throw e;
  }
  if (!r.ok) return { message: r.message };
  redirect('/sign-in');
}
