import { describe, expect, it } from 'vitest';
import { OptimiseInputError } from './loop';
import { parseRule, parseShares, parseTargets, parseWhole } from './input';

// The loop's input as typed (lib/optimise/input.ts), shared by `tclab optimize` and the Improve descriptions
// form: each wrong text names its field.

const fieldOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof OptimiseInputError) return e.field;
    throw e;
  }
  return null;
};

describe('the loop input as typed', () => {
  it('reads splits, rules, targets and whole numbers', () => {
    expect(parseShares(' 40/30/30 ')).toEqual({ tune: 40, select: 30, confirm: 30 });
    expect(parseShares('0/50/50')).toEqual({ tune: 0, select: 50, confirm: 50 });
    expect(parseRule('best')).toEqual({ kind: 'best' });
    expect(parseRule('top:3')).toEqual({ kind: 'top', m: 3 });
    expect(parseTargets('simulated:simulated-lexical-v1, openai:gpt-4.1')).toEqual([
      { provider: 'simulated', model: 'simulated-lexical-v1' },
      { provider: 'openai', model: 'gpt-4.1' },
    ]);
    expect(parseWhole('7', 'seed', 0, 10)).toBe(7);
  });

  it('names the field of each wrong text', () => {
    expect(fieldOf(() => parseShares('50/30/30'))).toBe('split');
    expect(fieldOf(() => parseShares('40/60/0'))).toBe('split');
    expect(fieldOf(() => parseShares('forty'))).toBe('split');
    expect(fieldOf(() => parseRule('top:x'))).toBe('rule');
    expect(fieldOf(() => parseRule('top:0'))).toBe('rule');
    expect(fieldOf(() => parseRule('top:21'))).toBe('rule');
    expect(fieldOf(() => parseTargets('nobody'))).toBe('targets');
    expect(fieldOf(() => parseTargets(' , '))).toBe('targets');
    expect(fieldOf(() => parseTargets('simulated:a,acme:b'))).toBe('targets');
    expect(fieldOf(() => parseWhole('1.5', 'seed', 0, 10))).toBe('seed');
    expect(fieldOf(() => parseWhole('', 'candidates', 1, 20))).toBe('candidates');
    expect(fieldOf(() => parseWhole('21', 'candidates', 1, 20))).toBe('candidates');
  });
});
