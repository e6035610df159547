import { describe, expect, it } from 'vitest';
import { ExperimentSpec } from '../design/experiment-spec';
import { tinyExperiment } from '../testing/tiny-experiment';
import { caseDiffers, changedAcross, choiceGrid, choiceMatrices, choicePositions, choicesOf, decisionOf, positionOf, type Choice } from './choices';
import type { ChoiceRow } from '../schema/choices';

const spec = ExperimentSpec.parse(tinyExperiment('choices'));
const row = (o: Partial<ChoiceRow>): ChoiceRow => ({
  trialId: 't',
  study: 'selection',
  scenario: 'invoice',
  locale: 'en',
  caseId: 'read-1',
  condition: 'overlapping',
  orderIndex: 0,
  replicate: 1,
  order: ['get_invoice', 'pay_invoice'],
  status: 'passed',
  tool: 'get_invoice',
  marker: null,
  label: null,
  answered: true,
  ...o,
});

describe('choices', () => {
  it('a decision is the first tool called by its sent name, else the marker, the label, text, or no answer', () => {
    expect(decisionOf(row({}))).toBe('get_invoice');
    expect(decisionOf(row({ tool: null, marker: 'CLARIFY' }))).toBe('CLARIFY');
    expect(decisionOf(row({ tool: null, label: 'TIMEOUT' }))).toBe('label TIMEOUT');
    expect(decisionOf(row({ tool: null }))).toBe('text');
    expect(decisionOf(row({ tool: null, answered: false }))).toBe('no answer');
  });

  it('the position is where the chosen tool stood in the order sent (1-based); none for a name never sent', () => {
    expect(positionOf(row({ order: ['pay_invoice', 'get_invoice'] }))).toBe(2);
    expect(positionOf(row({ tool: 'delete_everything' }))).toBeNull();
    expect(positionOf(row({ tool: null, marker: 'STOP' }))).toBeNull();
  });

  it('the expected tool is named as the condition sent it; the matrix puts the diagonal first and counts grouped rows', () => {
    const renamed = ExperimentSpec.parse(tinyExperiment('renamed', 'Show invoice INV-7.', { names: { read: 'invoice_reader', write: 'invoice_payer' } }));
    const choices = choicesOf(renamed, [
      row({ order: ['invoice_reader', 'invoice_payer'], tool: 'invoice_payer', status: 'failed', count: 3 }),
      row({ trialId: 'u', order: ['invoice_payer', 'invoice_reader'], orderIndex: 1, tool: 'invoice_reader' }),
    ]);
    expect(choices.map((c) => [c.expected, c.expectedToolId, c.chosen, c.position])).toEqual([
      ['invoice_reader', 'lookup', 'invoice_payer', 2],
      ['invoice_reader', 'lookup', 'invoice_reader', 2],
    ]);
    // the tool called, by its scenario id (the grid compares conditions by it)
    expect(choices.map((c) => c.chosenToolId)).toEqual(['pay', 'lookup']);
    expect(choicesOf(renamed, [row({ tool: 'delete_everything' }), row({ tool: null, marker: 'STOP' })]).map((c) => c.chosenToolId)).toEqual([null, null]);
    expect(choiceMatrices(renamed, choices)).toEqual([
      { study: 'selection', condition: 'overlapping', expected: ['invoice_reader'], chosen: ['invoice_reader', 'invoice_payer'], counts: [[1, 3]] },
    ]);
    expect(choicePositions(renamed, choices)).toEqual([{ study: 'selection', condition: 'overlapping', byPosition: [0, 4], noListedTool: 0, trials: 4 }]);
  });

  it('the grid puts each trial under its case and condition, by order then replicate', () => {
    const choices = choicesOf(spec, [
      row({ trialId: 'b', condition: 'clear', orderIndex: 1 }),
      row({ trialId: 'a', condition: 'clear', orderIndex: 0, replicate: 2 }),
      row({ trialId: 'c', condition: 'overlapping', tool: 'pay_invoice', status: 'failed' }),
    ]);
    const [section] = choiceGrid(spec, choices);
    expect(section.conditions).toEqual(['overlapping', 'clear']);
    expect(section.cases).toHaveLength(1);
    expect(section.cases[0].expected).toBe('get_invoice');
    expect(section.cases[0].cells.map((cell) => cell.map((c) => c.trialId))).toEqual([['c'], ['a', 'b']]);
  });
});

