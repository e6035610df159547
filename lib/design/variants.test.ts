import { describe, expect, it } from 'vitest';
import { ExperimentSpec } from './experiment-spec';
import { getTemplate } from '../templates';
import { lintExperiment } from './lint';
import { expandTrials } from './matrix';
import { boundedTokenCount } from './tokens';
import { MUTANT_RULES, PLACEBO_POOL, balancedOrderPolicy, padToLength, proposeMutants, proposePlacebo, proposeVariants, withVariants, withinTolerance } from './variants';
import type { Condition } from '../schema/experiment';

const parse = (id: string) => ExperimentSpec.parse(getTemplate(id)!.build());
const TREATMENTS: [string, string, string][] = [
  ['reference-study', 'selection', 'clear'],
  ['reference-study', 'interpretation', 'code-meanings'],
  ['task-completion', 'task', 'contract'],
  ['politely-ignored', 'selection', 'rewritten'],
  ['catalog-scale', 'selection', 'clear'], // with 128 distractors: name-near-distractor in play
];

// a seeded generator (mulberry32): the same descriptions on every run
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const WORDS = 'looks up one invoice by its number and returns status amount due paid pending failed booking table branch date party size slot the a of for with'.split(
  ' ',
);
const HANZI = '查詢一張發票的付款狀態與金額訂位分店日期人數時段空位回傳結果'.split('');

describe('the length-matched placebo', () => {
  it('pads any shorter description to the target within ±5% tokens (2,000 seeded pairs, English and Chinese)', () => {
    const r = rng(24);
    let padded = 0;
    for (let i = 0; i < 2000; i++) {
      const zh = i % 4 === 3;
      const n = 1 + Math.floor(r() * 40);
      const base = zh
        ? `${Array.from({ length: n }, () => HANZI[Math.floor(r() * HANZI.length)]).join('')}。`
        : `${Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ')}.`;
      const target = boundedTokenCount(base) + 1 + Math.floor(r() * 400);
      const out = padToLength(base, target, zh ? 'zh-TW' : 'en')!;
      expect(out, `${base} → ${target}`).not.toBeNull();
      expect(out.startsWith(base)).toBe(true); // the baseline's text is kept whole, first
      const got = boundedTokenCount(out);
      expect(Math.abs(got - target), `${JSON.stringify(out)}: ${got} tokens for ${target}`).toBeLessThanOrEqual(0.05 * target);
      padded++;
    }
    expect(padded).toBe(2000);
  }, 60_000);

  it('adds only sentences of the documented pool, deterministically; never shortens', () => {
    const base = 'Gets an invoice.';
    const out = padToLength(base, 60, 'en')!;
    expect(padToLength(base, 60, 'en')).toBe(out);
    let rest = out.slice(base.length).trim();
    for (const s of [...PLACEBO_POOL.en].sort((a, b) => b.length - a.length)) rest = rest.split(s).join('');
    expect(rest.trim()).toBe('');
    expect(padToLength('A description that is already much longer than the target of ten tokens.', 10, 'en')).toBeNull();
    expect(padToLength(base, boundedTokenCount(base), 'en')).toBe(base);
  });

  it("on every template's treatment: the placebo is the baseline with padded descriptions, each within ±5% of the treatment's", () => {
    for (const [tpl, studyId, treatment] of TREATMENTS) {
      const spec = parse(tpl);
      const study = spec.studies.find((s) => s.id === studyId)!;
      const p = proposePlacebo(study, treatment)!;
      expect(p.condition.variant).toEqual({ kind: 'placebo', of: treatment });
      const base = study.conditions.find((c) => c.baseline)!;
      const treat = study.conditions.find((c) => c.id === treatment)!;
      for (const [scenario, byLocale] of Object.entries(p.condition.tools))
        for (const [locale, defs] of Object.entries(byLocale))
          defs.forEach((d, i) => {
            const b = base.tools[scenario][locale][i];
            expect({ ...d, description: '' }).toEqual({ ...b, description: '' }); // names and parameters: the baseline's
            expect(d.description.startsWith(b.description)).toBe(true);
            const t = treat.tools[scenario][locale].find((x) => x.tool === d.tool)!;
            const changed = p.changes.find((c) => c.scenario === scenario && c.locale === locale && c.tool === d.tool);
            if (changed) expect(withinTolerance(boundedTokenCount(d.description), boundedTokenCount(t.description)), `${tpl} ${d.tool}`).toBe(true);
          });
      // an ordinary condition, paired with the baseline
      expect(() => ExperimentSpec.parse(withVariants(spec, studyId, [p.condition]))).not.toThrow();
    }
  });
});

/** Findings as `scenario/locale tool rule` strings of one condition (a multiset, sorted). */
const findingsOf = (spec: ExperimentSpec, study: string, condition: string) =>
  lintExperiment(spec)
    .filter((f) => f.study === study && f.condition === condition)
    .map((f) => `${f.scenario}/${f.locale} ${f.tool} ${f.rule}`)
    .sort();
function added(before: string[], after: string[]): string[] {
  const left = [...before];
  return after.filter((k) => {
    const i = left.indexOf(k);
    if (i >= 0) left.splice(i, 1);
    return i < 0;
  });
}

