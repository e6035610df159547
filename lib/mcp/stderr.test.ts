import { describe, expect, it } from 'vitest';
import { stderrReason } from './stderr';

describe('stderrReason', () => {
  it('finds the error line of an uncaught Node.js error, not the stack or the version banner', () => {
    const node = [
      '/srv/mcp/server.js:3',
      "  throw new Error('GITHUB_TOKEN is not set');",
      '  ^',
      '',
      'Error: GITHUB_TOKEN is not set',
      '    at Object.<anonymous> (/srv/mcp/server.js:3:9)',
      '    at Module._compile (node:internal/modules/cjs/loader:1554:14)',
      '',
      'Node.js v20.20.2',
      '',
    ].join('\n');
    expect(stderrReason(node)).toBe('Error: GITHUB_TOKEN is not set');
    expect(stderrReason('TypeError [ERR_INVALID_ARG_TYPE]: The "path" argument must be of type string\n    at x\nNode.js v20.20.2')).toMatch(/^TypeError \[ERR_INVALID/);
  });

  it('prefers a line that says error over chatter; else the first line that is not noise; null when nothing', () => {
    expect(stderrReason('starting server v1.2\nloading config from ./x.json\nerror: config file not found\n')).toBe('error: config file not found');
    expect(stderrReason('Starting…\nthe port is busy, giving up\n')).toBe('Starting…');
    expect(stderrReason('\n  \nNode.js v20.20.2\n')).toBeNull();
    expect(stderrReason(`Error: ${'x'.repeat(1000)}`)).toHaveLength(300);
  });
});
