import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { pool, withTransaction } from './client';

// Exports stored once built (docs/export.md#stored-parquet-tables): the files of one export of a run, kept in
// chunks under the version they were built from and read back only while the caller's version is that one.
// A set is replaced whole in one transaction; a reader that finds a chunk missing or a file's bytes not what
// the set says (it was replaced while being read) reports a miss, never a partial file.

/**
 * Bytes per stored chunk. Small on purpose: every chunk written or read passes through buffers and strings of the
 * driver's (a chunk's hex text is twice its size), and at this size they are young objects, collected as they go;
 * at 1 MiB they waited for a full collection and the server's peak carried a whole set's (docs/benchmarks.md).
 */
export const STORED_CHUNK_BYTES = 48 * 1024;
/** Chunks per query when reading a set back. */
const CHUNKS_PER_READ = 16;

export interface StoredFile {
  name: string;
  bytes: number;
  chunks: number;
  sha256: string;
}

/** The version a run's stored export of `kind` was built from; null: none stored. */
export async function storedExportVersion(runId: string, kind: string): Promise<string | null> {
  const r = await pool().query<{ version: string }>(`SELECT version FROM stored_exports WHERE run_id = $1 AND kind = $2`, [runId, kind]);
  return r.rows[0]?.version ?? null;
}

/**
 * The stored files of `kind` for this run written into `dir` (under their names), if they are stored under
 * `version`: true when every file was written whole (each one's length and SHA-256 as stored), false when
 * nothing is stored under that version or the set changed while it was read (the files in `dir` are then
 * not to be used).
 */
export async function readStoredExport(runId: string, kind: string, version: string, dir: string): Promise<boolean> {
  const head = await pool().query<{ files: StoredFile[] }>(`SELECT files FROM stored_exports WHERE run_id = $1 AND kind = $2 AND version = $3`, [runId, kind, version]);
  if (head.rows.length === 0) return false;
  for (const f of head.rows[0].files) {
    const out = createWriteStream(path.join(dir, f.name));
    const hash = createHash('sha256');
    let bytes = 0;
    let seq = 0;
    try {
      // CHUNKS_PER_READ chunks per query (each one's hex text a string small enough for the young generation)
      read: while (seq < f.chunks) {
        const r = await pool().query<{ seq: number; bytes: Buffer }>(
          `SELECT c.seq, c.bytes FROM stored_export_chunks c JOIN stored_exports s USING (run_id, kind)
            WHERE c.run_id = $1 AND c.kind = $2 AND s.version = $3 AND c.file = $4 AND c.seq >= $5 ORDER BY c.seq LIMIT $6`,
          [runId, kind, version, f.name, seq, CHUNKS_PER_READ],
        );
        if (r.rows.length === 0) break;
        for (const row of r.rows) {
          if (row.seq !== seq) break read;
          hash.update(row.bytes);
          bytes += row.bytes.length;
          seq++;
          if (!out.write(row.bytes)) await once(out, 'drain');
        }
      }
    } finally {
      out.end();
      await finished(out).catch(() => {});
    }
    if (seq !== f.chunks || bytes !== f.bytes || hash.digest('hex') !== f.sha256) return false;
  }
  return true;
}

/**
 * Store the files at `paths` as the run's export of `kind` built from `version`, replacing what was stored
 * (one transaction: a reader sees the old set or the new one). Each file is read a chunk at a time.
 */
export async function storeExport(runId: string, kind: string, version: string, paths: readonly string[]): Promise<StoredFile[]> {
  return withTransaction(async (client) => {
    // two exports storing the same run's set at once: one after the other, the second replacing the first
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('stored_exports|' || $1 || '|' || $2))`, [runId, kind]);
    await client.query(`DELETE FROM stored_exports WHERE run_id = $1 AND kind = $2`, [runId, kind]);
    const files: StoredFile[] = paths.map((p) => ({ name: path.basename(p), bytes: 0, chunks: 0, sha256: '' }));
    await client.query(`INSERT INTO stored_exports (run_id, kind, version, files) VALUES ($1, $2, $3, '[]')`, [runId, kind, version]);
    // each chunk read into one buffer, used again: what is sent is the only copy made (docs/benchmarks.md)
    const buffer = Buffer.allocUnsafe(STORED_CHUNK_BYTES);
    for (const [i, p] of paths.entries()) {
      const f = files[i];
      const hash = createHash('sha256');
      const fd = await open(p, 'r');
      try {
        for (;;) {
          let n = 0;
          while (n < buffer.length) {
            const { bytesRead } = await fd.read(buffer, n, buffer.length - n, null);
            if (bytesRead === 0) break;
            n += bytesRead;
          }
          if (n === 0) break;
          const b = buffer.subarray(0, n);
          hash.update(b);
          await client.query(`INSERT INTO stored_export_chunks (run_id, kind, file, seq, bytes) VALUES ($1, $2, $3, $4, $5)`, [runId, kind, f.name, f.chunks, b]);
          f.chunks++;
          f.bytes += n;
          if (n < buffer.length) break;
        }
      } finally {
        await fd.close();
      }
      f.sha256 = hash.digest('hex');
    }
    await client.query(`UPDATE stored_exports SET files = $3::jsonb WHERE run_id = $1 AND kind = $2`, [runId, kind, JSON.stringify(files)]);
    return files;
  });
}

/** Forget a run's stored export of `kind` (it is built again on the next export). */
export async function dropStoredExport(runId: string, kind: string): Promise<void> {
  await pool().query(`DELETE FROM stored_exports WHERE run_id = $1 AND kind = $2`, [runId, kind]);
}
