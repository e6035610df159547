import type { z } from 'zod';
import { ExperimentSpecShape } from '../schema/experiment';
import { checkSpecSemantics } from './spec-semantics';

/**
 * The experiment spec, validated: its shape (lib/schema/experiment.ts), then every reference resolved and
 * every parameters schema compiled (./spec-semantics.ts, with each study kind's own checks). Assembled here,
 * above lib/schema, because the semantic checks need the study kinds' modules (lib/studies) and the argument
 * types (./argument-types.ts); lib/schema imports nothing of ours. The one parse of every door
 * (lib/experiments/parse.ts) uses it.
 */
export const ExperimentSpec = ExperimentSpecShape.superRefine((spec, ctx) => {
  for (const i of checkSpecSemantics(spec)) ctx.addIssue({ code: 'custom', path: i.path, message: i.message });
});
export type ExperimentSpec = z.infer<typeof ExperimentSpec>;
export type ExperimentSpecInput = z.input<typeof ExperimentSpec>;
