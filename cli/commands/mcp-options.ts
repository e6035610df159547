import { Option } from 'commander';
import { splitCommandLine, type McpTargetInput } from '../../lib/mcp/client';
import { UsageError } from '../errors';

// The options that name a live MCP server, shared by `tclab mcp list` and `tclab lint`.

export interface McpCliOptions {
  env?: string[];
  header?: string[];
  timeoutMs?: string;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

export const mcpExtraOptions = [
  new Option('--env <NAME=VALUE>', 'a variable for the stdio server (repeatable); it inherits nothing else but HOME, LOGNAME, PATH, SHELL, TERM, USER').argParser(
    collect,
  ),
  new Option('--header <NAME:VALUE>', 'an HTTP header for --url (repeatable)').argParser(collect),
  new Option('--timeout-ms <ms>', 'time limit for connecting and listing (default 15000)'),
];

export function mcpTarget(stdio: string | undefined, url: string | undefined, o: McpCliOptions, flags = { stdio: '--stdio', url: '--url' }): McpTargetInput {
  if (Boolean(stdio) === Boolean(url)) throw new UsageError(`give one server: ${flags.stdio} "CMD ARGS…" or ${flags.url} URL`);
  if (stdio) {
    const { command, args } = splitCommandLine(stdio);
    const env: Record<string, string> = {};
    for (const kv of o.env ?? []) {
      const i = kv.indexOf('=');
      if (i < 1) throw new UsageError(`--env: expected NAME=VALUE, got ${JSON.stringify(kv)}`);
      env[kv.slice(0, i)] = kv.slice(i + 1);
    }
    return { kind: 'stdio', command, args, env };
  }
  const headers: Record<string, string> = {};
  for (const kv of o.header ?? []) {
    const i = kv.indexOf(':');
    if (i < 1) throw new UsageError(`--header: expected NAME:VALUE, got ${JSON.stringify(kv)}`);
    headers[kv.slice(0, i).trim()] = kv.slice(i + 1).trim();
  }
  return { kind: 'http', url: url!, headers };
}

export function timeoutOf(o: McpCliOptions): number | undefined {
  if (o.timeoutMs === undefined) return undefined;
  const n = Number(o.timeoutMs);
  if (!Number.isInteger(n) || n < 100 || n > 600_000) throw new UsageError('--timeout-ms: an integer from 100 to 600000');
  return n;
}
