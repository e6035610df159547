import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLineActor } from '../auth/roles';
import { closeDb, pool } from '../db/client';
import { createRun, startRun } from '../runner/start';
import { FINAL_RUN_STATUSES } from '../schema/run-status';
import { waitForRunStatus } from '../testing/engine';
import { experimentAudit } from '../db/audit';
import { getExperiment } from '../db/experiments';
import { listVersions } from '../db/drafts';
import { ensureTemplateExperiment } from '../experiments/templates';
import { saveExperiment } from '../experiments/versions';
import { splitStudy } from '../design/splits';
import { baselineOf, type ExperimentSpec } from '../schema/experiment';
import { SIMULATED_GENERIC_PREFERRING } from '../simulator';
import { closeQueues } from '../queue/connection';
import { startWorker, type WorkerHandle } from '../runner/worker';
import { startLoopbackServer, type LoopbackServer, type Reply } from '../testing/loopback-server';
import { FAKE_KEY, setProviderEnv } from '../testing/provider-fixtures';
import { advanceOptimisation, optimise, OptimiseInputError, storeOptimisation } from './loop';
import { PROPOSE_TOOL, proposeModelRewrite, RewriteRefused } from './rewriter';
import { SpendConfirmationRequired } from '../runner/spend';
import { matrixSize } from '../schema/bounds';
import { resetEnvCache } from '../env';

// A model's rewrite (docs/optimise.md "A model's rewrite"): the real openai SDK against a loopback server that
// speaks its wire. The prompt holds the tune split's cases and no select or confirm case; the rewrite becomes a
// condition of a new version that declares the split; an answer that is no usable rewrite is refused with the
// reason and stores nothing; and the loop takes the rewrite as one more candidate, on that split alone.

const actor = commandLineActor('rewriter-test');
const rewriter = { provider: 'openai' as const, model: 'gpt-rewriter-test' };
let server: LoopbackServer;
let restoreEnv: () => void;
let worker: WorkerHandle;
let source: { id: string; slug: string; spec: ExperimentSpec };
let reply: Reply;

beforeAll(async () => {
  server = await startLoopbackServer({ script: () => reply });
  restoreEnv = setProviderEnv({ OPENAI_API_KEY: FAKE_KEY, OPENAI_BASE_URL: server.openaiBaseUrl });
  worker = startWorker({ concurrency: 8, advanceOptimisation });
  await worker.ready;
  // the template under this file's own id: integration files share one database
  const template = (await getExperiment((await ensureTemplateExperiment('politely-ignored')).id))!.spec;
  const stored = await saveExperiment({ ...structuredClone(template), id: `politely-ignored-rewrite-${process.pid}` });
  source = { id: stored.id, slug: stored.slug, spec: (await getExperiment(stored.id))!.spec };
});
afterAll(async () => {
  await worker.close();
  await closeQueues();
  await closeDb();
  restoreEnv();
  await server.close();
});

const studyOf = (spec: ExperimentSpec) => spec.studies.find((s) => s.id === 'selection')!;

/** The rewrite the loopback "model" proposes: the hand-rewritten condition's description of every tool it changes. */
function handRewrite(): { key: string; description: string }[] {
  const study = studyOf(source.spec);
  const hand = study.conditions.find((c) => c.id === 'rewritten')!;
  const out: { key: string; description: string }[] = [];
  for (const [scenario, byLocale] of Object.entries(baselineOf(study).tools))
    for (const [locale, defs] of Object.entries(byLocale))
      for (const d of defs) {
        const after = hand.tools[scenario][locale].find((x) => x.tool === d.tool)!.description;
        if (after !== d.description) out.push({ key: `${scenario}/${locale}/${d.tool}`, description: after });
      }
  return out;
}

const propose = (descriptions: unknown): Reply => ({ kind: 'toolCalls', calls: [{ name: PROPOSE_TOOL, arguments: { descriptions } }] });

