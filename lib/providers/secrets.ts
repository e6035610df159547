import { cachedRedaction } from './configured';
import * as r from './redact';
import { DESCRIPTORS } from './vendor-descriptors';

// Product-wide redaction: every provider's declared secrets at once (the values of all key variables, all
// credential headers and key-carrying query parameters). Logs, exports, pre-check messages and pages use
// these; an adapter redacts what it stores with its own descriptor's (see exchange.ts).

export const REDACTED = r.REDACTED;

export function configuredRedaction(): r.Redaction {
  return cachedRedaction(DESCRIPTORS);
}

/** The key values currently configured, longest first. */
export function knownSecrets(): readonly string[] {
  return configuredRedaction().secrets;
}

export function redactText(s: string): string {
  return r.redactText(s, configuredRedaction());
}

export function redactSecrets<T>(value: T): T {
  return r.redactSecrets(value, configuredRedaction());
}

export function redactHeaders(headers: Headers | Record<string, string | string[] | undefined>): Record<string, string> {
  return r.redactHeaders(headers, configuredRedaction());
}

/** A URL with key-carrying query values and known key values masked. */
export function redactUrl(url: string): string {
  return redactText(url);
}

export function jsonMayHoldSecret(text: string): boolean {
  return r.jsonMayHoldSecret(text, configuredRedaction());
}
