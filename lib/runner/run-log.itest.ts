import { afterAll, describe, expect, it } from 'vitest';
import { closeDb } from '../db/client';
import { runCli } from '../testing/engine';

// The console says when each run starts and finishes, and with what status, at `info` — one JSON
// line per event on stderr (lib/log/logger.ts), from the process that made the change.

afterAll(async () => {
  await closeDb();
});

type Line = { level: string; msg: string; runId?: string; status?: string; from?: string; trials?: number; reason?: string };

function logLines(stderr: string, runId: string): Line[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line)
    .filter((l) => l.runId === runId);
}

const runIdOf = (stderr: string) => /run (r_\w+) \(/.exec(stderr)![1];

describe('run events on the console', () => {
  it('a run that completes logs starting, started and finished with its status at info', async () => {
    const r = await runCli(['run', '--template', 'reference-study'], { TCLAB_LOG_LEVEL: 'info' });
    expect(r.code, r.stderr).toBe(0);
    const id = runIdOf(r.stderr);
    const lines = logLines(r.stderr, id);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ['info', 'run starting'],
      ['info', 'run started'],
      ['info', 'run finished'],
    ]);
    expect(lines[0]).toMatchObject({ trials: 152 });
    expect(lines[2]).toMatchObject({ status: 'completed', trials: 152 });
  }, 120_000);

  it('a cancelled run logs its finish with the status it reached and the one it left; nothing at warn', async () => {
    const started = await runCli(['run', '--template', 'reference-study', '--no-wait', '--no-worker']);
    expect(started.code, started.stderr).toBe(0);
    const id = runIdOf(started.stderr);
    expect(logLines(started.stderr, id)).toEqual([]); // the tests' level is warn: info lines stay out
    const cancelled = await runCli(['cancel', id], { TCLAB_LOG_LEVEL: 'info' });
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(logLines(cancelled.stderr, id)).toEqual([expect.objectContaining({ level: 'info', msg: 'run finished', status: 'cancelled', from: 'running' })]);
  }, 120_000);
});
