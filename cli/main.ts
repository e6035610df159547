import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands';
import { SpecError } from '../lib/schema/common';
import { env } from '../lib/env';
import { err, out, processSink, setExitCode, withSink, type Sink } from './output';
import { UsageError } from './errors';

// The CLI's one entry: `tclab.ts` calls it with the process's arguments; tests call it in-process with a
// capturing sink. Exit codes: 0 ok; 1 a check failed / the run did not complete / an unexpected error;
// 2 invalid input. Errors are one line per issue, never a stack trace (TCLAB_DEBUG=1 prints one).

const lines = (s: string) => s.split('\n').filter((l) => l.trim() !== '');

/** Report an error, one line per issue; returns the exit code. */
function report(e: unknown): number {
  if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2; // commander printed its message
  if (e instanceof UsageError) {
    for (const l of lines(e.message)) err(`tclab: ${l.trim()}\n`);
    return 2;
  }
  if (e instanceof SpecError) {
    const issues = e.issues.length ? e.issues.map((i) => `${i.path}: ${i.message}`) : lines(e.message);
    for (const l of issues) err(`tclab: ${l.trim()}\n`);
    return 2;
  }
  const message = e instanceof Error ? e.message : String(e);
  err(`tclab: ${lines(message)[0] ?? 'unexpected error'}\n`);
  if (debug() && e instanceof Error && e.stack) err(`${e.stack}\n`);
  return 1;
}

function debug(): boolean {
  try {
    return env().TCLAB_DEBUG === '1';
  } catch {
    return false;
  }
}

/** Run `tclab ARGS…` (without the program name). */
export async function runTclab(argv: readonly string[], sink?: Sink): Promise<number> {
  const program = new Command()
    .name('tclab')
    .description('Tool Contract Lab: controlled experiments on LLM tool definitions')
    .exitOverride()
    .configureOutput({ writeOut: (s) => out(s), writeErr: (s) => err(s), outputError: (s, write) => write(s) });
  await registerCommands(program, argv[0]);
  const go = async () => {
    try {
      await program.parseAsync([...argv], { from: 'user' });
    } catch (e) {
      setExitCode(report(e));
    }
  };
  return withSink(sink ?? processSink(), go);
}
