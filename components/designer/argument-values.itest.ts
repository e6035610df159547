import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../../lib/db/client';
import { createDraft } from '../../lib/db/drafts';
import { freezeDraft } from '../../lib/experiments/drafts';
import { getExperiment } from '../../lib/db/experiments';
import { createRun, startRun } from '../../lib/runner/start';
import { startWorker, type WorkerHandle } from '../../lib/runner/worker';
import { closeQueues } from '../../lib/queue/connection';
import { waitForRunStatus } from '../../lib/testing/engine';
import { FINAL_RUN_STATUSES } from '../../lib/schema/run-status';
import { tinyExperiment } from '../../lib/testing/tiny-experiment';
import { argumentTypesFor, normalize, valueFromText } from './draft-types';

// An ASIN typed into the designer's form for a `string` parameter (with the
// functions the form uses) is frozen as the string "0593135202" — not the number 593135202 — and a run on
// the simulated provider, which sends the ASIN as the schema says, passes the arguments check.

let worker: WorkerHandle | undefined;
afterAll(async () => {
  await worker?.close();
  await closeQueues();
  await closeDb();
});

describe('an ASIN typed in the designer', () => {
  it('is stored as the string it was typed as, and its trials pass the arguments check', async () => {
    const slug = 'asin-roundtrip-itest';
    const base = tinyExperiment(slug, 'Look up the book with ASIN 0593135202.', {
      scenario: 'books',
      tools: { read: 'lookup', write: 'buy' },
      names: { read: 'get_book', write: 'buy_book' },
      parameters: { type: 'object', properties: { asin: { type: 'string', pattern: '^[0-9]{10}$', description: "The book's ASIN (10 digits)." } }, required: ['asin'] },
      description: (effect) => (effect === 'read' ? 'Looks up a book by its ASIN; changes nothing.' : 'Buys a book by its ASIN.'),
    });
    // the form: a new check, its expected tool chosen, then the ASIN typed into the argument's value field
    const draft = normalize(base as Record<string, unknown>);
    const study = draft.studies[0];
    const kase = study.cases[0];
    kase.checks.push({ id: 'args', axis: 'call_result', expected: { tool: 'lookup' } });
    const types = argumentTypesFor(draft, study, kase, kase.checks[1].expected);
    expect(types.get('asin')).toEqual({ kind: 'string' });
    const typed = valueFromText('0593135202', types.get('asin')!);
    expect(typed).toEqual({ value: '0593135202', error: null });
    kase.checks[1].expected.arguments = { asin: typed.value };

    await createDraft(slug, draft as unknown as Record<string, unknown>);
    const version = await freezeDraft(slug);
    const stored = await getExperiment(version.id);
    const args = stored!.spec.studies[0].cases[0].checks[1].expected.arguments;
    expect(args).toEqual({ asin: '0593135202' });

    const run = await createRun(version.id, { provider: 'simulated', model: 'heuristic' });
    expect((await startRun(run.id)).ok).toBe(true);
    worker = startWorker({ concurrency: 4 });
    const final = await waitForRunStatus(run.id, [...FINAL_RUN_STATUSES]);
    expect(final.status).toBe('completed');
    const verdicts = await pool().query<{ status: string; reason: string; sent: unknown }>(
      `SELECT v.status, v.reason, o.tool_calls->0->'arguments' AS sent
         FROM verdicts v JOIN trials t ON t.id = v.trial_id JOIN observations o ON o.trial_id = t.id
        WHERE t.run_id = $1 AND v.check_id = 'args'`,
      [run.id],
    );
    expect(verdicts.rows).toHaveLength(2); // one per condition
    for (const v of verdicts.rows) {
      expect(v.sent).toEqual({ asin: '0593135202' });
      expect(v).toMatchObject({ status: 'pass' });
    }
  });
});
