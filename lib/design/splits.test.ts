import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256 } from '../hash';
import { ExperimentSpec } from './experiment-spec';
import { politelyIgnored } from '../templates/politely-ignored';
import { referenceStudy } from '../templates/reference-study';
import type { Case, Study } from '../schema/experiment';
import { caseSetHash, restrictToCases, splitStudy, stratumOf, withSplits, DEFAULT_SHARES } from './splits';

/** A selection study with `n` cases whose card expects one of `tools` (round robin). */
function studyOf(n: number, tools: string[]): Study {
  const base = politelyIgnored().studies[0];
  const template = base.cases[0];
  const cases: Case[] = Array.from({ length: n }, (_, i) => ({
    ...template,
    id: `c${String(i).padStart(3, '0')}`,
    checks: template.checks.map((c) => ({ ...c, expected: { ...c.expected, tool: tools[i % tools.length] } })),
  }));
  return { ...base, cases, splits: { seed: 7, ...DEFAULT_SHARES } };
}

describe('splitStudy', () => {
  it('deals every case to exactly one split, about 40 / 30 / 30, and seals the confirm split by count and hash', () => {
    const s = splitStudy(studyOf(100, ['a', 'b', 'c', 'd']));
    expect([s.tune.length, s.select.length, s.confirm.length]).toEqual([40, 30, 30]);
    expect(new Set([...s.tune, ...s.select, ...s.confirm]).size).toBe(100);
    expect(s.sealed.count).toBe(30);
    expect(s.sealed.sha256).toBe(`sha256:${sha256([...s.confirm].sort().join('\n'))}`);
    expect(s.sealed.sha256).toBe(caseSetHash([...s.confirm].reverse()));
  });

  it('is a function of the seed and the case ids: same seed, same split; another seed, another split', () => {
    const study = studyOf(60, ['a', 'b', 'c']);
    expect(splitStudy(study)).toEqual(splitStudy(structuredClone(study)));
    const other = splitStudy({ ...study, splits: { ...study.splits!, seed: 8 } });
    expect(other.confirm).not.toEqual(splitStudy(study).confirm);
    // the case order of the spec does not matter
    const shuffled = { ...study, cases: [...study.cases].reverse() };
    expect([...splitStudy(shuffled).confirm].sort()).toEqual([...splitStudy(study).confirm].sort());
  });

  it('is stratified by the expected tool: each split holds each tool in about its share', () => {
    const study = studyOf(90, ['a', 'b', 'c']); // 30 cases per tool
    const s = splitStudy(study);
    const toolOf = new Map(study.cases.map((c) => [c.id, stratumOf(c, 'published')]));
    for (const [split, size] of [
      [s.confirm, 9],
      [s.select, 9],
      [s.tune, 12],
    ] as const) {
      const counts = new Map<string, number>();
      for (const id of split) counts.set(toolOf.get(id)!, (counts.get(toolOf.get(id)!) ?? 0) + 1);
      expect([...counts.values()].sort()).toEqual([size, size, size]);
    }
  });

  it('keeps at least one select and one confirm case, and names the field it cannot split', () => {
    const s = splitStudy(studyOf(2, ['a']));
    expect([s.tune.length, s.select.length, s.confirm.length]).toEqual([0, 1, 1]);
    expect(() => splitStudy(studyOf(1, ['a']))).toThrow(/studies\.selection\.cases: a split needs at least 2 cases/);
    const { splits: _, ...none } = studyOf(5, ['a']);
    expect(() => splitStudy(none as Study)).toThrow(/studies\.selection\.splits/);
  });

  it('an experiment without splits hashes as before; declaring one makes a new content hash', () => {
    for (const spec of [politelyIgnored(), referenceStudy()]) {
      const parsed = ExperimentSpec.parse(JSON.parse(JSON.stringify(spec)));
      expect(parsed.studies.every((s) => !('splits' in s))).toBe(true);
      expect(canonicalJson(parsed)).toBe(canonicalJson(spec));
      const split = ExperimentSpec.parse(withSplits(spec, spec.studies[0].id, { seed: 1, ...DEFAULT_SHARES }));
      expect(canonicalJson(split)).not.toBe(canonicalJson(spec));
    }
  });

  it('the spec refuses shares that do not add up to 100, naming the field', () => {
    const spec = withSplits(politelyIgnored(), 'selection', { seed: 1, tune: 50, select: 30, confirm: 30 });
    const r = ExperimentSpec.safeParse(spec);
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error!.issues)).toMatch(/splits.*add up to 100|add up to 100/);
    expect(r.error!.issues[0].path).toEqual(['studies', 0, 'splits']);
  });

  it('restrictToCases keeps only the cases given (and their pre-checks)', () => {
    const spec = politelyIgnored();
    const ids = spec.studies[0].cases.slice(0, 3).map((c) => c.id);
    const r = restrictToCases(spec, 'selection', ids);
    expect(r.studies[0].cases.map((c) => c.id)).toEqual(ids);
    expect(r.prechecks.every((p) => ids.includes(p.caseId))).toBe(true);
    expect(() => restrictToCases(spec, 'selection', ['nope'])).toThrow(/caseIds/);
  });
});
