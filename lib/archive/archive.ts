import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import {
  ARCHIVED_TABLES,
  archivedExperiments,
  archiveScope,
  withArchiveSnapshot,
  withRestoreTransaction,
  type ArchivedExperiment,
  type ArchivedTable,
} from '../db/archive';
import { recordAudit } from '../db/audit';
import type { Actor } from '../schema/actor';
import { zstdCompressStream, zstdDecompressStream } from './zstd';

/** A restore that would overwrite something already stored: refused, nothing changed. */
export { RestoreClash } from '../db/archive';

// Moving a lab (docs/archive.md): experiments and their runs — trials, attempts with their raw bodies,
// turns, results, reviews, audit, tool catalogs, the stored page aggregates — written as a tar stream of
// NDJSON files compressed with zstd, and restored into another instance in one transaction that refuses
// any clash and overwrites nothing. Both ways stream: memory is bounded by one part file (PART_BYTES, or
// one row when a row is larger), whatever the size of the lab.

export const ARCHIVE_FORMAT = 'tclab.archive/v1';
/** A part file is closed once it holds this much (a table's rows are spread over as many parts as needed). */
const PART_BYTES = 4 << 20;
/** Rows per INSERT when restoring (fewer when their text passes RESTORE_BYTES). */
const RESTORE_ROWS = 1000;
const RESTORE_BYTES = 8 << 20;

export interface ArchiveManifest {
  format: typeof ARCHIVE_FORMAT;
  createdAt: string;
  runs: string[];
  experiments: ArchivedExperiment[];
  /** Each table's columns, in the order of the rows' keys. */
  columns: Record<string, string[]>;
}

/** The archive's trailer: what was written, so that a truncated archive is refused. */
interface ArchiveEnd {
  rows: Record<string, number>;
  parts: number;
}

export class ArchiveInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveInputError';
  }
}

export interface ArchiveSummary {
  runs: string[];
  experiments: string[];
  rows: Record<string, number>;
  bytes: number;
}

const partName = (table: ArchivedTable, n: number) => `tables/${String(ARCHIVED_TABLES.indexOf(table)).padStart(2, '0')}-${table}/${String(n).padStart(6, '0')}.ndjson`;

/**
 * Writes the experiments and runs `ids` name (an experiment id brings all its runs, a run its experiment) to
 * `out` (written to a temporary file and renamed into place when whole).
 */
