import { resetEnvCache } from '../env';
import type { EnvVar } from '../providers/types';
import type { Observation } from '../schema/observation';
import type { ProviderRequest, ProviderResult, TransportFailure, WireTool } from '../schema/request';
import { RunSettings, type RunSettingsInput } from '../schema/run';

// Small provider-neutral requests for adapter tests (the invoice scenario of the reference study).

export const MARKERS = { clarify: 'CLARIFY:', stop: 'STOP:', status: 'STATUS:' };

export const INVOICE_TOOLS: WireTool[] = [
  {
    name: 'lookup_invoice',
    description: 'Read-only: looks up an invoice by its number and returns its status. Never changes anything.',
    parameters: {
      type: 'object',
      properties: { invoice_number: { type: 'string', description: 'e.g. INV-2041' } },
      required: ['invoice_number'],
      additionalProperties: false,
    },
  },
  {
    name: 'pay_invoice',
    description: 'Write: submits a payment for an invoice. Only after the user confirmed the amount.',
    parameters: {
      type: 'object',
      properties: { invoice_number: { type: 'string' }, amount: { type: 'number' } },
      required: ['invoice_number', 'amount'],
    },
  },
];

export function selectionRequest(tools: WireTool[] = INVOICE_TOOLS): ProviderRequest {
  return {
    kind: 'selection',
    locale: 'en',
    system: 'Use a tool when one fits. If required data is missing, answer "CLARIFY: <question>". If no tool can do it, answer "STOP: <reason>".',
    markers: MARKERS,
    labels: [],
    tools,
    task: 'What is the status of invoice INV-2041?',
  };
}

export function interpretationRequest(result: unknown = { invoice_number: 'INV-2041', status_code: 17 }): ProviderRequest {
  return {
    kind: 'interpretation',
    locale: 'en',
    system: 'Report the lookup result as "STATUS: <LABEL>" with one of PAID, OPEN, TIMEOUT, CANNOT_DETERMINE.',
    markers: MARKERS,
    labels: ['PAID', 'OPEN', 'TIMEOUT', 'CANNOT_DETERMINE'],
    tools: INVOICE_TOOLS,
    task: 'What is the status of invoice INV-2041?',
    interpretation: { call: { name: 'lookup_invoice', arguments: { invoice_number: 'INV-2041' } }, result },
  };
}

export function settingsFor(input: RunSettingsInput): RunSettings {
  return RunSettings.parse({ temperature: 0, maxOutputTokens: 256, timeoutMs: 10_000, ...input });
}

/** A recognisable fake key: tests assert it is sent over the wire and stored nowhere. */
export const FAKE_KEY = 'sk-test-SECRET-0123456789abcdef';

type KeyVar = EnvVar;

/** Sets (or, with undefined, unsets) provider variables and resets lib/env's cache; returns the undo. */
export function setProviderEnv(vars: Partial<Record<KeyVar, string | undefined>>): () => void {
  const saved = new Map<string, string | undefined>();
  for (const [name, value] of Object.entries(vars)) {
    saved.set(name, process.env[name]);
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvCache();
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetEnvCache();
  };
}

/** The observation of a result that must be an answer (fails the test otherwise, naming the error). */
export function observed(result: ProviderResult): Observation {
  if (result.outcome !== 'ok') throw new Error(`expected an answer, got ${result.error.kind}: ${result.error.message}`);
  return result.observation;
}

/** The failure of a result that must be a transport error (fails the test otherwise). */
export function failure(result: ProviderResult): TransportFailure {
  if (result.outcome !== 'transport_error') throw new Error('expected a transport error, got an answer');
  return result.error;
}
