import { limitHeapGrowth } from '../lib/heap';
import { runTclab } from './main';
import { exitWhenDrained } from './output';

// `tclab …` as a process (see main.ts): exit with the command's code once everything printed has been taken by
// stdout's and stderr's readers, whatever handles are still open.
limitHeapGrowth(); // lib/heap.ts: an export streams gigabytes of short-lived text
await exitWhenDrained(await runTclab(process.argv.slice(2)));