export async function writeArchive(ids: readonly string[], out: string): Promise<ArchiveSummary> {
  if (ids.length === 0) throw new ArchiveInputError('ids: give at least one experiment or run id');
  const scope = await archiveScope(ids);
  if (scope.unknown.length > 0) throw new ArchiveInputError(`ids: no experiment or run ${scope.unknown.join(', ')}`);
  const experiments = await archivedExperiments(scope.experiments);
  const pack = tar.pack();
  const tmp = `${out}.partial-${process.pid}`;
  const file = createWriteStream(tmp);
  const written = pipeline(pack, await zstdCompressStream(), file);
  const entry = (name: string, body: Buffer) =>
    new Promise<void>((resolve, reject) => pack.entry({ name, size: body.length, mtime: new Date(0) }, body, (e) => (e ? reject(e) : resolve())));
  const rows: Record<string, number> = {};
  let parts = 0;
  try {
    await withArchiveSnapshot(async (snap) => {
      const columns: Record<string, string[]> = {};
      for (const t of ARCHIVED_TABLES) columns[t] = (snap.columns.get(t) ?? []).map((c) => c.name);
      const manifest: ArchiveManifest = { format: ARCHIVE_FORMAT, createdAt: new Date().toISOString(), runs: scope.runs, experiments, columns };
      await entry('manifest.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
      for (const table of ARCHIVED_TABLES) {
        rows[table] = 0;
        let part: string[] = [];
        let size = 0;
        let n = 0;
        const flush = async () => {
          if (part.length === 0) return;
          await entry(partName(table, ++n), Buffer.from(`${part.join('\n')}\n`));
          parts += 1;
          part = [];
          size = 0;
        };
        for await (const lines of snap.rows(table, scope.runs, scope.experiments)) {
          for (const line of lines) {
            part.push(line);
            size += line.length + 1;
            rows[table] += 1;
            if (size >= PART_BYTES) await flush();
          }
        }
        await flush();
      }
    });
    const end: ArchiveEnd = { rows, parts };
    await entry('end.json', Buffer.from(`${JSON.stringify(end)}\n`));
    pack.finalize();
    await written;
    await rename(tmp, out);
  } catch (e) {
    pack.destroy();
    await written.catch(() => {});
    await rm(tmp, { force: true });
    throw e;
  }
  return { runs: scope.runs, experiments: scope.experiments, rows, bytes: file.bytesWritten };
}

export interface RestoreSummary {
  runs: string[];
  /** Experiments written; the others were already there with the same content. */
  experiments: string[];
  rows: Record<string, number>;
}

/**
 * Restores an archive into this instance, in one transaction: refused — with nothing written — when one of
 * its runs is already here, or one of its experiments is here with another content, or the archive is not
 * whole. The restore is attributed to `actor` in the audit (an entry of its own, naming the runs).
 */
export async function restoreArchive(path: string, actor: Actor): Promise<RestoreSummary> {
  const extract = tar.extract();
  let reading: Promise<void> | undefined;
  try {
    return await withRestoreTransaction(async (tx) => {
      // read from here on: an entry the extractor meets before its iterator listens is not handed to it
      const entries = extract[Symbol.asyncIterator]();
      reading = pipeline(createReadStream(path), zstdDecompressStream(), extract);
      reading.catch(() => {}); // its error surfaces through the entries' iteration
      let manifest: ArchiveManifest | null = null;
      let end: ArchiveEnd | null = null;
      const rows: Record<string, number> = {};
      const inserted: Record<string, number> = {};
      let parts = 0;
      for await (const e of { [Symbol.asyncIterator]: () => entries }) {
        const body = await readAll(e);
        const name = e.header.name;
        if (manifest === null) {
          if (name !== 'manifest.json') throw new ArchiveInputError(`${path}: not a tclab archive (its first file is ${name}, not manifest.json)`);
          manifest = JSON.parse(body.toString('utf8')) as ArchiveManifest;
          if (manifest.format !== ARCHIVE_FORMAT) throw new ArchiveInputError(`${path}: format ${String(manifest.format)}, this instance reads ${ARCHIVE_FORMAT}`);
          await tx.checkClashes(manifest.runs, manifest.experiments);
          continue;
        }
        if (name === 'end.json') {
          end = JSON.parse(body.toString('utf8')) as ArchiveEnd;
          continue;
        }
        const m = /^tables\/\d+-([a-z_]+)\/\d+\.ndjson$/.exec(name);
        const table = m?.[1] as ArchivedTable | undefined;
        if (!table || !ARCHIVED_TABLES.includes(table)) throw new ArchiveInputError(`${path}: unknown file ${name}`);
        parts += 1;
        const lines = body.toString('utf8').split('\n');
        if (lines[lines.length - 1] === '') lines.pop();
        rows[table] = (rows[table] ?? 0) + lines.length;
        for (let i = 0; i < lines.length;) {
          let j = i;
          let size = 0;
          while (j < lines.length && j - i < RESTORE_ROWS && (j === i || size + lines[j].length < RESTORE_BYTES)) size += lines[j++].length;
          inserted[table] = (inserted[table] ?? 0) + (await tx.insert(table, lines.slice(i, j), manifest.columns[table] ?? []));
          i = j;
        }
      }
      if (!manifest) throw new ArchiveInputError(`${path}: empty archive`);
      if (!end || end.parts !== parts || ARCHIVED_TABLES.some((t) => (end!.rows[t] ?? 0) !== (rows[t] ?? 0)))
        throw new ArchiveInputError(`${path}: the archive is incomplete (its end does not match what was read)`);
      // attributed with no run or experiment of its own: a restored run's audit — and so its exports — stay as archived
      await recordAudit(actor, 'lab.restored', {}, { archive: path, createdAt: manifest.createdAt, runs: manifest.runs, experiments: tx.newExperiments }, tx.db);
      return { runs: manifest.runs, experiments: tx.newExperiments, rows: inserted };
    });
  } finally {
    extract.destroy();
    await reading?.catch(() => {});
  }
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
