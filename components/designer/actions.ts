'use server';

import { forbidden, redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import {
  createDraft,
  discardDraft,
  draftFromVersion,
  draftStudy,
  duplicateAsDraft,
  freezeDraftAs,
  saveDraftChecked,
  savePricesChecked,
  setArchived,
  type DraftCheck,
} from '@/lib/experiments/drafts';
import { getToolSnapshot, importServerTools, importToolFile, type StoredToolSnapshot } from '@/lib/experiments/tool-snapshots';
import { getTemplate } from '@/lib/templates';
import { emptyExperiment } from '@/lib/design/empty';
import { importBfclCategory } from '@/lib/bfcl/categories';
import { experimentFromTools, scenarioFromTools } from '@/lib/mcp/scenario';
import { McpListError } from '@/lib/mcp/client';
import { planMcpImport, type McpImportPlan } from '@/lib/mcp/policy';
import { AccessDenied } from '@/lib/auth/roles';
import { ToolFileError } from '@/lib/mcp/tools';
import { proposeAblations, type AblationProposal } from '@/lib/design/ablations';
import { proposeVariants, type VariantProposal } from '@/lib/design/variants';
import { diffSpecs, type SpecChange } from '@/lib/design/spec-diff';
import { baselineOf, type OrderPolicy } from '@/lib/schema/experiment';
import { readJson } from '@/lib/schema/input';
import { SpecError } from '@/lib/schema/common';
import type { PriceTable, PriceTableInput } from '@/lib/design/cost';
import { actionActor } from '@/components/auth/action-guard';
import { urls } from '@/lib/urls';

// The designer's doors: thin — parse the form, call lib/, redirect or return what the page shows.

export interface FormState {
  message: string | null;
  issues: { path: string; message: string }[];
  /** Step 1 of an MCP import: the tools listed, to pick from. */
  listed?: { snapshotId: string; server: string | null; tools: { name: string; effect: 'read' | 'write'; description: string }[] };
}

const text = z.preprocess((v) => (typeof v === 'string' ? v.trim() : ''), z.string());
const NewForm = z.object({
  source: z.enum(['empty', 'template', 'bfcl', 'mcp-listed', 'mcp-stdio', 'mcp-url', 'tools-json']),
  id: text,
  name: text,
  template: text,
  category: text,
  limit: z.coerce.number().int().min(1).max(200).catch(5),
  command: text,
  server: text,
  url: text,
  json: text,
  snapshotId: text,
  pick: z.array(z.string()).default([]),
});

const fail = (e: unknown): FormState => {
  if (e instanceof SpecError) return { message: e.message.split('\n')[0], issues: e.issues.map((i) => ({ path: i.path || '(root)', message: i.message })) };
  if (e instanceof McpListError || e instanceof ToolFileError) return { message: e.message, issues: [] };
  throw e;
};

const listedOf = (snap: StoredToolSnapshot): FormState['listed'] => ({
  snapshotId: snap.id,
  server: snap.server?.name ?? null,
  tools: snap.tools.map((t) => ({ name: t.name, effect: t.effect, description: t.description.slice(0, 200) })),
});

/** New experiment: empty, from a template, a BFCL category, an MCP server or pasted tools — as a draft. */
export async function newExperimentAction(_prev: FormState, form: FormData): Promise<FormState> {
  const actor = await actionActor('experiment.write');
  const f = NewForm.safeParse({ ...Object.fromEntries(form), pick: form.getAll('pick') });
  if (!f.success) return { message: 'The form could not be read.', issues: [] };
  const v = f.data;
  if (!v.id) return { message: 'Give the new experiment an id.', issues: [{ path: 'id', message: 'required' }] };
  // what an MCP import may start or reach is decided for this actor before anything runs (403 otherwise)
  let plan: McpImportPlan | null = null;
  if (!v.snapshotId && (v.source === 'mcp-listed' || v.source === 'mcp-stdio' || v.source === 'mcp-url')) {
    try {
      plan = planMcpImport(
        actor,
        v.source === 'mcp-listed' ? { kind: 'listed', name: v.server } : v.source === 'mcp-stdio' ? { kind: 'command', line: v.command } : { kind: 'url', url: v.url },
      );
    } catch (e) {
      if (e instanceof AccessDenied) forbidden();
      return fail(e);
    }
  }
  const name = v.name || v.id;
  let content: Record<string, unknown>;
  let picked: FormState['listed'];
  try {
    if (v.source === 'empty') content = emptyExperiment(v.id, name);
    else if (v.source === 'template') content = { ...(getTemplate(v.template).build() as unknown as Record<string, unknown>), name };
    else if (v.source === 'bfcl') content = { ...(importBfclCategory(v.category, v.limit).spec as unknown as Record<string, unknown>), name };
    else {
      // MCP: step 1 lists and stores the snapshot; step 2 (snapshotId + picks) makes the draft
      if (!v.snapshotId) {
        const snap = plan
          ? await importServerTools(plan.target, plan.options)
          : await (async () => {
              const j = readJson(v.json);
              if (!j.ok) throw new SpecError('the pasted text is not valid JSON', j.issues);
              return importToolFile(j.value, 'pasted');
            })();
        return { message: null, issues: [], listed: listedOf(snap) };
      }
      const snap = await getToolSnapshot(v.snapshotId);
      if (!snap) return { message: 'That tool snapshot is gone; list the tools again.', issues: [] };
      if (v.pick.length === 0) return { message: 'Pick at least one tool.', issues: [{ path: 'pick', message: 'none picked' }] };
      const imported = scenarioFromTools(snap.tools, { id: 'tools', title: snap.server?.name ?? 'Imported tools', pick: v.pick, snapshot: snap });
      content = experimentFromTools(imported, { id: v.id, name }) as unknown as Record<string, unknown>;
      picked = listedOf(snap);
    }
    await createDraft(v.id, content);
  } catch (e) {
    if (e instanceof Error && /unknown template|no BFCL category|not in the snapshot/.test(e.message)) return { message: e.message, issues: [], listed: picked };
    // shown where the pick was made: the tools stay listed, the refusal (e.g. the draft limit) under them
    return { ...fail(e), listed: picked };
  }
  redirect(urls.designer(v.id));
}

/** Edit a stored version in the designer (the draft being edited, or a new one from this version). */
export async function editInDesignerAction(experimentId: string): Promise<void> {
  await actionActor('experiment.write');
  const d = await draftFromVersion(experimentId);
  redirect(urls.designer(d.slug));
}

/** Duplicate a version under a new id, as a draft. */
export async function duplicateAction(experimentId: string, _prev: FormState, form: FormData): Promise<FormState> {
  await actionActor('experiment.write');
  const id = text.parse(form.get('id'));
  try {
    if (!(await duplicateAsDraft(experimentId, id))) return { message: `No experiment ${experimentId}.`, issues: [] };
  } catch (e) {
    return fail(e);
  }
  redirect(urls.designer(id));
}

export async function archiveAction(slug: string, archived: boolean): Promise<void> {
  await actionActor('experiment.write');
  await setArchived(slug, archived);
  revalidatePath('/');
}

/** Autosave: store the draft as it is and return its check (issues by path, the preview, lint findings). */
export async function saveDraftAction(slug: string, content: unknown): Promise<{ updatedAt: string; check: DraftCheck }> {
  await actionActor('experiment.write');
  const d = await saveDraftChecked(slug, content);
  return { updatedAt: d.updatedAt.toISOString(), check: d.check };
}

/** Freeze the draft as the next version; `run` opens the Run dialog of the new version. */
export async function freezeDraftAction(slug: string, run: boolean): Promise<FormState> {
  const actor = await actionActor('experiment.write');
  let stored: Awaited<ReturnType<typeof freezeDraftAs>>;
  try {
    stored = await freezeDraftAs(actor, slug);
  } catch (e) {
    return fail(e);
  }
  revalidatePath('/');
  redirect(`${urls.experiment(stored.id, { imported: stored.created ? 'new' : 'existing', via: 'designer' })}${run ? '#run' : ''}`);
}

export async function discardDraftAction(slug: string): Promise<void> {
  await actionActor('experiment.write');
  await discardDraft(slug);
  revalidatePath('/');
  redirect('/');
}

export async function savePricesAction(
  slug: string,
  table: PriceTableInput,
): Promise<{ issues: FormState['issues']; prices: PriceTable | null; check: DraftCheck | null }> {
  await actionActor('experiment.write');
  try {
    const { prices, check } = await savePricesChecked(slug, table);
    return { issues: [], prices, check };
  } catch (e) {
    if (e instanceof SpecError) return { issues: e.issues.map((i) => ({ path: i.path, message: i.message })), prices: null, check: null };
    throw e;
  }
}

/** Ablations of a study's treatment, from the saved draft (which must be valid). */
export async function proposeAblationsAction(slug: string, studyId: string, treatment: string): Promise<{ message: string | null; proposals: AblationProposal[] }> {
  await actionActor('experiment.write');
  const d = await draftStudy(slug, studyId, 'ablations');
  if (!d.ok) return { message: d.message, proposals: [] };
  try {
    const proposals = proposeAblations(d.study, treatment);
    return { message: proposals.length ? null : 'The treatment differs from the baseline in no field group.', proposals };
  } catch (e) {
    return { message: (e as Error).message, proposals: [] };
  }
}

export interface VariantsResult {
  message: string | null;
  /** Each proposal with its diff against the baseline (spec-diff paths inside the condition). */
  proposals: (VariantProposal & { diff: SpecChange[] })[];
  orderPolicy: { before: OrderPolicy; after: OrderPolicy } | null;
}

/** Variants of a study's treatment (a length-matched placebo, single-defect mutants), from the saved draft (which must be valid). */
export async function proposeVariantsAction(slug: string, studyId: string, treatment: string): Promise<VariantsResult> {
  await actionActor('experiment.write');
  const none = (message: string): VariantsResult => ({ message, proposals: [], orderPolicy: null });
  const d = await draftStudy(slug, studyId, 'variants');
  if (!d.ok) return none(d.message);
  try {
    const v = proposeVariants(d.spec, studyId, treatment);
    const base = baselineOf(d.study);
    const proposals = v.proposals.map((p) => ({ ...p, diff: diffSpecs(base, p.condition).filter((c) => c.path.startsWith('tools')) }));
    return {
      message: proposals.length ? null : 'No variant could be made: the baseline is as long as the treatment, and no defect stays single.',
      proposals,
      orderPolicy: v.orderPolicy,
    };
  } catch (e) {
    return none((e as Error).message);
  }
}
