import { afterAll, beforeAll, expect } from 'vitest';
import { resetEnvCache } from '../env';
import type { EnvVar, Provider } from '../providers/types';
import { startLoopbackServer, type LoopbackServer, type Reply } from './loopback-server';
import type { Observation } from '../schema/observation';
import { observeResult } from '../scoring/answer';
import type { AdapterResult, ProviderRequest, ProviderResult, TransportFailure, WireTool } from '../schema/request';
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
    callsRun: false,
    locale: 'en',
    system: 'Use a tool when one fits. If required data is missing, answer "CLARIFY: <question>". If no tool can do it, answer "STOP: <reason>".',
    markers: MARKERS,
    labels: [],
    tools,
    task: 'What is the status of invoice INV-2041?',
    history: [],
  };
}

export function interpretationRequest(result: unknown = { invoice_number: 'INV-2041', status_code: 17 }): ProviderRequest {
  return {
    callsRun: false,
    locale: 'en',
    system: 'Report the lookup result as "STATUS: <LABEL>" with one of PAID, OPEN, TIMEOUT, CANNOT_DETERMINE.',
    markers: MARKERS,
    labels: ['PAID', 'OPEN', 'TIMEOUT', 'CANNOT_DETERMINE'],
    tools: INVOICE_TOOLS,
    task: 'What is the status of invoice INV-2041?',
    // the injected step, as lib/studies/interpretation builds it: a call given without an id, and its result
    history: [{ text: null, calls: [{ name: 'lookup_invoice', arguments: { invoice_number: 'INV-2041' } }], results: [{ name: 'lookup_invoice', result }] }],
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
export function failure(result: ProviderResult | AdapterResult): TransportFailure {
  if (result.outcome !== 'transport_error') throw new Error('expected a transport error, got an answer');
  return result.error;
}

/** A provider's real SDK against a loopback server of the test file's own (see providerOverLoopback). */
export interface ProviderWire {
  /** The loopback server (started before the file's tests, closed after them). */
  readonly server: LoopbackServer;
  /** The provider's run settings against the server; `extra` overrides any of them. */
  settings(extra?: Partial<RunSettingsInput>): RunSettings;
  /** Scripts the server's reply, sends the request through the provider, checks the key is in no part of the result, and observes it. */
  send(reply: Reply, request?: ProviderRequest, extra?: Partial<RunSettingsInput>): Promise<ProviderResult>;
  /** The body of the last request the server received. */
  lastBody(): Record<string, unknown>;
}

/**
 * The setup every provider itest shares: a loopback server started before the file's tests, the provider's
 * variables set (`env`, the key usually FAKE_KEY; the server's URL allowed) and restored after them.
 */
export function providerOverLoopback(opts: {
  provider: Provider;
  env: Partial<Record<KeyVar, string | undefined>>;
  settings: (server: LoopbackServer) => RunSettingsInput;
}): ProviderWire {
  let server: LoopbackServer | undefined;
  let restoreEnv = () => {};
  beforeAll(async () => {
    server = await startLoopbackServer();
    restoreEnv = setProviderEnv({ ...opts.env, TCLAB_ALLOWED_BASE_URLS: server.url });
  });
  afterAll(async () => {
    await server?.close();
    restoreEnv();
  });
  const wire: ProviderWire = {
    get server() {
      if (!server) throw new Error('the loopback server starts in beforeAll');
      return server;
    },
    settings: (extra = {}) => settingsFor({ ...opts.settings(wire.server), ...extra }),
    async send(reply, request = selectionRequest(), extra = {}) {
      wire.server.setScript(() => reply);
      wire.server.clearRequests();
      const result = await opts.provider.send(request, { settings: wire.settings(extra) });
      expect(JSON.stringify(result)).not.toContain(FAKE_KEY);
      // the answer observed as the engine observes it: its markers read by scoring (lib/scoring/answer.ts)
      return observeResult(result, request.markers);
    },
    lastBody() {
      const body = wire.server.requests.at(-1)?.body;
      if (!body || typeof body !== 'object') throw new Error('no request recorded');
      return body as Record<string, unknown>;
    },
  };
  return wire;
}
