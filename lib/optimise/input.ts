// The loop's input as people type it — `40/30/30`, `top:2`, `openai:gpt-4.1,simulated:…` — read into what
// lib/optimise/loop.ts takes. One reading for every door (`tclab optimize` and the Improve descriptions page):
// bad text throws an OptimiseInputError naming the field, and each door says it in its own words (a flag, a
// form field).

import { parseRunTarget, type RunTarget } from '../schema/run';
import type { SplitShares } from '../schema/optimisation';
import type { SelectionRule } from '../analysis/optimise';
import { OptimiseInputError } from './errors';
import { MAX_CANDIDATES } from './limits';

/** The largest seed a split takes (stored as a PostgreSQL integer). */
export const MAX_SEED = 2 ** 31 - 1;

export function parseWhole(text: string, field: string, min: number, max: number): number {
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isSafeInteger(n) || n < min || n > max) throw new OptimiseInputError(field, `a whole number from ${min} to ${max} (got "${text}")`);
  return n;
}

/** A positive amount (a cost budget), e.g. `2.50`. */
export function parseAmount(text: string, field: string): number {
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 100_000_000) throw new OptimiseInputError(field, `a positive amount (got "${text}")`);
  return n;
}

/** `tune/select/confirm` whole percentages adding up to 100, select and confirm at least 1. */
export function parseShares(text: string): SplitShares {
  const m = /^(\d{1,3})\/(\d{1,3})\/(\d{1,3})$/.exec(text.trim());
  const [tune, select, confirm] = m ? m.slice(1).map(Number) : [NaN, NaN, NaN];
  if (!m || tune + select + confirm !== 100 || select < 1 || confirm < 1)
    throw new OptimiseInputError('split', `tune/select/confirm whole percentages adding up to 100, select and confirm at least 1, e.g. 40/30/30 (got "${text}")`);
  return { tune, select, confirm };
}

/** `best` or `top:M`. */
export function parseRule(text: string): SelectionRule {
  const t = text.trim();
  if (t === 'best') return { kind: 'best' };
  const m = /^top:(\d+)$/.exec(t);
  if (!m) throw new OptimiseInputError('rule', `best or top:M (got "${text}")`);
  const n = Number(m[1]);
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_CANDIDATES)
    throw new OptimiseInputError('rule', `top:M with M a whole number from 1 to ${MAX_CANDIDATES} (got "${text}")`);
  return { kind: 'top', m: n };
}

/** `provider:model` targets, comma-separated: the first runs the select stage, each the confirmation. */
export function parseTargets(text: string): RunTarget[] {
  const parts = text.split(',').map((t) => t.trim());
  if (parts.every((p) => p === '')) throw new OptimiseInputError('targets', 'at least one provider:model (e.g. simulated:simulated-lexical-v1)');
  return parts.map((t, i) => {
    const r = parseRunTarget(t);
    if (typeof r === 'string') throw new OptimiseInputError('targets', `(#${i + 1}) ${r}`);
    return r;
  });
}

/** One `provider:model`: the rewriter model. */
export function parseRewriter(text: string): RunTarget {
  const r = parseRunTarget(text.trim());
  if (typeof r === 'string') throw new OptimiseInputError('rewriter', r);
  return r;
}
