import { afterAll, describe, expect, it } from 'vitest';
import { closeDb } from '../db/client';
import { saveExperiment } from '../experiments/versions';
import { closeQueues } from '../queue/connection';
import { runToCompletion } from '../testing/engine';
import { getTemplate } from '../templates';
import { ExperimentSpec } from '../design/experiment-spec';
import { proposeVariants, withVariants } from '../design/variants';
import { proposeAblations } from '../design/ablations';
import { RunExport } from '../schema/run-export';
import { runJsonStream } from './export';

// Generated variants run offline as ordinary conditions (the simulated provider, the real queue and worker),
// and the JSON export carries each one's kind, and the condition it was made from, per condition.

afterAll(async () => {
  await closeQueues();
  await closeDb();
});

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += chunk.toString();
  return out;
}

describe('variants in the export', () => {
  it('a placebo, the mutants and an ablation of the reference treatment: each condition of the export names its kind', async () => {
    const reference = ExperimentSpec.parse(getTemplate('reference-study').build());
    const selection = reference.studies.find((s) => s.id === 'selection')!;
    const small = { ...selection, cases: selection.cases.filter((c) => c.locale === 'en').slice(0, 2) };
    const base = { ...reference, id: 'variants-export-itest', studies: [small], prechecks: [] };
    const v = proposeVariants(base, 'selection', 'clear');
    const ablation = proposeAblations(small, 'clear').find((p) => p.group === 'descriptions')!.condition;
    const spec = withVariants(base, 'selection', [...v.proposals.map((p) => p.condition), ablation]);
    const kinds = Object.fromEntries(spec.studies[0].conditions.map((c) => [c.id, c.variant ? `${c.variant.kind} of ${c.variant.of}` : null]));
    expect(kinds).toEqual({
      overlapping: null,
      clear: null,
      'clear-placebo': 'placebo of clear',
      'clear-mutant-restates-name': 'mutant:restates-name of clear',
      'clear-mutant-write-not-said': 'mutant:write-not-said of clear', // in the zh-TW definitions
      'clear-mutant-vague-purpose': 'mutant:vague-purpose of clear',
      'clear-mutant-model-directed-instruction': 'mutant:model-directed-instruction of clear',
      'clear-only-descriptions': 'ablation of clear',
    });
    const exp = await saveExperiment(spec);
    const runId = await runToCompletion(exp.id, { provider: 'simulated', model: 'heuristic' });

    const exported = RunExport.parse(JSON.parse(await text(await runJsonStream(runId))));
    const conditions = exported.experiment.studies[0].conditions;
    expect(Object.fromEntries(conditions.map((c) => [c.id, c.variant ? `${c.variant.kind} of ${c.variant.of}` : null]))).toEqual(kinds);
    // ordinary conditions: each has its trials, paired with the baseline's
    const byCondition = new Map<string, string[]>();
    for (const t of exported.trials) byCondition.set(t.condition, [...(byCondition.get(t.condition) ?? []), t.pairKey]);
    expect([...byCondition.keys()].sort()).toEqual(Object.keys(kinds).sort());
    const pairs = (c: string) => [...byCondition.get(c)!].sort();
    for (const c of Object.keys(kinds)) expect(pairs(c)).toEqual(pairs('overlapping'));
  }, 240_000);
});
