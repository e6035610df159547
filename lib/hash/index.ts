import { createHash } from 'node:crypto';

// The hashing of content, a utility room on the ground floor: canonical JSON and SHA-256, used wherever equal
// content must hash equal (spec_hash, tool_set_ref, tool snapshots, fixture state, conversation keys). It
// imports nothing of ours, so every floor may use it (docs/architecture.md).

/** Canonical JSON: object keys sorted, no whitespace — so equal content hashes equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out = Object.create(null) as Record<string, unknown>; // a `__proto__` key stays a key
    for (const k of Object.keys(value as object).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** `tool_set_ref`: SHA-256 of the canonical JSON of the tool list actually sent (in order). */
export function toolSetRef(tools: unknown[]): string {
  return `sha256:${sha256(canonicalJson(tools))}`;
}
