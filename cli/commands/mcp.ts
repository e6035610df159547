import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { applyToolsToConditions, ApplyToolsError } from '../../lib/mcp/apply';
import { listMcpTools, McpListError } from '../../lib/mcp/client';
import { readToolFile, ToolFileError } from '../../lib/mcp/tools';
import { parseSpecBytes, parseSpecValue } from '../../lib/experiments/parse';
import { readJson } from '../../lib/schema/input';
import { UsageError } from '../errors';
import { fileValue, readInputFile } from './compare';
import { mcpExtraOptions, mcpTarget, timeoutOf, type McpCliOptions } from './mcp-options';
import { err, out } from '../output';

export function register(program: Command): void {
  const mcp = program.command('mcp').description('Model Context Protocol servers (no database needed)');
  const list = mcp
    .command('list')
    .description("list a live MCP server's tools (every page of tools/list), with the effect its annotations imply")
    .option('--stdio <command>', 'start the server as a child process: "CMD ARGS…" (quotes group words; no shell)')
    .option('--url <url>', 'a Streamable HTTP endpoint, e.g. http://127.0.0.1:3001/mcp')
    .option('--json', 'print {server, protocolVersion, sha256, tools} with the raw tools/list entries');
  for (const o of mcpExtraOptions) list.addOption(o);
  list.action(async (opts: McpCliOptions & { stdio?: string; url?: string; json?: boolean }) => {
    const target = mcpTarget(opts.stdio, opts.url, opts);
    let listed: Awaited<ReturnType<typeof listMcpTools>>;
    try {
      listed = await listMcpTools(target, { timeoutMs: timeoutOf(opts) });
    } catch (e) {
      if (e instanceof McpListError) throw new UsageError(e.message);
      throw e;
    }
    if (opts.json) {
      const { server, protocolVersion, sha256, raw } = listed;
      out(`${JSON.stringify({ server, protocolVersion, sha256, tools: raw }, null, 2)}\n`);
      return;
    }
    const lines = [
      `${listed.server ? `${listed.server.name} ${listed.server.version ?? ''}`.trim() : 'unnamed server'} · protocol ${listed.protocolVersion ?? '?'} · ${listed.tools.length} tools · ${listed.sha256}`,
    ];
    const width = Math.max(4, ...listed.tools.map((t) => t.name.length));
    for (const t of listed.tools) {
      const hint = t.readOnlyHint === undefined ? 'readOnlyHint unset' : `readOnlyHint ${t.readOnlyHint}`;
      const first = t.description.split('\n')[0].slice(0, 100);
      lines.push(`${t.name.padEnd(width)}  ${t.effect.padEnd(5)}  (${hint})  ${first}`);
    }
    out(`${lines.join('\n')}\n`);
  });

  mcp
    .command('apply <experiment>')
    .description(
      "set conditions' tool definitions from tools/list files (`tclab mcp list --json`): each definition gets the description and argument schema of the listed tool of its name, in every scenario and locale — for a CI job that tests a server's pull request against its release (docs/ci-recipe.md)",
    )
    .requiredOption('--set <CONDITION=FILE>', 'a condition and the tools/list file of its tools (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--out <file>', 'write the experiment there (default: standard output)')
    .action((file: string, opts: { set: string[]; out?: string }) => {
      const spec = fileValue(parseSpecBytes(readInputFile(file)), file, 'experiment spec');
      const sets: Record<string, ReturnType<typeof readToolFile>['tools']> = {};
      for (const kv of opts.set) {
        const i = kv.indexOf('=');
        if (i < 1) throw new UsageError(`--set: expected CONDITION=FILE, got ${JSON.stringify(kv)}`);
        const toolsFile = kv.slice(i + 1);
        try {
          sets[kv.slice(0, i)] = readToolFile(fileValue(readJson(readInputFile(toolsFile)), toolsFile, 'JSON file')).tools;
        } catch (e) {
          if (e instanceof ToolFileError) throw new UsageError(`${toolsFile}: ${e.message}`);
          throw e;
        }
      }
      let applied: ReturnType<typeof applyToolsToConditions>;
      try {
        applied = applyToolsToConditions(spec, sets);
      } catch (e) {
        if (e instanceof ApplyToolsError) throw new UsageError(`--set: ${e.message}`);
        throw e;
      }
      if (applied.missing.length)
        throw new UsageError(applied.missing.map((m) => `--set ${m.condition}: the server lists no tool "${m.name}", which the condition sends`).join('\n'));
      const checked = fileValue(parseSpecValue(applied.spec), `${file} with the listed tools`, 'experiment spec');
      for (const u of applied.unused) err(`${u.condition}: "${u.name}" is listed by the server but sent by no definition of the condition (left out)\n`);
      for (const [c, n] of Object.entries(applied.changed)) err(`${c}: ${n} definition${n === 1 ? '' : 's'} changed\n`);
      const text = `${JSON.stringify(checked, null, 2)}\n`;
      if (opts.out) writeFileSync(opts.out, text);
      else out(text);
    });
}
