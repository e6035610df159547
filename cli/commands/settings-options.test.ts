import { describe, expect, it } from 'vitest';
import { templateOf } from '../../lib/templates';
import { runSettingsFromOptions } from './settings-options';

describe('run settings from the command line', () => {
  it('a template names the simulated model of its offline runs; --model and other providers win over it', () => {
    const model = templateOf('politely-ignored')!.simulated.model;
    expect(model).toBe('simulated-generic-preferring-v1');
    expect(runSettingsFromOptions({}, model).model).toBe(model);
    expect(runSettingsFromOptions({}).model).toBe('simulated-lexical-v1');
    expect(runSettingsFromOptions({ model: ['simulated-position-biased-v1'] }, model).model).toBe('simulated-position-biased-v1');
    expect(runSettingsFromOptions({ provider: 'openai' }, model).model).not.toBe(model);
  });
});
