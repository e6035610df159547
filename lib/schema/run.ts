import { z } from 'zod';

export const ProviderId = z.enum(['simulated', 'openai', 'gemini', 'openai-compatible', 'anthropic']);
export type ProviderId = z.infer<typeof ProviderId>;

/**
 * Stop when decided (docs/statistics.md): pairs go out in a random order fixed at the start (from `seed`,
 * drawn when the run is created if not given), and a study stops sending new pairs once its anytime-valid
 * e-value crosses its Holm threshold at level `alpha`, or its confidence sequence for the paired difference
 * is narrower than `precision` (a width as a difference of proportions: 0.2 = 20 points; null: the e-value only).
 */
export const StopWhenDecided = z.object({
  alpha: z.number().gt(0).max(0.5).default(0.05),
  precision: z.number().gt(0).max(2).nullable().default(null),
  seed: z.number().int().min(0).max(2_147_483_647).optional(),
});
export type StopWhenDecided = z.infer<typeof StopWhenDecided>;

/** Run settings: chosen in the Run dialog or on the CLI; stored on the run and exported. */
export const RunSettings = z.object({
  provider: ProviderId.default('simulated'),
  model: z.string().min(1).default('simulated-lexical-v1'),
  temperature: z.number().min(0).max(2).nullable().default(0),
  maxOutputTokens: z.number().int().min(1).max(65536).nullable().default(512),
  seed: z.number().int().nullable().default(null),
  /** Base URL override (OpenAI-compatible servers); keys never live here. */
  baseUrl: z.string().url().nullable().default(null),
  concurrency: z.number().int().min(1).max(1024).default(8),
  requestsPerMinute: z.number().int().min(1).nullable().default(null),
  maxAttempts: z.number().int().min(1).max(20).default(5),
  timeoutMs: z.number().int().min(100).max(600_000).default(60_000),
  /** First retry delay; doubles per attempt with jitter, never below the server's Retry-After. */
  retryBaseMs: z.number().int().min(0).max(60_000).default(1000),
  /** absent: every pair of the matrix is sent (the exports of such runs do not name it) */
  stopWhenDecided: StopWhenDecided.optional(),
  /**
   * Batch mode (docs/batch.md): the trials go to the provider's batch API (about half price, answers within
   * 24 h) instead of one request each. Only providers with a batch API; single-turn studies only.
   * Absent: one by one (the exports of such runs do not name it).
   */
  batch: z.boolean().optional(),
});
export type RunSettings = z.infer<typeof RunSettings>;
export type RunSettingsInput = z.input<typeof RunSettings>;

/**
 * What a run may spend (docs/spend-guards.md): formal requests sent, tokens used (input + output, from the
 * stored usage) or the estimated cost at the price table's row for its model. The engine stops sending once
 * one is reached. Null: no limit.
 */
export const RunBudget = z.object({
  requests: z.number().int().min(1).max(100_000_000).nullable().default(null),
  tokens: z.number().int().min(1).max(1_000_000_000_000).nullable().default(null),
  cost: z.number().positive().max(100_000_000).nullable().default(null),
});
export type RunBudget = z.infer<typeof RunBudget>;
export type RunBudgetInput = z.input<typeof RunBudget>;

/** The budget as stored on the run: with a cost limit, the prices it is counted at (copied when the run is created). */
export const StoredRunBudget = RunBudget.extend({
  currency: z.string().nullable().default(null),
  inputPerMTok: z.number().min(0).nullable().default(null),
  outputPerMTok: z.number().min(0).nullable().default(null),
});
export type StoredRunBudget = z.infer<typeof StoredRunBudget>;

// statuses and control rules live in ./run-status (one home); re-exported for the schemas that use them
export { RunStatus, TrialStatus, FINAL_TRIAL_STATUSES } from './run-status';

export const TransportErrorKind = z.enum([
  'dns',
  'connect',
  'timeout',
  'reset',
  'http_429',
  'http_5xx',
  'http_4xx',
  'malformed_body',
  /** the worker died after sending: the answer may have been lost */
  'lost',
]);
export type TransportErrorKind = z.infer<typeof TransportErrorKind>;

/** What became of one stored exchange: `sending` while it is out, `lost` once its worker died before the answer was recorded. */
export const AttemptOutcome = z.enum(['ok', 'transport_error', 'lost', 'sending']);
export type AttemptOutcome = z.infer<typeof AttemptOutcome>;

/** A trial's formal exchange, or a pre-check sent before the run (stored apart, in no denominator). */
export const AttemptKind = z.enum(['formal', 'precheck']);
export type AttemptKind = z.infer<typeof AttemptKind>;

/** One provider/model pair a run targets; several make a run group (one run each, same experiment version). */
export const RunTarget = z.object({ provider: ProviderId, model: z.string().min(1) });
export type RunTarget = z.infer<typeof RunTarget>;

/** At most this many targets in one Run (each is a whole run of the matrix). */
export const MAX_RUN_TARGETS = 8;

/**
 * `provider:model` → a target. The model may itself contain colons (`openai-compatible:qwen3:8b`): only the
 * first one separates. Returns the problem in words when the text is not a target.
 */
export function parseRunTarget(text: string): RunTarget | string {
  const at = text.indexOf(':');
  if (at <= 0 || at === text.length - 1) return `"${text}" is not provider:model (e.g. simulated:simulated-lexical-v1)`;
  const r = RunTarget.safeParse({ provider: text.slice(0, at).trim(), model: text.slice(at + 1).trim() });
  if (!r.success) return `"${text}": unknown provider "${text.slice(0, at)}" (known: ${ProviderId.options.join(', ')})`;
  return r.data;
}
