import { describe, expect, it } from 'vitest';
import { sentNames, toolNameSegments, withSentNames } from './tool-names';

const names = sentNames([
  { tool: 'create_booking', name: 'reserve_table' },
  { tool: 'find_tables', name: 'search_availability' },
  { tool: 'pay', name: 'pay_invoice' },
  { tool: 'same', name: 'same' },
]);

describe('tool names as sent', () => {
  it('names each hidden tool id by the name the condition sent, the id beside it', () => {
    expect(withSentNames('tool: expected create_booking, observed find_tables', names)).toBe(
      'tool: expected reserve_table (create_booking), observed search_availability (find_tables)',
    );
    expect(toolNameSegments('observed pay.', names)).toEqual([{ text: 'observed ' }, { name: 'pay_invoice', tool: 'pay' }, { text: '.' }]);
  });

  it('matches whole ids only: not inside a longer identifier or a field name', () => {
    expect(withSentNames('payment: expected pay_later, prepay, pay-x, pay.y', names)).toBe('payment: expected pay_later, prepay, pay-x, pay.y');
    // JSON evidence: quoted ids are translated, keys that merely contain one are not
    expect(withSentNames('{\n  "tool": "pay",\n  "pay_ref": 1\n}', names)).toBe('{\n  "tool": "pay_invoice (pay)",\n  "pay_ref": 1\n}');
  });

  it('leaves text alone when a tool was sent under its own id or there is no name to give', () => {
    expect(toolNameSegments('tool same', names)).toEqual([{ text: 'tool same' }]);
    expect(toolNameSegments('expected create_booking', new Map())).toEqual([{ text: 'expected create_booking' }]);
    expect(toolNameSegments('', names)).toEqual([]);
  });

  it('prefers the longest id where one is a prefix of another', () => {
    const n = sentNames([
      { tool: 'book', name: 'a' },
      { tool: 'book.v2', name: 'b' },
    ]);
    expect(withSentNames('book.v2 then book', n)).toBe('b (book.v2) then a (book)');
  });
});
