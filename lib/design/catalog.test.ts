import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checksFor } from '../schema/experiment';
import { ExperimentSpec } from '../design/experiment-spec';
import { tinyExperiment } from '../testing/tiny-experiment';
import { catalogCollisions, seededCatalog, toScoringTool } from './catalog';
import { buildRequest, countMatrix, expandTrials, findStudyCase, naturalDefinitions, resolveSent } from './matrix';
import { rankTools, splitName } from './retriever';
import { scoreTrial } from '../scoring/score';
import { observeAnswer } from '../scoring/answer';
import { funnel, stageOutcome } from '../analysis/funnel';
import { simulatedProvider } from '../providers/simulated';
import { RunSettings } from '../schema/run';
import { catalogScale } from '../templates/catalog-scale';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Distractor catalogs and discovery (docs/discovery.md): sampling, the BM25 retriever, the observed visibility checkpoint.

/** The tiny experiment with a GitHub catalog; the needed tool's words share nothing with the task. */
function unseenSpec(k = 3) {
  const input = tinyExperiment('unseen', 'List the open pull requests of octocat/hello-world.', {
    names: { read: 'zq_fetch', write: 'zq_store' },
    parameters: { type: 'object', properties: { station: { type: 'string', description: 'Station code.' } } },
    description: (effect) => (effect === 'read' ? 'Returns atmospheric readings.' : 'Archives atmospheric readings.'),
  });
  const study = (input.studies as Record<string, unknown>[])[0];
  study.catalog = { source: { builtin: 'github-mcp-server' }, sizes: [32], seed: 's1', discovery: [{ id: 'bm25', mechanism: 'bm25-top-k', k }] };
  return ExperimentSpec.parse(input);
}

describe('distractor catalogs', () => {
  it('is refused in a study whose kind takes no catalog (KindSpec.catalog), naming the path and the kinds that take one', () => {
    const input = tinyExperiment('task-catalog');
    const study = (input.studies as Record<string, unknown>[])[0];
    study.kind = 'interpretation';
    study.catalog = { source: { builtin: 'github-mcp-server' }, sizes: [32], seed: 's1', discovery: [{ id: 'all', mechanism: 'all' }] };
    const r = ExperimentSpec.safeParse(input);
    expect(r.success).toBe(false);
    const issue = r.error!.issues.find((i) => i.path.join('.') === 'studies.0.catalog');
    expect(issue?.message).toBe('a distractor catalog is supported in selection studies only (this study is interpretation)');
  });

  it('draws N distractors reproducibly from the seed, nested across sizes, recorded in the order sent and the tool set ref', () => {
    const spec = catalogScale();
    const study = spec.studies[0];
    const a = seededCatalog(study, 'invoice').map((t) => t.name);
    const b = seededCatalog(catalogScale().studies[0], 'invoice').map((t) => t.name);
    expect(a).toEqual(b);
    expect(a).toHaveLength(117);
    const trials = expandTrials(spec);
    expect(trials).toHaveLength(countMatrix(spec).formal);
    const all8 = trials.find((t) => t.discovery === 'all' && t.catalogSize === 8)!;
    const all32 = trials.find((t) => t.discovery === 'all' && t.catalogSize === 32 && t.caseId === all8.caseId && t.condition === all8.condition)!;
    const d8 = all8.order.filter((n) => !all8.toolOrder.length || !['get_payment_status', 'submit_payment', 'invoice_service', 'invoice_gateway'].includes(n));
    expect(d8).toHaveLength(8);
    expect(d8.every((n) => all32.order.includes(n))).toBe(true);
    expect(new Set(d8)).toEqual(new Set(a.slice(0, 8)));
    // the exact list sent is what the request carries, and its hash differs from the list without distractors
    const req = buildRequest(spec, { study: all8.study, caseId: all8.caseId, condition: all8.condition, names: all8.order });
    expect(req.tools.map((t) => t.name)).toEqual(all8.order);
    const n0 = trials.find((t) => t.discovery === 'all' && t.catalogSize === 0 && t.caseId === all8.caseId && t.condition === all8.condition)!;
    expect(n0.toolSetRef).not.toBe(all8.toolSetRef);
  }, 30_000); // CPU only: expanding 144 trials builds 48 BM25 indexes (≈ 1.5 s idle, more on a loaded machine)

  it('refuses a distractor named like a scenario tool, naming both', () => {
    const input = tinyExperiment('clash', 'Show invoice INV-7.', { names: { read: 'get_me', write: 'pay_invoice' } });
    (input.studies as Record<string, unknown>[])[0].catalog = { source: { builtin: 'github-mcp-server' }, sizes: [8], seed: 's' };
    const issues = catalogCollisions(ExperimentSpec.parse(input));
    expect(issues).toHaveLength(1);
    expect(issues[0].message).toMatch(/distractor "get_me" collides with condition "(overlapping|clear)" invoice\/en tool "get_me" \(scenario tool lookup\)/);
  });

  it('keeps the keys of a study without a catalog as they were (no catalog segment)', () => {
    const t = expandTrials(ExperimentSpec.parse(tinyExperiment('plain')))[0];
    expect(t.trialKey).toBe('selection|invoice|en|read-1|overlapping|o0|r1');
    expect(t.catalogSize).toBeNull();
    expect(t.visible).toEqual(t.order);
  });
});

