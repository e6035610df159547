import { z } from 'zod';

export const ProviderId = z.enum(['simulated', 'openai', 'gemini', 'openai-compatible', 'anthropic']);
export type ProviderId = z.infer<typeof ProviderId>;

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
});
export type RunSettings = z.infer<typeof RunSettings>;
export type RunSettingsInput = z.input<typeof RunSettings>;

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
