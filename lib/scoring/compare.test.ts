import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TccCard, TccObservations } from '../schema/tcc';
import { compareCard } from './compare';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const card = TccCard.parse(fixture('example-read-record.card.json'));

describe('compareCard on the seed example card (example-read-record)', () => {
  it('only tool-choice observed: 1 pass, 3 untested', () => {
    const r = compareCard(card, TccObservations.parse(fixture('example-read-record.observations.json')));
    expect(r.case_id).toBe('example-read-record');
    expect(r.checks.map((c) => [c.id, c.axis, c.status])).toEqual([
      ['tool-choice', 'task_fit', 'pass'],
      ['arguments', 'call_result', 'untested'],
      ['result', 'call_result', 'untested'],
      ['state', 'call_result', 'untested'],
    ]);
    expect(r.summary).toEqual({ pass: 1, fail: 0, untested: 3 });
  });

  it('an empty observation file leaves everything untested, never pass', () => {
    expect(compareCard(card, {}).summary).toEqual({ pass: 0, fail: 0, untested: 4 });
    expect(compareCard(card, { 'tool-choice': null }).checks[0].status).toBe('untested');
  });

  it('a field missing from an entry fails with "not observed"', () => {
    const r = compareCard(card, { 'tool-choice': { decision: 'read' } });
    expect(r.checks[0]).toMatchObject({ status: 'fail', reason: 'call_count: not observed' });
  });

  it('arguments are the complete call; label and write_count compared exactly', () => {
    const r = compareCard(card, {
      arguments: { arguments: { record_id: 'DEMO-001', verbose: true } },
      result: { label: 'timeout' },
      state: { write_count: 1 },
    });
    expect(r.checks.slice(1).map((c) => [c.status, c.reason])).toEqual([
      ['fail', 'arguments: verbose: unexpected argument true'],
      ['pass', 'label timeout'],
      ['fail', 'write_count: expected 0, observed 1'],
    ]);
    expect(r.summary).toEqual({ pass: 1, fail: 2, untested: 1 });
  });

  it('a null argument or label observation is a fail with its own reason', () => {
    const r = compareCard(card, { arguments: { arguments: null }, result: { label: null } });
    expect(r.checks[1].reason).toBe('arguments: no call observed');
    expect(r.checks[2].reason).toBe('label: expected TIMEOUT, no label reported');
  });
});
