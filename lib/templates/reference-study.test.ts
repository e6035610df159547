import { checksFor } from '../schema/experiment';
import { describe, expect, it } from 'vitest';
import { countMatrix, expandTrials } from '../design/matrix';
import type { Case, ExperimentSpec, Study, ToolDefinition } from '../schema/experiment';
import { referenceStudy } from './reference-study';
import { STATUS_CODES } from './reference-study/interpretation';

const spec = referenceStudy();
const study = (id: string): Study => spec.studies.find((s) => s.id === id)!;
const selection = study('selection');
const interpretation = study('interpretation');
const HAN = /\p{Script=Han}/u;

function defs(s: Study, condition: string, scenario: string, locale: string): ToolDefinition[] {
  return s.conditions.find((c) => c.id === condition)!.tools[scenario][locale];
}
function propsOf(d: ToolDefinition): Record<string, Record<string, unknown>> {
  return d.parameters.properties as Record<string, Record<string, unknown>>;
}
function effectOf(spec_: ExperimentSpec, scenario: string, toolId: string): string | undefined {
  return spec_.scenarios.find((s) => s.id === scenario)?.tools.find((t) => t.id === toolId)?.effect;
}
const rows = spec.scenarios.flatMap((s) => spec.locales.map((locale) => ({ scenario: s.id, locale })));

describe('reference-study template: shape and counts (docs/design.md#the-reference-study)', () => {
  it('parses through the ExperimentSpec schema and is deterministic', () => {
    expect(spec.id).toBe('reference-study');
    expect(spec.locales).toEqual(['en', 'zh-TW']);
    expect(referenceStudy()).toEqual(spec);
    expect(selection).toMatchObject({ kind: 'selection', orderPolicy: 'reverse-swap' });
    expect(interpretation).toMatchObject({ kind: 'interpretation', orderPolicy: 'fixed' });
    expect(selection.conditions.map((c) => [c.id, c.baseline])).toEqual([
      ['overlapping', true],
      ['clear', false],
    ]);
    expect(interpretation.conditions.map((c) => [c.id, c.baseline])).toEqual([
      ['no-code-meanings', true],
      ['code-meanings', false],
    ]);
  });

  it('expands to 96 selection trials (48 pairs, 24 per order), 56 interpretation trials, 152 formal, 2 pre-checks', () => {
    const trials = expandTrials(spec);
    const count = countMatrix(spec);
    expect(count).toEqual(countMatrix(spec, trials));
    expect(count.formal).toBe(152);
    expect(count.prechecks).toBe(2);
    const [sel, int] = count.studies;
    expect(sel).toMatchObject({ study: 'selection', trials: 96, pairs: 48 });
    expect(sel.conditions.map((c) => c.trials)).toEqual([48, 48]);
    expect(int).toMatchObject({ study: 'interpretation', trials: 56, pairs: 28 });
    expect(int.conditions.map((c) => c.trials)).toEqual([28, 28]);
    const pairsPerOrder = [0, 1].map((o) => new Set(trials.filter((t) => t.study === 'selection' && t.orderIndex === o).map((t) => t.pairKey)).size);
    expect(pairsPerOrder).toEqual([24, 24]);
    // a pair shares its candidate order across conditions
    for (const t of trials.filter((x) => x.study === 'selection' && x.condition === 'clear')) {
      const base = trials.find((x) => x.pairKey === t.pairKey && x.condition === 'overlapping')!;
      expect(base.toolOrder).toEqual(t.toolOrder);
    }
    expect(new Set(spec.prechecks.map((p) => p.study))).toEqual(new Set(['selection', 'interpretation']));
  });

  it('gives every scenario one read and one write tool', () => {
    for (const s of spec.scenarios) expect(s.tools.map((t) => t.effect).sort()).toEqual(['read', 'write']);
  });

  it('has 6 selection cases (2 read, 2 write, 1 clarify, 1 stop) and 7 interpretation cases per scenario × locale', () => {
    for (const { scenario, locale } of rows) {
      const sel = selection.cases.filter((c) => c.scenario === scenario && c.locale === locale);
      const decisions = sel.map((c) => c.checks.find((k) => k.id === 'tool-choice')?.expected.decision).sort();
      expect(decisions).toEqual(['clarify', 'read', 'read', 'stop', 'write', 'write']);
      expect(interpretation.cases.filter((c) => c.scenario === scenario && c.locale === locale)).toHaveLength(7);
    }
  });

  it('defines tools for both locales of every scenario in every condition', () => {
    for (const s of spec.studies)
      for (const c of s.conditions)
        for (const { scenario, locale } of rows) expect(c.tools[scenario]?.[locale]?.length, `${s.id}/${c.id}/${scenario}/${locale}`).toBeGreaterThan(0);
  });

  it('writes every zh-TW text in Chinese and every en text without it', () => {
    for (const s of spec.studies) {
      expect(s.protocol.system['zh-TW']).toMatch(HAN);
      expect(s.protocol.system.en).not.toMatch(HAN);
      for (const c of s.cases) expect(HAN.test(c.task), c.id).toBe(c.locale === 'zh-TW');
      for (const cond of s.conditions)
        for (const [locale, list] of Object.entries(cond.tools).flatMap(([, byLocale]) => Object.entries(byLocale)))
          for (const d of list) {
            expect(HAN.test(d.description), `${cond.id}/${d.name}`).toBe(locale === 'zh-TW');
            for (const p of Object.values(propsOf(d))) expect(HAN.test(String(p.description)), `${d.name}`).toBe(locale === 'zh-TW');
          }
    }
  });
});

