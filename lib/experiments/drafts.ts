import { SpecError } from '../schema/common';
import { planExperiment, type ExperimentPlan } from '../design/plan';
import { lintExperiment, type LintFinding } from '../design/lint';
import type { PriceTable } from '../design/cost';
import type { ExperimentRow } from '../db/experiments';
import { discardDraft, getDraft } from '../db/drafts';
import { parseSpecValue } from './parse';
import { saveExperiment } from './versions';

// Use case: the designer's drafts checked and frozen. A draft may be invalid; checking it uses the same parse
// as the import. "Save as version N+1" stores it through saveExperiment — the import's own door — so an
// invalid draft writes no experiment row. lib/db/drafts.ts stores the drafts' rows.

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
