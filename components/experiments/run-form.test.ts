import { describe, expect, it } from 'vitest';
import { runFormToSettings } from './run-form';

// The Run form's Batch switch: ticked → `batch: true`; unticked → no `batch` at all (runs sent one by one
// store and export their settings as before).

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries({ provider: 'openai', model: 'gpt-test', concurrency: '8', maxAttempts: '5', timeoutMs: '60000', ...fields })) f.set(k, v);
  return f;
}

describe('the Batch switch', () => {
  it('ticked: batch mode', () => {
    const r = runFormToSettings(form({ batch: 'on' }));
    expect(r.ok && r.value.batch).toBe(true);
  });
  it('not ticked: the setting is absent', () => {
    const r = runFormToSettings(form({}));
    expect(r.ok).toBe(true);
    expect(r.ok && 'batch' in r.value).toBe(false);
  });
});
