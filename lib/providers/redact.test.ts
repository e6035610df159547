import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_KEY, setProviderEnv } from '../testing/provider-fixtures';
import fc from 'fast-check';
import { jsonMayHoldSecret, knownSecrets, REDACTED, redactHeaders, redactSecrets, redactText, redactUrl } from './secrets';

const GEMINI = 'AIzaSyFAKE-gemini-0123456789';
const GOOGLE = 'AIzaSyFAKE-google-9876543210';

let restore: () => void;
beforeAll(() => {
  restore = setProviderEnv({ OPENAI_API_KEY: FAKE_KEY, GEMINI_API_KEY: GEMINI, GOOGLE_API_KEY: GOOGLE });
});
afterAll(() => restore());

describe('redactText', () => {
  it('replaces every occurrence of every configured key', () => {
    const s = `a ${FAKE_KEY} b ${GEMINI} c ${FAKE_KEY} d ${GOOGLE}`;
    expect(redactText(s)).toBe(`a ${REDACTED} b ${REDACTED} c ${REDACTED} d ${REDACTED}`);
  });
  it('masks key= query parameters, whatever their value', () => {
    expect(redactText('GET https://g.test/v1beta/models/m:generateContent?key=abc123&alt=json')).toBe(
      `GET https://g.test/v1beta/models/m:generateContent?key=${REDACTED}&alt=json`,
    );
    expect(redactUrl('https://g.test/x?alt=sse&KEY=zzz')).toBe(`https://g.test/x?alt=sse&KEY=${REDACTED}`);
    expect(redactText('monkey=banana')).toBe('monkey=banana');
  });
  it('leaves text without secrets alone', () => {
    expect(redactText('STATUS: TIMEOUT')).toBe('STATUS: TIMEOUT');
  });
  it('ignores values too short to be keys', () => {
    const undo = setProviderEnv({ OPENAI_API_KEY: 'x' });
    try {
      expect(knownSecrets()).not.toContain('x');
      expect(redactText('xxx')).toBe('xxx');
    } finally {
      undo();
    }
  });
  it('masks a key that contains another one completely (longest first)', () => {
    const undo = setProviderEnv({ OPENAI_API_KEY: 'abcdefgh', GEMINI_API_KEY: 'abcdefgh-longer', GOOGLE_API_KEY: undefined });
    try {
      expect(redactText('k=abcdefgh-longer')).toBe(`k=${REDACTED}`);
    } finally {
      undo();
    }
  });
});

describe('redactSecrets', () => {
  it('walks nested JSON, masks credential-header values and keys in strings, and keeps other leaves', () => {
    const input = {
      url: `https://g.test/x?key=${GEMINI}`,
      headers: { Authorization: `Bearer ${FAKE_KEY}`, 'x-goog-api-key': GEMINI, 'api-key': 'whatever-value', accept: 'application/json' },
      messages: [{ content: `echo ${FAKE_KEY}` }, 3, true, null],
      [FAKE_KEY]: 'a key used as a property name',
      schema: { properties: { authorization: { type: 'string' } } },
    };
    const out = redactSecrets(input);
    expect(JSON.stringify(out)).not.toContain(FAKE_KEY);
    expect(JSON.stringify(out)).not.toContain(GEMINI);
    expect(out.headers).toEqual({ Authorization: REDACTED, 'x-goog-api-key': REDACTED, 'api-key': REDACTED, accept: 'application/json' });
    expect(out.messages).toEqual([{ content: `echo ${REDACTED}` }, 3, true, null]);
    // a tool schema property named like a header is not a header value: kept
    expect(out.schema).toEqual({ properties: { authorization: { type: 'string' } } });
    // the input is not modified
    expect(input.headers.Authorization).toBe(`Bearer ${FAKE_KEY}`);
  });
  it('passes primitives through', () => {
    expect(redactSecrets(42)).toBe(42);
    expect(redactSecrets(null)).toBeNull();
    expect(redactSecrets(FAKE_KEY)).toBe(REDACTED);
  });
});

describe('redactHeaders', () => {
  it('removes Authorization, x-goog-api-key and api-key; lower-cases names; redacts values', () => {
    const out = redactHeaders({
      Authorization: `Bearer ${FAKE_KEY}`,
      'X-Goog-Api-Key': GEMINI,
      'api-key': 'azure-style',
      'Retry-After': '3',
      'x-echo': `${FAKE_KEY}`,
      'set-cookie': ['a=1', 'b=2'],
    });
    expect(out).toEqual({ 'retry-after': '3', 'x-echo': REDACTED, 'set-cookie': 'a=1, b=2' });
  });
  it('accepts a Headers object', () => {
    expect(redactHeaders(new Headers({ authorization: 'Bearer x', 'content-type': 'application/json' }))).toEqual({ 'content-type': 'application/json' });
  });
});

describe('jsonMayHoldSecret', () => {
  it('flags keys, key= values, credential-header names and \\u escapes', () => {
    expect(jsonMayHoldSecret('{"messages":[{"content":"hi"}],"n":1}')).toBe(false);
    expect(jsonMayHoldSecret(`{"echo":"${FAKE_KEY}"}`)).toBe(true);
    expect(jsonMayHoldSecret('{"u":"https://g.test/x?key=abc"}')).toBe(true);
    expect(jsonMayHoldSecret('{"headers":{"X-Api-Key":"v"}}')).toBe(true);
    expect(jsonMayHoldSecret('{"a":"\\u0041uthorization"}')).toBe(true);
  });
  it('is false only where redacting the parsed text would change nothing', () => {
    const secret = fc.constantFrom(FAKE_KEY, GEMINI, 'key=zzz', 'Authorization', 'api-key');
    const text = fc.oneof(
      fc.string(),
      secret,
      fc.tuple(fc.string(), secret, fc.string()).map((p) => p.join('')),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(text, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        const json = JSON.stringify(v);
        if (!jsonMayHoldSecret(json)) expect(redactSecrets(JSON.parse(json))).toEqual(JSON.parse(json));
      }),
      { numRuns: 500 },
    );
  });
});
