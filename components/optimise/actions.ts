'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { actionActor } from '@/components/auth/action-guard';
import { OptimiseInputError, startOptimisation } from '@/lib/optimise/loop';
import { RewriteRefused } from '@/lib/optimise/rewriter';
import { SpendConfirmationRequired } from '@/lib/runner/spend';
import type { ActionState } from '@/lib/experiments/import';
import { urls } from '@/lib/urls';
import { optimiseFromForm } from './optimise-form';

/**
 * Start improving an experiment's descriptions (docs/optimise.md): the record is stored with its sealed split,
 * rule and candidates before any run (after the rewriter's answer, when one is named); a worker runs the select stage and the confirmation. Bad input stores nothing.
 */
export async function startOptimisationAction(experimentId: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  const actor = await actionActor('run.control');
  const input = optimiseFromForm(experimentId, form);
  if (!input.ok) return { issues: input.issues, message: 'Nothing was started.' };
  let record: { id: string; experimentId: string };
  try {
    record = await startOptimisation(actor, input.value);
  } catch (e) {
    if (e instanceof OptimiseInputError) return { issues: [{ path: e.field, message: e.message.slice(e.field.length + 2) }], message: 'Nothing was started.' };
    if (e instanceof SpendConfirmationRequired)
      return { issues: [{ path: 'yes', message: `${e.summary}: tick the box to start it` }], message: 'Nothing was sent or stored.' };
    if (e instanceof RewriteRefused) return { issues: [{ path: 'rewriter', message: e.message }], message: 'Nothing was started or stored.' };
    throw e;
  }
  // with a rewriter, the record improves the new version that holds the model's rewrite
  revalidatePath(urls.experimentImprove(record.experimentId));
  redirect(urls.experimentImprove(record.experimentId, { record: record.id }));
}
