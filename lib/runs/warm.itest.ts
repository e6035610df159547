import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../db/client';
import { getRun } from '../db/runs';
import { getExperiment } from '../db/experiments';
import { reviewPairCounts, reviewPairsPage } from '../db/review-pairs';
import { ensureTemplateExperiment } from '../experiments/templates';
import { closeQueues } from '../queue/connection';
import { CATALOG_SCALE_ID, TEMPLATES } from '../templates';
import { runToCompletion } from '../testing/engine';
import { loadRunChoices } from './choices';
import { runFunnel } from './funnel';
import { loadRunSummary } from './summary';
import { env } from '../env';
import { warmRunResults } from './warm';
import { storedExportVersion } from '../db/stored-exports';
import { parquetStoreVersion } from './export';

// A large run's pages are computed as the run completes (the worker's onRunCompleted), so its
// first view reads stored values — and what is stored is what the page would have computed.

afterAll(async () => {
  await closeQueues();
  await closeDb();
});

const stored = async (runId: string) => {
  const cache = await pool().query<{ key: string }>(`SELECT key FROM result_cache WHERE run_id = $1 ORDER BY key`, [runId]);
  const pairs = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM review_pairs WHERE run_id = $1`, [runId]);
  return { keys: cache.rows.map((r) => r.key.split('|')[0]), pairs: pairs.rows[0].n };
};
const forget = (runId: string) =>
  Promise.all([pool().query(`DELETE FROM result_cache WHERE run_id = $1`, [runId]), pool().query(`DELETE FROM review_pairs WHERE run_id = $1`, [runId])]);

describe('warming a completed run', () => {
  it('the worker stores Table 1, the matrices, the review list and the funnel as the run completes; each equals a fresh computation', async () => {
    const exp = await ensureTemplateExperiment(CATALOG_SCALE_ID);
    const warmed: string[] = [];
    const runId = await runToCompletion(exp.id, { provider: 'simulated', model: TEMPLATES[CATALOG_SCALE_ID]!.simulated.model }, 8, {
      onRunCompleted: async (id) => {
        warmed.push(id);
        return warmRunResults(id, { minTrials: 1 });
      },
    });
    // close() waited for the warming: everything is there before anyone looked. (The integration files share one
    // database and queue: the worker may also complete a run an earlier file left unfinished, and warm it too.)
    expect(warmed).toContain(runId);
    expect(warmed.filter((id) => id === runId)).toHaveLength(1);
    const after = await stored(runId);
    expect(new Set(after.keys)).toEqual(new Set(['cells2', 'usage', 'summary', 'choice-summary.json', 'review-pairs', 'funnel']));
    const run = (await getRun(runId))!;
    const spec = (await getExperiment(run.experimentId))!.spec;
    const counts = await reviewPairCounts(runId, spec);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(after.pairs);
    expect(after.pairs).toBeGreaterThan(0);
    // and the Parquet tables of its download (lib/runs/stored-parquet.itest.ts reads them back)
    expect(await storedExportVersion(runId, 'parquet')).toBe(await parquetStoreVersion(run, 1));

    const read = async () => ({
      summary: await loadRunSummary(run, spec),
      choices: await loadRunChoices(runId, spec),
      funnel: await runFunnel(run, spec),
      pairs: await reviewPairsPage(runId, spec, { show: null, page: 0, size: 10_000 }),
    });
    const warm = await read();
    expect(warm.funnel.rows.length).toBeGreaterThan(0);
    // the same values computed afresh (and stored again) from the trials
    await forget(runId);
    expect(await stored(runId)).toEqual({ keys: [], pairs: 0 });
    expect(await read()).toEqual(warm);
    expect((await reviewPairsPage(runId, spec, { show: null, page: 0, size: 10_000, stored: false })).map((p) => p.treatment.trialId)).toEqual(
      warm.pairs.map((p) => p.treatment.trialId),
    );

    // a run below the threshold is left to its first view
    await forget(runId);
    expect(run.totalTrials).toBeLessThan(env().TCLAB_WARM_MIN_TRIALS);
    expect(await warmRunResults(runId)).toBe(false);
    expect(await stored(runId)).toEqual({ keys: [], pairs: 0 });
  }, 240_000);
});
