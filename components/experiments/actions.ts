'use server';

import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { SpecError } from '@/lib/schema/common';
import { createRuns } from '@/lib/runner/start';
import { enqueueRunStart } from '@/lib/queue/enqueue';
import { runFormTargets, runFormToSettings } from './run-form';
import { actionActor } from '@/app/_auth/guard';
import { recordAudit } from '@/lib/db/audit';
import { importExperimentForm, issuesOf, type ActionState } from '@/lib/import';

export type { ActionState, FieldIssue } from '@/lib/import';

/** Import an experiment spec (pasted text or an uploaded file). Nothing is stored when anything is invalid. */
export async function importExperiment(_prev: ActionState, form: FormData): Promise<ActionState> {
  const r = await importExperimentForm(await actionActor('experiment.write'), form);
  if (!r.ok) return r.state;
  revalidatePath('/');
  redirect(`/experiments/${encodeURIComponent(r.id)}?imported=${r.created ? 'new' : 'existing'}`);
}

/**
 * Create a run with the Run form's settings (one per provider/model target when "Also run with" names
 * more), enqueue their starts and go to the run page — or, for several, to their compare page.
 */
export async function startRunAction(experimentId: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  const actor = await actionActor('run.control');
  const settings = runFormToSettings(form);
  if (!settings.ok) return { issues: settings.issues, message: 'Some settings are invalid.' };
  const targets = runFormTargets(form, { provider: String(settings.value.provider ?? 'simulated'), model: String(settings.value.model ?? '') });
  if (!targets.ok) return { issues: targets.issues, message: 'Some settings are invalid.' };
  let runIds: string[];
  try {
    runIds = (await createRuns(experimentId, settings.value, targets.value)).map((r) => r.id);
  } catch (e) {
    if (e instanceof SpecError) return { issues: issuesOf(e), message: 'The run could not be created.' };
    throw e;
  }
  for (const id of runIds) {
    await recordAudit(actor, 'run.started', { experimentId, runId: id }, { provider: settings.value.provider, model: settings.value.model });
    await enqueueRunStart(id);
  }
  revalidatePath('/runs');
  redirect(runIds.length > 1 ? `/runs/compare?ids=${runIds.map(encodeURIComponent).join(',')}` : `/runs/${encodeURIComponent(runIds[0])}`);
}
