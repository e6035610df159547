import { SpecError } from '../schema/common';
import { planExperiment, type ExperimentPlan } from '../design/plan';
import { lintExperiment, type LintFinding } from '../design/lint';
import type { PriceTable, PriceTableInput } from '../design/cost';
import type { Actor } from '../schema/actor';
import type { ExperimentSpec } from '../schema/experiment';
import { getExperiment, type ExperimentRow } from '../db/experiments';
import { createDraft, discardDraft, getDraft, saveDraft } from '../db/drafts';
import { recordAudit } from '../db/audit';
import { getPriceTable, savePriceTable } from '../runner/price-table';
import { parseSpecValue } from './parse';
import { saveExperiment } from './versions';

// Use case: the designer's drafts checked and frozen. A draft may be invalid; checking it uses the same parse
// as the import. "Save as version N+1" stores it through saveExperiment — the import's own door — so an
// invalid draft writes no experiment row. lib/db/drafts.ts stores the drafts' rows; the designer's actions
// (components/designer/actions.ts) come here for every one of them.

export { createDraft, discardDraft, draftFromVersion, setArchived } from '../db/drafts';

export interface DraftIssue {
  path: string;
  message: string;
}

export interface DraftCheck {
  issues: DraftIssue[];
  /** The preview (same numbers as `tclab plan`); null while the draft is invalid. */
  plan: ExperimentPlan | null;
  findings: LintFinding[];
}

/** Validate with the import's schema; when valid, the preview and the linter's findings. */
export function checkDraft(content: unknown, prices: PriceTable): DraftCheck {
  // the one parse of every door (lib/experiments/parse.ts): the same verdict as an import of the same content
  const r = parseSpecValue(content);
  if (!r.ok) return { issues: r.issues.map((i) => ({ path: i.path || '(root)', message: i.message })), plan: null, findings: [] };
  return { issues: [], plan: planExperiment(r.value, prices), findings: lintExperiment(r.value) };
}

/**
 * Freeze the draft as the next version through saveExperiment (the import's door): an invalid draft throws
 * a SpecError naming every field and writes nothing. The draft is removed once its version is stored.
 */
export async function freezeDraft(slug: string): Promise<ExperimentRow & { created: boolean }> {
  const draft = await getDraft(slug);
  if (!draft) throw new SpecError(`draft: no draft "${slug}"`, [{ path: '(draft)', message: 'not found' }]);
  const stored = await saveExperiment({ ...draft.content, id: slug });
  await discardDraft(slug);
  return stored;
}

/** Freeze the draft for `actor` (freezeDraft); a new version is recorded in the audit log. */
export async function freezeDraftAs(actor: Actor, slug: string): Promise<ExperimentRow & { created: boolean }> {
  const stored = await freezeDraft(slug);
  if (stored.created) await recordAudit(actor, 'experiment.stored', { experimentId: stored.id }, { version: stored.version, via: 'designer' });
  return stored;
}

/** Autosave: store the draft as it is and check it against the stored price table. */
export async function saveDraftChecked(slug: string, content: unknown): Promise<{ updatedAt: Date; check: DraftCheck }> {
  const d = await saveDraft(slug, content);
  return { updatedAt: d.updatedAt, check: checkDraft(d.content, await getPriceTable()) };
}

/** Store the price table (a SpecError naming each bad price stores nothing) and check the draft against it. */
export async function savePricesChecked(slug: string, table: PriceTableInput): Promise<{ prices: PriceTable; check: DraftCheck | null }> {
  const prices = await savePriceTable(table);
  const d = await getDraft(slug);
  return { prices, check: d ? checkDraft(d.content, prices) : null };
}

/** A stored version under a new id, as a draft named "(copy)"; false when there is no such version. */
export async function duplicateAsDraft(experimentId: string, id: string): Promise<boolean> {
  const exp = await getExperiment(experimentId);
  if (!exp) return false;
  await createDraft(id, { ...(exp.spec as unknown as Record<string, unknown>), name: `${exp.name} (copy)` });
  return true;
}

/** The saved draft as a valid spec with one of its studies, or why not (the designer's proposals start from it). */
export async function draftStudy(
  slug: string,
  studyId: string,
  what: string,
): Promise<{ ok: true; spec: ExperimentSpec; study: ExperimentSpec['studies'][number] } | { ok: false; message: string }> {
  const d = await getDraft(slug);
  if (!d) return { ok: false, message: 'No draft.' };
  const r = parseSpecValue(d.content);
  if (!r.ok) return { ok: false, message: `Fix the draft first: ${what} are made from a valid draft.` };
  const study = r.value.studies.find((s) => s.id === studyId);
  if (!study) return { ok: false, message: `No study "${studyId}".` };
  return { ok: true, spec: r.value, study };
}
