import { randomBytes } from 'node:crypto';
import { pool, utcTimestamp } from './client';

/** A tool snapshot as stored (lib/mcp/snapshot.ts ToolSnapshot without the tools read from `raw`). */
export interface ToolSnapshotRow {
  sha256: string;
  server: { name: string; version: string | null } | null;
  protocolVersion: string | null;
  /** lib/mcp/snapshot.ts SnapshotSource, as stored (JSON). */
  source: unknown;
  /** The entries exactly as received. */
  raw: unknown[];
  takenAt: Date;
}

/** Store a snapshot as taken (every import is its own row; equal content has the equal sha256). Returns its id. */
export async function insertToolSnapshot(s: ToolSnapshotRow): Promise<string> {
  const id = `snap_${randomBytes(8).toString('hex')}`;
  await pool().query(
    `INSERT INTO tool_snapshots (id, sha256, server_name, server_version, protocol_version, source, tools, tool_count, taken_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::json, $8, $9)`,
    [id, s.sha256, s.server?.name ?? null, s.server?.version ?? null, s.protocolVersion, JSON.stringify(s.source), JSON.stringify(s.raw), s.raw.length, s.takenAt],
  );
  return id;
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

/** A stored snapshot's row (null: no such snapshot). */
export async function toolSnapshotRow(id: string): Promise<(ToolSnapshotRow & { id: string }) | null> {
  const r = await pool().query<Row>(
    `SELECT id, sha256, server_name, server_version, protocol_version, source, tools, taken_at::text AS taken_at FROM tool_snapshots WHERE id = $1`,
    [id],
  );
  const x = r.rows[0];
  if (!x) return null;
  return {
    id: x.id,
    sha256: x.sha256,
    server: x.server_name === null ? null : { name: x.server_name, version: x.server_version },
    protocolVersion: x.protocol_version,
    source: x.source,
    raw: x.tools,
    takenAt: utcTimestamp(x.taken_at),
  };
}

export async function countToolSnapshots(): Promise<number> {
  const r = await pool().query<{ n: string }>(`SELECT count(*) AS n FROM tool_snapshots`);
  return Number(r.rows[0].n);
}
