import { describe, expect, it } from 'vitest';
import { matchBfclArguments, standardizeString } from './arguments';
import { PyFloat } from '../scoring/pyvalue';

describe('matchBfclArguments (BFCL AST checker rules)', () => {
  const schema = {
    type: 'dict',
    properties: {
      base: { type: 'integer' },
      height: { type: 'float' },
      unit: { type: 'string' },
      flag: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      opts: { type: 'dict' },
      rows: { type: 'array', items: { type: 'dict' } },
    },
    required: ['base'],
  };
  const m = (expected: Record<string, unknown>, observed: Record<string, unknown>) => matchBfclArguments(expected, observed, schema);

  it('acceptable-value lists and the "" optional marker', () => {
    expect(m({ base: [10], unit: ['units', ''] }, { base: 10 }).ok).toBe(true);
    expect(m({ base: [10], unit: ['units', ''] }, { base: 10, unit: 'units' }).ok).toBe(true);
    expect(m({ base: [10], unit: ['units'] }, { base: 10 }).errorType).toBe('simple_function_checker:missing_optional');
    expect(m({ base: [10] }, {}).errorType).toBe('simple_function_checker:missing_required');
  });

  it('rejects unexpected parameters (not in the answer, or not in the schema)', () => {
    expect(m({ base: [10] }, { base: 10, unit: 'cm' })).toMatchObject({ ok: false, errorType: 'simple_function_checker:unexpected_param', fields: ['unit'] });
    expect(m({ base: [10], extra: [1] }, { base: 10, extra: 1 }).errorType).toBe('simple_function_checker:unexpected_param');
  });

  it('exact types: int accepted for float, a float is not an int, bool is not int', () => {
    expect(m({ base: [10], height: [5.0] }, { base: 10, height: 5 }).ok).toBe(true);
    expect(m({ base: [10] }, { base: new PyFloat(10) }).errorType).toBe('type_error:simple');
    expect(m({ base: [1] }, { base: true }).errorType).toBe('type_error:simple');
    expect(m({ base: [10], flag: [true] }, { base: 10, flag: 1 }).errorType).toBe('type_error:simple');
    expect(m({ base: [10], unit: ['5'] }, { base: 10, unit: 5 }).errorType).toBe('type_error:simple');
  });

  it('a value whose type is that of the first acceptable value is a "variable": compared exactly', () => {
    expect(m({ base: ['x'] }, { base: 'x' }).ok).toBe(true);
    expect(m({ base: ['x'] }, { base: 'X' }).errorType).toBe('value_error:others');
  });

  it('string normalisation: spaces and ,./-_*^ dropped, lower case, \' → "', () => {
    expect(standardizeString("April 1, 2024 'x'")).toBe('april12024"x"');
    expect(m({ base: [1], unit: ['New York, NY'] }, { base: 1, unit: 'new-york ny' }).ok).toBe(true);
    expect(m({ base: [1], unit: ['New York'] }, { base: 1, unit: 'Boston' }).errorType).toBe('value_error:string');
  });

  it('lists keep their order; items are normalised; nested types are checked one level deep', () => {
    const exp = { base: [1], tags: [['email', 'ssn']] };
    expect(m(exp, { base: 1, tags: ['Email', 'SSN'] }).ok).toBe(true);
    expect(m(exp, { base: 1, tags: ['ssn', 'email'] }).errorType).toBe('value_error:list/tuple');
    expect(m(exp, { base: 1, tags: ['email', 2] }).errorType).toBe('type_error:nested');
  });

  it('dicts: one level, each key against its acceptable values; unknown and missing keys fail', () => {
    const exp = { base: [1], opts: [{ city: ['Paris'], days: [3, ''] }] };
    expect(m(exp, { base: 1, opts: { city: 'paris' } }).ok).toBe(true);
    expect(m(exp, { base: 1, opts: { city: 'Paris', days: 4 } }).errorType).toBe('value_error:dict_value');
    expect(m(exp, { base: 1, opts: { city: 'Paris', x: 1 } }).errorType).toBe('value_error:dict_key');
    expect(m(exp, { base: 1, opts: { days: 3 } }).errorType).toBe('value_error:dict_key');
    const rows = { base: [1], rows: [[{ a: [1] }, { a: [2] }]] };
    expect(m(rows, { base: 1, rows: [{ a: 1 }, { a: 2 }] }).ok).toBe(true);
    expect(m(rows, { base: 1, rows: [{ a: 1 }] }).errorType).toBe('value_error:list_dict_count');
  });
});
