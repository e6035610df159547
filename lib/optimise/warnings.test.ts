import { describe, expect, it } from 'vitest';
import { rewriterWarnings } from './warnings';

describe('rewriter warnings', () => {
  it('names a rewriter that is a target, or of a target’s provider; nothing for other candidates', () => {
    const candidates = [
      { condition: 'base-model', provenance: 'model:openai:gpt-4.1' },
      { condition: 'fix', provenance: 'rule:restates-name' },
      { condition: 'hand', provenance: 'hand' },
    ];
    expect(rewriterWarnings(candidates, ['openai:gpt-4.1', 'openai:gpt-4.1-mini', 'anthropic:claude-x', 'simulated:simulated-lexical-v1'])).toEqual([
      'base-model was written by openai:gpt-4.1, the model it is tested on: it may suit that model more than others',
      'base-model was written by openai:gpt-4.1, of the same provider as the target openai:gpt-4.1-mini: they may share blind spots',
    ]);
    expect(rewriterWarnings(candidates, ['anthropic:claude-x'])).toEqual([]);
  });
});
