'use server';

import { revalidatePath } from 'next/cache';
import { actionActor } from '@/components/auth/action-guard';
import { labelRun } from '@/lib/runs/label';
import { SpecError } from '@/lib/schema/common';
import type { RunLabelFormState } from './run-label-form';
import { urls } from '@/lib/urls';

/** Name and note a run: who may control runs may label them; recorded in the audit log. Bad input names its field. */
export async function labelRunAction(runId: string, _prev: RunLabelFormState, form: FormData): Promise<RunLabelFormState> {
  const actor = await actionActor('run.control');
  const field = (k: string) => (typeof form.get(k) === 'string' ? (form.get(k) as string) : '');
  const values = { name: field('name'), note: field('note') };
  try {
    const saved = await labelRun(actor, runId, values);
    revalidatePath(urls.run(runId));
    revalidatePath('/runs');
    return { issues: [], message: 'Saved.', values: { name: saved.name ?? '', note: saved.note ?? '' } };
  } catch (e) {
    if (e instanceof SpecError) return { issues: e.issues, message: 'Not saved.', values };
    throw e;
  }
}
