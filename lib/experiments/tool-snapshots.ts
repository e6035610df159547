import type { McpClientOptions, McpTargetInput } from '../mcp/client';
import { SnapshotSource, snapshotFromFile, snapshotFromServer, type ToolSnapshot } from '../mcp/snapshot';
import { readToolFile } from '../mcp/tools';
import { insertToolSnapshot, toolSnapshotRow } from '../db/tool-snapshots';

// Use case: import a tool list (a live MCP server or a tool file) into a stored snapshot, and read one back
// with its tools as the designer reads them. lib/db/tool-snapshots.ts stores the rows.

export interface StoredToolSnapshot extends ToolSnapshot {
  id: string;
}

/** Store a snapshot as taken (every import is its own row; equal content has the equal sha256). */
export async function saveToolSnapshot(s: ToolSnapshot): Promise<StoredToolSnapshot> {
  return { ...s, id: await insertToolSnapshot(s) };
}

/** List a live MCP server's tools and store the snapshot; any failure throws before anything is stored. */
export async function importServerTools(target: McpTargetInput, opts: McpClientOptions = {}): Promise<StoredToolSnapshot> {
  return saveToolSnapshot(await snapshotFromServer(target, opts));
}

/** Read a pasted or uploaded tool file and store the snapshot; an unreadable file stores nothing. */
export async function importToolFile(input: unknown, name: string | null = null): Promise<StoredToolSnapshot> {
  return saveToolSnapshot(snapshotFromFile(input, name));
}

export async function getToolSnapshot(id: string): Promise<StoredToolSnapshot | null> {
  const x = await toolSnapshotRow(id);
  if (!x) return null;
  const source = SnapshotSource.parse(x.source);
  return {
    ...x,
    source,
    // an OpenAI tools array is read as one; every other format is a list of MCP tools
    tools: readToolFile(source.kind === 'file' && source.format === 'openai-tools' ? x.raw : { tools: x.raw }).tools,
  };
}

export { countToolSnapshots } from '../db/tool-snapshots';
