import type { Command } from 'commander';
import { register as run } from './run';
import { register as control } from './control';
import { register as exportCmd } from './export';

// Each command lives in its own file and exports `register(program)`; add new ones here.
export function registerCommands(program: Command): void {
  run(program);
  control(program);
  exportCmd(program);
}