describe("a model's rewrite", () => {
  it('is prompted with the tune cases only, and stored as a condition of a new version that declares the split', async () => {
    server.clearRequests();
    reply = propose(handRewrite());
    const { experiment, condition, split } = await proposeModelRewrite({ experimentId: source.id, study: 'selection', target: rewriter, actor });

    // one request, holding every tune case's task and no task of a select or confirm case
    expect(server.requests).toHaveLength(1);
    const sent = JSON.parse(server.requests[0].raw) as { messages: { content: unknown }[]; tools: { function: { name: string } }[] };
    const prompt = sent.messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
    const study = studyOf(source.spec);
    const task = new Map(study.cases.map((c) => [c.id, c.task]));
    const expected = splitStudy(study, { seed: 0, tune: 40, select: 30, confirm: 30 });
    expect(split.sealed).toEqual(expected.sealed);
    const tuneTasks = new Set(expected.tune.map((id) => task.get(id)!));
    expect(tuneTasks.size).toBeGreaterThan(0);
    for (const t of tuneTasks) expect(prompt).toContain(JSON.stringify(t));
    const unseen = [...expected.select, ...expected.confirm].map((id) => task.get(id)!).filter((t) => !tuneTasks.has(t));
    expect(unseen.length).toBeGreaterThan(0);
    for (const t of unseen) {
      expect(prompt).not.toContain(t);
      expect(prompt).not.toContain(JSON.stringify(t));
    }
    expect(sent.tools.map((t) => t.function.name)).toEqual([PROPOSE_TOOL]);
    // the linter's findings on the baseline are in it (the published descriptions name a false alias)
    expect(prompt).toContain('"rule": "false-tool-name"');
    expect(prompt).toContain('"key": "amazon/en/search_product"');

    // the next version of the experiment: the condition added with its provenance, the split declared
    expect(experiment.slug).toBe(source.slug);
    const stored = studyOf((await getExperiment(experiment.id))!.spec);
    expect(stored.splits).toEqual({ seed: 0, tune: 40, select: 30, confirm: 30 });
    const added = stored.conditions.find((c) => c.id === condition.id)!;
    expect(added.variant).toEqual({ kind: 'model:openai:gpt-rewriter-test', of: baselineOf(study).id });
    for (const { key, description } of handRewrite()) {
      const [scenario, locale, tool] = key.split('/');
      expect(added.tools[scenario][locale].find((d) => d.tool === tool)!.description).toBe(description);
    }
    // the exchange, as received, in the audit of the version
    const audit = (await experimentAudit(experiment.id)).find((a) => a.detail.via === 'model rewrite')!;
    expect(audit.detail).toMatchObject({ from: source.id, condition: condition.id, rewriter: 'openai:gpt-rewriter-test', tuneCases: expected.tune.length });
    expect(JSON.stringify(audit.detail.exchange)).toContain(PROPOSE_TOOL);
    expect(JSON.stringify(audit.detail.exchange)).not.toContain(FAKE_KEY);
    // one paid request, its tokens as the loopback server reported them (priced by whatever price table the shared
    // database holds at that moment: other files save theirs; the pricing is rewriter.test's)
    expect(audit.detail.spent).toMatchObject({ requests: 1, inputTokens: 100, outputTokens: 10 });
  });

  it('refuses an answer that is no usable rewrite, naming why, and stores nothing', async () => {
    const before = (await listVersions(source.slug)).length;
    const cases: [Reply, RegExp][] = [
      [{ kind: 'text', text: 'I would rather not.' }, /did not call propose_descriptions \(it wrote: I would rather not\.\)/],
      [propose([{ key: 'nowhere/en/tool', description: 'x' }]), /descriptions\[0\]\.key "nowhere\/en\/tool" is not a key it was given/],
      [propose('all of them'), /"descriptions" is not a list/],
      [propose([]), /no description changed/],
      [propose(handRewrite().map((d) => ({ ...d, description: `${d.description}\u0000` }))), /not a definition the lab can store/],
      [{ kind: 'http', status: 500 }, /request failed/],
    ];
    for (const [r, why] of cases) {
      reply = r;
      const e = await proposeModelRewrite({
        experimentId: source.id,
        study: 'selection',
        target: { ...rewriter, model: 'gpt-refused' },
        actor,
        settings: { maxAttempts: 1 },
      }).catch((x: unknown) => x);
      expect(e, JSON.stringify(r)).toBeInstanceOf(RewriteRefused);
      expect((e as Error).message).toMatch(why);
    }
    const wrong = await proposeModelRewrite({
      experimentId: source.id,
      study: 'selection',
      target: { provider: 'simulated', model: SIMULATED_GENERIC_PREFERRING },
      actor,
    }).catch((x: unknown) => x);
    expect(wrong).toBeInstanceOf(OptimiseInputError);
    expect((wrong as OptimiseInputError).field).toBe('rewriter');
    expect((await listVersions(source.slug)).length).toBe(before);
  });

  it('joins the loop as a candidate, on the split its prompt was drawn from alone', async () => {
    reply = propose(handRewrite());
    const target = { provider: 'simulated' as const, model: SIMULATED_GENERIC_PREFERRING };
    const record = await optimise({ experimentId: source.id, study: 'selection', targets: [target], rewriter, actor });
    expect(record.experimentId).not.toBe(source.id);
    const model = record.candidates.find((c) => c.provenance === 'model:openai:gpt-rewriter-test')!;
    expect(model).toBeDefined();
    expect(record.result!.select!.ranked.map((r) => r.candidate)).toContain(model.condition);
    expect(['confirmed', 'no-winner']).toContain(record.stage);

    // another split on the version holding the rewrite could put the cases it saw into the confirm split: refused
    const other = await storeOptimisation({ experimentId: record.experimentId, study: 'selection', targets: [target], seed: 7, actor }).catch((x: unknown) => x);
    expect(other).toBeInstanceOf(OptimiseInputError);
    expect((other as OptimiseInputError).field).toBe('split');
  }, 240_000);

  it('is inside the spend guard: the whole loop is counted before the rewriter is asked, and refused unconfirmed with nothing sent or stored', async () => {
    reply = propose(handRewrite());
    const saved = process.env.TCLAB_CONFIRM_REQUESTS;
    process.env.TCLAB_CONFIRM_REQUESTS = '0';
    resetEnvCache();
    try {
      const sent = server.requests.length;
      const versions = (await listVersions(source.slug)).length;
      const records = Number((await pool().query<{ n: string }>(`SELECT count(*) AS n FROM optimisations WHERE experiment_id LIKE $1`, [`${source.id}%`])).rows[0].n);
      // a paid target: the rewriter's request, the select run and the confirmation on it
      const paid = { experimentId: source.id, study: 'selection', targets: [{ provider: 'openai' as const, model: 'gpt-target-test' }], rewriter, actor };
      const refused = await storeOptimisation(paid).catch((x: unknown) => x);
      expect(refused).toBeInstanceOf(SpendConfirmationRequired);
      const m =
        /^this loop \(the rewriter 1, select (\d+), confirm (\d+) \(1 target, up to 1 winner\)\) sends ([\d,]+) paid requests \(more than TCLAB_CONFIRM_REQUESTS = 0\)$/.exec(
          (refused as SpendConfirmationRequired).summary,
        )!;
      expect(m, (refused as SpendConfirmationRequired).summary).not.toBeNull();
      const [select, confirm] = [Number(m[1]), Number(m[2])];
      expect((refused as SpendConfirmationRequired).requests).toBe(1 + select + confirm);
      // a free target: only the rewriter's request is paid, and that one request is refused too
      const free = { ...paid, targets: [{ provider: 'simulated' as const, model: SIMULATED_GENERIC_PREFERRING }] };
      const alone = await storeOptimisation(free).catch((x: unknown) => x);
      expect((alone as SpendConfirmationRequired).summary).toMatch(
        /^this loop \(the rewriter 1, select 0, confirm 0 \(1 target, up to 1 winner\)\) sends 1 paid requests/,
      );
      // nothing reached the server, no version and no record were stored
      expect(server.requests.length).toBe(sent);
      expect((await listVersions(source.slug)).length).toBe(versions);
      expect(Number((await pool().query<{ n: string }>(`SELECT count(*) AS n FROM optimisations WHERE experiment_id LIKE $1`, [`${source.id}%`])).rows[0].n)).toBe(
        records,
      );

      // confirmed, the loop runs; the counts it estimated are those of the versions it stored
      const record = await optimise({ ...free, confirm: { yes: true } });
      expect(server.requests.length).toBe(sent + 1);
      expect(matrixSize((await getExperiment(record.selectExperimentId!))!.spec).formal).toBe(select);
      expect(record.confirmExperimentId).not.toBeNull();
      expect(matrixSize((await getExperiment(record.confirmExperimentId!))!.spec).formal).toBe(confirm);
    } finally {
      if (saved === undefined) delete process.env.TCLAB_CONFIRM_REQUESTS;
      else process.env.TCLAB_CONFIRM_REQUESTS = saved;
      resetEnvCache();
    }
  }, 240_000);

  it("is prompted with the baseline's failed trials of the tune split from the version's newest run, and with none of another split", async () => {
    // a completed run of the version: the generic-preferring model fails the baseline on most cases
    const run = await createRun(source.id, { provider: 'simulated', model: SIMULATED_GENERIC_PREFERRING });
    expect((await startRun(run.id)).ok).toBe(true);
    expect((await waitForRunStatus(run.id, [...FINAL_RUN_STATUSES])).status).toBe('completed');
    const study = studyOf(source.spec);
    const split = splitStudy(study, { seed: 0, tune: 40, select: 30, confirm: 30 });
    const failed = (
      await pool().query<{ case_id: string }>(`SELECT DISTINCT case_id FROM trials WHERE run_id = $1 AND condition = $2 AND status = 'failed'`, [
        run.id,
        baselineOf(study).id,
      ])
    ).rows.map((r) => r.case_id);
    const failedTune = failed.filter((c) => split.tune.includes(c));
    const failedElsewhere = failed.filter((c) => !split.tune.includes(c));
    expect(failedTune.length).toBeGreaterThan(0);
    expect(failedElsewhere.length).toBeGreaterThan(0); // failures the prompt must not carry

    server.clearRequests();
    reply = propose(handRewrite());
    await proposeModelRewrite({ experimentId: source.id, study: 'selection', target: rewriter, actor });
    const sent = JSON.parse(server.requests[0].raw) as { messages: { content: unknown }[] };
    const prompt = sent.messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
    expect(prompt).toContain(`Where the current definitions failed on these example requests`);
    expect(prompt).toContain(`run ${run.id}, simulated:${SIMULATED_GENERIC_PREFERRING}`);
    const section = prompt.slice(prompt.indexOf('Where the current definitions failed'));
    const shown = JSON.parse(section.slice(section.indexOf('\n') + 1)) as { request: string; modelCalled: string[]; failedChecks: string[] }[];
    const task = new Map(study.cases.map((c) => [c.id, c.task]));
    // every failed tune trial of the baseline (its orders and replicates each), what the model called, the failed checks
    const expectedCount = (
      await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM trials WHERE run_id = $1 AND condition = $2 AND status = 'failed' AND case_id = ANY($3)`, [
        run.id,
        baselineOf(study).id,
        split.tune,
      ])
    ).rows[0].n;
    expect(shown).toHaveLength(Math.min(expectedCount, 20));
    for (const f of shown) {
      expect(failedTune.map((c) => task.get(c))).toContain(f.request);
      expect(f.failedChecks.length).toBeGreaterThan(0);
    }
    const tuneTasks = new Set(split.tune.map((id) => task.get(id)!));
    for (const c of [...split.select, ...split.confirm]) if (!tuneTasks.has(task.get(c)!)) expect(prompt).not.toContain(task.get(c)!);
  }, 240_000);
});
