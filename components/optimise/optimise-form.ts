import type { FieldIssue } from '@/lib/experiments/import';
import { MAX_CANDIDATES, OptimiseInputError, type OptimiseInput } from '@/lib/optimise/loop';
import { MAX_SEED, parseAmount, parseRewriter, parseRule, parseShares, parseTargets, parseWhole } from '@/lib/optimise/input';

// The Improve descriptions form read into what startOptimisation takes (lib/optimise/loop.ts), through the
// same readings as `tclab optimize` (lib/optimise/input.ts); each problem names its field. An empty optional
// field is the loop's default (the study's split and seed, the rule `best`, at most 20 candidates).

export type OptimiseForm = Omit<OptimiseInput, 'actor' | 'onEvent' | 'waitForRun'>;

type Parsed<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' ? v.trim() : '';
};

export function optimiseFromForm(experimentId: string, form: FormData): Parsed<OptimiseForm> {
  const issues: FieldIssue[] = [];
  /** The field's reading, or undefined when it is empty or wrong (wrong: its issue is listed). */
  const read = <T>(name: string, parse: (t: string) => T): T | undefined => {
    const t = text(form, name);
    if (t === '') return undefined;
    try {
      return parse(t);
    } catch (e) {
      if (!(e instanceof OptimiseInputError)) throw e;
      issues.push({ path: name, message: e.message.slice(e.field.length + 2) });
      return undefined;
    }
  };
  const study = text(form, 'study');
  if (study === '') issues.push({ path: 'study', message: 'choose the study whose cases are split' });
  const shares = read('split', parseShares);
  const seed = read('seed', (t) => parseWhole(t, 'seed', 0, MAX_SEED));
  const rule = read('rule', parseRule);
  const maxCandidates = read('candidates', (t) => parseWhole(t, 'candidates', 1, MAX_CANDIDATES));
  const targets = read('targets', parseTargets);
  const rewriter = read('rewriter', parseRewriter);
  // a budget over the whole loop (lib/optimise/budget.ts): any of the three, none when all are empty
  const budgetRequests = read('budget-requests', (t) => parseWhole(t, 'budget-requests', 1, 100_000_000));
  const budgetTokens = read('budget-tokens', (t) => parseWhole(t, 'budget-tokens', 1, 1_000_000_000_000));
  const budgetCost = read('budget-cost', (t) => parseAmount(t, 'budget-cost'));
  const budget =
    budgetRequests === undefined && budgetTokens === undefined && budgetCost === undefined
      ? undefined
      : { requests: budgetRequests ?? null, tokens: budgetTokens ?? null, cost: budgetCost ?? null };
  if (text(form, 'targets') === '') issues.push({ path: 'targets', message: 'at least one provider:model (e.g. simulated:simulated-lexical-v1)' });
  if (issues.length > 0 || !targets) return { ok: false, issues };
  return {
    ok: true,
    value: {
      experimentId,
      study,
      shares,
      seed,
      rule,
      maxCandidates,
      targets,
      rewriter,
      ...(budget ? { budget } : {}),
      confirm: { yes: form.get('yes') === 'on', maxRequests: null },
    },
  };
}
