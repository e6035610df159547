import { SpecError } from '@/lib/schema/common';
import { createRuns } from '@/lib/runner/start';
import { SpendConfirmationRequired } from '@/lib/runner/spend';
import { enqueueRunStart } from '@/lib/queue/enqueue';
import { recordAudit } from '@/lib/db/audit';
import { issuesOf, type ActionState } from '@/lib/experiments/import';
import type { Actor } from '@/lib/auth/roles';
import { runFormSpend, runFormTargets, runFormToSettings } from './run-form';

export type StartFromFormResult = { ok: true; runIds: string[] } | { ok: false; state: ActionState };

/**
 * The Run form's work for an actor its door has already checked (startRunAction): read the settings, create
 * one run per provider/model target, record who started them, enqueue their starts. Nothing is stored when
 * anything is invalid.
 */
export async function startRunsFromForm(actor: Actor, experimentId: string, form: FormData): Promise<StartFromFormResult> {
  const settings = runFormToSettings(form);
  if (!settings.ok) return { ok: false, state: { issues: settings.issues, message: 'Some settings are invalid.' } };
  const targets = runFormTargets(form, { provider: String(settings.value.provider ?? 'simulated'), model: String(settings.value.model ?? '') });
  if (!targets.ok) return { ok: false, state: { issues: targets.issues, message: 'Some settings are invalid.' } };
  const spend = runFormSpend(form);
  if (!spend.ok) return { ok: false, state: { issues: spend.issues, message: 'Some settings are invalid.' } };
  let runIds: string[];
  try {
    runIds = (await createRuns(experimentId, settings.value, targets.value, spend.value)).map((r) => r.id);
  } catch (e) {
    if (e instanceof SpendConfirmationRequired)
      return {
        ok: false,
        state: { issues: [{ path: 'confirmRequests', message: `${e.summary}. Type ${e.requests} to start it.` }], message: 'Confirm the number of paid requests.' },
      };
    if (e instanceof SpecError) {
      // the budget's issues (budget.cost, …) are shown beside the form's fields (budgetCost, …)
      const issues = issuesOf(e).map((i) => ({ ...i, path: i.path.replace(/^budget\.(\w)/, (_, c: string) => `budget${c.toUpperCase()}`) }));
      return { ok: false, state: { issues, message: 'The run could not be created.' } };
    }
    throw e;
  }
  for (const id of runIds) {
    await recordAudit(actor, 'run.started', { experimentId, runId: id }, { provider: settings.value.provider, model: settings.value.model });
    await enqueueRunStart(id);
  }
  return { ok: true, runIds };
}
