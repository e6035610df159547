import type { Command } from 'commander';
import { listMcpTools, McpListError } from '../../lib/mcp/client';
import { UsageError } from '../errors';
import { mcpExtraOptions, mcpTarget, timeoutOf, type McpCliOptions } from './mcp-options';
import { out } from '../output';

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
}
