import type { Command } from 'commander';

// Each command lives in its own file and exports `register(program)`; add new ones here.
export function registerCommands(program: Command): void {
  void program;
}
