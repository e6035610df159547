import { describe, expect, it } from 'vitest';
import { FAKE_KEY, setProviderEnv } from '../testing/provider-fixtures';
import { availableProviders, getProvider, PROVIDER_IDS } from './registry';

const NO_KEYS = { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined, GEMINI_API_KEY: undefined, GOOGLE_API_KEY: undefined, GEMINI_BASE_URL: undefined };

function withEnv(vars: Parameters<typeof setProviderEnv>[0], fn: () => void): void {
  const undo = setProviderEnv(vars);
  try {
    fn();
  } finally {
    undo();
  }
}

describe('getProvider', () => {
  it('returns the adapter for every known id', () => {
    expect(PROVIDER_IDS).toEqual(['simulated', 'openai', 'gemini', 'openai-compatible']);
    for (const id of PROVIDER_IDS) expect(getProvider(id).id).toBe(id);
    expect(getProvider('simulated').simulated).toBe(true);
    expect(getProvider('openai').simulated).toBe(false);
  });
  it('fails fast on an unknown id, naming the known ones', () => {
    expect(() => getProvider('opeanai')).toThrow(/unknown provider "opeanai": known providers are simulated, openai, gemini, openai-compatible/);
    expect(() => getProvider('toString')).toThrow(/unknown provider/);
  });
});

describe('availableProviders', () => {
  it('without keys only the simulator is available; the others say what to set', () => {
    withEnv(NO_KEYS, () => {
      const list = availableProviders();
      expect(list.map((p) => [p.id, p.available])).toEqual([
        ['simulated', true],
        ['openai', false],
        ['gemini', false],
        ['openai-compatible', false],
      ]);
      expect(list.find((p) => p.id === 'gemini')?.reason).toMatch(/GEMINI_API_KEY or GOOGLE_API_KEY/);
      for (const p of list) expect(p.label.length).toBeGreaterThan(0);
    });
  });
  it('a key makes its provider available; GOOGLE_API_KEY counts for gemini; a base URL for openai-compatible', () => {
    withEnv({ ...NO_KEYS, OPENAI_API_KEY: FAKE_KEY, GOOGLE_API_KEY: FAKE_KEY }, () => {
      const byId = new Map(availableProviders().map((p) => [p.id, p]));
      expect(byId.get('openai')?.available).toBe(true);
      expect(byId.get('gemini')?.available).toBe(true);
      expect(byId.get('openai-compatible')?.available).toBe(false);
      expect(availableProviders({ baseUrl: 'http://localhost:11434/v1' }).find((p) => p.id === 'openai-compatible')?.available).toBe(true);
    });
    withEnv({ ...NO_KEYS, OPENAI_BASE_URL: 'http://localhost:8000/v1' }, () => {
      expect(availableProviders().find((p) => p.id === 'openai-compatible')?.available).toBe(true);
    });
  });
  it('never exposes a key', () => {
    withEnv({ ...NO_KEYS, OPENAI_API_KEY: FAKE_KEY }, () => {
      expect(JSON.stringify(availableProviders())).not.toContain(FAKE_KEY);
    });
  });
});
