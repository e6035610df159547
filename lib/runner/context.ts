import type { ExperimentSpec, Study } from '../schema/experiment';
import type { RunSettings, StoredRunBudget } from '../schema/run';
import type { Provider } from '../providers/types';
import { getExperiment } from '../db/experiments';
import { fixRunBaseUrl, getRun, setUnsentReason } from '../db/runs';
import { baseUrlToFix, sendRefusal } from '../providers/configured';
import { redactText } from '../providers/secrets';
import { log } from '../log/logger';
import { getProvider } from '../providers/registry';
import { kindModule } from '../studies/registry';
import { DEFAULT_MAX_TURNS } from '../studies/task/spec';

export interface RunContext {
  runId: string;
  spec: ExperimentSpec;
  settings: RunSettings;
  provider: Provider;
  studies: Map<string, Study>;
  /**
   * The attempt count a claim may reach (claimTrial's exhaustion bound): maxAttempts, or, when the run has
   * conversation studies, maxAttempts per turn × the longest conversation allowed (each turn is an
   * attempt; a turn that fails maxAttempts times makes the trial unresolved, see runner/conversation.ts).
   */
  attemptBudget: number;
  /** The run carries a budget: each request is reserved on the run row before it is sent (lib/db/budget.ts). */
  budgeted: boolean;
  /** The budget limits tokens or cost: each answer's usage is counted as it arrives (lib/runner/budget.ts). */
  countsUsage: boolean;
  /**
   * Why this process cannot send the run's requests (its base URL, fixed on the run, is not the one configured
   * here nor allow-listed, or the key is missing): its trials are left unsent (docs/runs.md). Null: it can.
   */
  unsent: string | null;
  /** scenario → tool id → effect (hidden metadata) */
  effects: Map<string, Map<string, 'read' | 'write'>>;
}

// A run's spec and settings never change once the run exists (experiments are frozen), so each worker
// loads them once per run instead of once per trial.
const cache = new Map<string, Promise<RunContext>>();

export function runContext(runId: string): Promise<RunContext> {
  let p = cache.get(runId);
  if (!p) {
    p = load(runId);
    p.catch(() => cache.delete(runId));
    remember(runId, p);
  }
  return p;
}

/** A run's context from what the caller has already loaded (the start job has the run and its spec). */
export function primeRunContext(runId: string, spec: ExperimentSpec, settings: RunSettings, budget: StoredRunBudget | null): void {
  if (!cache.has(runId)) remember(runId, Promise.resolve(contextOf(runId, spec, settings, budget)));
}

function remember(runId: string, p: Promise<RunContext>): void {
  cache.set(runId, p);
  if (cache.size > 64) cache.delete(cache.keys().next().value as string);
}

async function load(runId: string): Promise<RunContext> {
  const run = await getRun(runId);
  if (!run) throw new Error(`run ${runId} not found`);
  const exp = await getExperiment(run.experimentId);
  if (!exp) throw new Error(`experiment ${run.experimentId} of run ${runId} not found`);
  const ctx = contextOf(runId, exp.spec, await withFixedBaseUrl(runId, run.settings), run.budget);
  // a process that can send there takes the run: an earlier worker's reason for leaving it no longer holds
  if (ctx.unsent === null && run.unsentReason !== null) await setUnsentReason(runId, null);
  return ctx;
}

/**
 * A run stored before base URLs were fixed on runs has none in its settings: the first process to take it
 * fixes its own configured one (compare-and-set: whoever comes first, all then send there). docs/runs.md.
 */
export async function withFixedBaseUrl(runId: string, settings: RunSettings): Promise<RunSettings> {
  if (settings.baseUrl !== null) return settings;
  const fix = baseUrlToFix(getProvider(settings.provider).descriptor, null);
  if (fix === null) return settings;
  return (await fixRunBaseUrl(runId, fix)) ?? settings;
}

export function contextOf(runId: string, spec: ExperimentSpec, settings: RunSettings, budget: StoredRunBudget | null = null): RunContext {
  return {
    runId,
    spec,
    settings,
    provider: getProvider(settings.provider),
    studies: new Map(spec.studies.map((s) => [s.id, s])),
    attemptBudget: attemptBudgetOf(spec, settings),
    budgeted: budget !== null,
    countsUsage: budget !== null && (budget.tokens !== null || budget.cost !== null),
    unsent: unsentOf(settings),
    effects: new Map(spec.scenarios.map((s) => [s.id, new Map(s.tools.map((t) => [t.id, t.effect]))])),
  };
}

function attemptBudgetOf(spec: ExperimentSpec, settings: RunSettings): number {
  const turns = spec.studies.filter((s) => kindModule(s.kind).turns === 'conversation').flatMap((s) => s.cases.map((c) => c.maxTurns ?? DEFAULT_MAX_TURNS));
  return turns.length === 0 ? settings.maxAttempts : settings.maxAttempts * Math.max(...turns);
}

function unsentOf(settings: RunSettings): string | null {
  const why = sendRefusal(getProvider(settings.provider).descriptor, settings.baseUrl);
  return why === null ? null : redactText(why);
}

const noted = new WeakSet<RunContext>();

/** Says on the run (once per run context: once per process) and in the log why this process leaves its trials unsent. */
export async function noteUnsent(ctx: RunContext): Promise<void> {
  if (ctx.unsent === null || noted.has(ctx)) return;
  noted.add(ctx);
  await setUnsentReason(ctx.runId, ctx.unsent);
  log('warn', 'run left unsent', { runId: ctx.runId, reason: ctx.unsent });
}
