import { describe, expect, it } from 'vitest';
import {
  argTypeOf,
  defaultValue,
  expectedValueProblems,
  mergeArgTypes,
  parameterTypes,
  pickedTypeOf,
  valueFromText,
  valueProblem,
  wantedDefs,
  type ArgType,
} from './argument-types';
import { parseSpecValue } from '../experiments/parse';
import { tinyExperiment } from '../testing/tiny-experiment';

// An expected argument's value takes its type from the tool's parameter schema, never from the
// look of the text typed.

const STRING: ArgType = { kind: 'string' };
const INTEGER: ArgType = { kind: 'integer' };

describe('the type a parameter schema gives', () => {
  it('reads type, enum, const; a union or no type is silent', () => {
    expect(argTypeOf({ type: 'string' })).toEqual(STRING);
    expect(argTypeOf({ type: 'integer', minimum: 0 })).toEqual(INTEGER);
    expect(argTypeOf({ type: 'string', enum: ['paperback', 'ebook'] })).toEqual({ kind: 'enum', values: ['paperback', 'ebook'] });
    expect(argTypeOf({ const: 3 })).toEqual({ kind: 'enum', values: [3] });
    expect(argTypeOf({ type: ['string'] })).toEqual(STRING);
    expect(argTypeOf({ type: ['string', 'null'] })).toEqual({ kind: 'silent', types: ['string', 'null'] });
    expect(argTypeOf({ description: 'anything' })).toEqual({ kind: 'silent', types: null });
    expect(argTypeOf({ anyOf: [{ type: 'string' }, { type: 'integer' }] })).toEqual({ kind: 'silent', types: null });
    expect(argTypeOf('not a schema')).toEqual({ kind: 'silent', types: null });
    // an enum not of its declared type (BFCL puts an array's item enum beside `type: array`) is no choice
    expect(argTypeOf({ type: 'array', items: { type: 'string' }, enum: ['a', 'b'] })).toEqual({ kind: 'array' });
  });

  it('merges the schemas of several conditions or tools: theirs when they agree, else silent with the union', () => {
    expect(mergeArgTypes([STRING, STRING])).toEqual(STRING);
    expect(mergeArgTypes([STRING, INTEGER])).toEqual({ kind: 'silent', types: ['string', 'integer'] });
    expect(mergeArgTypes([STRING, { kind: 'silent', types: null }])).toEqual({ kind: 'silent', types: null });
    expect(mergeArgTypes([])).toEqual({ kind: 'silent', types: null });
    const defs = [
      { tool: 'a', parameters: { type: 'object', properties: { asin: { type: 'string' }, n: { type: 'integer' } } } },
      { tool: 'b', parameters: { type: 'object', properties: { n: { type: 'number' } } } },
    ];
    const types = parameterTypes(defs);
    expect(types.get('asin')).toEqual(STRING);
    expect(types.get('n')).toEqual({ kind: 'silent', types: ['integer', 'number'] });
    expect(parameterTypes(wantedDefs(defs, { tool: 'a' }, new Map())).get('n')).toEqual(INTEGER);
    expect(wantedDefs(defs, { decision: 'write' }, new Map([['b', 'write']])).map((d) => d.tool)).toEqual(['b']);
  });
});

describe('a value typed in the form', () => {
  it('stays text for a string parameter: leading zeros, true, null, 1e3', () => {
    for (const text of ['0593135202', 'true', 'false', 'null', '1e3', ' 42 ', '']) expect(valueFromText(text, STRING)).toEqual({ value: text, error: null });
  });

  it('parses for an integer or number parameter; a non-number is an error and stays text', () => {
    expect(valueFromText('42', INTEGER)).toEqual({ value: 42, error: null });
    expect(valueFromText('-3', INTEGER)).toEqual({ value: -3, error: null });
    expect(valueFromText('2.5', { kind: 'number' })).toEqual({ value: 2.5, error: null });
    expect(valueFromText('1e3', { kind: 'number' })).toEqual({ value: 1000, error: null });
    expect(valueFromText('2.5', INTEGER).error).toMatch(/expected an integer/);
    expect(valueFromText('abc', INTEGER)).toEqual({ value: 'abc', error: 'expected an integer, got the text "abc"' });
    expect(valueFromText('', { kind: 'number' }).error).toBe('enter a number');
  });

  it('is one of the enum values (numbers stay numbers), and true / false for a boolean', () => {
    const e: ArgType = { kind: 'enum', values: ['ebook', 'paperback', 7] };
    expect(valueFromText('paperback', e)).toEqual({ value: 'paperback', error: null });
    expect(valueFromText('7', e)).toEqual({ value: 7, error: null });
    expect(valueFromText('audio', e).error).toMatch(/expected one of "ebook", "paperback", 7/);
    expect(valueFromText('true', { kind: 'boolean' })).toEqual({ value: true, error: null });
    expect(valueFromText('false', { kind: 'boolean' })).toEqual({ value: false, error: null });
    expect(defaultValue({ kind: 'boolean' })).toBe(false);
    expect(defaultValue(e)).toBe('ebook');
  });

  it('takes the type the user picked where the schema is silent', () => {
    const any: ArgType = { kind: 'silent', types: null };
    expect(valueFromText('0593135202', any, 'text')).toEqual({ value: '0593135202', error: null });
    expect(valueFromText('0593135202', any, 'number')).toEqual({ value: 593135202, error: null });
    expect(valueFromText('true', any, 'text')).toEqual({ value: 'true', error: null });
    expect(valueFromText('true', any, 'boolean')).toEqual({ value: true, error: null });
    expect(valueFromText('', any, 'null')).toEqual({ value: null, error: null });
    expect(valueFromText('{"a":[1]}', any, 'json')).toEqual({ value: { a: [1] }, error: null });
    expect(valueFromText('{a', any, 'json').error).toBe('not valid JSON');
    // a union allows only its own types
    expect(valueFromText('1', { kind: 'silent', types: ['string', 'null'] }, 'number').error).toMatch(/expected a string or null/);
    expect(pickedTypeOf('x')).toBe('text');
    expect(pickedTypeOf(3)).toBe('number');
    expect(pickedTypeOf(null)).toBe('null');
    expect(pickedTypeOf([1])).toBe('json');
  });
});

