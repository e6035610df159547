import type { ProviderRequest, AdapterResult } from '../../schema/request';
import type { RunSettings } from '../../schema/run';
import type { WireId } from '../types';

// Batch mode (docs/batch.md): the same request bodies the adapters send one by one, written into a vendor's
// batch format with `<trial id>.<attempt n>` as the custom id, submitted once, polled, and each result line
// turned back into the adapter's normal AdapterResult — so the engine records a batch answer through the
// same fenced path as an answer sent alone.

/** Where the batch goes: the provider's resolved base URL and key (lib/providers/configured.ts). */
export interface BatchConnection {
  baseUrl: string;
  apiKey: string | null;
}

/** One item: its custom id and the neutral request the adapter would have built a body from. */
export interface BatchItemInput {
  customId: string;
  request: ProviderRequest;
}

/** A vendor batch's state, in our words (every vendor's statuses map onto these). */
export type ProviderBatchState = 'accepted' | 'in_progress' | 'completed' | 'expired' | 'cancelled' | 'failed';

export const ENDED_BATCH_STATES: readonly ProviderBatchState[] = ['completed', 'expired', 'cancelled', 'failed'];

export interface BatchPoll {
  state: ProviderBatchState;
  total: number;
  /** Items with an answer so far (vendors count them as they go). */
  succeeded: number;
  /** Items failed, expired or cancelled so far. */
  failed: number;
}

export interface BatchVendor {
  wire: WireId;
  /** The request body of one item as it goes into the batch (what the adapter would have sent alone). */
  body(request: ProviderRequest, settings: RunSettings): unknown;
  /** Submits the items as one batch; returns the provider's batch id. */
  submit(conn: BatchConnection, settings: RunSettings, items: readonly BatchItemInput[]): Promise<string>;
  poll(conn: BatchConnection, batchId: string): Promise<BatchPoll>;
  /** The results of an ended batch, by custom id: each the adapter's normal result. Items missing from the map had none. */
  results(conn: BatchConnection, batchId: string, items: readonly BatchItemInput[], settings: RunSettings): Promise<Map<string, AdapterResult>>;
  cancel(conn: BatchConnection, batchId: string): Promise<void>;
}

/** `<trial id>.<attempt n>`: the custom id of a trial's attempt in a batch (trial ids hold no dot). */
export function batchCustomId(trialId: string, attemptN: number): string {
  return `${trialId}.${attemptN}`;
}

export function parseBatchCustomId(customId: string): { trialId: string; attemptN: number } | null {
  const m = /^(.+)\.(\d+)$/.exec(customId);
  return m ? { trialId: m[1], attemptN: Number(m[2]) } : null;
}

/** An item the batch ended without answering (expired, cancelled): a transport failure, retried by the run's policy. */
export function unansweredResult(request: unknown, state: ProviderBatchState): AdapterResult {
  const message = state === 'expired' ? 'the batch expired before this request ran' : `the batch ended (${state}) before this request ran`;
  return { outcome: 'transport_error', error: { kind: 'timeout', message }, request, response: null, httpStatus: null, latencyMs: 0, usage: null };
}
