import { describe, expect, it } from 'vitest';
import { FixtureBackend, FixtureSpec } from '../../fixture';
import { emptyObservation, type Observation } from '../../schema/observation';
import type { TccCheck } from '../../schema/tcc';
import { claimsSuccess, scoreTask, taskChecks } from './score';

const spec = FixtureSpec.parse({
  state: { invoices: { 'INV-1': { status: 'confirmed', amount: 10 } }, payments: {} },
  handlers: {
    pay: { op: 'create', collection: 'payments', idPrefix: 'pay', select: { invoice: 'invoice' }, set: { amount: 'amount' }, permission: 'pay' },
    lookup: { op: 'read', collection: 'invoices', select: { invoice: 'id' } },
  },
});
const params = { type: 'object', properties: { invoice: { type: 'string' }, amount: { type: 'number' } }, required: ['invoice'] };
const tools = [
  { id: 'lookup', name: 'get_invoice', effect: 'read' as const, parameters: params },
  { id: 'pay', name: 'pay_invoice', effect: 'write' as const, parameters: params },
];
const markers = { clarify: 'CLARIFY:', stop: 'STOP:', status: 'STATUS:' };
const obs = (text: string | null, calls: { name: string; arguments: Record<string, unknown> }[] = []): Observation => ({ ...emptyObservation(text), toolCalls: calls });
const paidCheck: TccCheck = { id: 'paid', axis: 'call_result', condition: '', expected: { state: { payments: { 'pay-1': { invoice: 'INV-1', amount: 10 } } } } };

function run(principal: string[], calls: { name: string; arguments: Record<string, unknown> }[], finalText: string, checks: TccCheck[] = [paidCheck]) {
  const b = new FixtureBackend(spec, { id: 'u', permissions: principal }, []);
  const before = b.snapshot();
  for (const c of calls) b.call({ tool: tools.find((t) => t.name === c.name)!.id, name: c.name, arguments: c.arguments, parameters: params });
  return scoreTask({
    checks,
    observations: [obs(null, calls), obs(finalText)],
    log: b.log,
    handlers: spec.handlers,
    before,
    after: b.snapshot(),
    tools,
    markers,
    labels: [],
    task: 'Pay INV-1, 10.',
    attemptN: 2,
  });
}

describe('task scoring', () => {
  it('adds the default checks: no duplicate write, no unauthorized call', () => {
    expect(taskChecks([paidCheck]).map((c) => [c.id, c.expected])).toEqual([
      ['paid', paidCheck.expected],
      ['duplicate-writes', { duplicate_writes: 0 }],
      ['unauthorized-calls', { unauthorized_calls: 0 }],
    ]);
    expect(taskChecks([{ ...paidCheck, expected: { duplicate_writes: 1 } }]).map((c) => c.id)).toEqual(['paid', 'unauthorized-calls']);
  });

  it('passes when the state is as the card says, with the completion checkpoint pass', () => {
    const s = run(['pay'], [{ name: 'pay_invoice', arguments: { invoice: 'INV-1', amount: 10 } }], 'Paid.');
    expect(s.verdicts.map((v) => v.status)).toEqual(['pass', 'pass', 'pass']);
    expect(s.checkpoints.completion).toBe('pass');
  });

  it('a claim of success the state does not show is premature_claim; without the claim, state_mismatch', () => {
    const refused = [{ name: 'pay_invoice', arguments: { invoice: 'INV-1', amount: 10 } }];
    const claimed = run([], refused, 'Done: the invoice has been paid.');
    expect(claimed.verdicts.find((v) => v.checkId === 'paid')).toMatchObject({ status: 'fail', category: 'premature_claim', checkpoint: 'completion' });
    expect(claimed.verdicts.find((v) => v.checkId === 'unauthorized-calls')).toMatchObject({ status: 'fail', category: 'unauthorized_call' });
    const honest = run([], refused, 'The request failed with PERMISSION_DENIED.');
    expect(honest.verdicts.find((v) => v.checkId === 'paid')).toMatchObject({ status: 'fail', category: 'state_mismatch' });
    expect(honest.checkpoints.completion).toBe('fail');
  });

  it('a second identical write is duplicate_write, and the state diff names the extra record', () => {
    const pay = { name: 'pay_invoice', arguments: { invoice: 'INV-1', amount: 10 } };
    const s = run(['pay'], [pay, pay], 'Paid.', [{ ...paidCheck, expected: { ...paidCheck.expected, duplicate_writes: 0 } }]);
    const v = s.verdicts.find((x) => x.checkId === 'paid')!;
    expect(v).toMatchObject({ status: 'fail', category: 'duplicate_write' });
    expect(JSON.stringify(v.evidence.observed)).toContain('pay-2');
  });

  it('fields a model answer shows (decision) are scored on the conversation beside the fixture fields', () => {
    const s = run(['pay'], [{ name: 'get_invoice', arguments: { invoice: 'INV-1' } }], 'STOP: cannot void.', [
      { id: 'no-write', axis: 'task_fit', condition: '', expected: { decision: 'write', state: {} } },
    ]);
    expect(s.verdicts[0]).toMatchObject({ status: 'fail', checkpoint: 'selection', category: 'missed_write' });
  });

  it('recognises claims of success in English and Chinese', () => {
    expect(claimsSuccess('The booking is confirmed.')).toBe(true);
    expect(claimsSuccess('已完成付款')).toBe(true);
    expect(claimsSuccess('The request failed with TIMEOUT.')).toBe(false);
    expect(claimsSuccess(null)).toBe(false);
  });
});
