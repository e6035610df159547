import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands';
import { SpecError } from '../lib/schema/common';

// Exit codes: 0 ok; 1 a check failed / the run did not complete; 2 invalid input (message names the field).
const program = new Command()
  .name('tclab')
  .description('Tool Contract Lab: controlled experiments on LLM tool definitions')
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) });

registerCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : 2);
  if (e instanceof SpecError || (e as { exitCode?: number }).exitCode === 2) {
    process.stderr.write(`tclab: ${(e as Error).message}\n`);
    process.exit(2);
  }
  process.stderr.write(`tclab: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
}
