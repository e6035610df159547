import { z } from 'zod';
import { StudyKind } from '../studies/kinds';

/** `{pass, n}` — n excludes unresolved and untested trials, which are counted beside it. */
export const PassCount = z.object({ pass: z.number().int(), n: z.number().int(), unresolved: z.number().int().default(0), untested: z.number().int().default(0) });
export type PassCount = z.infer<typeof PassCount>;

export const SummaryRow = z.object({ scenario: z.string(), locale: z.string(), baseline: PassCount, treatment: PassCount });
export type SummaryRow = z.infer<typeof SummaryRow>;

/** pass^k of one condition (lib/stats/pass-k.ts): the chance that k replicates of a task all pass. */
export const PassK = z.object({ passHatK: z.number().nullable(), rate: z.number().nullable(), tasks: z.number().int(), skipped: z.number().int() });
export type PassK = z.infer<typeof PassK>;

/** One column of Table 1. */
export const StudySummary = z.object({
  study: z.string(),
  kind: StudyKind,
  baseline: z.string(),
  treatment: z.string(),
  rows: z.array(SummaryRow),
  total: z.object({ baseline: PassCount, treatment: PassCount }),
  pairs: z.object({ improved: z.number().int(), same: z.number().int(), regressed: z.number().int(), incomplete: z.number().int().default(0) }),
  mcnemarP: z.number().nullable(),
  /** failure category → count, per condition (e.g. unwanted_write 12 → 0). */
  categories: z.record(z.string(), z.object({ baseline: z.number().int(), treatment: z.number().int() })).default({}),
  /** With replicates (k > 1): pass^k beside the plain rate, per condition. */
  passK: z.object({ k: z.number().int().min(2), baseline: PassK, treatment: PassK }).optional(),
});
export type StudySummary = z.infer<typeof StudySummary>;

export const RunSummary = z.object({ studies: z.array(StudySummary) });
export type RunSummary = z.infer<typeof RunSummary>;

/** The minimal per-trial facts analysis needs (a row of the trials table). */
export interface TrialOutcome {
  id: string;
  study: string;
  scenario: string;
  locale: string;
  condition: string;
  pairKey: string;
  status: string; // passed | failed | untested | unresolved | queued | running | cancelled
  categories?: string[];
}

export const RUN_EXPORT_FORMAT = 'tclab.run/v1';