describe('an expected value checked against its schema', () => {
  it('refuses a number for a string, naming how to write it', () => {
    expect(valueProblem(STRING, 593135202)).toBe(
      `expected a string (the tool's schema says "string"), got the number 593135202: write it in quotes, "593135202" (with any leading zeros it had)`,
    );
    expect(valueProblem(STRING, true)).toMatch(/got true: write it in quotes, "true"/);
    expect(valueProblem(STRING, '0593135202')).toBeNull();
  });

  it('refuses text for an integer or a boolean; an integral number is a number', () => {
    expect(valueProblem(INTEGER, '4')).toMatch(/got the text "4": write it without quotes, 4/);
    expect(valueProblem(INTEGER, 4.5)).toMatch(/expected an integer/);
    expect(valueProblem({ kind: 'number' }, 4)).toBeNull();
    expect(valueProblem({ kind: 'boolean' }, 'true')).toMatch(/write it without quotes, true/);
  });

  it('checks each item of a list of acceptable values; "" marks the argument optional', () => {
    expect(expectedValueProblems(STRING, ['0593135202', '', 'B00X', null])).toEqual([]);
    expect(expectedValueProblems(STRING, null)).toEqual([expect.stringMatching(/^expected a string/)]);
    expect(expectedValueProblems(STRING, ['0593135202', 593135202])).toEqual([expect.stringMatching(/^acceptable value 2: expected a string/)]);
    expect(expectedValueProblems({ kind: 'enum', values: ['a', 'b'] }, ['a', 'c'])[0]).toMatch(/^acceptable value 2: expected one of "a", "b"/);
    // an array parameter takes the list as the value itself
    expect(expectedValueProblems({ kind: 'array' }, ['x', 'y'])).toEqual([]);
    expect(expectedValueProblems({ kind: 'array' }, 'x')[0]).toMatch(/expected a list/);
  });
});

describe('the import (the one parse) applies the same rule', () => {
  const asinSpec = (value: unknown, where: 'card' | 'condition' = 'card') => {
    const s = tinyExperiment('asin', 'Look up 0593135202.', {
      parameters: { type: 'object', properties: { asin: { type: 'string' } }, required: ['asin'] },
    });
    const kase = s.studies[0].cases[0] as Record<string, any>;
    kase.checks.push({ id: 'args', axis: 'call_result', expected: { tool: 'lookup', arguments: { asin: '0593135202' } } });
    if (where === 'card') kase.checks[1].expected.arguments.asin = value;
    else kase.expectByCondition = { clear: { args: { arguments: { asin: value } } } };
    return s;
  };

  it('stores a string for a string parameter and refuses a number with the field named (never coerced)', () => {
    expect(parseSpecValue(asinSpec('0593135202')).ok).toBe(true);
    const r = parseSpecValue(asinSpec(593135202));
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.issues).toContainEqual({
        path: 'studies.0.cases.0.checks.1.expected.arguments.asin',
        message: expect.stringContaining(`expected a string (the tool's schema says "string"), got the number 593135202`),
      });
  });

  it('names a per-condition replacement at its own path', () => {
    const r = parseSpecValue(asinSpec(593135202, 'condition'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.map((i) => i.path)).toEqual(['studies.0.cases.0.expectByCondition.clear.args.arguments.asin']);
  });
});