describe('reference-study template: the selection conditions', () => {
  it('overlapping: both tools of a scenario carry the very same description', () => {
    for (const { scenario, locale } of rows) {
      const [a, b] = defs(selection, 'overlapping', scenario, locale);
      expect(a.description).toBe(b.description);
      expect(a.name).not.toBe(b.name);
      expect(a.description).not.toMatch(/read|write|CLARIFY|STOP|唯讀|寫入/i);
    }
  });

  it('clear: read-only vs write, confirmation, ask-first and the STOP limit are stated', () => {
    for (const { scenario, locale } of rows) {
      const list = defs(selection, 'clear', scenario, locale);
      const read = list.find((d) => effectOf(spec, scenario, d.tool) === 'read')!;
      const write = list.find((d) => effectOf(spec, scenario, d.tool) === 'write')!;
      expect(read.description).toMatch(locale === 'en' ? /^Read-only/ : /^唯讀/);
      expect(write.description).toMatch(locale === 'en' ? /^Write operation/ : /^寫入操作/);
      expect(write.description).toMatch(locale === 'en' ? /explicitly confirmed/ : /明確確認/);
      for (const d of list) expect(d.description).toContain('CLARIFY:');
      expect(write.description).toContain('STOP:');
      for (const d of list) expect((d.parameters.required as string[]).length).toBeGreaterThan(0);
    }
  });

  it('checks the full call for reads and writes, and only decision + zero calls for clarify/stop', () => {
    for (const c of selection.cases) {
      const choice = c.checks.find((k) => k.id === 'tool-choice')!;
      expect(choice.axis).toBe('task_fit');
      const { decision, tool, call_count } = choice.expected;
      if (decision === 'clarify' || decision === 'stop') {
        expect(c.checks).toHaveLength(1);
        expect(call_count).toBe(0);
        expect(tool).toBeUndefined();
        continue;
      }
      expect(call_count).toBe(1);
      expect(effectOf(spec, c.scenario, tool!)).toBe(decision);
      const args = c.checks.find((k) => k.id === 'arguments')!;
      expect(args.axis).toBe('call_result');
      for (const cond of selection.conditions) expectCallFits(c, tool!, args.expected.arguments!, defs(selection, cond.id, c.scenario, c.locale));
    }
  });
});

