import type { TccCheck } from '../schema/tcc';
import type { Verdict } from '../schema/verdict';
import { ANSWER_FIELDS } from './fields';
import type { ScoringTool } from './fields/types';

export interface VisibilityInput {
  checks: readonly TccCheck[];
  /** The tools sent, in order, with their hidden metadata (catalog distractors marked). */
  tools: readonly ScoringTool[];
  /**
   * Names the model could see before it decided, as observed (the tools sent, a retriever's top-k, a vendor
   * search's references); absent: every tool sent was visible; `unknown`: it cannot be known.
   */
  visible?: readonly string[] | 'unknown';
}

export type VisibilityResult = { status: 'pass' | 'untested'; reason: null } | { status: 'fail'; reason: string };

/**
 * The visibility checkpoint (docs/design.md#the-five-checkpoints), observed: untested without tools or when what the model saw cannot
 * be known; fail when a check expects what the visible candidates cannot give (each field module's
 * `visibleIn`, e.g. `tool`: the expected tool is among them, `decision: write`: a write tool is); pass
 * otherwise. A catalog distractor is never a candidate for the card.
 */
export function visibility({ checks, tools, visible }: VisibilityInput): VisibilityResult {
  if (tools.length === 0 || visible === 'unknown') return { status: 'untested', reason: null };
  const seen = new Set(visible ?? tools.map((t) => t.name));
  const candidates = tools.filter((t) => !t.distractor && seen.has(t.name));
  for (const c of checks)
    for (const f of ANSWER_FIELDS) {
      const expected = Object.hasOwn(c.expected, f.name) ? c.expected[f.name] : undefined;
      if (f.visibleIn && expected !== undefined && !f.visibleIn(expected, candidates)) {
        const needs = f.name === 'tool' ? `tool "${String(expected)}"` : f.name === 'decision' ? `a ${String(expected)} tool` : `${f.name} ${JSON.stringify(expected)}`;
        return { status: 'fail', reason: `not visible: the card needs ${needs}, which was not among the ${seen.size} tools the model could see` };
      }
    }
  return { status: 'pass', reason: null };
}

/**
 * When visibility fails, selection and parameters are untested, never failures of the model: it could not
 * have chosen a tool it did not see (docs/design.md#the-five-checkpoints).
 */
export function untestedWhenNotVisible(verdicts: readonly Verdict[], reason: string): Verdict[] {
  return verdicts.map((v) =>
    v.checkpoint === 'selection' || v.checkpoint === 'parameters'
      ? {
          ...v,
          status: 'untested',
          category: null,
          reason,
          evidence: { ...v.evidence, rule: `untested: ${reason} (visibility failed, docs/design.md#the-five-checkpoints)` },
        }
      : v,
  );
}
