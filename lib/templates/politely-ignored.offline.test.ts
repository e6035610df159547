import { describe, expect, it } from 'vitest';
import { summarizeRun } from '../analysis/summary';
import { SIMULATED_ENGINE, SIMULATED_GENERIC_PREFERRING } from '../simulator';
import { ExperimentSpec } from '../design/experiment-spec';
import { runOffline } from '../testing/offline-run';
import { observed } from '../testing/provider-fixtures';
import { politelyIgnored, politelyIgnoredInput } from './politely-ignored';
import { getTemplate } from './index';

// The politely-ignored template shows seed 001's effect offline — with the generic-preferring
// simulated model (a heuristic, not a language model), the published descriptions lose the Amazon tools to the
// generic browser, the rewrite (whose session, what the cache means, what protects a write) wins them back.
// Everything goes through the product's request builder, simulator, scorer and Table 1 (lib/testing/offline-run).

const spec = politelyIgnored();
const browserCalls = (r: Awaited<ReturnType<typeof runOffline>>, condition: string) =>
  r.results.filter((x, i) => r.outcomes[i].condition === condition && observed(x).toolCalls[0]?.name === 'browser').length;

describe('politely ignored, offline, through the generic-preferring simulated model', async () => {
  const run = await runOffline(spec, SIMULATED_GENERIC_PREFERRING);
  const summary = summarizeRun(spec, run.outcomes);
  const study = summary.studies[0];

  it('the template names the simulated model that shows its effect, and what a simulator cannot show', () => {
    const t = getTemplate('politely-ignored');
    expect(t.simulated.model).toBe(SIMULATED_GENERIC_PREFERRING);
    expect(t.simulated.cannotShow).toMatch(/not a language model/);
  });

  it('a paired improvement driven by the browser being chosen less', () => {
    const pairs = study.pairs!;
    expect(pairs.improved).toBeGreaterThan(0);
    expect(pairs.regressed).toBe(0);
    expect(study.total.treatment.pass).toBeGreaterThan(study.total.baseline.pass);
    const before = browserCalls(run, 'published');
    const after = browserCalls(run, 'rewritten');
    expect(before).toBeGreaterThan(after);
    // every improved pair is one where the baseline called the browser
    const byPair = new Map<string, { published?: number; rewritten?: number }>();
    run.outcomes.forEach((o, i) => byPair.set(o.pairKey, { ...byPair.get(o.pairKey), [o.condition]: i }));
    let improvedFromBrowser = 0;
    for (const { published, rewritten } of byPair.values()) {
      if (run.outcomes[published!].status === 'failed' && run.outcomes[rewritten!].status === 'passed') {
        expect(observed(run.results[published!]).toolCalls[0]?.name).toBe('browser');
        improvedFromBrowser++;
      }
    }
    expect(improvedFromBrowser).toBe(pairs.improved);
  });

  it('the lexical model does not show it: the same counts in both conditions is what a newcomer saw', async () => {
    const lexical = await runOffline(spec, SIMULATED_ENGINE);
    expect(browserCalls(lexical, 'published')).toBe(browserCalls(lexical, 'rewritten'));
  });

  it('reads only what a model is sent: renamed conditions (ids and labels) give the same answers', async () => {
    const input = politelyIgnoredInput();
    const [a, b] = input.studies[0].conditions;
    a.id = 'zz-treatment-looking';
    a.label = 'Rewritten (session, cache, audit)';
    b.id = 'aa-baseline-looking';
    b.label = 'As published';
    input.prechecks = [];
    const renamed = ExperimentSpec.parse(input);
    const again = await runOffline(renamed, SIMULATED_GENERIC_PREFERRING);
    const key = (o: { caseId: string; orderIndex: number }, side: number) => `${o.caseId}|${o.orderIndex}|${side}`;
    const answers = (r: typeof run, ids: [string, string]) =>
      new Map(r.outcomes.map((o, i) => [key(o, ids.indexOf(o.condition)), JSON.stringify(observed(r.results[i]))]));
    expect(answers(again, ['zz-treatment-looking', 'aa-baseline-looking'])).toEqual(answers(run, ['published', 'rewritten']));
  });
});
