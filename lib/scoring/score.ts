import type { Markers } from '../schema/experiment';
import type { Observation } from '../schema/observation';
import type { Decision, TccCheck } from '../schema/tcc';
import { trialStatusFromVerdicts, type Checkpoint, type CheckStatus, type Evidence, type Verdict } from '../schema/verdict';
import { categorize, type CategoryContext } from './categories';
import { compareCheck, expectedFields, type CheckResult } from './compare';
import { deriveDecision, observationToTcc, type DerivedDecision, type ScoringTool } from './observe';

export { FIELD_CHECKPOINT, FIELD_RULE };
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

const FIELD_CHECKPOINT: Record<string, Checkpoint> = {
  decision: 'selection',
  tool: 'selection',
  call_count: 'selection',
  arguments: 'parameters',
  label: 'interpretation',
  write_count: 'completion',
  state: 'completion',
  duplicate_writes: 'completion',
  unauthorized_calls: 'completion',
};

const FIELD_RULE: Record<string, string> = {
  decision: "decision: the first call's tool effect (read/write), else the CLARIFY/STOP marker (DESIGN §6)",
  tool: "tool: the first call's scenario tool (DESIGN §6)",
  call_count: 'call_count: number of tool calls, exact',
  arguments: 'arguments: the complete call — every expected key with an acceptable value, no other key (DESIGN §6)',
  label: 'label: the label after the STATUS marker, exact',
  write_count: 'write_count: writes the fixture applied (its log)',
  state: 'verified: the final fixture state has the records the card names, and nothing else changed (per-field diff)',
  duplicate_writes: 'duplicate_writes: applied writes repeating an earlier one (same tool, same arguments)',
  unauthorized_calls: 'unauthorized_calls: calls the fixture refused, the principal lacking the permission',
};

function checkpointOf(check: TccCheck, r: CheckResult): Checkpoint {
  const field = r.failed?.field ?? expectedFields(check)[0];
  return FIELD_CHECKPOINT[field ?? ''] ?? 'selection';
}

function partOf(field: string | undefined, d: DerivedDecision | null, r: CheckResult): string | null {
  switch (field) {
    case 'decision':
      return d?.part ?? null;
    case 'tool':
      return 'toolCalls[0].name';
    case 'call_count':
      return 'toolCalls';
    case 'arguments': {
      const fields = r.failed?.field === 'arguments' ? (r.failed.match?.fields ?? []) : [];
      return fields.length === 1 ? `toolCalls[0].arguments.${fields[0]}` : 'toolCalls[0].arguments';
    }
    case 'label':
      return 'label';
    default:
      return null;
  }
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
 * Candidate visibility (checkpoint 1), observed: pass when every tool the card needs was among the names the
 * model could see before it decided, fail when one was not, untested when that cannot be known. When it
 * fails, the selection and parameters verdicts become untested: the model could not have chosen the tool.
 * (One function, so that it can move to the check-field registry as a unit.)
 */
function visibility(
  checks: readonly TccCheck[],
  tools: readonly ScoringTool[],
  visible: ScoreTrialInput['visible'],
  verdicts: Verdict[],
): { status: CheckStatus; verdicts: Verdict[] } {
  if (tools.length === 0 || visible === 'unknown') return { status: 'untested', verdicts };
  const seen = new Set(visible ?? tools.map((t) => t.name));
  const candidates = tools.filter((t) => !t.distractor && seen.has(t.name));
  let missing: string | null = null;
  for (const c of checks) {
    const { tool, decision } = c.expected;
    if (tool && !candidates.some((t) => t.id === tool)) missing = `tool "${tool}"`;
    else if ((decision === 'read' || decision === 'write') && !candidates.some((t) => t.effect === decision)) missing = `a ${decision} tool`;
    if (missing) break;
  }
  if (!missing) return { status: 'pass', verdicts };
  const reason = `not visible: the card needs ${missing}, which was not among the ${seen.size} tools the model could see`;
  return {
    status: 'fail',
    verdicts: verdicts.map((v) =>
      v.checkpoint === 'selection' || v.checkpoint === 'parameters'
        ? { ...v, status: 'untested', category: null, reason, evidence: { ...v.evidence, rule: `untested: ${reason} (visibility failed, DESIGN §3)` } }
        : v,
    ),
  };
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
    const cat = ctx ? categorize(check, r, ctx) : null;
    const evidence: Evidence = {
      attemptN,
      part: partOf(field, derived, r),
      rule: [FIELD_RULE[field ?? ''] ?? `${field}: exact match`, cat?.rule].filter(Boolean).join('; '),
      expected: r.failed ? r.failed.expected : check.expected,
      observed: r.failed ? r.failed.observed : entry,
    };
    const fields = r.failed?.match?.fields;
    if (fields && fields.length > 0) evidence.fields = fields;
    return { checkId: check.id, axis: check.axis, checkpoint, status: r.status, category: cat?.category ?? null, reason: r.reason, evidence };
  });

  const seen = visibility(checks, tools, input.visible, scored);
  const verdicts = seen.verdicts;
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
