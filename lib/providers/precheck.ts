import type { ProviderResult } from '../schema/request';
import { destinationOf, keyHint } from './configured';
import { getDescriptor, isProviderId } from './registry';
import { redactText } from './secrets';

// Pre-checks test credentials and wiring before a run (docs/design.md#vocabulary). When one fails, the researcher needs
// to know what to fix, in words, not a transport kind.

export interface FailureContext {
  /** The model asked for, to name it in a 404 message. */
  model?: string | null;
  /** The base URL used, to name the host in reach failures. */
  baseUrl?: string | null;
}

function hostFrom(ctx: FailureContext, message: string): string {
  if (ctx.baseUrl) {
    try {
      return new URL(ctx.baseUrl).host;
    } catch {
      // fall through
    }
  }
  // errors.ts names the host in its messages: "could not resolve host:", "could not connect to host:"
  const m = /(?:resolve|connect to|from|connection to) ([A-Za-z0-9.-]+(?::\d+)?)[:\s]/.exec(message);
  return m ? m[1] : "the provider's server";
}

function modelFrom(result: ProviderResult, ctx: FailureContext): string | null {
  if (ctx.model) return ctx.model;
  const req = result.request;
  if (req && typeof req === 'object' && 'model' in req && typeof req.model === 'string') return req.model;
  return null;
}

/**
 * Where a stored run's requests go, in words: "http://127.0.0.1:8000/v1 (fixed on the run)" — the base URL
 * fixed on it when it was created (docs/runs.md); for the simulator, that nothing is sent. A run stored
 * before base URLs were fixed on runs has none until a worker takes it.
 */
export function destinationText(providerId: string, baseUrl: string | null): string {
  if (!isProviderId(providerId)) return 'an unknown provider';
  const d = getDescriptor(providerId);
  if (d.baseUrlVar === null) return 'nowhere: the simulated provider answers in-process';
  const dest = baseUrl === null ? null : destinationOf(d, baseUrl);
  if (dest === null) return `not recorded on the run: the first worker that takes it fixes its own ${d.baseUrlVar} on it`;
  return redactText(`${dest.baseUrl} (${dest.via})`);
}

/** A failed pre-check in words a researcher understands, ending with what went over the wire. */
export function describeProviderFailure(result: ProviderResult, providerId: string, ctx: FailureContext = {}): string {
  if (result.outcome === 'ok') {
    const obs = result.observation;
    if (obs.refusal) return `${providerId} answered, but the model refused (finish reason ${obs.finishReason ?? 'unknown'}).`;
    return `${providerId} answered normally.`;
  }
  const error = result.error;
  const detail = ` (${error.message})`;
  const status = result.httpStatus;
  const keyVar = isProviderId(providerId) ? keyHint(getDescriptor(providerId)) : 'the provider key variable';
  let words: string;
  switch (error.kind) {
    case 'http_4xx':
      if (status === 401 || status === 403) {
        words = `the API key was rejected (HTTP ${status}): check ${keyVar}, and that the key may use this model`;
      } else if (status === 404) {
        const model = modelFrom(result, ctx);
        words = `unknown model or wrong base URL (HTTP 404): check the model name${model ? ` "${model}"` : ''} and the base URL`;
      } else if (status == null) {
        words = `the request could not be sent: a configuration problem`;
      } else {
        words = `the provider refused the request as invalid (HTTP ${status}): the model may not support tools or one of the settings`;
      }
      break;
    case 'http_429': {
      const after = error.retryAfterMs != null ? `; the server asks to wait ${Math.ceil(error.retryAfterMs / 1000)} s` : '';
      words = `rate-limited (HTTP 429): the key works, but the provider asks to slow down${after}. Lower the concurrency or requests per minute, or check the account's quota`;
      break;
    }
    case 'http_5xx':
      words = `the provider had a server error (HTTP ${status ?? '5xx'}): try again later`;
      break;
    case 'dns':
      words = `could not reach ${hostFrom(ctx, error.message)}: the host name does not resolve — check the base URL and the network`;
      break;
    case 'connect':
      words = `could not reach ${hostFrom(ctx, error.message)}: nothing accepted the connection — is the server running and the base URL's port right?`;
      break;
    case 'timeout':
      words = `no answer within the timeout: the server is slow or unreachable — raise the timeout or check the base URL`;
      break;
    case 'reset':
      words = `the connection was closed before an answer arrived: a proxy or the server dropped it — try again`;
      break;
    case 'malformed_body':
      words = `the server answered, but not in ${providerId}'s format — does the base URL point at the right kind of server?`;
      break;
    case 'lost':
      words = `the request was cancelled before its answer arrived`;
      break;
    default:
      words = `the request failed (${String(error.kind)})`;
  }
  return redactText(`${words}${detail}`);
}
