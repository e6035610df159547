import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../db/client';
import { getExperiment } from '../db/experiments';
import { startLoopbackServer, type LoopbackServer } from '../testing/loopback-server';
import { askWithTools, BOOK_ARGS, recordingFetch, restaurantScript, SEARCH_ARGS, type ExchangeLine } from '../testing/trace-traffic';
import { chunkLines } from '../traces';
import type { Actor } from '../schema/actor';
import { importTraces } from './import';
import { joinCasesToExperiment, reviewCandidate, reviewQueue, saveCasesAsExperiment } from './review';
import { saveExperiment } from '../experiments/versions';

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

let savedId: string;

/** Three exchanges of the OpenAI SDK (through the loopback server) imported as candidates; returns the import's id and its candidates' seqs. */
async function importAsks(asks: string[]): Promise<{ importId: string; seqs: number[] }> {
  const log: ExchangeLine[] = [];
  const client = new OpenAI({ apiKey: 'sk-loopback', baseURL: server.openaiBaseUrl, maxRetries: 0, fetch: recordingFetch(log) });
  for (const ask of asks) await askWithTools(client, ask);
  const text = log.map((l) => JSON.stringify(l)).join('\n');
  const { importId } = await importTraces({ format: 'openai-log', file: 'join.jsonl', lines: chunkLines([text]) }, actor);
  return { importId, seqs: (await reviewQueue(importId)).items.map((i) => i.seq) };
}

const ASKS = [
  'Find me a quiet Italian place in Lyon for four people tonight.',
  'Is there any sushi bar open in Nantes after eleven on Sunday?',
  'Cancel everything I booked last week, all of it.',
];

describe('reviewing trace candidates into case cards', () => {
  it('queue, reject, accept with typed arguments or a marker, and the cards join a new experiment', async () => {
    const { importId } = await importAsks(ASKS);
    expect((await reviewQueue(importId)).items).toHaveLength(3);

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
    savedId = saved.experiment.id;
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

  it('accepted cards join a study of an existing experiment as its next version, mapped by name; what cannot join is listed', async () => {
    // the target: the first test's experiment with book_table left out and search_restaurants under another id
    const first = (await getExperiment(savedId))!.spec;
    const scenario = first.scenarios[0].id;
    const target = structuredClone(first);
    target.id = `join-target-${process.pid}`;
    target.scenarios[0].tools = [{ id: 'find', effect: 'read' }];
    for (const c of target.studies[0].conditions)
      c.tools[scenario].en = c.tools[scenario].en.filter((d) => d.name === 'search_restaurants').map((d) => ({ ...d, tool: 'find' }));
    target.studies[0].cases = target.studies[0].cases
      .filter((k) => k.checks[0].expected.tool !== 'book_table')
      .map((k) => ({ ...k, checks: k.checks.map((x) => ({ ...x, expected: { ...x.expected, ...(x.expected.tool ? { tool: 'find' } : {}) } })) }));
    const v1 = await saveExperiment(target);

    const { importId, seqs } = await importAsks(['Any vegetarian place in Lille for two?', 'Book table r-17 for four, please.', 'Something nice for dinner?']);
    const [a, b, c] = seqs;
    await reviewCandidate(
      importId,
      a,
      { accept: { decision: 'call', tool: 'search_restaurants', effect: 'read', arguments: { city: 'Lille', cuisine: 'vegetarian', party_size: 2 } } },
      actor,
    );
    await reviewCandidate(importId, b, { accept: { decision: 'call', tool: 'book_table', effect: 'write', arguments: BOOK_ARGS } }, actor);
    await reviewCandidate(importId, c, { accept: { decision: 'clarify' } }, actor);

    await expect(joinCasesToExperiment(importId, { experimentId: v1.id, study: 'nope' }, actor)).rejects.toThrow(/^study: no study "nope"/);
    await expect(joinCasesToExperiment(importId, { experimentId: 'no-such-experiment', study: 'selection' }, actor)).rejects.toThrow(/^experiment: no experiment/);
    await expect(joinCasesToExperiment(importId, { experimentId: v1.id, study: 'selection', scenario: 'elsewhere' }, actor)).rejects.toThrow(
      /^scenario: study selection has no tools for scenario "elsewhere"/,
    );

    const joined = await joinCasesToExperiment(importId, { experimentId: v1.id, study: 'selection' }, actor);
    expect(joined.scenario).toBe(scenario);
    expect(joined.experiment.id).toBe(`${v1.slug}-v${v1.version + 1}`);
    expect(joined.added).toEqual([`trace-${importId.slice(0, 8)}-${a}`, `trace-${importId.slice(0, 8)}-${c}`]);
    expect(joined.notJoined).toEqual([{ seq: b, reason: `scenario ${scenario} has no tool named "book_table"` }]);
    expect(joined.unmapped).toEqual(['book_table']);
    const v2 = (await getExperiment(joined.experiment.id))!.spec;
    const before = (await getExperiment(v1.id))!.spec.studies[0].cases;
    expect(v2.studies[0].cases.slice(0, before.length)).toEqual(before); // the version's own cases unchanged
    expect(v2.studies[0].cases.slice(before.length).map((k) => [k.id, k.scenario, k.task, k.checks[0].expected])).toEqual([
      [
        `trace-${importId.slice(0, 8)}-${a}`,
        scenario,
        'Any vegetarian place in Lille for two?',
        { decision: 'read', tool: 'find', call_count: 1, arguments: { city: 'Lille', cuisine: 'vegetarian', party_size: 2 } },
      ],
      [`trace-${importId.slice(0, 8)}-${c}`, scenario, 'Something nice for dinner?', { decision: 'clarify', call_count: 0 }],
    ]);
    const audit = await pool().query<{ detail: Record<string, unknown> }>(`SELECT detail FROM audit_events WHERE action = 'candidates.joined' AND experiment_id = $1`, [
      joined.experiment.id,
    ]);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0].detail).toMatchObject({ importId, from: v1.id, study: 'selection', scenario, unmapped: ['book_table'] });

    // joined again into the new version: every card is already there, nothing is saved
    await expect(joinCasesToExperiment(importId, { experimentId: joined.experiment.id, study: 'selection' }, actor)).rejects.toThrow(
      /^cases: no accepted card can join study selection: .*already in study selection/,
    );
    expect((await getExperiment(`${v1.slug}-v${v1.version + 2}`)) ?? null).toBeNull();
  });
});