describe('bm25-top-k', () => {
  it('splits names at _, . and camelCase', () => {
    expect(splitName('get_invoice')).toBe('get invoice');
    expect(splitName('issue.readAll')).toBe('issue read all');
    expect(splitName('listPullRequests')).toBe('list pull requests');
  });

  it('is deterministic: the same spec and seed give the same top-k on a second run', () => {
    const first = expandTrials(catalogScale())
      .filter((t) => t.discovery === 'bm25-top-5')
      .map((t) => t.visible);
    const second = expandTrials(catalogScale())
      .filter((t) => t.discovery === 'bm25-top-5')
      .map((t) => t.visible);
    expect(second).toEqual(first);
    expect(first.every((v) => v !== null && v.length <= 5)).toBe(true);
    // ties keep the order given, whatever the library's internal order
    const tools = [
      { name: 'b_tool', description: 'same words', parameters: { type: 'object' } },
      { name: 'a_tool', description: 'same words', parameters: { type: 'object' } },
    ];
    expect(rankTools('same words', tools).map((r) => r.name)).toEqual(['b_tool', 'a_tool']);
  }, 30_000); // CPU only: two expansions of the template

  it('is deterministic across processes: a second run in a fresh Node process gives the same top-k', () => {
    const here = expandTrials(catalogScale())
      .filter((t) => t.discovery === 'bm25-top-5')
      .map((t) => [t.trialKey, t.visible]);
    // a fresh process: its own module state, minisearch instance and Map orders
    const script = `Promise.all([import('./lib/design/matrix.ts'), import('./lib/templates/catalog-scale.ts')]).then(([m, c]) =>
      process.stdout.write(JSON.stringify(m.expandTrials(c.catalogScale()).filter((t) => t.discovery === 'bm25-top-5').map((t) => [t.trialKey, t.visible]))))`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(here);
    expect(here).toHaveLength(48);
  }, 90_000); // a Node process under load

  it('leaves out a needed tool whose words share nothing with the task: visibility fails, selection is untested, the funnel stops at the first stage', async () => {
    const spec = unseenSpec();
    const trials = expandTrials(spec);
    const t = trials.find((x) => x.condition === 'clear')!;
    expect(t.visible).toHaveLength(3);
    expect(t.visible).not.toContain('zq_fetch');
    const { study, kase } = findStudyCase(spec, t.study, t.caseId);
    const condition = study.conditions.find((c) => c.id === t.condition)!;
    const sent = resolveSent(study, naturalDefinitions(spec, condition, t.scenario, t.locale), t.scenario, t.order);
    const request = buildRequest(spec, { study: t.study, caseId: t.caseId, condition: t.condition, names: t.order });
    const answer = await simulatedProvider.send(request, { settings: RunSettings.parse({}) });
    if (answer.outcome !== 'ok') throw new Error('simulated provider failed');
    const effects = new Map(spec.scenarios[0].tools.map((x) => [x.id, x.effect]));
    const score = scoreTrial({
      checks: checksFor(kase, t.condition),
      observation: observeAnswer(answer.answer, request.markers),
      attemptN: 1,
      tools: sent.map((s) => toScoringTool(s, effects)),
      markers: study.protocol.markers,
      labels: study.protocol.labels,
      task: kase.task,
      visible: t.visible!,
    });
    expect(score.checkpoints.visibility).toBe('fail');
    expect(score.checkpoints.selection).toBe('untested');
    expect(score.verdicts.every((v) => v.status !== 'fail')).toBe(true);
    expect(score.verdicts[0].reason).toMatch(/not visible/);
    const row = funnel([
      {
        study: t.study,
        condition: t.condition,
        baseline: false,
        caseId: t.caseId,
        pairKey: t.pairKey,
        catalogSize: t.catalogSize,
        discovery: t.discovery,
        needsTool: true,
        checkpoints: score.checkpoints,
        status: 'untested',
        inputTokens: null,
        costUsd: null,
      },
    ])[0];
    expect(row.stages.visible).toMatchObject({ k: 0, n: 1 });
    expect(row.stages.selected.n).toBe(0);
    expect(
      stageOutcome(
        { ...row, caseId: 'x', pairKey: 'x', needsTool: true, checkpoints: score.checkpoints, status: 'untested', inputTokens: null, costUsd: null },
        'selected',
      ),
    ).toBeNull();
  });

  it('an unknown visibility is untested, never pass', () => {
    const spec = unseenSpec();
    const { study, kase } = findStudyCase(spec, 'selection', 'read-1');
    const defs = naturalDefinitions(spec, study.conditions[1], 'invoice', 'en');
    const tools = defs.map((d) => toScoringTool({ kind: 'scenario', def: d }, new Map([['lookup', 'read' as const]])));
    const s = scoreTrial({
      checks: kase.checks,
      observation: null,
      attemptN: null,
      tools,
      markers: study.protocol.markers,
      labels: [],
      task: kase.task,
      visible: 'unknown',
    });
    expect(s.checkpoints.visibility).toBe('untested');
  });
});
