import type { TccCheck } from '../schema/tcc';
import type { CheckStatus } from '../schema/verdict';
import { ANSWER_FIELDS } from './fields';
import type { ScoringTool } from './fields/types';

export interface VisibilityInput {
  checks: readonly TccCheck[];
  /**
   * The tools the model could see. Today: the tools sent (every tool sent is taken as seen); a trial that
   * records which tools were visible passes those instead — the fields' rules do not change.
   */
  tools: readonly ScoringTool[];
}

/**
 * The visibility checkpoint (DESIGN §2): untested without tools; fail when a check expects what the visible
 * tools cannot give (each field module's `visibleIn`, e.g. `tool`: the expected tool is among them,
 * `decision: write`: a write tool is); pass otherwise.
 */
export function visibility({ checks, tools }: VisibilityInput): CheckStatus {
  if (tools.length === 0) return 'untested';
  for (const c of checks)
    for (const f of ANSWER_FIELDS) {
      const expected = Object.hasOwn(c.expected, f.name) ? c.expected[f.name] : undefined;
      if (f.visibleIn && expected !== undefined && !f.visibleIn(expected, tools)) return 'fail';
    }
  return 'pass';
}
