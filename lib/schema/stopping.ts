import { z } from 'zod';

/** A comparison's stop-when-decided decision as stored on the run (runs.stopping), frozen when it is made (lib/stats/sequential.ts StreamDecision). */
export const StoredDecision = z.object({
  reason: z.enum(['e-value', 'precision']),
  afterPairs: z.number().int().min(0),
  improved: z.number().int().min(0),
  regressed: z.number().int().min(0),
  eValue: z.number(),
  maxEValue: z.number(),
  threshold: z.number().nullable(),
  interval: z.object({ lo: z.number(), hi: z.number() }),
});
export type StoredDecision = z.infer<typeof StoredDecision>;

/** comparison key (`study/treatment`) → its decision */
export const StopDecisions = z.record(z.string(), StoredDecision);
export type StopDecisions = z.infer<typeof StopDecisions>;

const Interval = z.object({ lo: z.number(), hi: z.number() });

/** One comparison (treatment vs the study's baseline) of a stop-when-decided run, as reported. */
export const ComparisonStop = z.object({
  treatment: z.string(),
  /** its decision and why, in words (null: not decided — every pair was sent) */
  decision: StoredDecision.extend({ text: z.string() }).nullable(),
  /** over every complete pair at the end of the run (pairs in flight at the decision included) */
  improved: z.number().int(),
  regressed: z.number().int(),
  pairs: z.number().int(),
  eValue: z.number(),
  /** the anytime-valid interval for the paired difference (a confidence sequence), labelled: never mixed with the fixed-n one of `summary` */
  anytimeValid: z.object({ label: z.string(), interval: Interval, text: z.string() }),
});
export type ComparisonStop = z.infer<typeof ComparisonStop>;

export const StudyStop = z.object({
  study: z.string(),
  plannedPairs: z.number().int(),
  stopped: z.boolean(),
  /** "stopped: decided after n pairs of N" (null: it ran every pair) */
  headline: z.string().nullable(),
  decidedAfterPairs: z.number().int().nullable(),
  trialsNotSent: z.number().int(),
  comparisons: z.array(ComparisonStop),
});
export type StudyStop = z.infer<typeof StudyStop>;

/** The `stopping` part of the JSON export (runs with stop when decided only). */
export const StoppingReport = z.object({
  alpha: z.number(),
  precision: z.number().nullable(),
  seed: z.number().int().nullable(),
  intervalLabel: z.string(),
  trialsPlanned: z.number().int(),
  /** trials never sent because their study was decided: requests saved (at least one each) */
  trialsNotSent: z.number().int(),
  studies: z.array(StudyStop),
});
export type StoppingReport = z.infer<typeof StoppingReport>;
