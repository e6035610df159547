import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '@/lib/db/client';
import { saveExperiment } from '@/lib/experiments/versions';
import { createRun } from '@/lib/runner/start';
import { tinyExperiment } from '@/lib/testing/tiny-experiment';
import { localSessionCookie } from '@/lib/testing/local-session';
import { GET } from './route';

// The TCC download of a trial answers only under the trial's own run: a trial id of another run is 404.

let runA: string;
let runB: string;
let trialOfB: string;
let cookie: string; // single-user mode's browser

beforeAll(async () => {
  cookie = await localSessionCookie();
  const exp = await saveExperiment(tinyExperiment('tcc-route-itest'));
  runA = (await createRun(exp.id, { provider: 'simulated', model: 'heuristic' })).id;
  runB = (await createRun(exp.id, { provider: 'simulated', model: 'heuristic' })).id;
  trialOfB = (await pool().query<{ id: string }>('SELECT id FROM trials WHERE run_id = $1 ORDER BY id LIMIT 1', [runB])).rows[0].id;
});

afterAll(closeDb);

const get = (runId: string, trialId: string, part = 'card') =>
  GET(new Request(`http://127.0.0.1/api/runs/${runId}/trials/${trialId}/tcc?part=${part}`, { headers: { cookie } }), { params: Promise.resolve({ id: runId, trialId }) });

describe('GET /api/runs/[id]/trials/[trialId]/tcc', () => {
  it('serves the trial under its own run', async () => {
    const res = await get(runB, trialOfB);
    expect(res.status).toBe(200);
    expect((await res.json()) as { tcc_version: string }).toMatchObject({ tcc_version: '0.1' });
    expect((await get(runB, trialOfB, 'observations')).status).toBe(200);
  });

  it("answers 404 for a trial of another run under this run's URL", async () => {
    for (const part of ['card', 'observations']) {
      const res = await get(runA, trialOfB, part);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: `no trial "${trialOfB}" in run "${runA}"` });
    }
    expect((await get(runA, 'no-such-trial')).status).toBe(404);
  });
});
