import { runTclab } from './main';
import { exitWhenDrained } from './output';

// `tclab …` as a process (see main.ts): exit with the command's code once everything printed has been taken by
// stdout's and stderr's readers, whatever handles are still open.
await exitWhenDrained(await runTclab(process.argv.slice(2)));