describe('single-defect mutants', () => {
  it('each mutant trips exactly its rule, on each tool it changed, and no rule the source did not trip (every rule, the search rules included)', () => {
    const seen = new Set<string>();
    for (const [tpl, studyId, treatment] of TREATMENTS) {
      const spec = parse(tpl);
      const study = spec.studies.find((s) => s.id === studyId)!;
      const mutants = proposeMutants(spec, study, treatment);
      const withAll = withVariants(
        spec,
        studyId,
        mutants.map((m) => m.condition),
      );
      const source = findingsOf(withAll, studyId, treatment);
      for (const m of mutants) {
        const rule = m.kind.replace('mutant:', '');
        seen.add(rule);
        expect(m.condition.variant).toEqual({ kind: m.kind, of: treatment });
        const mine = findingsOf(withAll, studyId, m.condition.id);
        const extra = added(source, mine);
        expect(extra.length, `${tpl} ${m.condition.id}`).toBeGreaterThan(0);
        for (const f of extra) expect(f, `${tpl} ${m.condition.id}`).toMatch(new RegExp(` ${rule}$`));
        // every definition it changed carries the defect
        const spec2 = withAll;
        const names = new Map(
          Object.entries(spec2.studies.find((s) => s.id === studyId)!.conditions.find((c) => c.id === m.condition.id)!.tools).flatMap(([sc, bl]) =>
            Object.entries(bl).flatMap(([lo, defs]) => defs.map((d) => [`${sc}/${lo} ${d.tool}`, `${sc}/${lo} ${d.name}`] as const)),
          ),
        );
        for (const c of m.changes) expect(extra).toContain(`${names.get(`${c.scenario}/${c.locale} ${c.tool}`)} ${rule}`);
      }
    }
    // every kind of defect is made somewhere: the test is not empty
    expect([...seen].sort()).toEqual([...MUTANT_RULES].sort());
  }, 120_000);

  it('from one good description, the five defects', () => {
    const good = ExperimentSpec.parse(getTemplate('task-completion')!.build());
    const study = good.studies[0];
    const byRule = new Map(proposeMutants(good, study, 'contract').map((m) => [m.kind, m]));
    const text = (kind: string, tool: string) => byRule.get(kind)!.changes.find((c) => c.tool === tool && c.locale === 'en')!.after;
    expect(text('mutant:restates-name', 'find_tables')).toMatch(/^find_tables: Read-only/);
    expect(text('mutant:write-not-said', 'create_booking')).not.toMatch(/book|creat|write/i);
    expect(text('mutant:vague-purpose', 'create_booking')).toMatch(/^Handles booking-related requests\./);
    expect(text('mutant:model-directed-instruction', 'find_tables')).toMatch(/Always use this tool first\.$/);
    const codes = proposeMutants(parse('reference-study'), parse('reference-study').studies[1], 'code-meanings').find((m) => m.kind === 'mutant:codes-without-meanings')!;
    const inv = codes.changes.find((c) => c.tool === 'get_payment_status' && c.locale === 'en')!.after;
    expect(inv).toMatch(/Its status code is an integer from 41 to 67\./);
    expect(inv).not.toMatch(/= PAID/);
  }, 60_000);
});

describe('a Latin square over positions for more than two candidates', () => {
  it('crosses every condition (the variants too) with rotations: each candidate at each position equally often', () => {
    const spec = parse('task-completion'); // the invoice scenario sends three tools, in a fixed order
    const study = spec.studies[0];
    expect(study.orderPolicy).toBe('fixed');
    const v = proposeVariants(spec, study.id, 'contract');
    expect(v.orderPolicy).toEqual({ before: 'fixed', after: 'rotations' });
    const crossed = ExperimentSpec.parse(withVariants(spec, study.id, v.proposals.map((p) => p.condition) as Condition[], v.orderPolicy!.after));
    const trials = expandTrials(crossed);
    const conditions = crossed.studies[0].conditions.map((c) => c.id);
    expect(conditions.length).toBeGreaterThan(3);
    for (const condition of conditions)
      for (const scenario of ['invoice', 'restaurant']) {
        const mine = trials.filter((t) => t.condition === condition && t.scenario === scenario);
        const n = mine[0].toolOrder.length;
        const count = new Map<string, number>();
        for (const t of mine) t.toolOrder.forEach((tool, pos) => count.set(`${tool}@${pos}`, (count.get(`${tool}@${pos}`) ?? 0) + 1));
        const tools = new Set(mine.flatMap((t) => t.toolOrder));
        expect(count.size, `${condition} ${scenario}`).toBe(tools.size * n);
        expect(new Set(count.values()).size, `${condition} ${scenario}: ${JSON.stringify([...count])}`).toBe(1);
      }
    // pairs stay paired: each condition has the same pair keys
    const keys = (c: string) =>
      trials
        .filter((t) => t.condition === c)
        .map((t) => t.pairKey)
        .sort();
    for (const c of conditions) expect(keys(c)).toEqual(keys(conditions[0]));
    // two candidates: reversing already balances, nothing to change
    const ref = parse('reference-study');
    expect(balancedOrderPolicy(ref, ref.studies[0])).toBe(ref.studies[0].orderPolicy);
  });
});

describe('the variant in the spec', () => {
  it('names the condition it was made from; an unknown one, or a variant baseline, is refused naming the field', () => {
    const spec = parse('reference-study');
    const p = proposePlacebo(spec.studies[0], 'clear')!;
    const bad = withVariants(spec, 'selection', [{ ...p.condition, variant: { kind: 'placebo', of: 'nope' } }]);
    const messages = (value: unknown) => {
      const r = ExperimentSpec.safeParse(value);
      return r.success ? '' : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n');
    };
    expect(messages(bad)).toMatch(/studies\.0\.conditions\.2\.variant\.of: unknown condition "nope"/);
    const badKind = withVariants(spec, 'selection', [{ ...p.condition, variant: { kind: 'mutant:', of: 'clear' } }]);
    expect(messages(badKind)).toMatch(
      /studies\.0\.conditions\.2\.variant\.kind: placebo, ablation, hand, mutant:<lint rule>, rule:<lint rule> or model:<provider>:<model>/,
    );
    expect(messages(withVariants(spec, 'selection', [p.condition]))).toBe('');
  });
});
