import { buildRequest, expandTrials, findStudyCase, naturalDefinitions, resolveSent } from '../design/matrix';
import { toScoringTool } from '../design/catalog';
import { simulatedProvider } from '../providers/simulated';
import type { ExperimentSpec } from '../schema/experiment';
import { RunSettings } from '../schema/run';
import type { ProviderResult } from '../schema/request';
import type { TrialOutcome } from '../schema/table1';
import { trialStatusOf } from '../schema/verdict';
import { trialCategories } from '../scoring/score';
import { converse } from '../studies/conversation';
import { kindModule } from '../studies/registry';

/**
 * Every formal trial of `spec`, its request built as the runner builds it, its conversation (the study kind's,
 * as the engine runs it) answered by the simulated provider (`model`: one of its models; the lexical one by
 * default) and scored by the kind's own scoring: pure, no database, for offline template tests. Nothing here
 * decides a pass or counts a cell. `results`: the answer of each trial's last turn.
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
    const tools = order.map((d) => {
      const { description: _, ...tool } = toScoringTool(d, effects.get(t.scenario));
      return tool;
    });
    const conversation = kindModule(study.kind).start({ spec, study, kase, condition: t.condition, tools, visible: t.visible ?? 'unknown' });
    let attempt = 1;
    const r = await converse({
      conversation,
      request,
      stored: [],
      firstAttemptN: 1,
      nextAttemptN: async () => ++attempt,
      send: (req) => simulatedProvider.send(req, { settings }),
      store: async () => true,
    });
    // the last turn's answer, observed by the conversation (lib/scoring/answer.ts) as the engine's is
    if (r.kind !== 'finished' || !r.result) throw new Error(`trial ${i}: the simulated conversation did not finish (${r.kind})`);
    results.push(r.result);
    sent.push([...t.order]);
    const { verdicts } = r.score;
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
