#!/usr/bin/env node
// `npx tclab …` / `npm run tclab …`: the CLI (cli/tclab.ts) as compiled by cli/bundle.mjs, run in this
// process; the bundle is rebuilt first when a source is newer than it.
import { pathToFileURL } from 'node:url';
import { cliBundle } from './bundle.mjs';

await import(pathToFileURL(await cliBundle()).href);