/** Expected arguments: only defined keys, every required key, and each acceptable value fits the (clear) schema. */
function expectCallFits(c: Case, toolId: string, args: Record<string, unknown>, list: ToolDefinition[]) {
  const d = list.find((x) => x.tool === toolId)!;
  const props = propsOf(d);
  expect(
    Object.keys(args).every((k) => k in props),
    `${c.id}: keys ${Object.keys(args)} vs ${d.name}`,
  ).toBe(true);
  for (const r of d.parameters.required as string[]) expect(args, `${c.id} needs ${r}`).toHaveProperty(r);
  for (const [k, v] of Object.entries(args)) {
    const schema = props[k];
    for (const value of Array.isArray(v) ? v : [v]) {
      if (schema.type === 'integer') expect(Number.isInteger(value), `${c.id}.${k}`).toBe(true);
      if (schema.type === 'number') expect(typeof value).toBe('number');
      if (schema.type === 'string') expect(typeof value).toBe('string');
      if (typeof schema.pattern === 'string') expect(String(value)).toMatch(new RegExp(schema.pattern));
      if (Array.isArray(schema.enum)) expect(schema.enum).toContain(value);
    }
  }
}

describe('reference-study template: the interpretation conditions', () => {
  it('fixes a read call and injects a status code; one result check per case', () => {
    for (const c of interpretation.cases) {
      expect(effectOf(spec, c.scenario, c.fixedCall!.tool)).toBe('read');
      expect(c.toolResult).toMatchObject({ status_code: expect.any(Number) });
      expect(c.checks).toHaveLength(1);
      expect(c.checks[0]).toMatchObject({ id: 'result', axis: 'call_result' });
      expect(interpretation.protocol.labels).toContain(c.checks[0].expected.label);
    }
  });

  it('lists every code meaning in code-meanings, none in no-code-meanings, and states the range there', () => {
    for (const { scenario, locale } of rows) {
      const [withMeanings] = defs(interpretation, 'code-meanings', scenario, locale);
      const [without] = defs(interpretation, 'no-code-meanings', scenario, locale);
      const { range, codes, outOfRange } = STATUS_CODES[scenario as 'restaurant' | 'invoice'];
      for (const { code, label } of codes) {
        expect(withMeanings.description).toContain(`${code} = ${label}`);
        expect(without.description).not.toContain(`${code} =`);
      }
      expect(without.description).toContain(`${range[0]}`);
      expect(without.description).toContain(`${range[1]}`);
      expect(outOfRange < range[0] || outOfRange > range[1]).toBe(true);
      expect(codes.map((c) => c.label).filter((l, i, a) => a.indexOf(l) === i)).toHaveLength(3);
    }
    const restaurant17 = STATUS_CODES.restaurant.codes.find((c) => c.code === 17);
    expect(restaurant17?.label).toBe('TIMEOUT');
  });

  it('expects the defined label with meanings, CANNOT_DETERMINE without, ERROR for the out-of-range code in both', () => {
    for (const c of interpretation.cases) {
      const check = c.checks[0];
      const code = (c.toolResult as { status_code: number }).status_code;
      const { outOfRange, codes } = STATUS_CODES[c.scenario as 'restaurant' | 'invoice'];
      if (code === outOfRange) {
        expect(check.expected.label).toBe('ERROR');
        expect(c.expectByCondition).toEqual({});
      } else {
        expect(check.expected.label).toBe(codes.find((x) => x.code === code)!.label);
        expect(c.expectByCondition).toEqual({ 'no-code-meanings': { result: { label: 'CANNOT_DETERMINE' } } });
        expect(checksFor(c, 'no-code-meanings')[0].expected.label).toBe('CANNOT_DETERMINE');
        expect(checksFor(c, 'code-meanings')[0].expected.label).toBe(check.expected.label);
      }
    }
  });
});
