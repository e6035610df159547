import { describe, expect, it } from 'vitest';
import { env } from '../env';
import { FAKE_KEY, setProviderEnv } from '../testing/provider-fixtures';
import { keyOf, resolveEndpoint } from './configured';
import { availableProviders, DESCRIPTORS, getDescriptor, getProvider, PROVIDER_IDS } from './registry';
import { knownSecrets, redactHeaders } from './secrets';

const NO_KEYS = {
  OPENAI_API_KEY: undefined,
  OPENAI_BASE_URL: undefined,
  OPENAI_COMPATIBLE_API_KEY: undefined,
  OPENAI_COMPATIBLE_BASE_URL: undefined,
  GEMINI_API_KEY: undefined,
  GOOGLE_API_KEY: undefined,
  GEMINI_BASE_URL: undefined,
  ANTHROPIC_API_KEY: undefined,
  ANTHROPIC_BASE_URL: undefined,
};

function withEnv(vars: Parameters<typeof setProviderEnv>[0], fn: () => void): void {
  const undo = setProviderEnv(vars);
  try {
    fn();
  } finally {
    undo();
  }
}

describe('getProvider', () => {
  it('returns the adapter for every known id, each declaring its own id', () => {
    expect(PROVIDER_IDS).toEqual(['simulated', 'openai', 'gemini', 'openai-compatible', 'anthropic']);
    for (const id of PROVIDER_IDS) expect(getProvider(id).descriptor.id).toBe(id);
    expect(DESCRIPTORS.map((d) => d.id)).toEqual(PROVIDER_IDS);
    // vendor-descriptors.ts (what redaction reads, without the SDKs) holds the adapters' own descriptors
    PROVIDER_IDS.forEach((id, i) => expect(DESCRIPTORS[i]).toBe(getProvider(id).descriptor));
    expect(getDescriptor('simulated').simulated).toBe(true);
    expect(getDescriptor('openai').simulated).toBe(false);
  });
  it('fails fast on an unknown id, naming the known ones', () => {
    expect(() => getProvider('opeanai')).toThrow(/unknown provider "opeanai": known providers are simulated, openai, gemini, openai-compatible, anthropic/);
    expect(() => getProvider('toString')).toThrow(/unknown provider/);
  });
});

describe('descriptors', () => {
  it('every key and base-URL variable a descriptor names is one lib/env parses', () => {
    const known = new Set(Object.keys(env()).concat(Object.keys(NO_KEYS)));
    for (const d of DESCRIPTORS) {
      for (const v of [...d.keyVars, ...(d.baseUrlVar ? [d.baseUrlVar] : [])]) expect(known.has(v), `${d.id}: ${v}`).toBe(true);
      expect(d.defaultModel.length).toBeGreaterThan(0);
      // a real provider has a wire, an error shape and somewhere to send; the simulator has none
      expect(d.wire === null).toBe(d.simulated);
      expect(d.errorShape === null).toBe(d.simulated);
      if (!d.simulated) expect(d.baseUrlVar).not.toBeNull();
    }
  });
  it('no two providers read the same key variable (a key goes to one provider only)', () => {
    const vars = DESCRIPTORS.flatMap((d) => d.keyVars);
    expect(new Set(vars).size).toBe(vars.length);
  });
  it('openai-compatible never reads OPENAI_API_KEY', () => {
    withEnv({ ...NO_KEYS, OPENAI_API_KEY: FAKE_KEY, OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:8000/v1' }, () => {
      expect(keyOf(getDescriptor('openai-compatible'))).toBeUndefined();
      expect(resolveEndpoint(getDescriptor('openai-compatible'), { baseUrl: null })).toEqual({ ok: true, baseUrl: 'http://127.0.0.1:8000/v1', key: null });
    });
  });
  it('an error shape reads back the message of the body it builds', () => {
    for (const d of DESCRIPTORS) {
      if (!d.errorShape) continue;
      expect(d.errorShape.message(d.errorShape.body(429, 'slow down'))).toBe('slow down');
    }
  });
});

describe('redaction derives from the descriptors', () => {
  it('every configured key variable is a secret, and every declared header is stripped', () => {
    withEnv({ ...NO_KEYS, OPENAI_API_KEY: 'openai-key-000000', OPENAI_COMPATIBLE_API_KEY: 'compat-key-000000', GOOGLE_API_KEY: 'google-key-000000' }, () => {
      expect([...knownSecrets()].sort()).toEqual(['compat-key-000000', 'google-key-000000', 'openai-key-000000']);
      const headers = Object.fromEntries(DESCRIPTORS.flatMap((d) => d.secretHeaders).map((h) => [h, 'v']));
      expect(redactHeaders({ ...headers, accept: 'x' })).toEqual({ accept: 'x' });
    });
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
        ['anthropic', false],
      ]);
      expect(list.find((p) => p.id === 'gemini')?.reason).toBe('set GEMINI_API_KEY or GOOGLE_API_KEY');
      expect(list.find((p) => p.id === 'openai')?.reason).toBe('set OPENAI_API_KEY');
      expect(list.find((p) => p.id === 'openai-compatible')?.reason).toBe('set OPENAI_COMPATIBLE_BASE_URL');
      for (const p of list) expect(p.label.length).toBeGreaterThan(0);
    });
  });
  it('a key makes its provider available; GOOGLE_API_KEY counts for gemini; a base URL for openai-compatible', () => {
    withEnv({ ...NO_KEYS, OPENAI_API_KEY: FAKE_KEY, GOOGLE_API_KEY: FAKE_KEY }, () => {
      const byId = new Map(availableProviders().map((p) => [p.id, p]));
      expect(byId.get('openai')?.available).toBe(true);
      expect(byId.get('gemini')?.available).toBe(true);
      expect(byId.get('openai-compatible')?.available).toBe(false);
    });
    withEnv({ ...NO_KEYS, OPENAI_COMPATIBLE_BASE_URL: 'http://localhost:8000/v1' }, () => {
      expect(availableProviders().find((p) => p.id === 'openai-compatible')?.available).toBe(true);
    });
  });
  it('never exposes a key', () => {
    withEnv({ ...NO_KEYS, OPENAI_API_KEY: FAKE_KEY }, () => {
      expect(JSON.stringify(availableProviders())).not.toContain(FAKE_KEY);
    });
  });
});
