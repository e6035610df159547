import { checksFor } from '../schema/experiment';
import { scoreTrial } from '../scoring/score';
import type { Conversation, ConversationContext } from './types';

/**
 * The conversation of a single-answer kind (selection, interpretation): a turn limit of 1, calls that are
 * the answer (nothing runs them), scored on that answer against the case card.
 */
export function oneAnswer({ study, kase, condition, tools, visible }: ConversationContext): Conversation {
  return {
    maxTurns: 1,
    score(turns) {
      const last = turns[turns.length - 1];
      if (!last) throw new Error(`case "${kase.id}": a conversation is scored on its last answer, and it has none`);
      // vendor tool search: what the provider returned decides visibility (before sending it is 'unknown')
      const observed = last.visible;
      const s = scoreTrial({
        checks: checksFor(kase, condition),
        observation: last.observation,
        attemptN: last.attemptN,
        tools,
        visible: observed ?? visible,
        markers: study.protocol.markers,
        labels: study.protocol.labels,
        task: kase.task,
      });
      return { ...s, observation: last.observation, details: null, ...(observed ? { visible: observed } : {}) };
    },
  };
}
