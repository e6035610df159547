import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../db/client';
import { getExperiment } from '../db/experiments';
import { startLoopbackServer, type LoopbackServer } from '../testing/loopback-server';
import { recordingFetch, restaurantScript, SEARCH_ARGS, TRACE_SYSTEM, TRACE_TOOLS, type ExchangeLine } from '../testing/trace-traffic';
import { chunkLines } from '../traces';
import type { Actor } from '../schema/actor';
import { importTraces } from './import';
import { reviewCandidate, reviewQueue, saveCasesAsExperiment } from './review';

// From an OpenAI SDK log to a new experiment version: the queue (progress, unreviewed filter), a rejection
// with its reason, cards checked against the offered tools and their schemas, and the accepted cards as
// the cases of a selection study whose catalog is the trace's.

const actor: Actor = { kind: 'local', label: 'review test', role: 'admin' };
let server: LoopbackServer;

beforeAll(async () => {
  server = await startLoopbackServer({ script: restaurantScript });
});
afterAll(async () => {
  await server.close();
  await closeDb();
});

const ASKS = [
  'Find me a quiet Italian place in Lyon for four people tonight.',
  'Is there any sushi bar open in Nantes after eleven on Sunday?',
  'Cancel everything I booked last week, all of it.',
];

describe('reviewing trace candidates into case cards', () => {
  it('queue, reject, accept with typed arguments or a marker, and the cards join a new experiment', async () => {
    const log: ExchangeLine[] = [];
    const client = new OpenAI({ apiKey: 'sk-loopback', baseURL: server.openaiBaseUrl, maxRetries: 0, fetch: recordingFetch(log) });
    for (const ask of ASKS)
      await client.chat.completions.create({
        model: 'gpt-loopback',
        messages: [
          { role: 'system', content: TRACE_SYSTEM },
          { role: 'user', content: ask },
        ],
        tools: TRACE_TOOLS,
      });
    const text = log.map((l) => JSON.stringify(l)).join('\n');
    const { importId, report } = await importTraces({ format: 'openai-log', file: 'app.jsonl', lines: chunkLines([text]) }, actor);
    expect(report.imported).toBe(3);

    let queue = await reviewQueue(importId);
    expect(queue.progress).toEqual({ reviewed: 0, total: 3 });
    expect(queue.items.map((i) => i.observedTools)).toEqual([['search_restaurants'], ['search_restaurants'], ['search_restaurants']]);
    const [a, b, c] = queue.items.map((i) => i.seq);

    await expect(reviewCandidate(importId, a, { accept: { decision: 'call', tool: 'delete_everything', effect: 'write', arguments: {} } }, actor)).rejects.toThrow(
      'tool: "delete_everything" is not among the tools offered (search_restaurants, book_table)',
    );
    await expect(
      reviewCandidate(importId, a, { accept: { decision: 'call', tool: 'search_restaurants', effect: 'read', arguments: { city: 7, stars: 3 } } }, actor),
    ).rejects.toThrow('arguments.city: expected string; arguments.stars: search_restaurants has no parameter "stars"');
    await expect(reviewCandidate(importId, c, { reject: '  ' }, actor)).rejects.toThrow('reason: a rejection needs a reason');
    expect((await reviewQueue(importId)).progress.reviewed).toBe(0);

    await reviewCandidate(importId, a, { accept: { decision: 'call', tool: 'search_restaurants', effect: 'read', arguments: SEARCH_ARGS } }, actor);
    await reviewCandidate(importId, b, { accept: { decision: 'clarify' } }, actor);
    queue = await reviewQueue(importId, { unreviewedOnly: true });
    expect(queue.progress).toEqual({ reviewed: 2, total: 3 });
    expect(queue.items.map((i) => i.seq)).toEqual([c]);
    await reviewCandidate(importId, c, { reject: 'too vague to have one right call' }, actor);

    const audits = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'candidate.reviewed' AND detail->>'importId' = $1`, [
      importId,
    ]);
    expect(audits.rows[0].n).toBe(3);

    const saved = await saveCasesAsExperiment(importId, { id: `traces-${importId.slice(0, 8)}`, name: 'From traces' }, actor);
    expect(saved.added).toEqual([a, b]);
    const exp = await getExperiment(saved.experiment.id);
    const study = exp!.spec.studies[0];
    expect(study.cases.map((k) => [k.task, k.checks[0].expected])).toEqual([
      [ASKS[0], { decision: 'read', tool: 'search_restaurants', call_count: 1, arguments: SEARCH_ARGS }],
      [ASKS[1], { decision: 'clarify', call_count: 0 }],
    ]);
    expect(exp!.spec.scenarios[0].tools).toEqual([
      { id: 'search_restaurants', effect: 'read' },
      { id: 'book_table', effect: 'read' },
    ]);
  });
});
