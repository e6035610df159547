import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SpecExpected } from '../../schema/experiment';
import { EXPECTED_FIELDS, TccExpected, type ExpectedField } from '../../schema/tcc';
import { Checkpoint, FailureCategory } from '../../schema/verdict';
import { compareCheck } from '../compare';
import { categoryExamples } from '../fixtures/category-examples';
import { labels, markers } from '../fixtures/study';
import { observationToTcc } from '../observe';
import { scoreTrial } from '../score';
import { ANSWER_CATEGORIES, CHECK_FIELDS, FIELDS, answerField, designerFields, type CheckField } from '.';

// The registry of check fields is complete: every field the schema accepts has exactly one module, every
// module is registered, and what each module declares (categories, checkpoint) is what the rest of the tool
// knows. Adding a check field is its schema entry, one new file in this folder and one line in index.ts:
// forget the line and the type of CHECK_FIELDS fails to compile (shown below with @ts-expect-error), forget
// the file's registration and "every module file is registered" fails.

const MODULE_FILES = readdirSync(new URL('.', import.meta.url)).filter(
  (f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f) && !['index.ts', 'types.ts', 'shared.ts'].includes(f),
);

const isCheckField = (v: unknown): v is CheckField => typeof v === 'object' && v !== null && 'name' in v && 'source' in v && 'compare' in v && 'categorize' in v;

describe('the check-field registry', () => {
  it('has exactly one module per field name the schema accepts, under its own name, in the schema order', () => {
    expect(Object.keys(CHECK_FIELDS)).toEqual(EXPECTED_FIELDS);
    expect(Object.keys(TccExpected.shape)).toEqual(EXPECTED_FIELDS);
    expect(Object.keys(SpecExpected.shape)).toEqual(EXPECTED_FIELDS);
    for (const [name, f] of Object.entries(CHECK_FIELDS)) expect(f.name).toBe(name);
    expect(new Set(FIELDS).size).toBe(FIELDS.length);
  });

  it('registers every module file of lib/scoring/fields', async () => {
    expect(MODULE_FILES.length).toBeGreaterThanOrEqual(EXPECTED_FIELDS.length);
    for (const file of MODULE_FILES) {
      const exported = Object.values(await import(/* @vite-ignore */ new URL(file, import.meta.url).href)).filter(isCheckField);
      expect(exported, file).toHaveLength(1);
      expect(FIELDS, file).toContain(exported[0]);
    }
  });

  it("gives every failure category a source, and declares only categories of the schema's list", () => {
    const declared = new Set<string>(ANSWER_CATEGORIES);
    for (const f of FIELDS) {
      expect(f.categories.length, f.name).toBeGreaterThan(0);
      for (const c of f.categories) {
        expect(FailureCategory.options, `${f.name}: ${c}`).toContain(c);
        declared.add(c);
      }
    }
    expect([...declared].sort()).toEqual([...FailureCategory.options].sort());
  });

  it('counts each field for a checkpoint of the schema (visibility is judged for the card, not per field)', () => {
    for (const f of FIELDS) {
      expect(Checkpoint.options).toContain(f.checkpoint);
      expect(f.checkpoint).not.toBe('visibility');
      expect(f.rule.length).toBeGreaterThan(0);
    }
  });

  it('categorises a failed check only with a category its first failed field declares', () => {
    let seen = 0;
    for (const ex of categoryExamples) {
      const input = { ...ex.input, attemptN: 1, markers, labels };
      const file = observationToTcc(input.checks, input.observation, input.tools);
      const { verdicts } = scoreTrial(input);
      input.checks.forEach((check, i) => {
        const v = verdicts[i];
        if (v.status !== 'fail') return;
        const field = compareCheck(check, file[check.id]).failed!.field;
        const allowed = [...(answerField(field)?.categories ?? []), ...ANSWER_CATEGORIES];
        expect(allowed, `${ex.name}/${check.id}: ${field}`).toContain(v.category);
        seen++;
      });
    }
    expect(seen).toBeGreaterThanOrEqual(categoryExamples.length);
  });

  it('gives the designer its inputs: the single-value fields in registry order, then the arguments form', () => {
    expect(designerFields().map((f) => `${f.name}:${f.designer.input}`)).toEqual([
      'decision:select',
      'tool:tool',
      'call_count:number',
      'label:text',
      'write_count:number',
      'arguments:arguments',
    ]);
  });

  it('cannot be missing a field, or hold a module under another name, and still compile', () => {
    type Registry = { readonly [K in ExpectedField]: CheckField<K> };
    const { state: _state, ...missing } = CHECK_FIELDS;
    // @ts-expect-error — a field of the schema without its module
    const incomplete: Registry = missing;
    // @ts-expect-error — the label module registered as `decision`
    const misnamed: Registry = { ...CHECK_FIELDS, decision: CHECK_FIELDS.label };
    expect([incomplete, misnamed]).toHaveLength(2);
  });
});
