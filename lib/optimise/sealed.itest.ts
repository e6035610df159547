import { beforeAll, describe, expect, it } from 'vitest';
import { commandLineActor } from '../auth/roles';
import { pool } from '../db/client';
import { getExperiment } from '../db/experiments';
import { ensureTemplateExperiment } from '../experiments/templates';
import { checksFor, baselineOf } from '../schema/experiment';
import { wireToolNames, type Script } from '../testing/loopback-server';
import { loopbackWithWorker } from '../testing/loopback-worker';
import { optimise } from './loop';

// The confirm split is sealed until the winner is frozen (docs/optimise.md, "Confirm"): the whole loop against
// a loopback OpenAI server with the real SDK, queue and worker. The server logs every request with the time
// it arrived; no request carrying a confirm case's task text may arrive before the record's frozen_at, and
// after it they do (so the check has something to find). The loopback "model" takes the right tool only when
// the definitions say whose signed-in session a tool acts on (the template's hand rewrite), else the browser.

let experimentId: string;
const log: { at: number; raw: string }[] = [];
/** The loopback model's answer, set once the experiment is read (below). */
let script: Script = () => ({ kind: 'text', text: 'STOP' });
loopbackWithWorker({ script: (req) => script(req) });

beforeAll(async () => {
  const exp = await ensureTemplateExperiment('politely-ignored');
  experimentId = exp.id;
  const spec = (await getExperiment(exp.id))!.spec;
  const study = spec.studies[0];
  const baseline = baselineOf(study);
  const nameOf = new Map(Object.values(baseline.tools).flatMap((byLocale) => Object.values(byLocale).flatMap((defs) => defs.map((d) => [d.tool, d.name] as const))));
  const expected = study.cases.map((c) => {
    const checks = checksFor(c, baseline.id);
    return {
      task: JSON.stringify(c.task).slice(1, -1),
      tool: checks.find((k) => k.expected.tool)?.expected.tool,
      args: (checks.find((k) => k.expected.arguments)?.expected.arguments ?? {}) as Record<string, unknown>,
    };
  });
  script = (req) => {
    log.push({ at: Date.now(), raw: req.raw });
    const names = wireToolNames(req.wire, req.body);
    if (names.length === 0) return { kind: 'text', text: 'STOP' };
    const kase = expected.find((e) => req.raw.includes(e.task));
    if (kase?.tool && req.raw.includes('signed-in session')) return { kind: 'toolCalls', calls: [{ name: nameOf.get(kase.tool)!, arguments: kase.args }] };
    return { kind: 'toolCalls', calls: [{ name: names.includes('browser') ? 'browser' : names[0], arguments: {} }] };
  };
});

describe('the sealed confirm split', () => {
  it('no request for a confirm case reaches the server before the winner is frozen', async () => {
    const record = await optimise({
      experimentId,
      study: 'selection',
      targets: [{ provider: 'openai', model: 'loopback-model' }],
      settings: { concurrency: 8, retryBaseMs: 20, timeoutMs: 2000 },
      actor: commandLineActor('sealed-test'),
    });
    expect(record.stage).toBe('confirmed');
    expect(record.winners).toEqual(['rewritten']);
    const frozenAt = record.frozenAt!.getTime();
    const confirmCases = (await getExperiment(record.confirmExperimentId!))!.spec.studies[0].cases;
    expect(confirmCases).toHaveLength(record.sealed.count);
    const texts = confirmCases.map((c) => JSON.stringify(c.task).slice(1, -1));
    const isConfirm = (raw: string) => texts.some((t) => raw.includes(t));
    const before = log.filter((r) => r.at < frozenAt);
    const after = log.filter((r) => r.at >= frozenAt);
    expect(before.length).toBeGreaterThan(0); // the select run was sent before the freeze
    expect(before.filter((r) => isConfirm(r.raw))).toEqual([]);
    expect(after.filter((r) => isConfirm(r.raw)).length).toBeGreaterThan(0);
    // and in the database: the select run holds no trial of a confirm case
    const selectCases = await pool().query<{ case_id: string }>('SELECT DISTINCT case_id FROM trials WHERE run_id = $1', [record.selectRunId]);
    expect(selectCases.rows.map((r) => r.case_id).filter((id) => confirmCases.some((c) => c.id === id))).toEqual([]);
    // the winner found on the select split improves there too: the loopback model's rule reached both stages
    expect(record.result!.confirm[0].readings[0].improved).toBeGreaterThan(0);
  }, 180_000);
});
