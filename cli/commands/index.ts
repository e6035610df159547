import type { Command } from 'commander';

// Each command lives in its own file and exports `register(program)`; add new ones here. They are loaded
// when used: `tclab export …` loads the export command's modules only, not every command's (the MCP SDK,
// the auth library, the runner…), which keeps a CLI process small; help and an unknown name load them all.
type CommandModule = () => Promise<{ register: (program: Command) => void }>;
const control: CommandModule = () => import('./control');
const archive: CommandModule = () => import('./archive');
const COMMANDS: Record<string, CommandModule> = {
  run: () => import('./run'),
  pause: control,
  resume: control,
  cancel: control,
  status: control,
  export: () => import('./export'),
  compare: () => import('./compare'),
  bfcl: () => import('./bfcl'),
  cases: () => import('./cases'),
  lint: () => import('./lint'),
  mcp: () => import('./mcp'),
  optimize: () => import('./optimize'),
  plan: () => import('./plan'),
  report: () => import('./report'),
  runs: () => import('./runs'),
  user: () => import('./user'),
  archive,
  restore: archive,
};

/** Registers the command `first` names (the first argument), or every command when it names none. */
export async function registerCommands(program: Command, first?: string): Promise<void> {
  const one = first !== undefined && Object.prototype.hasOwnProperty.call(COMMANDS, first) ? COMMANDS[first] : undefined;
  const modules = one ? [one] : [...new Set(Object.values(COMMANDS))];
  for (const m of await Promise.all(modules.map((load) => load()))) m.register(program);
}
