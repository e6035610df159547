import { describe, expect, it } from 'vitest';
import { displayBaseUrl } from './format';

describe('displayBaseUrl', () => {
  it('drops user info and masks query values, which may hold a key', () => {
    expect(displayBaseUrl('https://user:sk-secret-123@llm.example/v1?key=AIza-secret&x=1')).toBe('https://llm.example/v1?key=REDACTED&x=REDACTED');
    expect(displayBaseUrl('http://127.0.0.1:8000/v1')).toBe('http://127.0.0.1:8000/v1');
    expect(displayBaseUrl('not a url')).toBe('(not a URL)');
  });
});
