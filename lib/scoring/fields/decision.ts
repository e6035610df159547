import type { Observation } from '../../schema/observation';
import { Decision } from '../../schema/tcc';
import { cardExpects, malformedCall, selection, SELECTION_CATEGORIES } from '../categories';
import { exact } from './shared';
import type { AnswerField, DerivedDecision, ScoringTool } from './types';

/**
 * Decision from the observation (docs/design.md#scoring-rules): the first call's tool effect (read/write); without a call, the
 * CLARIFY / STOP marker; a first call naming no sent tool, or with unparseable arguments, is `malformed`.
 */
export function deriveDecision(observation: Observation, tools: readonly ScoringTool[]): DerivedDecision {
  const firstCall = observation.toolCalls[0] ?? null;
  if (firstCall) {
    const firstTool = tools.find((t) => t.name === firstCall.name) ?? null;
    if (!firstTool) return { decision: 'malformed', part: 'toolCalls[0].name', malformed: `unknown_tool:${firstCall.name}`, firstCall, firstTool };
    if (firstCall.arguments === null)
      return { decision: 'malformed', part: 'toolCalls[0].arguments', malformed: observation.malformed ?? 'unparseable_arguments', firstCall, firstTool };
    return { decision: firstTool.effect, part: 'toolCalls[0].name', malformed: null, firstCall, firstTool };
  }
  const none = { firstCall: null, firstTool: null };
  if (observation.malformed) return { decision: 'malformed', part: 'toolCalls', malformed: observation.malformed, ...none };
  if (observation.marker === 'CLARIFY') return { decision: 'clarify', part: 'text', malformed: null, ...none };
  if (observation.marker === 'STOP') return { decision: 'stop', part: 'text', malformed: null, ...none };
  if (observation.refusal) return { decision: 'refusal', part: 'refusal', malformed: null, ...none };
  return { decision: 'none', part: 'text', malformed: null, ...none };
}

/** `decision`: read / write / clarify / stop — what the model chose to do. */
export const decision: AnswerField<'decision'> = {
  name: 'decision',
  source: 'answer',
  checkpoint: 'selection',
  rule: "decision: the first call's tool effect (read/write), else the CLARIFY/STOP marker (docs/design.md#scoring-rules)",
  categories: [...SELECTION_CATEGORIES, 'malformed_call'],
  observe: ({ derived }) => derived.decision,
  reportsMalformed: true,
  part: (derived) => derived?.part ?? null,
  compare: exact('decision', true),
  categorize: (_f, check, ctx) => {
    const want = cardExpects(check, ctx);
    return malformedCall(ctx) ?? selection(want.decision, want.tool, ctx);
  },
  // a read or write decision needs a sent tool of that effect
  visibleIn: (expected, tools) => !(expected === 'read' || expected === 'write') || tools.some((t) => t.effect === expected),
  designer: { label: 'decision', input: 'select', options: Decision.options },
};
