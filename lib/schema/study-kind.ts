import { z } from 'zod';

/**
 * The study kinds, named once. Each has its module in lib/studies/<kind>/ (validation of its fields, request
 * building, scoring, what the trial page shows; the fields' shapes are in ./kind-fields.ts); every list of
 * kinds in the tree derives from this.
 */
export const STUDY_KINDS = ['selection', 'interpretation', 'task'] as const;
export const StudyKind = z.enum(STUDY_KINDS);
export type StudyKind = z.infer<typeof StudyKind>;
