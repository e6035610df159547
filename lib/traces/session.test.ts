import { describe, expect, it } from 'vitest';
import type { ImportItem, TraceCandidate } from '../schema/trace-candidate';
import { ImportSession, SAMPLED_MEMBERS_PER_GROUP, type ImportReport } from './session';

const tool = (name: string) => ({ name, description: null, parameters: { type: 'object' } });

function candidate(user: string, call: string | null, opts: { tools?: string[]; line?: number } = {}): ImportItem {
  const tools = (opts.tools ?? ['search', 'book', 'cancel']).map(tool);
  const c: TraceCandidate = {
    conversation: [{ role: 'user', text: user }],
    system: null,
    tools,
    catalogCompleteness: tools.length > 0 ? 'full' : 'missing',
    observed: { calls: call ? [{ id: null, name: call, arguments: {} }] : [], text: null, finishReason: 'tool_calls' },
    results: [],
    model: 'm',
    provider: 'openai',
    usage: null,
    provenance: { format: 'openai-log', file: 'f.jsonl', line: opts.line ?? 1, traceId: null, spanId: null },
  };
  return { kind: 'candidate', candidate: c };
}

const sum = (r: ImportReport) =>
  r.imported + r.grouped + r.duplicate + r.notSampled + Object.values(r.refused).reduce((a, b) => a + b, 0) + Object.values(r.skipped).reduce((a, b) => a + b, 0);

describe('ImportSession', () => {
  it('drops exact duplicates, groups near ones, refuses a missing catalog without a target, and the counts add up', () => {
    const s = new ImportSession({ catalogTarget: false });
    const stored = [
      candidate('Book a table for two at Da Marco tonight', 'book'),
      candidate('Book a table for two at Da Marco tonight', 'book'),
      candidate('Book a table for two at Da Marco tonite', 'book'),
      candidate('Cancel my booking for Friday', 'cancel'),
      candidate('Cancel my booking for Friday', 'cancel', { tools: [] }),
      { kind: 'refused', reason: 'aborted', where: 'line 6', detail: 'HTTP 500' } as ImportItem,
      { kind: 'skipped', reason: 'no-tools-offered', where: 'line 7' } as ImportItem,
    ].flatMap((i) => s.feed(i));
    expect(stored).toHaveLength(3);
    expect(stored[2].groupHash).toBe(stored[2].hash);
    expect(stored[1].groupHash).toBe(stored[0].hash);
    const r = s.report;
    expect(r).toMatchObject({ read: 7, imported: 2, grouped: 1, duplicate: 1, notSampled: 0 });
    expect(r.refused).toMatchObject({ 'no-catalog': 1, aborted: 1 });
    expect(r.skipped['no-tools-offered']).toBe(1);
    expect(sum(r)).toBe(r.read);
  });

  it('samples group heads stratified by observed tool, in proportion, and counts the rest as not sampled', () => {
    const s = new ImportSession({ catalogTarget: false, sample: 10, seed: 7 });
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
    let n = 0;
    for (let i = 0; i < 60; i++) s.feed(candidate(`search request ${words[i % 10]} ${i} ${'x'.repeat(i)}`, 'search', { line: ++n }));
    for (let i = 0; i < 40; i++) s.feed(candidate(`book request ${words[i % 10]} ${i} ${'y'.repeat(i)}`, 'book', { line: ++n }));
    const sample = s.finish();
    const heads = sample.filter((x) => x.groupHash === x.hash);
    const byStratum = heads.reduce<Record<string, number>>((acc, x) => ({ ...acc, [x.stratum]: (acc[x.stratum] ?? 0) + 1 }), {});
    expect(heads).toHaveLength(10);
    expect(byStratum).toEqual({ search: 6, book: 4 });
    expect(sum(s.report)).toBe(s.report.read);
    expect(s.report.read).toBe(100);
  });

  it(`with a sample, a group waits for the draw with at most ${SAMPLED_MEMBERS_PER_GROUP} of its near-duplicates; the rest are counted as not sampled`, () => {
    const s = new ImportSession({ catalogTarget: false, sample: 1, seed: 3 });
    const members = 5_000; // one request asked over and over: one group, fifty times the cap
    for (let i = 0; i <= members; i++) s.feed(candidate(`find a quiet place in Lyon for four people, order ${i}`, 'search', { line: i + 1 }));
    const sample = s.finish();
    expect(sample.filter((x) => x.groupHash === x.hash)).toHaveLength(1);
    expect(sample).toHaveLength(1 + SAMPLED_MEMBERS_PER_GROUP);
    expect(s.report).toMatchObject({ read: members + 1, imported: 1, grouped: SAMPLED_MEMBERS_PER_GROUP, notSampled: members - SAMPLED_MEMBERS_PER_GROUP });
    expect(sum(s.report)).toBe(s.report.read);
  }, 30_000);
});
