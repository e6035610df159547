import { describe, expect, it } from 'vitest';
import { politelyIgnored } from '../templates/politely-ignored';
import { TEXT_MAX } from '../schema/common';
import { derivedId, gatherCandidates } from './loop';

// The pure parts of the loop (docs/optimise.md "Candidates"): which conditions become candidates, with what
// provenance, under the bound; and the ids of the derived select and confirm versions.

describe('gatherCandidates', () => {
  const spec = politelyIgnored();
  const study = spec.studies[0];

  it("the study's hand-written condition, every rule-driven fix, and a placebo matched to the longest", () => {
    const { conditions, candidates } = gatherCandidates(spec, study, 20);
    expect(candidates.map((c) => c.provenance)).toEqual([
      'hand',
      'rule:false-tool-name',
      'rule:fact-not-said',
      'rule:no-task-verb',
      'rule:parameter-undescribed',
      'placebo',
    ]);
    expect(conditions.map((c) => c.id)).toEqual(candidates.map((c) => c.condition));
    const placebo = candidates.at(-1)!;
    // matched to the longest candidate: the hand rewrite
    expect(placebo).toMatchObject({ placebo: true, of: 'rewritten' });
    expect(candidates.filter((c) => c.placebo)).toHaveLength(1);
    // every candidate changes something of the baseline, and says what
    for (const c of candidates) expect(c.changes.length).toBeGreaterThan(0);
    expect(new Set(conditions.map((c) => c.id)).size).toBe(conditions.length);
  });

  it('the bound keeps the first K (hand-written first); the placebo comes on top', () => {
    const { candidates } = gatherCandidates(spec, study, 1);
    expect(candidates.map((c) => c.provenance)).toEqual(['hand', 'placebo']);
  });

  it("the study's own placebo is used, and mutants are no candidates", () => {
    const s = structuredClone(study);
    const base = s.conditions[0];
    s.conditions.push({ ...structuredClone(base), id: 'own-placebo', baseline: false, variant: { kind: 'placebo', of: base.id } });
    s.conditions.push({ ...structuredClone(base), id: 'a-mutant', baseline: false, variant: { kind: 'mutant:vague-purpose', of: base.id } });
    const { candidates } = gatherCandidates({ ...spec, studies: [s] }, s, 20);
    expect(candidates.filter((c) => c.placebo).map((c) => c.condition)).toEqual(['own-placebo']);
    expect(candidates.map((c) => c.condition)).not.toContain('a-mutant');
  });
});

describe('derivedId', () => {
  it('names the source, study and stage, within an id’s length', () => {
    expect(derivedId('politely-ignored', 'selection', 'select')).toBe('politely-ignored.selection.select');
    const long = derivedId('x'.repeat(80), 'y'.repeat(80), 'confirm');
    expect(long.length).toBe(TEXT_MAX.id);
    expect(long.endsWith(`.${'y'.repeat(30)}.confirm`)).toBe(true);
  });
});
