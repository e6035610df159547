// What a record warns of beside its numbers (docs/optimise.md "A model's rewrite"): a rewriter that shares a
// provider or a model with a model under test may share its blind spots — the expected call still comes from the
// case card, never from the rewriter, but the rewrite may suit that model more than others. Pure: pages and the
// CLI print the same words.

import type { OptimisationCandidate } from '../schema/optimisation';

export function rewriterWarnings(candidates: readonly Pick<OptimisationCandidate, 'condition' | 'provenance'>[], targets: readonly string[]): string[] {
  const out: string[] = [];
  for (const c of candidates) {
    const m = /^model:([^:]+):(.+)$/.exec(c.provenance);
    if (!m) continue;
    const [, provider, model] = m;
    for (const t of targets) {
      const at = t.indexOf(':');
      const [tp, tm] = [t.slice(0, at), t.slice(at + 1)];
      if (tp === provider && tm === model)
        out.push(`${c.condition} was written by ${provider}:${model}, the model it is tested on: it may suit that model more than others`);
      else if (tp === provider) out.push(`${c.condition} was written by ${provider}:${model}, of the same provider as the target ${t}: they may share blind spots`);
    }
  }
  return out;
}
