'use server';

import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { saveExperiment } from '@/lib/db/experiments';
import { SpecError } from '@/lib/schema/common';
import { parseSpecBytes } from '@/lib/parse';
import { createRuns } from '@/lib/runner/start';
import { enqueueRunStart } from '@/lib/queue/enqueue';
import { runFormTargets, runFormToSettings } from './run-form';

export interface FieldIssue {
  path: string;
  message: string;
}

export interface ActionState {
  issues: FieldIssue[];
  message: string | null;
}

const ImportForm = z.object({
  json: z.string().default(''),
  file: z.instanceof(File).nullable().default(null),
});

/** Import an experiment spec (pasted text or an uploaded file). Nothing is stored when anything is invalid. */
export async function importExperiment(_prev: ActionState, form: FormData): Promise<ActionState> {
  const parsed = ImportForm.safeParse({ json: form.get('json') ?? '', file: form.get('file') || null });
  if (!parsed.success) return { issues: [], message: 'The form could not be read.' };
  const { json, file } = parsed.data;
  // a file is read as bytes, a paste as text: both through the one parse of every door (lib/parse.ts)
  const input = file && file.size > 0 ? new Uint8Array(await file.arrayBuffer()) : json;
  if (typeof input === 'string' && !input.trim()) return { issues: [{ path: '(input)', message: 'paste an experiment JSON or choose a file' }], message: 'Nothing to import.' };
  const spec = parseSpecBytes(input);
  if (!spec.ok) return { issues: spec.issues, message: 'The experiment spec is invalid; nothing was stored.' };

  let stored: Awaited<ReturnType<typeof saveExperiment>>;
  try {
    stored = await saveExperiment(spec.value);
  } catch (e) {
    if (e instanceof SpecError) return { issues: issuesOf(e), message: 'The experiment spec is invalid; nothing was stored.' };
    throw e;
  }
  revalidatePath('/');
  redirect(`/experiments/${encodeURIComponent(stored.id)}?imported=${stored.created ? 'new' : 'existing'}`);
}

/**
 * Create a run with the Run form's settings (one per provider/model target when "Also run with" names
 * more), enqueue their starts and go to the run page — or, for several, to their compare page.
 */
export async function startRunAction(experimentId: string, _prev: ActionState, form: FormData): Promise<ActionState> {
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
  for (const id of runIds) await enqueueRunStart(id);
  revalidatePath('/runs');
  redirect(runIds.length > 1 ? `/runs/compare?ids=${runIds.map(encodeURIComponent).join(',')}` : `/runs/${encodeURIComponent(runIds[0])}`);
}

function issuesOf(e: SpecError): FieldIssue[] {
  if (e.issues.length) return e.issues.map((i) => ({ path: i.path || '(root)', message: i.message }));
  return [{ path: '(root)', message: e.message }];
}
