import { runTclab } from './main';

// `tclab …` as a process (see main.ts): exit with the command's code, whatever handles are still open.
process.exit(await runTclab(process.argv.slice(2)));
