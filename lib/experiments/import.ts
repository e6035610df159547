import { z } from 'zod';
import { saveParsedExperiment } from './versions';
import { recordAudit } from '../db/audit';
import { SpecError } from '../schema/common';
import { parseSpecBytes } from './parse';
import type { Actor } from '../auth/roles';

// The import form's work, for an actor its door has already checked (components/experiments/actions.ts):
// read the form, the one parse, store, record who stored it. Nothing is stored when anything is invalid.

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

export type ImportResult = { ok: true; id: string; created: boolean } | { ok: false; state: ActionState };

export async function importExperimentForm(actor: Actor, form: FormData): Promise<ImportResult> {
  const refuse = (state: ActionState): ImportResult => ({ ok: false, state });
  const parsed = ImportForm.safeParse({ json: form.get('json') ?? '', file: form.get('file') || null });
  if (!parsed.success) return refuse({ issues: [], message: 'The form could not be read.' });
  const { json, file } = parsed.data;
  // a file is read as bytes, a paste as text: both through the one parse of every door (lib/experiments/parse.ts)
  const input = file && file.size > 0 ? new Uint8Array(await file.arrayBuffer()) : json;
  if (typeof input === 'string' && !input.trim())
    return refuse({ issues: [{ path: '(input)', message: 'paste an experiment JSON or choose a file' }], message: 'Nothing to import.' });
  const spec = parseSpecBytes(input);
  if (!spec.ok) return refuse({ issues: spec.issues, message: 'The experiment spec is invalid; nothing was stored.' });

  let stored: Awaited<ReturnType<typeof saveParsedExperiment>>;
  try {
    stored = await saveParsedExperiment(spec.value); // parsed once, above
  } catch (e) {
    if (e instanceof SpecError) return refuse({ issues: issuesOf(e), message: 'The experiment spec is invalid; nothing was stored.' });
    throw e;
  }
  if (stored.created) await recordAudit(actor, 'experiment.stored', { experimentId: stored.id }, { version: stored.version });
  return { ok: true, id: stored.id, created: stored.created };
}

export function issuesOf(e: SpecError): FieldIssue[] {
  if (e.issues.length) return e.issues.map((i) => ({ path: i.path || '(root)', message: i.message }));
  return [{ path: '(root)', message: e.message }];
}
