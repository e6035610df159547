import { describe, expect, it } from 'vitest';
import { optimiseFromForm } from './optimise-form';

// The Improve descriptions form read into the loop's input: empty optional fields are the loop's defaults, and
// every wrong field is listed under its own name at once.

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

describe('the Improve descriptions form', () => {
  it('leaves empty optional fields to the loop', () => {
    const r = optimiseFromForm('exp-v1', form({ study: 'selection', split: '', seed: '', rule: 'best', candidates: '', targets: 'simulated:simulated-lexical-v1' }));
    expect(r).toEqual({
      ok: true,
      value: {
        experimentId: 'exp-v1',
        study: 'selection',
        shares: undefined,
        seed: undefined,
        rule: { kind: 'best' },
        maxCandidates: undefined,
        targets: [{ provider: 'simulated', model: 'simulated-lexical-v1' }],
        confirm: { yes: false, maxRequests: null },
      },
    });
  });

  it('reads every field, and the spend confirmation', () => {
    const r = optimiseFromForm(
      'exp-v1',
      form({
        study: 's',
        split: '20/40/40',
        seed: '9',
        rule: 'top:2',
        candidates: '5',
        targets: 'openai:gpt-4.1',
        yes: 'on',
        'budget-requests': '500',
        'budget-cost': '2.5',
      }),
    );
    expect(r.ok && r.value).toMatchObject({
      budget: { requests: 500, tokens: null, cost: 2.5 },
      shares: { tune: 20, select: 40, confirm: 40 },
      seed: 9,
      rule: { kind: 'top', m: 2 },
      maxCandidates: 5,
      confirm: { yes: true },
    });
  });

  it('lists every wrong field under its name', () => {
    const r = optimiseFromForm(
      'exp-v1',
      form({
        study: '',
        split: '50/30/30',
        seed: '-1',
        rule: 'worst',
        candidates: '99',
        targets: '',
        'budget-requests': '0',
        'budget-tokens': '1.5',
        'budget-cost': '-3',
      }),
    );
    expect(r.ok).toBe(false);
    expect(!r.ok && r.issues.map((i) => i.path)).toEqual(['study', 'split', 'seed', 'rule', 'candidates', 'budget-requests', 'budget-tokens', 'budget-cost', 'targets']);
  });
});
