import { describe, expect, it } from 'vitest';
import type { Env } from '../env';
import { allowedBaseUrls, baseUrlRefusal, destinationOf, normalizeBaseUrl, resolveEndpoint } from './configured';
import { openaiDescriptor } from './openai';
import { openaiCompatibleDescriptor } from './openai-compatible';
import { simulatedDescriptor } from './simulated';

const envOf = (vars: Partial<Env>): Env => ({ ...vars }) as Env;

describe('base URLs are configuration, not input', () => {
  it('normalizes for comparison: trailing slashes, query and fragment do not matter', () => {
    expect(normalizeBaseUrl('HTTP://Example.test:8000/v1/?x=1#y')).toBe('http://example.test:8000/v1');
    expect(normalizeBaseUrl('not a url')).toBeNull();
  });
  it('reads the allow-list comma- or space-separated, ignoring what does not parse', () => {
    expect(allowedBaseUrls(envOf({ TCLAB_ALLOWED_BASE_URLS: 'http://a.test/v1/, http://b.test  nope' }))).toEqual(['http://a.test/v1', 'http://b.test']);
  });
  it('the configured base URL (or the default) is allowed; any other is refused, naming where the key may go', () => {
    const e = envOf({ OPENAI_API_KEY: 'sk-0123456789', OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' });
    expect(baseUrlRefusal(openaiDescriptor, 'http://127.0.0.1:8000/v1/', e)).toBeNull();
    expect(baseUrlRefusal(openaiDescriptor, null, e)).toBeNull();
    expect(baseUrlRefusal(openaiDescriptor, 'https://api.openai.com/v1', envOf({}))).toBeNull();
    expect(baseUrlRefusal(openaiDescriptor, 'http://evil.test/v1', e)).toBe(
      "http://evil.test is not an allowed base URL for openai: the provider's key is sent only to http://127.0.0.1:8000/v1 (OPENAI_BASE_URL) or to a URL listed in TCLAB_ALLOWED_BASE_URLS",
    );
    // the same host on another path is another URL
    expect(baseUrlRefusal(openaiDescriptor, 'http://127.0.0.1:8000/other', e)).not.toBeNull();
  });
  it('an allow-listed URL is allowed; an entry without a path allows its whole origin', () => {
    const e = envOf({ TCLAB_ALLOWED_BASE_URLS: 'http://a.test/v1 http://b.test' });
    expect(baseUrlRefusal(openaiDescriptor, 'http://a.test/v1', e)).toBeNull();
    expect(baseUrlRefusal(openaiDescriptor, 'http://a.test/v2', e)).not.toBeNull();
    expect(baseUrlRefusal(openaiDescriptor, 'http://b.test/anything/v1', e)).toBeNull();
  });
  it('refuses credentials in the URL, non-http schemes, and any base URL for the simulator', () => {
    const e = envOf({ TCLAB_ALLOWED_BASE_URLS: 'http://a.test' });
    expect(baseUrlRefusal(openaiDescriptor, 'http://user:pw@a.test/v1', e)).toMatch(/must not carry credentials/);
    expect(baseUrlRefusal(openaiDescriptor, 'http://user@a.test/v1', e)).toMatch(/must not carry credentials/);
    expect(baseUrlRefusal(openaiDescriptor, 'file:///etc/passwd', e)).toMatch(/only http and https/);
    expect(baseUrlRefusal(simulatedDescriptor, 'http://a.test', e)).toMatch(/sends no requests/);
  });
  it('resolveEndpoint refuses before anything else, and says where requests go otherwise', () => {
    const e = envOf({ OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1' });
    expect(resolveEndpoint(openaiCompatibleDescriptor, { baseUrl: 'http://evil.test/v1' }, e)).toMatchObject({ ok: false, message: expect.stringMatching(/^baseUrl: /) });
    expect(resolveEndpoint(openaiCompatibleDescriptor, { baseUrl: null }, e)).toEqual({ ok: true, baseUrl: 'http://127.0.0.1:11434/v1', key: null });
    expect(destinationOf(openaiCompatibleDescriptor, null, e)).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      source: 'environment',
      via: 'OPENAI_COMPATIBLE_BASE_URL',
    });
    expect(destinationOf(openaiDescriptor, null, envOf({}))).toMatchObject({ source: 'default', baseUrl: 'https://api.openai.com/v1' });
    expect(destinationOf(openaiCompatibleDescriptor, null, envOf({}))).toBeNull();
  });
});
