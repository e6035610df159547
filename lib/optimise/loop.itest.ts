import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLineActor } from '../auth/roles';
import { closeDb, pool } from '../db/client';
import { getExperiment } from '../db/experiments';
import { getOptimisation } from '../db/optimisations';
import { caseSetHash } from '../design/splits';
import { ensureTemplateExperiment } from '../experiments/templates';
import { saveExperiment } from '../experiments/versions';
import { SIMULATED_ENGINE, SIMULATED_GENERIC_PREFERRING } from '../simulator';
import { closeQueues } from '../queue/connection';
import { startWorker, type WorkerHandle } from '../runner/worker';
import type { ExperimentSpec } from '../schema/experiment';
import { optimise, OptimiseFailed, OptimiseInputError } from './loop';
import { setProviderEnv } from '../testing/provider-fixtures';

// The improve-descriptions loop (docs/optimise.md) through the real queue, worker and database: the
// politely-ignored template with the generic-preferring simulated model, which takes the generic browser
// unless an Amazon tool's definition gives a checkable reason (whose session, what it caches, what protects a
// write). The template's hand-written rewrite gives those reasons; so does the rule-driven fix of
// `fact-not-said`, from the facts the template's scenario records (lib/design/tool-facts.ts); the other fixes
// add no such fact, and the placebo only pads.

const actor = commandLineActor('optimise-test');
const target = { provider: 'simulated' as const, model: SIMULATED_GENERIC_PREFERRING };
let worker: WorkerHandle;
let source: { id: string; spec: ExperimentSpec };

beforeAll(async () => {
  worker = startWorker({ concurrency: 8 });
  await worker.ready;
  // the template under an id of this test's own: the integration files share one database, and looks are
  // counted per source version and seal — another file's loop on the template must not number this one's
  const template = (await getExperiment((await ensureTemplateExperiment('politely-ignored')).id))!.spec;
  const exp = await saveExperiment({ ...structuredClone(template), id: `politely-ignored-loop-${process.pid}` });
  source = { id: exp.id, spec: (await getExperiment(exp.id))!.spec };
});
afterAll(async () => {
  await worker.close();
  await closeQueues();
  await closeDb();
});

/** The template's study with each of its 8 cards asked six ways (48 cases): enough cases to confirm. */
async function largerVersion(publishedOnly = false): Promise<string> {
  const spec = structuredClone(source.spec);
  spec.id = `politely-ignored-48${publishedOnly ? '-published' : ''}-${process.pid}`;
  const study = spec.studies[0];
  // an author whose own rewrite only drops the false dotted names: it gives the model no reason
  if (publishedOnly) {
    const published = study.conditions.find((c) => c.baseline)!;
    const own = study.conditions.find((c) => !c.baseline)!;
    own.label = 'Published, false names dropped';
    own.tools = structuredClone(published.tools);
    for (const d of own.tools.amazon.en) d.description = d.description.replace(/\s*Exposed as \S+\.$/, '');
  }
  const ways = ['', 'Please help. ', 'Quick one: ', 'Hello! ', 'For today: ', 'One more thing. '].map((prefix) => (t: string) => `${prefix}${t}`);
  study.cases = study.cases.flatMap((c) => ways.map((w, i) => ({ ...structuredClone(c), id: i === 0 ? c.id : `${c.id}-${i + 1}`, task: w(c.task) })));
  return (await saveExperiment(spec)).id;
}

