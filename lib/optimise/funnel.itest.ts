import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLineActor } from '../auth/roles';
import { closeDb, pool } from '../db/client';
import { getExperiment } from '../db/experiments';
import { getRun } from '../db/runs';
import { ensureTemplateExperiment } from '../experiments/templates';
import { saveExperiment } from '../experiments/versions';
import { SIMULATED_ENGINE } from '../simulator';
import { checksFor } from '../schema/experiment';
import { closeQueues } from '../queue/connection';
import { startWorker, type WorkerHandle } from '../runner/worker';
import { optimise } from './loop';
import { recordMarkdown } from './markdown';

// Each candidate's funnel on the select split (docs/optimise.md "Select"), through the real queue, worker and
// database: the catalog-scale template (the invoice tools among 0, 8, 32 and all 117 GitHub MCP tools, every
// tool sent vs. BM25's top 5), its cards each asked four ways, improved on the simulated model. A candidate's entries are counted here again from
// the select run's trial rows (the checkpoints each trial stored), pair by pair, not read back from the funnel.

const actor = commandLineActor('optimise-funnel-test');
let worker: WorkerHandle;
let experimentId: string;

beforeAll(async () => {
  worker = startWorker({ concurrency: 8 });
  await worker.ready;
  const spec = structuredClone((await getExperiment((await ensureTemplateExperiment('catalog-scale')).id))!.spec);
  spec.id = `catalog-scale-funnel-${process.pid}`;
  // each of the template's 6 cards asked four ways (24 cases): a select split of several cases per card
  const ways = ['', 'Please help. ', 'Quick one: ', 'For today: '];
  const study = spec.studies[0];
  study.cases = study.cases.flatMap((c) => ways.map((w, i) => ({ ...structuredClone(c), id: i === 0 ? c.id : `${c.id}-${i + 1}`, task: `${w}${c.task}` })));
  experimentId = (await saveExperiment(spec)).id;
});
afterAll(async () => {
  await worker.close();
  await closeQueues();
  await closeDb();
});

describe('the loop on a catalog study', () => {
  it("ranks every candidate with its funnel pairs per discovery × N, counted from the select run's trials", async () => {
    const record = await optimise({ experimentId, study: 'selection', targets: [{ provider: 'simulated', model: SIMULATED_ENGINE }], actor, seed: 3 });
    const select = record.result!.select!;
    expect((await getRun(select.runId))!.status).toBe('completed');
    const selectSpec = (await getExperiment(record.selectExperimentId!))!.spec;
    const study = selectSpec.studies[0];
    const cells = study.catalog!.discovery.length * study.catalog!.sizes.length;
    expect(cells).toBe(8);
    // the select run's trials: per condition, cell and pair, whether the needed tool was visible and chosen
    type Row = { condition: string; case_id: string; discovery: string; catalog_size: number; pair_key: string; checkpoints: Record<string, string> | null };
    const { rows } = await pool().query<Row>(`select condition, case_id, discovery, catalog_size, pair_key, checkpoints from trials where run_id = $1`, [select.runId]);
    const key = (r: Row) => `${r.discovery}|${r.catalog_size}|${r.pair_key}`;
    const byCondition = new Map<string, Map<string, Row>>();
    for (const r of rows) (byCondition.get(r.condition) ?? byCondition.set(r.condition, new Map()).get(r.condition)!).set(key(r), r);
    // a card that needs a tool (one stated, or a read / write decision): the others are outside both stages
    const needsTool = (r: Row) =>
      checksFor(
        study.cases.find((k) => k.id === r.case_id)!,
        r.condition,
      ).some((k) => !!k.expected.tool || k.expected.decision === 'read' || k.expected.decision === 'write');
    const bit = (s: string | undefined) => (s === 'pass' ? true : s === 'fail' ? false : null);
    const baseline = study.conditions.find((c) => c.baseline)!.id;
    expect(select.ranked.length).toBeGreaterThanOrEqual(2);
    let moved = 0;
    for (const c of select.ranked) {
      const funnel = c.sideEffects!.funnel!;
      expect(funnel.map((f) => `${f.discovery} ${f.catalogSize}`).sort(), c.candidate).toEqual(
        study.catalog!.discovery.flatMap((d) => study.catalog!.sizes.map((n) => `${d.id} ${n === 'all' ? 117 : n}`)).sort(),
      );
      for (const f of funnel) {
        // stage 1 over the pairs whose card needs a tool and whose visibility both trials checked; stage 2 over the
        // pairs visible on both sides whose choice both checked
        const visible = { improved: 0, same: 0, regressed: 0 };
        const chosen = { improved: 0, same: 0, regressed: 0 };
        const step = (b: boolean | null, m: boolean | null, into: typeof visible) => {
          if (b === null || m === null) return;
          if (b === m) into.same++;
          else if (m) into.improved++;
          else into.regressed++;
        };
        for (const [k, base] of byCondition.get(baseline)!) {
          if (!k.startsWith(`${f.discovery}|${f.catalogSize}|`)) continue;
          const mine = byCondition.get(c.candidate)!.get(k)!;
          if (!needsTool(base) || !needsTool(mine) || !base.checkpoints || !mine.checkpoints) continue;
          step(bit(base.checkpoints.visibility), bit(mine.checkpoints.visibility), visible);
          if (base.checkpoints.visibility === 'pass' && mine.checkpoints.visibility === 'pass')
            step(bit(base.checkpoints.selection), bit(mine.checkpoints.selection), chosen);
        }
        expect({ ...f.visible, pExact: undefined }, `${c.candidate} ${f.discovery} ${f.catalogSize}`).toEqual({ ...visible, pExact: undefined });
        expect({ ...f.chosen, pExact: undefined }, `${c.candidate} ${f.discovery} ${f.catalogSize}`).toEqual({ ...chosen, pExact: undefined });
        // with every tool sent, the needed tool is always visible: stage 1 cannot move
        if (f.discovery === 'all') expect(f.visible.improved + f.visible.regressed).toBe(0);
        moved += f.visible.improved + f.visible.regressed + f.chosen.improved + f.chosen.regressed;
        expect(f.reading).toMatch(/found|chosen|no shift|too few/);
      }
    }
    expect(moved).toBeGreaterThan(0);
    // the hand-written clear descriptions: with every tool sent, the invoice tool chosen far more often once found
    const clear = select.ranked.find((c) => c.candidate === 'clear')!.sideEffects!.funnel!.find((f) => f.discovery === 'all' && f.catalogSize === 117)!;
    expect(clear.chosen.improved).toBeGreaterThanOrEqual(8);
    expect(clear.chosen.regressed).toBe(0);
    // (the reading's own rules: a few cases that all moved alike are too few to tell; docs/statistics.md)
    expect(clear.reading).toMatch(/^(chosen more often once found|no shift shown at stage 1; stage 2: too few pairs to tell)$/);
    const md = recordMarkdown(record);
    expect(md).toContain('| Funnel (found, chosen once found) |');
  });
});
