import type { Markers } from '../schema/experiment';
import type { Observation } from '../schema/observation';
import type { Decision, TccCheck } from '../schema/tcc';
import { trialStatusFromVerdicts, type Checkpoint, type CheckStatus, type Evidence, type Verdict } from '../schema/verdict';
import type { CategoryContext } from './categories';
import { compareCheck } from './compare';
import { answerField, categorizeAnswer, checkpointOfField, expectedFields, ruleOfField } from './fields';
import type { CheckResult } from './fields/types';
import { deriveDecision, observationToTcc, type ScoringTool } from './observe';
import { untestedWhenNotVisible, visibility } from './visibility';

export { compareCard, compareCheck, type CardComparison, type CheckComparison } from './compare';
export { observationToTcc, deriveDecision, type ScoringTool, type ObservedDecision } from './observe';
export { categoriesBaselineTreatment, countCategoriesByCondition, trialCategories } from './categories';

export interface ScoreTrialInput {
  checks: TccCheck[];
  /** null: no model answer (transport error) — every check is untested. */
  observation: Observation | null;
  attemptN: number | null;
  /** The tools sent, in order, with their hidden metadata. */
  tools: ScoringTool[];
  markers: Markers;
  /** Labels the protocol allows after the status marker. */
  labels: string[];
  /** The task text (to tell an invented argument value from a wrong one). */
  task: string;
  /**
   * Names the model could see before it decided, as observed (the tools sent, a retriever's top-k, a vendor
   * search's references); absent: every tool sent was visible; `unknown`: it cannot be known.
   */
  visible?: readonly string[] | 'unknown';
}

export interface TrialScore {
  verdicts: Verdict[];
  checkpoints: Record<Checkpoint, CheckStatus>;
}

/** The checkpoint of a check: its first failing field's, else its first expected field's. */
function checkpointOf(check: TccCheck, r: CheckResult): Checkpoint {
  return checkpointOfField(r.failed?.field ?? expectedFields(check)[0]);
}

/** The scenario tool the card expects: stated by a check, or the only sent tool with the expected effect. */
function cardTool(checks: readonly TccCheck[], tools: readonly ScoringTool[], decision: Decision | null): ScoringTool | null {
  const stated = checks.find((c) => c.expected.tool)?.expected.tool;
  if (stated) return tools.find((t) => t.id === stated) ?? null;
  if (decision !== 'read' && decision !== 'write') return null;
  const same = tools.filter((t) => t.effect === decision);
  return same.length === 1 ? same[0] : null;
}

/**
 * Score one trial against its case card: one verdict per check (pass / fail with one failure category /
 * untested), each with its evidence, and the five checkpoints. The statuses and reasons are exactly those
 * `compareCard(card, observationToTcc(checks, observation, tools))` gives.
 */
export function scoreTrial(input: ScoreTrialInput): TrialScore {
  const { checks, observation, attemptN, tools, task } = input;
  const file = observationToTcc(checks, observation, tools);
  const derived = observation ? deriveDecision(observation, tools) : null;
  const cardDecision = checks.find((c) => c.expected.decision)?.expected.decision ?? null;
  const ctx: CategoryContext | null =
    observation && derived
      ? { observation, derived, tools, task, cardDecision, cardTool: cardTool(checks, tools, cardDecision), markers: input.markers, labels: input.labels }
      : null;

  const scored = checks.map((check): Verdict => {
    const entry = Object.hasOwn(file, check.id) ? file[check.id] : undefined;
    const r = compareCheck(check, entry);
    const checkpoint = checkpointOf(check, r);
    const field = r.failed?.field ?? expectedFields(check)[0];
    if (r.status === 'untested') {
      const why = observation ? 'no evidence: the expectation needs a fixture back-end' : 'no model answer';
      return {
        checkId: check.id,
        axis: check.axis,
        checkpoint,
        status: 'untested',
        category: null,
        reason: r.reason,
        evidence: { attemptN, part: null, rule: `untested: ${why}`, expected: check.expected },
      };
    }
    const cat = ctx ? categorizeAnswer(check, r, ctx) : null;
    const evidence: Evidence = {
      attemptN,
      part: answerField(field)?.part(derived, r.failed) ?? null,
      rule: [ruleOfField(field), cat?.rule].filter(Boolean).join('; '),
      expected: r.failed ? r.failed.expected : check.expected,
      observed: r.failed ? r.failed.observed : entry,
    };
    const fields = r.failed?.match?.fields;
    if (fields && fields.length > 0) evidence.fields = fields;
    return { checkId: check.id, axis: check.axis, checkpoint, status: r.status, category: cat?.category ?? null, reason: r.reason, evidence };
  });

  const seen = visibility({ checks, tools, visible: input.visible });
  const verdicts = seen.status === 'fail' ? untestedWhenNotVisible(scored, seen.reason) : scored;
  const of = (cp: Checkpoint): CheckStatus => {
    const mine = verdicts.filter((v) => v.checkpoint === cp);
    return mine.length === 0 ? 'untested' : trialStatusFromVerdicts(mine);
  };
  const checkpoints: Record<Checkpoint, CheckStatus> = {
    visibility: seen.status,
    selection: of('selection'),
    parameters: of('parameters'),
    interpretation: of('interpretation'),
    completion: of('completion'),
  };
  return { verdicts, checkpoints };
}
