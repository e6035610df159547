import { describe, expect, it } from 'vitest';
import { Redactor } from './redact';

describe('Redactor', () => {
  it('replaces each kind and counts it, keeping other text', () => {
    const r = new Redactor(['ACCT-\\d{6}']);
    const out = r.text(
      'Mail ana.lopez@example.org or call +33 6 12 34 56 78; card 4111 1111 1111 1111; key sk-proj-abcdefghijklmnop1234; Authorization: Bearer eyJhbGciOi.abc.def; account ACCT-123456; table for 4 at 19:30 on 2026-12-04.',
    );
    expect(out).toBe(
      'Mail [redacted:email] or call [redacted:phone]; card [redacted:card-number]; key [redacted:api-key]; Authorization: [redacted:bearer-token]; account [redacted:custom]; table for 4 at 19:30 on 2026-12-04.',
    );
    expect(r.counts.byKind).toEqual({ 'api-key': 1, 'bearer-token': 1, email: 1, 'card-number': 1, phone: 1, custom: 1 });
    expect(r.counts.byPattern).toEqual({ 'ACCT-\\d{6}': 1 });
  });

  it('leaves a digit run that fails the Luhn check (an order number) alone', () => {
    const r = new Redactor();
    expect(r.text('order 1234567890123')).toBe('order 1234567890123');
    expect(r.counts.byKind['card-number']).toBe(0);
  });

  it('redacts inside nested values and keys', () => {
    const r = new Redactor();
    expect(r.deep({ to: ['bob@example.com'], 'bob@example.com': 1, n: 3 })).toEqual({ to: ['[redacted:email]'], '[redacted:email]': 1, n: 3 });
  });

  it('names a bad pattern', () => {
    expect(() => new Redactor(['(unclosed'])).toThrow(/--redact "\(unclosed" is not a valid regular expression/);
  });
});
