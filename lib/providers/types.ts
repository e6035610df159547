import type { Env } from '../env';
import type { ProviderRequest, AdapterResult, ToolSearchMechanism } from '../schema/request';
import type { ProviderId, RunSettings } from '../schema/run';

// A provider is one file: it declares a ProviderDescriptor (the facts the rest of the product derives —
// registry, availability, redaction, pre-check messages, CLI help, the loopback wire list) and a send()
// that turns a provider-neutral request into one HTTP exchange. The neutral request and result types live
// in lib/schema/request.ts, so that lib/design and lib/db need nothing from here.

/** The names of lib/env's string-valued variables (the ones a descriptor may name). */
export type EnvVar = { [K in keyof Env]-?: Exclude<Env[K], undefined> extends string ? K : never }[keyof Env];

/** How a provider's API shapes an error body (e.g. OpenAI `{error: {message, type}}`). */
export interface ErrorShape {
  /** An error body as the API sends it (the loopback wire serves this one). */
  body(status: number, message: string): Record<string, unknown>;
  /** The human message inside such a body; null when the body is not of this shape. */
  message(body: unknown): string | null;
}

/** The wire formats the product speaks; each has a route in lib/testing/loopback-server.ts. */
export type WireId = 'openai-chat' | 'gemini-generate-content' | 'anthropic-messages';

export interface ProviderModel {
  id: string;
  /** Shown wherever its results appear. */
  label: string;
}

export interface ProviderDescriptor {
  id: ProviderId;
  /** Shown wherever its results appear, e.g. "simulated — not a language model". */
  label: string;
  /** A heuristic, not a language model (labelled so in the UI). */
  simulated: boolean;
  /** Variables that hold the key, first set wins; empty: no key is ever sent. */
  keyVars: readonly EnvVar[];
  /** false: the key is optional (sent only when set; local servers often need none). */
  keyRequired: boolean;
  /** The variable that configures where requests go (null: no network). */
  baseUrlVar: EnvVar | null;
  /** Where requests go when baseUrlVar is unset; null: baseUrlVar must be set. */
  defaultBaseUrl: string | null;
  defaultModel: string;
  /** Models offered by name in the Run dialog (others may be typed). */
  models: readonly ProviderModel[];
  /** Request headers that carry the key: dropped or masked wherever a request is stored or logged. */
  secretHeaders: readonly string[];
  /** Query parameters that carry the key (Google's `?key=`): masked in URLs and text. */
  secretParams: readonly string[];
  /** The wire format (null for the simulator). */
  wire: WireId | null;
  errorShape: ErrorShape | null;
  /** The vendor tool searches (request.toolSearch) this provider speaks; any other is not sent, and no `visible` comes back. */
  toolSearch: readonly ToolSearchMechanism[];
}

export interface SendOptions {
  settings: RunSettings;
  signal?: AbortSignal;
}

export interface Provider {
  descriptor: ProviderDescriptor;
  send(request: ProviderRequest, options: SendOptions): Promise<AdapterResult>;
}
