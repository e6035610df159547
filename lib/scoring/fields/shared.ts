import type { TccObservedEntry } from '../../schema/tcc';
import { tccValueEquals } from '../arguments';
import type { Compared } from './types';

// What several field modules share: how a value is shown in a reason, and the exact comparison.

export const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** ` (malformed call: <why>)` when the entry reports an unusable first call, else ''. */
export const malformedNote = (entry: TccObservedEntry): string => (typeof entry.malformed === 'string' ? ` (malformed call: ${entry.malformed})` : '');

/**
 * Exact comparison under the TCC value rules (strict types, numbers by value, strings NFC + trim). With
 * `withMalformed`, a failure names the unusable first call the entry reports.
 */
export function exact(field: string, withMalformed = false) {
  return (expected: unknown, observed: unknown, entry: TccObservedEntry): Compared => {
    const ok = tccValueEquals(expected, observed);
    const extra = withMalformed ? malformedNote(entry) : '';
    return { ok, reason: ok ? `${field} ${show(observed)}` : `${field}: expected ${show(expected)}, observed ${show(observed)}${extra}` };
  };
}
