import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb } from './client';
import { closeQueues } from '../queue/connection';
import { trialOutcomes } from './results';
import { trialPage } from './trial-page';
import { TrialPageQuery, toTrialRow, type TrialRow } from '../schema/trial-page';
import type { WorkerHandle } from '../runner/worker';
import { completedReferenceRun } from '../testing/engine';

// The trials table's pages, cut in PostgreSQL, against what the stored outcomes say of every trial.

let worker: WorkerHandle;
let runId: string;
let expected: Map<string, TrialRow>;

beforeAll(async () => {
  ({ runId, worker } = await completedReferenceRun());
  expected = new Map((await trialOutcomes(runId)).map((t) => [t.id, toTrialRow(t)]));
}, 120_000);

afterAll(async () => {
  await worker.close();
  await closeQueues();
  await closeDb();
});

const query = (q: Record<string, unknown>) => TrialPageQuery.parse(q);

async function allPages(q: Record<string, unknown>): Promise<TrialRow[]> {
  const rows: TrialRow[] = [];
  for (let page = 0; ; page++) {
    const p = await trialPage(runId, query({ ...q, page, size: 40 }));
    rows.push(...p.rows);
    if ((page + 1) * 40 >= p.matching) return rows;
  }
}

describe('trialPage', () => {
  it('pages through every trial once, each row as the stored outcome says', async () => {
    const rows = await allPages({});
    expect(rows).toHaveLength(152);
    expect(new Set(rows.map((r) => r.id)).size).toBe(152);
    for (const r of rows) expect(r).toEqual(expected.get(r.id));
  });

  it('filters, counts and offers the distinct values of each filter column', async () => {
    const p = await trialPage(runId, query({ study: 'interpretation', size: 10 }));
    expect(p).toMatchObject({ total: 152, matching: 56, page: 0, size: 10 });
    expect(p.rows.every((r) => r.study === 'interpretation')).toBe(true);
    expect(p.facets.study).toEqual(['interpretation', 'selection']);
    expect(p.facets.locale).toEqual(['en', 'zh-TW']);
    expect(p.facets.status).toEqual([...new Set([...expected.values()].map((r) => r.status))].sort());
    const both = await trialPage(runId, query({ study: 'selection', locale: 'zh-TW', status: 'failed' }));
    expect(both.matching).toBe([...expected.values()].filter((r) => r.study === 'selection' && r.locale === 'zh-TW' && r.status === 'failed').length);
    expect((await trialPage(runId, query({ study: 'no-such-study' }))).matching).toBe(0);
  });

  it('sorts by any column in either direction, ties in a fixed order', async () => {
    const asc = await allPages({ sort: 'order' });
    expect(asc.map((r) => r.order)).toEqual([...asc.map((r) => r.order)].sort((a, b) => a - b));
    const desc = await allPages({ sort: 'replicate', dir: 'desc' });
    expect(new Set(desc.map((r) => r.id)).size).toBe(152);
    const byCase = await allPages({ sort: 'caseId', study: 'interpretation' });
    expect(byCase).toHaveLength(56);
    // sorted by case: each case's trials together (whatever the database's collation orders first)
    const cases = byCase.map((r) => r.caseId);
    const changes = cases.filter((c, i) => i > 0 && c !== cases[i - 1]).length;
    expect(changes + 1).toBe(new Set(cases).size);
    // the same query twice gives the same page
    expect(await trialPage(runId, query({ sort: 'status', page: 2, size: 20 }))).toEqual(await trialPage(runId, query({ sort: 'status', page: 2, size: 20 })));
  });
});
