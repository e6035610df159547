import { limitHeapGrowth } from '../lib/heap';
import { runTclab } from './main';
import { exitWhenDrained } from './output';

// `tclab …` as a process (see main.ts): exit with the command's code once everything printed has been taken by
// stdout's and stderr's readers, whatever handles are still open.
limitHeapGrowth(1.5); // lib/heap.ts: an export streams gigabytes of short-lived text; creating a run holds its spec
await exitWhenDrained(await runTclab(process.argv.slice(2)));
