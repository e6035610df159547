import { beforeAll, describe, expect, it } from 'vitest';
import { commandLineActor } from '../auth/roles';
import { pool } from '../db/client';
import { getExperiment } from '../db/experiments';
import { ensureTemplateExperiment } from '../experiments/templates';
import { saveExperiment } from '../experiments/versions';
import { checksFor, baselineOf, type ExperimentSpec } from '../schema/experiment';
import { wireToolNames, type Script } from '../testing/loopback-server';
import { loopbackWithWorker } from '../testing/loopback-worker';
import { gatherCandidates, optimise } from './loop';
import { recordMarkdown } from './markdown';

// Each candidate's side effects on the select split (docs/optimise.md "Select"), through the real SDK, queue,
// worker and database: a loopback OpenAI server whose "model" calls the expected tool for every definition
// but one rule fix's, which sends every task to the generic browser — a new confusion in every select pair
// the baseline got right. The server reports 100 input and 10 output tokens per answer.

let source: { id: string; spec: ExperimentSpec };
let confusing: string;
const nameOf = new Map<string, string>();
/** Requests the loopback model answered with the browser because they carried the fix's text, per case. */
const sentToBrowser = new Map<string, number>();
/** The loopback model's answer, set once the experiment is read (below). */
let script: Script = () => ({ kind: 'text', text: 'STOP' });
loopbackWithWorker({ script: (req) => script(req) });

beforeAll(async () => {
  const template = (await getExperiment((await ensureTemplateExperiment('politely-ignored')).id))!.spec;
  const exp = await saveExperiment({ ...structuredClone(template), id: `politely-ignored-side-${process.pid}` });
  source = { id: exp.id, spec: (await getExperiment(exp.id))!.spec };
  const study = source.spec.studies[0];
  const baseline = baselineOf(study);
  for (const byLocale of Object.values(baseline.tools)) for (const defs of Object.values(byLocale)) for (const d of defs) nameOf.set(d.tool, d.name);
  // the rule fix whose changed text marks its requests
  // (a change is the description, a line break and the schema: the fix whose description itself changed)
  const described = (x: { before: string; after: string }) => x.after.split('\n')[0] !== x.before.split('\n')[0];
  const fix = gatherCandidates(source.spec, study, 20).candidates.find((c) => c.provenance.startsWith('rule:') && c.changes.some(described))!;
  confusing = fix.condition;
  const marker = `"description":${JSON.stringify(fix.changes.find(described)!.after.split('\n')[0])}`;
  const expected = study.cases.map((c) => {
    const checks = checksFor(c, baseline.id);
    return {
      id: c.id,
      task: JSON.stringify(c.task).slice(1, -1),
      tool: checks.find((k) => k.expected.tool)?.expected.tool,
      args: (checks.find((k) => k.expected.arguments)?.expected.arguments ?? {}) as Record<string, unknown>,
    };
  });
  script = (req) => {
    const names = wireToolNames(req.wire, req.body);
    const kase = expected.find((e) => req.raw.includes(e.task));
    if (names.length === 0 || !kase?.tool) return { kind: 'text', text: 'STOP' };
    if (req.raw.includes(marker)) sentToBrowser.set(kase.id, (sentToBrowser.get(kase.id) ?? 0) + 1);
    if (req.raw.includes(marker)) return { kind: 'toolCalls', calls: [{ name: 'browser', arguments: nameOf.get(kase.tool) === 'browser' ? kase.args : {} }] };
    return { kind: 'toolCalls', calls: [{ name: nameOf.get(kase.tool)!, arguments: kase.args }] };
  };
});

describe("each candidate's side effects on the select split", () => {
  it('names the pairs a candidate now sends to another tool, and the tokens per request of each condition', async () => {
    const record = await optimise({
      experimentId: source.id,
      study: 'selection',
      targets: [{ provider: 'openai', model: 'loopback-side-effects' }],
      settings: { concurrency: 8, retryBaseMs: 20, timeoutMs: 2000 },
      actor: commandLineActor('side-effects-test'),
    });
    const select = record.result!.select!;
    const selectSpec = (await getExperiment(record.selectExperimentId!))!.spec;
    const selectStudy = selectSpec.studies[0];
    // the confusing fix: every request that carried its text went to the browser — a new confusion wherever the
    // card expects another tool (the baseline got those right), named by the expected tool with its cases
    const fix = select.ranked.find((r) => r.candidate === confusing)!;
    const byExpected = new Map<string, { pairs: number; cases: string[] }>();
    for (const c of selectStudy.cases) {
      const tool = nameOf.get(checksFor(c, baselineOf(selectStudy).id).find((k) => k.expected.tool)!.expected.tool!)!;
      const n = sentToBrowser.get(c.id) ?? 0;
      if (tool === 'browser' || n === 0) continue;
      const g = byExpected.get(tool) ?? { pairs: 0, cases: [] };
      byExpected.set(tool, { pairs: g.pairs + n, cases: [...g.cases, c.id].sort() });
    }
    expect(byExpected.size).toBeGreaterThan(0);
    expect(fix.regressed).toBe([...byExpected.values()].reduce((a, g) => a + g.pairs, 0));
    expect([...fix.sideEffects!.newConfusions].sort((a, b) => a.expected.localeCompare(b.expected))).toEqual(
      [...byExpected.entries()].map(([expected, g]) => ({ expected, chosen: 'browser', ...g })).sort((a, b) => a.expected.localeCompare(b.expected)),
    );
    // every other candidate (and the placebo) keeps the baseline's choices: no new confusion
    for (const r of select.ranked.filter((x) => x.candidate !== confusing)) expect(r.sideEffects!.newConfusions, r.candidate).toEqual([]);
    // tokens per request as the server reported them, for the baseline and each candidate
    const trialsPerCondition = Number(
      (await pool().query<{ n: string }>(`SELECT count(*) AS n FROM trials WHERE run_id = $1 AND condition = $2`, [select.runId, baselineOf(selectStudy).id])).rows[0].n,
    );
    expect(trialsPerCondition).toBeGreaterThan(0);
    expect(select.baseline).toMatchObject({ condition: baselineOf(selectStudy).id, perRequest: { requests: trialsPerCondition, inputTokens: 100, outputTokens: 10 } });
    for (const r of select.ranked) expect(r.sideEffects!.perRequest, r.candidate).toMatchObject({ requests: trialsPerCondition, inputTokens: 100, outputTokens: 10 });
    // the Markdown carries the same words
    expect(recordMarkdown(record)).toContain(`${fix.sideEffects!.newConfusions.reduce((a, c) => a + c.pairs, 0)} pairs: `);
    expect(recordMarkdown(record)).toContain('100 in / 10 out tokens');
  }, 180_000);
});
