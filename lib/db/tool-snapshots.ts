import { randomBytes } from 'node:crypto';
import type { McpClientOptions, McpTargetInput } from '../mcp/client';
import { SnapshotSource, snapshotFromFile, snapshotFromServer, type ToolSnapshot } from '../mcp/snapshot';
import { readToolFile } from '../mcp/tools';
import { pool, utcTimestamp } from './client';

export interface StoredToolSnapshot extends ToolSnapshot {
  id: string;
}

/** Store a snapshot as taken (every import is its own row; equal content has the equal sha256). */
export async function saveToolSnapshot(s: ToolSnapshot): Promise<StoredToolSnapshot> {
  const id = `snap_${randomBytes(8).toString('hex')}`;
  await pool().query(
    `INSERT INTO tool_snapshots (id, sha256, server_name, server_version, protocol_version, source, tools, tool_count, taken_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::json, $8, $9)`,
    [id, s.sha256, s.server?.name ?? null, s.server?.version ?? null, s.protocolVersion, JSON.stringify(s.source), JSON.stringify(s.raw), s.raw.length, s.takenAt],
  );
  return { ...s, id };
}

interface Row {
  id: string;
  sha256: string;
  server_name: string | null;
  server_version: string | null;
  protocol_version: string | null;
  source: unknown;
  tools: unknown[];
  taken_at: string;
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
  const r = await pool().query<Row>(
    `SELECT id, sha256, server_name, server_version, protocol_version, source, tools, taken_at::text AS taken_at FROM tool_snapshots WHERE id = $1`,
    [id],
  );
  const x = r.rows[0];
  if (!x) return null;
  const source = SnapshotSource.parse(x.source);
  return {
    id: x.id,
    sha256: x.sha256,
    server: x.server_name === null ? null : { name: x.server_name, version: x.server_version },
    protocolVersion: x.protocol_version,
    source,
    raw: x.tools,
    takenAt: utcTimestamp(x.taken_at),
    // an OpenAI tools array is read as one; every other format is a list of MCP tools
    tools: readToolFile(source.kind === 'file' && source.format === 'openai-tools' ? x.tools : { tools: x.tools }).tools,
  };
}

export async function countToolSnapshots(): Promise<number> {
  const r = await pool().query<{ n: string }>(`SELECT count(*) AS n FROM tool_snapshots`);
  return Number(r.rows[0].n);
}
