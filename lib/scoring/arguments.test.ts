import { describe, expect, it } from 'vitest';
import { matchArguments } from './arguments';

describe('matchArguments, tcc mode (docs/design.md#scoring-rules)', () => {
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
