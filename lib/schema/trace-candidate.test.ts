import { describe, expect, it } from 'vitest';
import { isCaseCard, isTraceCandidate, type TraceCandidate } from './trace-candidate';

const candidate: TraceCandidate = {
  conversation: [{ role: 'user', text: 'Find a table.' } as TraceCandidate['conversation'][number]],
  system: null,
  tools: [],
  catalogCompleteness: 'missing',
  observed: { calls: [], text: null, finishReason: null },
  results: [],
  model: null,
  provider: null,
  usage: null,
  provenance: { format: 'openai-log', file: 'a.jsonl', line: 1, traceId: null, spanId: null } as TraceCandidate['provenance'],
};

describe('stored trace rows, checked where they are read back', () => {
  it('a candidate as an importer writes it passes; a row missing a part or with another completeness does not', () => {
    expect(isTraceCandidate(candidate)).toBe(true);
    expect(isTraceCandidate(JSON.parse(JSON.stringify(candidate)))).toBe(true);
    for (const broken of [null, [], {}, { ...candidate, tools: null }, { ...candidate, observed: { calls: 'x' } }, { ...candidate, catalogCompleteness: 'some' }])
      expect(isTraceCandidate(broken)).toBe(false);
  });
  it('a card is a call with its tool, effect and arguments, or CLARIFY / STOP', () => {
    expect(isCaseCard({ decision: 'call', tool: 't', effect: 'read', arguments: {} })).toBe(true);
    expect(isCaseCard({ decision: 'clarify' })).toBe(true);
    expect(isCaseCard({ decision: 'stop' })).toBe(true);
    for (const broken of [
      null,
      {},
      { decision: 'call', tool: 't', effect: 'delete', arguments: {} },
      { decision: 'call', tool: 1, effect: 'read', arguments: {} },
      { decision: 'call', tool: 't', effect: 'read' },
    ])
      expect(isCaseCard(broken)).toBe(false);
  });
});
