import { z } from 'zod';
import { parseRunTarget, RunBudget, RunSettings, type RunBudgetInput, type RunSettingsInput, type RunTarget } from '@/lib/schema/run';

/** The Run form's fields, in display order. Empty optional fields mean "none" (null); empty required ones take the default. */
export const RUN_FORM_FIELDS = [
  { name: 'temperature', label: 'Temperature', nullable: true, step: '0.1', hint: '0–2; empty: provider default' },
  { name: 'maxOutputTokens', label: 'Max output tokens', nullable: true, step: '1', hint: 'empty: provider default' },
  { name: 'seed', label: 'Seed', nullable: true, step: '1', hint: 'empty: none' },
  { name: 'concurrency', label: 'Concurrency', nullable: false, step: '1', hint: 'requests in flight' },
  { name: 'requestsPerMinute', label: 'Requests / minute', nullable: true, step: '1', hint: 'empty: no limit' },
  { name: 'maxAttempts', label: 'Max attempts', nullable: false, step: '1', hint: 'per trial, incl. retries' },
  { name: 'timeoutMs', label: 'Timeout (ms)', nullable: false, step: '1', hint: 'per attempt' },
] as const;

/** The defaults of RunSettings, for the form's initial values. */
export function defaultRunSettings(): RunSettings {
  return RunSettings.parse({});
}

const text = z.preprocess((v) => (typeof v === 'string' ? v.trim() : ''), z.string());

/** A numeric form field: "" → null (nullable) or undefined (take the default); otherwise a number. */
function numberField(nullable: boolean) {
  return text.transform((s, ctx): number | null | undefined => {
    if (s === '') return nullable ? null : undefined;
    const n = Number(s);
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: 'custom', message: 'a number' });
      return z.NEVER;
    }
    return n;
  });
}

const RunForm = z.object({
  provider: text,
  model: text,
  baseUrl: text.transform((s) => (s === '' ? null : s)),
  temperature: numberField(true),
  maxOutputTokens: numberField(true),
  seed: numberField(true),
  concurrency: numberField(false),
  requestsPerMinute: numberField(true),
  maxAttempts: numberField(false),
  timeoutMs: numberField(false),
  /** the "Stop when decided" switch (a checkbox: "on" when ticked) and its optional precision, in percentage points */
  stopWhenDecided: text.transform((s) => s === 'on'),
  /** the "Batch" switch (shown only for a provider with a batch API) */
  batch: text.transform((s) => s === 'on'),
  stopPrecision: numberField(true),
});

export type RunFormResult = { ok: true; value: RunSettingsInput } | { ok: false; issues: { path: string; message: string }[] };

/**
 * The Run form's extra provider/model targets ("Also run with", `targets` = `provider:model`, repeated).
 * With any, the run is a group: the chosen provider/model first, then these — one run each.
 */
export function runFormTargets(
  form: FormData,
  primary: { provider: string; model: string },
): { ok: true; value: RunTarget[] } | { ok: false; issues: { path: string; message: string }[] } {
  const extra = form.getAll('targets').filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  if (extra.length === 0) return { ok: true, value: [] };
  const targets: RunTarget[] = [];
  const first = parseRunTarget(`${primary.provider}:${primary.model}`);
  if (typeof first !== 'string') targets.push(first);
  for (const [i, text] of extra.entries()) {
    const t = parseRunTarget(text);
    if (typeof t === 'string') return { ok: false, issues: [{ path: `targets.${i}`, message: t }] };
    if (!targets.some((x) => x.provider === t.provider && x.model === t.model)) targets.push(t);
  }
  return { ok: true, value: targets.length > 1 ? targets : [] };
}

/** FormData → validated run settings, with one issue per failing field (named as in RunSettings). */
export function runFormToSettings(form: FormData): RunFormResult {
  const raw = Object.fromEntries(Object.keys(RunForm.shape).map((k) => [k, form.get(k)]));
  const parsed = RunForm.safeParse(raw);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) };
  const { stopWhenDecided, stopPrecision, batch, ...fields } = parsed.data;
  const input: Record<string, unknown> = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== ''));
  if (batch) input.batch = true;
  if (stopWhenDecided) input.stopWhenDecided = { precision: stopPrecision === null || stopPrecision === undefined ? null : stopPrecision / 100 };
  else if (stopPrecision !== null && stopPrecision !== undefined)
    return { ok: false, issues: [{ path: 'stopPrecision', message: 'a precision needs "Stop when decided" ticked' }] };
  const checked = RunSettings.safeParse(input);
  if (!checked.success)
    return {
      ok: false,
      issues: checked.error.issues.map((i) => ({ path: i.path[0] === 'stopWhenDecided' ? 'stopPrecision' : i.path.join('.'), message: i.message })),
    };
  return { ok: true, value: checked.data };
}

/** The Run form's budget fields (all optional: empty means no limit). */
export const RUN_BUDGET_FIELDS = [
  { name: 'budgetRequests', key: 'requests', label: 'Max requests', step: '1', hint: 'stop sending after this many' },
  { name: 'budgetTokens', key: 'tokens', label: 'Max tokens', step: '1', hint: 'input + output, from the answers' },
  { name: 'budgetCost', key: 'cost', label: 'Max estimated cost', step: 'any', hint: "at the price table's row for the model" },
] as const;

const SpendForm = z.object({
  confirmRequests: numberField(true),
  budgetRequests: numberField(true),
  budgetTokens: numberField(true),
  budgetCost: numberField(true),
});

export type RunFormSpend =
  { ok: true; value: { confirm: { maxRequests: number | null }; budget: RunBudgetInput | null } } | { ok: false; issues: { path: string; message: string }[] };

/**
 * The Run form's spend fields: the typed confirmation of a large run (`confirmRequests`, the number of paid
 * requests) and the run's budget. Issues name the form fields.
 */
export function runFormSpend(form: FormData): RunFormSpend {
  const parsed = SpendForm.safeParse(Object.fromEntries(Object.keys(SpendForm.shape).map((k) => [k, form.get(k)])));
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) };
  const d = parsed.data;
  const raw = { requests: d.budgetRequests ?? null, tokens: d.budgetTokens ?? null, cost: d.budgetCost ?? null };
  const budget = RunBudget.safeParse(raw);
  if (!budget.success) {
    const field = (key: unknown) => RUN_BUDGET_FIELDS.find((f) => f.key === key)?.name ?? 'budget';
    return { ok: false, issues: budget.error.issues.map((i) => ({ path: field(i.path[0]), message: i.message })) };
  }
  const none = raw.requests === null && raw.tokens === null && raw.cost === null;
  return { ok: true, value: { confirm: { maxRequests: d.confirmRequests ?? null }, budget: none ? null : budget.data } };
}
