import type { z } from 'zod';
import { toolSetRef } from '../hash';
import type { Observation } from '../schema/observation';
import { TccCard, TccObservations, type EvidenceGateItem, type TccCheck } from '../schema/tcc';
import { observationToTcc, type ScoringTool } from '../scoring/observe';

/**
 * A trial as TCC v0.1 (seed 000's format, unchanged): its case card with the context filled in (model,
 * `tool_set_ref` = SHA-256 of the canonical JSON of the tool list sent) and its observation file keyed by
 * check id. `tclab compare card.json observations.json` on the pair gives the trial's verdicts (same
 * statuses and reasons as `scoreTrial`, by construction: both go through lib/scoring/compare.ts).
 */

export interface SentTool extends ScoringTool {
  description: string;
}

export interface TrialTccInput {
  kase: {
    id: string;
    locale: string;
    task: string;
    checks: TccCheck[];
    evidenceGate?: z.infer<typeof EvidenceGateItem>[];
  };
  /** Model and settings, e.g. `gemini/gemini-3.1-flash-lite temperature=0 seed=7`. */
  model: string;
  /** The client and its version; defaults to Tool Contract Lab's. */
  client?: string | null;
  /** The tools sent, in the order sent, with their hidden metadata. */
  tools: SentTool[];
  /** The trial's final observation; null when no attempt produced a model answer. */
  observation: Observation | null;
  /** Frozen test data / back-end state, when a fixture back-end was used. */
  fixtureRef?: string | null;
  /** Defaults to `fixture` with a fixture_ref, otherwise `proposal` (calls proposed, never executed). */
  mode?: string | null;
}

export const TCC_CLIENT = 'Tool Contract Lab (tclab) 0.1';

/** The wire shape of the tools sent (hidden metadata stripped), the input of `tool_set_ref`. */
export function sentToolSetRef(tools: readonly SentTool[]): string {
  return toolSetRef(tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })));
}

export function trialCard(input: TrialTccInput): TccCard {
  const fixtureRef = input.fixtureRef ?? null;
  return TccCard.parse({
    tcc_version: '0.1',
    case_id: input.kase.id,
    locale: input.kase.locale,
    task: input.kase.task,
    context: {
      client: input.client ?? TCC_CLIENT,
      model: input.model,
      tool_set_ref: sentToolSetRef(input.tools),
      fixture_ref: fixtureRef,
      mode: input.mode ?? (fixtureRef ? 'fixture' : 'proposal'),
    },
    evidence_gate: input.kase.evidenceGate ?? [],
    checks: input.kase.checks,
  });
}

export function trialObservations(input: Pick<TrialTccInput, 'kase' | 'tools' | 'observation'>): TccObservations {
  return TccObservations.parse(observationToTcc(input.kase.checks, input.observation, input.tools));
}

export function exportTrialTcc(input: TrialTccInput): { card: TccCard; observations: TccObservations } {
  return { card: trialCard(input), observations: trialObservations(input) };
}

/** File names for a trial's pair, e.g. `<trialId>.card.json` and `<trialId>.observations.json`. */
export function tccFileNames(trialId: string): { card: string; observations: string } {
  const safe = trialId.replace(/[^A-Za-z0-9_.-]+/g, '_');
  return { card: `${safe}.card.json`, observations: `${safe}.observations.json` };
}
