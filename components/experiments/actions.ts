'use server';

import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { actionActor } from '@/components/auth/action-guard';
import { importExperimentForm, type ActionState } from '@/lib/experiments/import';
import { startRunsFromForm } from './start-actions';
import { urls } from '@/lib/urls';

export type { ActionState, FieldIssue } from '@/lib/experiments/import';

/** Import an experiment spec (pasted text or an uploaded file). Nothing is stored when anything is invalid. */
export async function importExperiment(_prev: ActionState, form: FormData): Promise<ActionState> {
  const r = await importExperimentForm(await actionActor('experiment.write'), form);
  if (!r.ok) return r.state;
  revalidatePath('/');
  redirect(urls.experiment(r.id, { imported: r.created ? 'new' : 'existing' }));
}

/**
 * Create a run with the Run form's settings (one per provider/model target when "Also run with" names
 * more), enqueue their starts and go to the run page — or, for several, to their compare page.
 */
export async function startRunAction(experimentId: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  const r = await startRunsFromForm(await actionActor('run.control'), experimentId, form);
  if (!r.ok) return r.state;
  revalidatePath('/runs');
  redirect(r.runIds.length > 1 ? urls.compare(r.runIds) : urls.run(r.runIds[0]));
}
