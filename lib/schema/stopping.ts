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
