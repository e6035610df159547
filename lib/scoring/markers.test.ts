import { describe, expect, it } from 'vitest';
import { parseFinalText } from './markers';

const markers = { clarify: 'CLARIFY:', stop: 'STOP:', status: 'STATUS:' };

describe('parseFinalText', () => {
  it('finds markers case-insensitively; the first one wins', () => {
    expect(parseFinalText('clarify: which branch?', markers).marker).toBe('CLARIFY');
    expect(parseFinalText('I cannot. STOP: no void tool. CLARIFY: x', markers).marker).toBe('STOP');
    expect(parseFinalText('Please tell me the invoice number.', markers)).toEqual({ marker: null, label: null, index: null });
  });
  it('reads the label after STATUS:', () => {
    expect(parseFinalText('STATUS: timeout — the lookup timed out', markers)).toMatchObject({ label: 'TIMEOUT', marker: null });
    expect(parseFinalText('Result → status: **CANNOT_DETERMINE**', markers).label).toBe('CANNOT_DETERMINE');
    expect(parseFinalText('STATUS:', markers).label).toBeNull();
  });
});
