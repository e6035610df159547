// Set before anything loads: this file's process runs in Taipei (UTC+8); it is put back after.
const zone = process.env.TZ;
process.env.TZ = 'Asia/Taipei';

import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from './client';
import { ensureTemplateExperiment } from '../experiments/templates';
import { closeQueues } from '../queue/connection';
import { runToCompletion } from '../testing/engine';
import { runJsonStream } from '../runs/export';
import { saveReview } from './reviews';
import { commandLineActor } from '../auth/roles';

// A `timestamp` column holds UTC whatever the time zone of the process (docs/architecture.md#times): what is
// written from a Date, what is read into one, and the times an export writes are the stored instants.

afterAll(async () => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
  await closeQueues();
  await closeDb();
});

describe('times in a process that is not in UTC', () => {
  it('a Date written and read back is the same instant, and now() is stored as UTC', async () => {
    expect(new Date(0).getTimezoneOffset()).toBe(-480);
    const sent = new Date(Date.UTC(2026, 11, 6, 6, 28, 21, 967));
    const r = await pool().query<{ back: Date; ms: number; text: string; lag: number }>(
      `SELECT $1::timestamp AS back, (extract(epoch FROM $1::timestamp) * 1000)::float8 AS ms, $1::timestamp::text AS text,
              abs(extract(epoch FROM now()::timestamp) - extract(epoch FROM now())) AS lag`,
      [sent],
    );
    expect(r.rows[0].back.toISOString()).toBe(sent.toISOString());
    expect(r.rows[0].ms).toBe(sent.getTime());
    expect(r.rows[0].text).toBe('2026-12-06 06:28:21.967');
    expect(Number(r.rows[0].lag)).toBe(0);
  });

  it("a run's export writes its attempts' and reviews' stored instants", async () => {
    const exp = await ensureTemplateExperiment('reference-study');
    const runId = await runToCompletion(exp.id, { provider: 'simulated', model: 'heuristic' });
    const scored = await pool().query<{ trial_id: string; check_id: string }>(
      `SELECT v.trial_id, v.check_id FROM verdicts v JOIN trials t ON t.id = v.trial_id WHERE t.run_id = $1 AND v.status = 'pass' ORDER BY t.trial_key, v.check_id LIMIT 1`,
      [runId],
    );
    const { trial_id: reviewedTrial, check_id: checkId } = scored.rows[0];
    await saveReview({ runId, trialId: reviewedTrial, checkId, humanStatus: 'pass' }, commandLineActor('times-test'));
    const chunks: Buffer[] = [];
    for await (const c of await runJsonStream(runId)) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
    const lines = Buffer.concat(chunks)
      .toString()
      .split('\n')
      .filter((l) => l.startsWith('{"id":"t_'));
    type Line = { id: string; attempts: { n: number; startedAt: string; finishedAt: string }[]; verdicts: { checkId: string; review: { reviewedAt: string } | null }[] };
    const trial = JSON.parse(lines[0].replace(/,$/, '')) as Line;
    const stored = await pool().query<{ started: number; finished: number }>(
      `SELECT (extract(epoch FROM started_at) * 1000)::float8 AS started, (extract(epoch FROM finished_at) * 1000)::float8 AS finished
         FROM attempts WHERE trial_id = $1 AND n = $2`,
      [trial.id, trial.attempts[0].n],
    );
    expect(trial.attempts[0].startedAt).toBe(new Date(stored.rows[0].started).toISOString());
    expect(trial.attempts[0].finishedAt).toBe(new Date(stored.rows[0].finished).toISOString());
    const reviewed = lines.map((l) => JSON.parse(l.replace(/,$/, '')) as Line).find((t) => t.id === reviewedTrial)!;
    const at = await pool().query<{ ms: number }>(`SELECT (extract(epoch FROM reviewed_at) * 1000)::float8 AS ms FROM reviews WHERE trial_id = $1 AND check_id = $2`, [
      reviewedTrial,
      checkId,
    ]);
    expect(reviewed.verdicts.find((v) => v.checkId === checkId)!.review!.reviewedAt).toBe(new Date(at.rows[0].ms).toISOString());
  }, 120_000);
});
