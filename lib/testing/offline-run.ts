import { buildRequest, expandTrials, findStudyCase, naturalDefinitions, resolveSent } from '../design/matrix';
import { toScoringTool } from '../design/catalog';
import { simulatedProvider } from '../providers/simulated';
import { checksFor, type ExperimentSpec } from '../schema/experiment';
import { RunSettings } from '../schema/run';
import type { ProviderResult } from '../schema/request';
import type { TrialOutcome } from '../schema/table1';
import { trialStatusOf } from '../schema/verdict';
import { scoreTrial, trialCategories } from '../scoring/score';
import { observed } from './provider-fixtures';

/**
 * Every formal request of `spec`, built as the runner builds it, answered by the simulated provider (`model`:
 * one of its models; the lexical one by default) and scored by the product's scorer: pure, no database, for
 * offline template tests. Nothing here decides a pass or counts a cell.
 */
export async function runOffline(spec: ExperimentSpec, model?: string): Promise<{ results: ProviderResult[]; outcomes: TrialOutcome[]; sent: string[][] }> {
  const settings = RunSettings.parse(model ? { model } : {});
  const effects = new Map(spec.scenarios.map((s) => [s.id, new Map(s.tools.map((t) => [t.id, t.effect]))]));
  const results: ProviderResult[] = [];
  const outcomes: TrialOutcome[] = [];
  const sent: string[][] = [];
  for (const [i, t] of expandTrials(spec).entries()) {
    const { study, kase } = findStudyCase(spec, t.study, t.caseId);
    const condition = study.conditions.find((c) => c.id === t.condition)!;
    const defs = naturalDefinitions(spec, condition, t.scenario, t.locale);
    const order = resolveSent(study, defs, t.scenario, t.order);
    const request = buildRequest(spec, { study: t.study, caseId: t.caseId, condition: t.condition, names: t.order });
    const result = await simulatedProvider.send(request, { settings });
    results.push(result);
    sent.push([...t.order]);
    const { verdicts } = scoreTrial({
      checks: checksFor(kase, t.condition),
      observation: observed(result),
      attemptN: 1,
      tools: order.map((d) => {
        const { description: _, ...tool } = toScoringTool(d, effects.get(t.scenario));
        return tool;
      }),
      visible: t.visible ?? 'unknown',
      markers: study.protocol.markers,
      labels: study.protocol.labels,
      task: kase.task,
    });
    outcomes.push({
      id: `t${i}`,
      study: t.study,
      scenario: t.scenario,
      locale: t.locale,
      caseId: t.caseId,
      condition: t.condition,
      orderIndex: t.orderIndex,
      replicate: t.replicate,
      pairKey: t.pairKey,
      status: trialStatusOf(verdicts),
      categories: trialCategories(verdicts),
    });
  }
  return { results, outcomes, sent };
}
