import { z } from 'zod';
import { parseOrThrow, strict, text, TEXT_MAX } from './common';

// A run's name and note: free text a researcher gives a run (what it was for, what changed). Blank means none.

export const RUN_NAME_MAX = TEXT_MAX.short;
export const RUN_NOTE_MAX = 2_000;

const blankToNull = (v: string | null | undefined) => (v == null || v.trim() === '' ? null : v.trim());

export const RunLabel = strict({
  name: text(RUN_NAME_MAX).nullish().transform(blankToNull),
  note: text(RUN_NOTE_MAX).nullish().transform(blankToNull),
});
export type RunLabel = z.infer<typeof RunLabel>;

/** `{ name, note }` trimmed, blank → null — or a SpecError naming `name` or `note`. */
export function parseRunLabel(input: unknown): RunLabel {
  return parseOrThrow(RunLabel, input, 'run name and note');
}
