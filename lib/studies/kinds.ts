import { z } from 'zod';

/**
 * The study kinds, named once. Each has its module in lib/studies/<kind>/ (spec fields and validation,
 * request building, scoring, what the trial page shows); every list of kinds in the tree derives from this.
 */
export const STUDY_KINDS = ['selection', 'interpretation', 'task'] as const;
export const StudyKind = z.enum(STUDY_KINDS);
export type StudyKind = z.infer<typeof StudyKind>;
