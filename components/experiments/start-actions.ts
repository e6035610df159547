import { SpecError } from '@/lib/schema/common';
import { startRuns } from '@/lib/runs/start';
import { SpendConfirmationRequired } from '@/lib/runner/spend';
import { issuesOf, type ActionState } from '@/lib/experiments/import';
import type { Actor } from '@/lib/auth/roles';
import { runFormSpend, runFormTargets, runFormToSettings } from './run-form';

export type StartFromFormResult = { ok: true; runIds: string[] } | { ok: false; state: ActionState };

/**
 * The Run form's work for an actor its door has already checked (startRunAction): read the settings and
 * start one run per provider/model target through the start use case (lib/runs/start.ts; a worker runs the
 * pre-checks). Nothing is stored when anything is invalid.
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
    const started = await startRuns(actor, { experimentId, settings: settings.value, targets: targets.value, ...spend.value }, 'queue');
    runIds = started.map((s) => s.run.id);
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
  return { ok: true, runIds };
}