describe('the loop on politely-ignored with the generic-preferring model', () => {
  it('the shipped template (8 cases): the rewrite that gives reasons is selected and frozen; 2 confirm cases are too few to confirm', async () => {
    const record = await optimise({ experimentId: source.id, study: 'selection', targets: [target], actor });
    expect(await getOptimisation(record.id)).toEqual(record);
    expect(record.sealed.count).toBe(2);
    expect(record.sealed.sha256).toMatch(/^sha256:[0-9a-f]{64}$/);
    const provenance = record.candidates.map((c) => c.provenance);
    expect(provenance).toContain('hand');
    expect(provenance).toContain('placebo');
    expect(provenance.filter((p) => p.startsWith('rule:')).length).toBeGreaterThan(0);
    const ranked = record.result!.select!.ranked;
    expect(ranked).toHaveLength(record.candidates.length); // every candidate, rejected ones included
    expect(ranked[0]).toMatchObject({ candidate: 'rewritten', improved: 7, regressed: 0, beatsPlacebo: true });
    expect(record.winners).toEqual(['rewritten']);
    // side effects (lib/optimise/side-effects.itest.ts holds their numbers): none new, the simulator reports no tokens, and no catalog: no funnel
    for (const r of ranked)
      expect(r.sideEffects, r.candidate).toEqual({ newConfusions: [], perRequest: { requests: 0, inputTokens: null, outputTokens: null, cost: null }, funnel: [] });
    const placebo = ranked.find((r) => r.placebo)!;
    expect(placebo.difference.estimate).toBe(0);
    // confirm: 2 cases × 7 orders, all 14 pairs improved (exact p = 2·0.5^14); both cases at the same rate
    // leave the clustered interval without variance, so the reading cannot be *confirmed*
    const [reading] = record.result!.confirm[0].readings;
    expect(reading).toMatchObject({ candidate: 'rewritten', improved: 14, regressed: 0, claims: 1, reading: 'not-confirmed' });
    expect(reading.pHolm).toBeCloseTo(2 * 0.5 ** 14, 12);
    expect(reading.difference.ci95).toBeNull();
    expect(reading.difference.clusters).toBe(2);
    expect(reading.sentence).toMatch(/^not confirmed: the sealed split gives no interval .*confirm \+100\.0 pp over 2 cases\)$/);
  }, 120_000);

  it('48 cases: the rewrite is confirmed on the sealed split, the placebo is no winner; a second look is numbered and counted', async () => {
    const experimentId = await largerVersion();
    const first = await optimise({ experimentId, study: 'selection', targets: [target], actor, seed: 7 });
    expect(first.stage).toBe('confirmed');
    expect(first.look).toBe(1);
    expect(first.winners).toEqual(['rewritten']);
    const ranked = first.result!.select!.ranked;
    expect(ranked.find((r) => r.placebo)!.difference.estimate).toBeLessThanOrEqual(0);
    const [reading] = first.result!.confirm[0].readings;
    expect(reading.reading).toBe('confirmed');
    expect(reading.pHolm).toBeLessThanOrEqual(0.05);
    expect(reading.difference.ci95![0]).toBeGreaterThan(0);
    expect(reading.vsPlacebo!.pExact).toBeLessThanOrEqual(0.05);
    // the confirm run planned the sealed cases only, and its version is an ordinary stored one
    const confirmSpec = (await getExperiment(first.confirmExperimentId!))!.spec;
    expect(caseSetHash(confirmSpec.studies[0].cases.map((c) => c.id))).toBe(first.sealed.sha256);
    expect(confirmSpec.studies[0].conditions.map((c) => c.id).sort()).toEqual(['published', 'rewritten', 'rewritten-placebo']);

    // a second confirmation of the same split, on two models: look 2, the first look's p counted in Holm
    const lexical = { provider: 'simulated' as const, model: SIMULATED_ENGINE };
    const second = await optimise({ experimentId, study: 'selection', targets: [target, lexical], actor, seed: 7 });
    expect(second.look).toBe(2);
    expect(second.sealed).toEqual(first.sealed);
    expect(second.result!.earlierLookPs).toEqual([reading.pExact]);
    for (const c of second.result!.confirm) {
      expect(c.readings[0].claims).toBe(2);
      expect(c.readings[0].pHolm).toBeGreaterThanOrEqual(c.readings[0].pExact);
    }
    // transfer: an effect on the generic-preferring model, none on the lexical one (it reads no reasons); the
    // lexical model's pairs all agree (SE 0), so Cochran's Q has one usable estimate and is not computed
    const [transfer] = second.result!.transfer;
    expect(transfer.perTarget.map((p) => p.target)).toEqual([`simulated:${SIMULATED_GENERIC_PREFERRING}`, `simulated:${SIMULATED_ENGINE}`]);
    expect(transfer.perTarget[0].difference.ci95![0]).toBeGreaterThan(0);
    expect(transfer.perTarget[1].difference.estimate).toBe(0);
    expect(transfer.heterogeneity).toBeNull();
    // the first record is as it was stored
    expect(await getOptimisation(first.id)).toEqual(first);
  }, 240_000);

  it('48 cases, a hand rewrite that gives no reason: the rule fix that says the recorded facts is selected and confirmed, the placebo is not', async () => {
    const experimentId = await largerVersion(true);
    const record = await optimise({ experimentId, study: 'selection', targets: [target], actor, seed: 7 });
    expect(record.candidates.map((c) => c.provenance)).toContain('hand');
    const fix = record.candidates.find((c) => c.provenance === 'rule:fact-not-said')!;
    // the fix appends the recorded facts to each Amazon tool's description, as text a model reads
    expect(fix.changes.map((c) => c.tool).sort()).toEqual(['add_to_cart', 'add_to_wishlist', 'get_price', 'get_product_details', 'search_book', 'search_product']);
    for (const c of fix.changes) expect(c.after.split('\n')[0].startsWith(c.before.split('\n')[0])).toBe(true);
    const ranked = record.result!.select!.ranked;
    expect(ranked[0]).toMatchObject({ candidate: fix.condition, beatsPlacebo: true });
    expect(ranked[0].difference.estimate).toBeGreaterThan(0);
    // the fixes that say no reason leave the generic-preferring model on the browser: no gain
    for (const r of ranked.filter((r) => r.candidate !== fix.condition)) expect(r.difference.estimate, r.candidate).toBeLessThanOrEqual(0);
    expect(record.winners).toEqual([fix.condition]);
    expect(record.stage).toBe('confirmed');
    const [reading] = record.result!.confirm[0].readings;
    expect(reading).toMatchObject({ candidate: fix.condition, reading: 'confirmed' });
    expect(reading.difference.ci95![0]).toBeGreaterThan(0);
    expect(reading.vsPlacebo!.pExact).toBeLessThanOrEqual(0.05);
  }, 240_000);

  it('a run that cannot start leaves the record failed with the reason, nothing frozen, and what was stored kept', async () => {
    const restore = setProviderEnv({ OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined });
    try {
      const failed = await optimise({ experimentId: source.id, study: 'selection', targets: [{ provider: 'openai', model: 'some-model' }], actor }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(failed).toBeInstanceOf(OptimiseFailed);
      const record = (failed as OptimiseFailed).record;
      expect(await getOptimisation(record.id)).toEqual(record);
      expect(record).toMatchObject({ stage: 'failed', winners: null, frozenAt: null, look: null, confirmRunIds: null });
      expect(record.error).toMatch(/^the select run r_\S+ did not start: /);
      expect(record.selectRunId).not.toBeNull();
      expect(record.candidates.length).toBeGreaterThan(1);
    } finally {
      restore();
    }
  });

  it('bad input names the field and stores nothing', async () => {
    const before = (await pool().query<{ n: number }>('SELECT count(*)::int AS n FROM optimisations')).rows[0].n;
    const bad = (p: Promise<unknown>, field: string) => expect(p).rejects.toSatisfy((e) => e instanceof OptimiseInputError && e.field === field);
    await bad(optimise({ experimentId: source.id, study: 'nope', targets: [target], actor }), 'study');
    await bad(optimise({ experimentId: 'nope-v1', study: 'selection', targets: [target], actor }), 'experimentId');
    await bad(optimise({ experimentId: source.id, study: 'selection', targets: [], actor }), 'targets');
    await bad(optimise({ experimentId: source.id, study: 'selection', targets: [target], actor, maxCandidates: 21 }), 'candidates');
    await bad(optimise({ experimentId: source.id, study: 'selection', targets: [target], actor, shares: { tune: 50, select: 30, confirm: 30 } }), 'split');
    await bad(optimise({ experimentId: source.id, study: 'selection', targets: [target], actor, rule: { kind: 'top', m: 0 } }), 'rule');
    await bad(optimise({ experimentId: source.id, study: 'selection', targets: [target], actor, settings: { temperature: -1 } }), 'targets');
    expect((await pool().query<{ n: number }>('SELECT count(*)::int AS n FROM optimisations')).rows[0].n).toBe(before);
  });
});
