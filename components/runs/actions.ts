'use server';

import { revalidatePath } from 'next/cache';
import { actionActor } from '@/components/auth/action-guard';
import { labelRun } from '@/lib/runs/label';
import { overrideComparison } from '@/lib/runs/compare';
import type { ActionState } from '@/lib/experiments/import';
import { redirect } from 'next/navigation';
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

/**
 * Compare runs the comparability guard refused, with a reason: who may control runs may override it; the
 * override is recorded in the audit log once, and the compare page then shows it beside the result.
 */
export async function overrideComparisonAction(runIds: string[], cluster: string | null, _prev: ActionState, form: FormData): Promise<ActionState> {
  const actor = await actionActor('run.control');
  const reason = typeof form.get('reason') === 'string' ? (form.get('reason') as string).trim() : '';
  if (!reason) return { issues: [{ path: 'reason', message: 'say why these runs may be compared although they differ' }], message: 'Not compared.' };
  if (reason.length > 1000) return { issues: [{ path: 'reason', message: `at most 1,000 characters (got ${reason.length})` }], message: 'Not compared.' };
  let id: string;
  try {
    id = await overrideComparison(runIds, { reason, actor });
  } catch (e) {
    if (e instanceof SpecError) return { issues: e.issues.map((i) => ({ ...i, path: i.path === 'override' ? 'reason' : i.path })), message: 'Not compared.' };
    throw e;
  }
  redirect(urls.compareWith({ ids: runIds.join(','), cluster, override: id }));
}
