import { afterEach, describe, expect, it } from 'vitest';
import { env, resetEnvCache } from './env';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  resetEnvCache();
});

describe('heartbeat settings', () => {
  it('default to a renewal every second that lapses after three', () => {
    delete process.env.TCLAB_HEARTBEAT_MS;
    delete process.env.TCLAB_HEARTBEAT_TTL_MS;
    resetEnvCache();
    expect([env().TCLAB_HEARTBEAT_MS, env().TCLAB_HEARTBEAT_TTL_MS]).toEqual([1000, 5000]);
  });

  it('refuse a TTL shorter than two renewals, naming it', () => {
    Object.assign(process.env, { TCLAB_HEARTBEAT_MS: '1000', TCLAB_HEARTBEAT_TTL_MS: '1500' });
    resetEnvCache();
    expect(() => env()).toThrow(/TCLAB_HEARTBEAT_TTL_MS: at least twice TCLAB_HEARTBEAT_MS/);
  });
});
