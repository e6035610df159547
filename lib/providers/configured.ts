import { env, type Env } from '../env';
import { makeRedaction, type Redaction } from './redact';
import type { ErrorShape, ProviderDescriptor } from './types';

// What follows from a descriptor and the environment: the key, where requests go, whether the provider
// can be used, what to redact, and what to tell a user who has to fix it. Nothing here names a provider.

/** The key to send: the first of the descriptor's key variables that is set. */
export function keyOf(d: ProviderDescriptor, e: Env = env()): string | undefined {
  for (const v of d.keyVars) {
    const value = e[v];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** The configured base URL: the descriptor's variable, else its default (null: none configured). */
export function configuredBaseUrl(d: ProviderDescriptor, e: Env = env()): string | null {
  const value = d.baseUrlVar ? e[d.baseUrlVar] : undefined;
  if (typeof value === 'string' && value !== '') return value;
  return d.defaultBaseUrl;
}

/** "OPENAI_API_KEY", "GEMINI_API_KEY or GOOGLE_API_KEY". */
export function keyVarsText(d: ProviderDescriptor): string {
  return d.keyVars.join(' or ');
}

/** What to check when the server rejected the key (a pre-check message). */
export function keyHint(d: ProviderDescriptor): string {
  if (d.keyVars.length === 0) return 'the server’s access settings (this provider sends no key)';
  return d.keyRequired ? keyVarsText(d) : `${keyVarsText(d)} (if the server requires a key)`;
}

export type Availability = { available: true } | { available: false; reason: string };

/** Whether the provider can be used with this environment, and what to set when it cannot. */
export function availabilityOf(d: ProviderDescriptor, e: Env = env()): Availability {
  const missing: string[] = [];
  if (d.keyRequired && d.keyVars.length > 0 && keyOf(d, e) === undefined) missing.push(keyVarsText(d));
  if (d.wire !== null && configuredBaseUrl(d, e) === null && d.baseUrlVar) missing.push(d.baseUrlVar);
  return missing.length === 0 ? { available: true } : { available: false, reason: `set ${missing.join(' and ')}` };
}

/** What one provider's stored exchanges are redacted with: its key values, headers and query parameters. */
export function redactionOf(descriptors: readonly ProviderDescriptor[], e: Env = env()): Redaction {
  return makeRedaction(
    descriptors.flatMap((d) => d.keyVars.map((v) => e[v])).filter((v): v is string => typeof v === 'string'),
    descriptors.flatMap((d) => d.secretHeaders),
    descriptors.flatMap((d) => d.secretParams),
  );
}

const redactionCache = new WeakMap<readonly ProviderDescriptor[], { env: Env; redaction: Redaction }>();

/** redactionOf, computed once per parsed environment (env() returns a new object after a reset). */
export function cachedRedaction(descriptors: readonly ProviderDescriptor[]): Redaction {
  const e = env();
  const hit = redactionCache.get(descriptors);
  if (hit?.env === e) return hit.redaction;
  const redaction = redactionOf(descriptors, e);
  redactionCache.set(descriptors, { env: e, redaction });
  return redaction;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `{error: {message, …}}` — the envelope OpenAI, Google and Anthropic all put their message in. */
export function nestedErrorMessage(body: unknown): string | null {
  const item = Array.isArray(body) ? body[0] : body; // Google has sent its envelope inside an array
  if (!isRecord(item)) return null;
  const err = item.error;
  if (typeof err === 'string') return err;
  return isRecord(err) && typeof err.message === 'string' ? err.message : null;
}

/** An ErrorShape from a body builder, reading the message from the usual envelope. */
export function errorShape(body: ErrorShape['body']): ErrorShape {
  return { body, message: nestedErrorMessage };
}

// Base URLs are configuration, not input (docs/providers.md#keys-and-base-urls): a provider's key goes only to the base URL configured
// beside it in the environment (its baseUrlVar, else its default) or to a URL of TCLAB_ALLOWED_BASE_URLS.
// A run naming any other base URL is refused before anything is sent — when it is created (naming the
// field) and again when a request is about to leave.

/** A URL as compared: origin plus path without trailing slashes (query and fragment dropped). */
export function normalizeBaseUrl(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
}

/** TCLAB_ALLOWED_BASE_URLS as normalized URLs (entries that do not parse are ignored). */
export function allowedBaseUrls(e: Env = env()): string[] {
  return (e.TCLAB_ALLOWED_BASE_URLS ?? '')
    .split(/[\s,]+/)
    .filter((x) => x !== '')
    .map(normalizeBaseUrl)
    .filter((x): x is string => x !== null);
}

/** Where the base URL of a request comes from, for the pre-check, the Run dialog and the run page. */
export type BaseUrlSource = 'run' | 'environment' | 'default';

export interface Destination {
  baseUrl: string;
  source: BaseUrlSource;
  /** "OPENAI_BASE_URL", "TCLAB_ALLOWED_BASE_URLS", or "the provider's default". */
  via: string;
}

/**
 * Why a run's base URL may not be used with this provider (null: it may). Refused: any URL that is not
 * http(s), that carries credentials (user:pass@), or that is neither the configured base URL nor in the
 * allow-list; any base URL at all for a provider that sends nothing (the simulator).
 */
export function baseUrlRefusal(d: ProviderDescriptor, baseUrl: string | null, e: Env = env()): string | null {
  if (baseUrl === null) return null;
  if (d.baseUrlVar === null) return `the ${d.id} provider sends no requests: it takes no base URL`;
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    return 'not a URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `only http and https base URLs are allowed, not ${u.protocol}`;
  if (u.username !== '' || u.password !== '') return 'a base URL must not carry credentials (user:password@): keys come from the environment only';
  const wanted = normalizeBaseUrl(baseUrl)!;
  const configured = configuredBaseUrl(d, e);
  if (configured !== null && normalizeBaseUrl(configured) === wanted) return null;
  const origin = `${u.protocol}//${u.host}`;
  if (allowedBaseUrls(e).some((a) => a === wanted || a === origin)) return null;
  return (
    `${origin} is not an allowed base URL for ${d.id}: the provider's key is sent only to ${configured ?? `the URL in ${d.baseUrlVar}`} ` +
    `(${d.baseUrlVar}) or to a URL listed in TCLAB_ALLOWED_BASE_URLS`
  );
}

/**
 * Where this provider's requests go for a run with this base URL (null: nowhere configured yet). A stored
 * run's base URL is fixed on it when it is created (docs/runs.md): it is where its requests go, whatever this
 * process has configured. Null (a run being planned) is where a run created here would go.
 */
export function destinationOf(d: ProviderDescriptor, baseUrl: string | null, e: Env = env()): Destination | null {
  if (d.baseUrlVar === null) return null;
  if (baseUrl !== null) return { baseUrl, source: 'run', via: 'fixed on the run' };
  const fromEnv = e[d.baseUrlVar];
  if (typeof fromEnv === 'string' && fromEnv !== '') return { baseUrl: fromEnv, source: 'environment', via: d.baseUrlVar };
  return d.defaultBaseUrl === null ? null : { baseUrl: d.defaultBaseUrl, source: 'default', via: "the provider's default" };
}

export type Endpoint = { ok: true; baseUrl: string; key: string | null } | { ok: false; message: string };

/**
 * Where a request of this provider goes and with which key: the run's base URL when it has one and it is
 * allowed, else the configured one. A missing required key, a missing base URL or a refused one is a
 * configuration error (nothing is sent), named by the variable to set.
 */
export function resolveEndpoint(d: ProviderDescriptor, settings: { baseUrl: string | null }, e: Env = env()): Endpoint {
  const refusal = baseUrlRefusal(d, settings.baseUrl, e);
  if (refusal !== null) return { ok: false, message: `baseUrl: ${refusal}` };
  const key = keyOf(d, e) ?? null;
  if (d.keyRequired && d.keyVars.length > 0 && key === null) {
    const unset = d.keyVars.length === 1 ? `${d.keyVars[0]} is not set` : `neither ${d.keyVars.join(' nor ')} is set`;
    return { ok: false, message: `${unset}: the ${d.id} provider needs a key` };
  }
  const baseUrl = settings.baseUrl ?? configuredBaseUrl(d, e);
  if (baseUrl === null) {
    return { ok: false, message: `no base URL: the ${d.id} provider needs ${d.baseUrlVar ?? 'a base URL'} (e.g. http://localhost:11434/v1)` };
  }
  return { ok: true, baseUrl, key };
}

// A run's destination is part of the run (docs/runs.md, "Where a run's requests go"): the base URL a run is
// created with — the one it names, else the configured one — is stored in its settings, and a worker sends
// the run's trials only there, with a key configured for it. A worker configured otherwise sends nothing.

/** The base URL fixed on a run created with these settings here: the one it names, else the configured one. */
export function baseUrlToFix(d: ProviderDescriptor, baseUrl: string | null, e: Env = env()): string | null {
  if (d.baseUrlVar === null) return baseUrl;
  return baseUrl ?? configuredBaseUrl(d, e);
}

/**
 * Why this process cannot send a run's requests to its fixed base URL (null: it can): the URL is neither the
 * base URL configured beside the key here nor allow-listed, or the key it needs is not set, or the run has
 * no base URL and none is configured. The message says what to set.
 */
export function sendRefusal(d: ProviderDescriptor, baseUrl: string | null, e: Env = env()): string | null {
  if (d.baseUrlVar === null) return null;
  const endpoint = resolveEndpoint(d, { baseUrl }, e);
  if (endpoint.ok) return null;
  const configured = configuredBaseUrl(d, e);
  const here = configured === null ? `no ${d.baseUrlVar}` : `${d.baseUrlVar}=${configured}`;
  return `this worker (${here}) cannot send to the run's base URL ${baseUrl ?? '(none)'}: ${endpoint.message}`;
}
