import type { Observation } from '../schema/observation';
import type { RunSettings, TransportErrorKind } from '../schema/run';
import type { Markers } from '../schema/experiment';
import type { StudyKind } from '../studies/kinds';

/** A tool as sent over the wire: hidden metadata (effect, scenario tool id) already stripped. */
export interface WireTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * One formal request or pre-check, provider-neutral. Built by lib/design from a trial; each adapter turns
 * it into its own wire format. Nothing here comes from the case card: providers never see expectations.
 */
export interface ProviderRequest {
  kind: StudyKind;
  locale: string;
  /** The study's response protocol (system instruction). */
  system: string;
  markers: Markers;
  /** Labels the protocol allows after the status marker (interpretation). */
  labels: string[];
  /** The candidate tools, in the trial's order. */
  tools: WireTool[];
  /** The user's task text. */
  task: string;
  /** interpretation: the fixed call the assistant made and the tool result injected after it. */
  interpretation?: { call: { name: string; arguments: Record<string, unknown> }; result: unknown };
}

/** What one HTTP exchange produced. Failures are values, not exceptions (promptfoo's habit). */
export interface ProviderResult {
  /** The request body as sent, secrets redacted; for the simulator, the neutral request. */
  request: unknown;
  /** The response body as received: parsed JSON, or `{ text }` when it was not JSON; null when none came. */
  response: unknown;
  /** `request` as JSON text, when the adapter already holds it (the redacted wire body): stored as is. */
  requestJson?: string;
  /** `response` as JSON text, when the adapter already holds it (see requestJson). */
  responseJson?: string;
  httpStatus: number | null;
  latencyMs: number;
  usage: { inputTokens: number | null; outputTokens: number | null } | null;
  outcome: 'ok' | 'transport_error';
  error?: { kind: TransportErrorKind; message: string; retryAfterMs?: number | null };
  /** Present when outcome is ok. */
  observation?: Observation;
}

export interface SendOptions {
  settings: RunSettings;
  signal?: AbortSignal;
}

export interface Provider {
  id: string;
  /** Shown wherever its results appear, e.g. "simulated — not a language model". */
  label: string;
  simulated: boolean;
  send(request: ProviderRequest, options: SendOptions): Promise<ProviderResult>;
}
