import { z } from 'zod';
import type { TrialPlace } from './trial-place';

// The row that lib/db/choices.ts reads and lib/analysis/choices.ts counts (what the model did: docs/results.md#what-the-model-did).

/** One trial as the choice views need it (read by lib/db/choices.ts from the stored trials). */
export interface ChoiceRow extends Omit<TrialPlace, 'id'> {
  trialId: string;
  /** Tool names in the order they were sent. */
  order: string[];
  /** The trial's status: passed, failed, untested, unresolved, or not final yet (queued, running, …). */
  status: string;
  /** The first tool call's name; null when the answer called no tool (or there is no answer). */
  tool: string | null;
  marker: string | null;
  label: string | null;
  /** Whether an observation was recorded (an answer came). */
  answered: boolean;
  /** How many trials this row stands for (grouped reads: replicates alike in all of the above); 1 when absent. */
  count?: number;
}

/** A trial's choice in the JSON export (`trials[].choice`): what the card expected, what the model did, where it stood. */
export const ExportTrialChoice = z.object({
  /** The expected decision: the expected tool by the name this condition sent it under, CLARIFY, STOP or `label <L>`; null when the card says nothing of it. */
  expected: z.string().nullable(),
  expectedToolId: z.string().nullable(),
  /** The tool called first (as sent), CLARIFY, STOP, `label <L>`, `text` or `no answer`. */
  chosen: z.string(),
  /** 1-based position of the chosen tool in the order sent; null when no listed tool was called. */
  position: z.number().int().min(1).nullable(),
});

/** Expected × chosen counts of one study × condition. */
export const ChoiceMatrix = z.object({
  study: z.string(),
  condition: z.string(),
  expected: z.array(z.string()),
  chosen: z.array(z.string()),
  /** counts[i][j]: trials expecting expected[i] whose decision was chosen[j]. */
  counts: z.array(z.array(z.number().int().min(0))),
});
export type ChoiceMatrix = z.infer<typeof ChoiceMatrix>;

/** Which position the chosen tool held, per study × condition. */
export const ChoicePositions = z.object({
  study: z.string(),
  condition: z.string(),
  /** byPosition[k]: trials whose chosen tool was listed (k + 1)th. */
  byPosition: z.array(z.number().int().min(0)),
  /** Trials that called no tool the request listed (a marker, text, a name not sent, or no answer). */
  noListedTool: z.number().int().min(0),
  trials: z.number().int().min(0),
});
export type ChoicePositions = z.infer<typeof ChoicePositions>;

/** The JSON export's `choices`: the matrices and positions of the whole run. */
export const ExportChoices = z.object({ matrix: z.array(ChoiceMatrix), positions: z.array(ChoicePositions) });
export type ExportChoices = z.infer<typeof ExportChoices>;
