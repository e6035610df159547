import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { ExperimentSpec } from '../schema/experiment';
import { catalogCosts } from './tokens';
import { naturalDefinitions, orderCount } from './matrix';

// What one run of a spec is estimated to cost on one model: the prompt tokens of every formal request (as
// the plan counts them, lib/design/plan.ts) and the price table's row for the model. Used by the spend guard
// before a run is created, so computed arithmetically, without the plan's linting or listing any trial.

/** Estimated prompt tokens of every formal request of one run together (equals planExperiment's inputTokens). */
export function formalInputTokens(spec: ExperimentSpec): number {
  const catalogTokens = new Map(catalogCosts(spec).map((c) => [`${c.study}|${c.condition}|${c.scenario}|${c.locale}`, c.tokens]));
  let total = 0;
  for (const study of spec.studies) {
    const systemTokens = new Map(Object.entries(study.protocol.system).map(([l, text]) => [l, countTokens(text)]));
    for (const kase of study.cases) {
      const sent = naturalDefinitions(spec, study.conditions[0], kase.scenario, kase.locale).length;
      const n = orderCount(sent, study.orderPolicy) * spec.replicates;
      const extra =
        countTokens(kase.task) +
        (systemTokens.get(kase.locale) ?? 0) +
        ('toolResult' in kase && kase.toolResult !== undefined ? countTokens(JSON.stringify(kase.toolResult)) : 0);
      for (const condition of study.conditions) total += n * ((catalogTokens.get(`${study.id}|${condition.id}|${kase.scenario}|${kase.locale}`) ?? 0) + extra);
    }
  }
  return total;
}
