'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { actionActor } from '@/components/auth/action-guard';
import { OptimiseInputError, startOptimisation } from '@/lib/optimise/loop';
import type { ActionState } from '@/lib/experiments/import';
import { urls } from '@/lib/urls';
import { optimiseFromForm } from './optimise-form';

/**
 * Start improving an experiment's descriptions (docs/optimise.md): the record is stored with its sealed split,
 * rule and candidates before any run; a worker runs the select stage and the confirmation. Bad input stores nothing.
 */
export async function startOptimisationAction(experimentId: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  const actor = await actionActor('run.control');
  const input = optimiseFromForm(experimentId, form);
  if (!input.ok) return { issues: input.issues, message: 'Nothing was started.' };
  let id: string;
  try {
    id = (await startOptimisation(actor, input.value)).id;
  } catch (e) {
    if (e instanceof OptimiseInputError) return { issues: [{ path: e.field, message: e.message.slice(e.field.length + 2) }], message: 'Nothing was started.' };
    throw e;
  }
  revalidatePath(urls.experimentImprove(experimentId));
  redirect(urls.experimentImprove(experimentId, { record: id }));
}
