import type { Command } from 'commander';
import { register as run } from './run';
import { register as control } from './control';
import { register as exportCmd } from './export';
import { register as compare } from './compare';
import { register as bfcl } from './bfcl';
import { register as lint } from './lint';
import { register as mcp } from './mcp';
import { register as plan } from './plan';
import { register as runs } from './runs';
import { register as user } from './user';

// Each command lives in its own file and exports `register(program)`; add new ones here.
export function registerCommands(program: Command): void {
  run(program);
  control(program);
  exportCmd(program);
  compare(program);
  bfcl(program);
  lint(program);
  mcp(program);
  plan(program);
  runs(program);
  user(program);
}
