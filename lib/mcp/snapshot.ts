import { z } from 'zod';
import { listMcpTools, McpTarget, type McpClientOptions, type McpTargetInput } from './client';
import { readToolFile, toolsHash, type ImportedTool, type ToolFileKind } from './tools';

// A tool snapshot: the raw tools/list entries as received, their sha256, the server's name and version,
// the protocol version and the time — where a scenario's tools came from. Taken from a live server or
// from a file someone pasted or uploaded; either way the same shape, stored by lib/db/tool-snapshots.ts.

/** Where a snapshot came from. Header values and environment values are never kept (they may be secrets). */
export const SnapshotSource = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('stdio'), command: z.string(), args: z.array(z.string()), envNames: z.array(z.string()) }),
  z.object({ kind: z.literal('http'), url: z.string(), headerNames: z.array(z.string()) }),
  z.object({ kind: z.literal('file'), format: z.enum(['mcp-tools-list', 'mcp-tool-array', 'mcp-tool', 'openai-tools']), name: z.string().nullable() }),
]);
export type SnapshotSource = z.infer<typeof SnapshotSource>;

export interface ToolSnapshot {
  sha256: string;
  server: { name: string; version: string | null } | null;
  protocolVersion: string | null;
  source: SnapshotSource;
  /** The entries exactly as received. */
  raw: unknown[];
  takenAt: Date;
  /** The tools as the designer reads them (effect prefilled from annotations). */
  tools: ImportedTool[];
}

/** List a live server's tools into a snapshot (nothing stored here). */
export async function snapshotFromServer(target: McpTargetInput, opts: McpClientOptions = {}): Promise<ToolSnapshot> {
  const listed = await listMcpTools(target, opts);
  const t = McpTarget.parse(target);
  const source: SnapshotSource =
    t.kind === 'stdio'
      ? { kind: 'stdio', command: t.command, args: t.args, envNames: Object.keys(t.env).sort() }
      : { kind: 'http', url: t.url, headerNames: Object.keys(t.headers).sort() };
  return { sha256: listed.sha256, server: listed.server, protocolVersion: listed.protocolVersion, source, raw: listed.raw, takenAt: new Date(), tools: listed.tools };
}

/** A pasted or uploaded tool file (tools/list, array of MCP tools, one tool, OpenAI tools) into a snapshot. */
export function snapshotFromFile(input: unknown, name: string | null = null): ToolSnapshot {
  const list = readToolFile(input);
  const format: ToolFileKind = list.kind;
  return {
    sha256: toolsHash(list.raw),
    server: list.server,
    protocolVersion: null,
    source: { kind: 'file', format, name },
    raw: list.raw,
    takenAt: new Date(),
    tools: list.tools,
  };
}
