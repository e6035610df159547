import { describe, expect, it } from 'vitest';
import { matchArguments } from './arguments';
import { standardizeString } from './bfcl-arguments';
import { PyFloat } from './pyvalue';

describe('matchArguments, tcc mode (DESIGN §6)', () => {
  const expected = { restaurant_branch: 'Sea Breeze Eatery, Xinyi branch', dining_date: '2027-01-15', party_size: 4 };

  it('accepts the complete call; strings after NFC and trimming; 4 = 4.0', () => {
    const r = matchArguments(expected, { restaurant_branch: ' Sea Breeze Eatery, Xinyi branch ', dining_date: '2027-01-15', party_size: 4.0 }, null);
    expect(r).toMatchObject({ ok: true, fields: [], errorType: null });
    expect(matchArguments({ name: 'Cafe\u0301' }, { name: 'Caf\u00e9' }, null).ok).toBe(true);
  });

  it('reports every differing field: wrong value, wrong type, missing, unexpected', () => {
    const r = matchArguments(expected, { restaurant_branch: 'Sea Breeze Eatery, main branch', party_size: '4', note: 'window' }, null);
    expect(r.ok).toBe(false);
    expect(r.fields).toEqual(['restaurant_branch', 'dining_date', 'party_size', 'note']);
    expect(r.errorType).toBe('value_error');
    expect(r.reason).toContain('dining_date: missing');
    expect(r.reason).toContain('note: unexpected argument "window"');
    expect(matchArguments({ party_size: 4 }, { party_size: '4' }, null).errorType).toBe('type_error');
    expect(matchArguments({ flag: true }, { flag: 1 }, null).ok).toBe(false);
  });

  it('is case-sensitive and compares dates as the strings they are', () => {
    expect(matchArguments({ d: '2027-01-15' }, { d: '2027-1-15' }, null).ok).toBe(false);
    expect(matchArguments({ s: 'Xinyi' }, { s: 'xinyi' }, null).ok).toBe(false);
  });

  it('a list of acceptable values; "" in the list lets the key be omitted', () => {
    const exp = { unit: ['units', ''], size: [4, 5] };
    expect(matchArguments(exp, { size: 5 }, null).ok).toBe(true);
    expect(matchArguments(exp, { size: 5, unit: 'units' }, null).ok).toBe(true);
    expect(matchArguments(exp, { unit: 'units' }, null).fields).toEqual(['size']);
  });

  it('array arguments: the whole list, or one of a list of acceptable lists', () => {
    expect(matchArguments({ tags: ['a', 'b'] }, { tags: ['a', 'b'] }, null).ok).toBe(true);
    expect(
      matchArguments(
        {
          tags: [
            ['a', 'b'],
            ['b', 'a'],
          ],
        },
        { tags: ['b', 'a'] },
        null,
      ).ok,
    ).toBe(true);
    const schema = { type: 'object', properties: { tags: { type: 'array' } } };
    expect(matchArguments({ tags: ['a', 'b'] }, { tags: 'a' }, schema).ok).toBe(false);
    expect(matchArguments({ tags: ['a', 'b'] }, { tags: 'a' }, null).ok).toBe(true); // without a schema: alternatives
  });

  it('no call: every expected field differs', () => {
    expect(matchArguments(expected, null, null)).toMatchObject({ ok: false, errorType: 'no_call', fields: Object.keys(expected) });
  });
});

describe('matchArguments, bfcl mode (BFCL AST checker rules)', () => {
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
  const m = (expected: Record<string, unknown>, observed: Record<string, unknown>) => matchArguments(expected, observed, schema, 'bfcl');

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