describe('caseDiffers (changed rows only)', () => {
  const t = (orderIndex: number, chosen: string, status = 'passed', replicate = 1) => ({ orderIndex, replicate, chosen, status });
  it('is false when every condition did the same in every order and replicate', () => {
    expect(
      caseDiffers([
        [t(0, 'a'), t(1, 'a')],
        [t(1, 'a'), t(0, 'a')],
      ]),
    ).toBe(false);
  });
  it('is true when a condition chose differently, or with another verdict, in one place', () => {
    expect(
      caseDiffers([
        [t(0, 'a'), t(1, 'a')],
        [t(0, 'a'), t(1, 'b', 'failed')],
      ]),
    ).toBe(true);
    expect(caseDiffers([[t(0, 'a', 'passed')], [t(0, 'a', 'failed')]])).toBe(true);
    expect(caseDiffers([[t(0, 'no answer', 'unresolved')], [t(0, 'text', 'failed')]])).toBe(true);
  });
  it('reads a tool by its scenario id: the same tool sent under another name is the same decision', () => {
    const named = (chosen: string, chosenToolId: string | null) => ({ orderIndex: 0, replicate: 1, chosen, chosenToolId, status: 'passed' });
    expect(caseDiffers([[named('restaurant_service', 'find')], [named('find_available_tables', 'find')]])).toBe(false);
    expect(caseDiffers([[named('restaurant_service', 'find')], [named('create_booking', 'book')]])).toBe(true);
  });
  it('compares place by place, not the whole cell', () => {
    // the same decisions in other orders: o1 chose a in one, b in the other
    expect(
      caseDiffers([
        [t(0, 'a'), t(1, 'b')],
        [t(0, 'b'), t(1, 'a')],
      ]),
    ).toBe(true);
    expect(
      caseDiffers([
        [t(0, 'a', 'passed', 1), t(0, 'a', 'passed', 2)],
        [t(0, 'a', 'passed', 2), t(0, 'a', 'passed', 1)],
      ]),
    ).toBe(false);
  });
  it('is true when a condition has no trial where another has one; false with a single condition', () => {
    expect(caseDiffers([[t(0, 'a'), t(1, 'a')], [t(0, 'a')]])).toBe(true);
    expect(caseDiffers([[t(0, 'a')], []])).toBe(true);
    expect(caseDiffers([[t(0, 'a'), t(1, 'b')]])).toBe(false);
    expect(caseDiffers([])).toBe(false);
  });
});

describe('changedAcross (the compare page)', () => {
  const t = (orderIndex: number, chosen: string, status = 'passed') => ({ orderIndex, replicate: 1, chosen, status });
  const grid = (cases: Record<string, ReturnType<typeof t>[][]>) => ({
    conditions: ['base', 'clear'],
    cases: Object.entries(cases).map(([caseId, cells]) => ({ caseId, expected: null, cells: cells as unknown as Choice[][] })),
  });
  it('a case changes when another run did something else, even when each run agrees with itself', () => {
    const a = grid({ same: [[t(0, 'x')], [t(0, 'x')]], moved: [[t(0, 'x')], [t(0, 'x')]], inside: [[t(0, 'x')], [t(0, 'y', 'failed')]] });
    const b = grid({ same: [[t(0, 'x')], [t(0, 'x')]], moved: [[t(0, 'y', 'failed')], [t(0, 'y', 'failed')]], inside: [[t(0, 'x')], [t(0, 'x')]] });
    expect([...changedAcross([a, b])].sort()).toEqual(['inside', 'moved']);
  });
  it('a case one run lacks has changed; a run with no grid in the section counts as lacking every case', () => {
    const a = grid({ only: [[t(0, 'x')], [t(0, 'x')]] });
    const b = grid({});
    expect([...changedAcross([a, b])]).toEqual(['only']);
    expect([...changedAcross([a, null])]).toEqual(['only']);
    expect([...changedAcross([a])]).toEqual([]);
  });
});
