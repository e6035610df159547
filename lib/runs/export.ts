import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import yazl from 'yazl';
import { getExperiment } from '../db/experiments';
import { getRun, type RunRow } from '../db/runs';
import { resultsVersion, isFrozenResultsVersion } from '../db/result-cache';
import { reviewsDigest } from '../db/reviews';
import { readStoredExport, storedExportVersion, storeExport } from '../db/stored-exports';
import { knownSecrets } from '../providers/secrets';
import pkg from '../../package.json';
import { worthWarming } from './large-run';
import { log } from '../log/logger';
import type { ClusterBy, RunSummary } from '../schema/table1';
import { runChoiceSummary } from './choices';
import { exportFunnelRow, runFunnel } from './funnel';
import { loadStoppingReport } from './stopping';
import { getOptimisation, optimisationOfRun } from '../db/optimisations';
import type { OptimisationRow } from '../schema/optimisation';
import {
  checksCsvOf,
  choicesCsvOf,
  junitOf,
  PARQUET_TABLES,
  writeParquetTables,
  type ParquetTable,
  parquetSidecarOf,
  parquetTableColumns,
  runJson,
  trialsCsvOf,
  trialTccOf,
  writeRunTccOf,
  type RunAndExperiment,
} from '../export/run';
import { table1Text } from '../export/table1';
import { loadRunSummary } from './summary';

// Use case: export a stored run. The run row and its experiment version are loaded once (loadRunForExport)
// and passed to every format asked for; Table 1 is computed once and shared by the formats that hold it. Table 1,
// what the model did and the funnel are the values the run's pages store (read back for a completed run).
// EXPORT_FORMATS is the one table of the formats: the route handler (app/api/runs/[id]/export/[kind]), the
// run page's download links and `tclab export` all read it.

export type { RunAndExperiment } from '../export/run';

/** No such run (or its experiment version is missing): the doors answer 404 / a usage error. */
export class RunNotFoundError extends Error {}

/** The run and its experiment version, read once. */
export async function loadRunForExport(runId: string): Promise<RunAndExperiment> {
  const run = await getRun(runId);
  if (!run) throw new RunNotFoundError(`no run "${runId}"`);
  const experiment = await getExperiment(run.experimentId);
  if (!experiment) throw new RunNotFoundError(`experiment of run "${runId}" is missing`);
  return { run, experiment };
}

/** loadRunForExport, or null when the run (or its experiment version) is not there. */
async function loadRunIfThere(runId: string): Promise<RunAndExperiment | null> {
  try {
    return await loadRunForExport(runId);
  } catch (e) {
    if (e instanceof RunNotFoundError) return null;
    throw e;
  }
}

/**
 * What an export of a loaded run may share with the others of one request: Table 1 (computed on first use,
 * once per cluster choice) and the cluster choice.
 */
export class ExportSession {
  private summary: Promise<RunSummary> | undefined;
  constructor(
    readonly loaded: RunAndExperiment,
    readonly clusterBy: ClusterBy = 'case',
    known?: RunSummary,
    /**
     * Stored Parquet tables (docs/export.md#stored-parquet-tables): from how many trials a completed run's are
     * stored (TCLAB_WARM_MIN_TRIALS unless given), and the most bytes of them a download stores
     * (DOWNLOAD_STORE_MAX_BYTES unless given).
     */
    readonly store: { minTrials?: number; downloadMaxBytes?: number } = {},
  ) {
    if (known) this.summary = Promise.resolve(known);
  }
  /** The run's Table 1, computed once. */
  table1(): Promise<RunSummary> {
    this.summary ??= loadRunSummary(this.loaded.run, this.loaded.experiment.spec, this.clusterBy);
    return this.summary;
  }
}

export interface ExportFormat {
  /** The name in the URL (`/api/runs/<id>/export/<name>`). */
  name: string;
  /** What the run page's button says. */
  label: string;
  contentType: string;
  extension: string;
  /** The `tclab export` option that writes it (camelCase as commander gives it, and the flag), if any. */
  cli?: { option: string; flag: string; description: string };
  /** Shown as a download on the run page (and served by the route). */
  download: boolean;
  stream(s: ExportSession): Promise<Readable>;
}

const table1Stream = (format: 'md' | 'tex') => async (s: ExportSession) => Readable.from([table1Text(s.loaded, await s.table1(), format)]);

/** The one table of export formats, in the order the run page shows them. */
export const EXPORT_FORMATS = [
  {
    name: 'json',
    label: 'JSON',
    contentType: 'application/json; charset=utf-8',
    extension: 'json',
    cli: { option: 'out', flag: '--out <file>', description: 'JSON file' },
    download: true,
    stream: async (s) => {
      const { run, experiment } = s.loaded;
      const [summary, choices, funnel, stopping, optimisation] = await Promise.all([
        s.table1(),
        runChoiceSummary(run.id, experiment.spec),
        runFunnel(run, experiment.spec),
        loadStoppingReport(run, experiment.spec),
        optimisationOfExportedRun(run.id),
      ]);
      return runJson(s.loaded, summary, choices, { funnel: funnel.rows.map(exportFunnelRow), descriptionPairs: funnel.pairs, stopping, optimisation });
    },
  },
  {
    name: 'trials.csv',
    label: 'Trials CSV',
    contentType: 'text/csv; charset=utf-8',
    extension: 'csv',
    cli: { option: 'csv', flag: '--csv <file>', description: 'one CSV row per trial' },
    download: true,
    stream: async (s) => trialsCsvOf(s.loaded),
  },
  {
    name: 'checks.csv',
    label: 'Checks CSV',
    contentType: 'text/csv; charset=utf-8',
    extension: 'csv',
    cli: { option: 'checksCsv', flag: '--checks-csv <file>', description: 'one CSV row per check' },
    download: true,
    stream: async (s) => checksCsvOf(s.loaded),
  },
  {
    name: 'choices.csv',
    label: 'Choices CSV',
    contentType: 'text/csv; charset=utf-8',
    extension: 'csv',
    cli: { option: 'choicesCsv', flag: '--choices-csv <file>', description: 'one CSV row per trial: what the model did (expected, chosen, position of the chosen tool)' },
    download: true,
    stream: async (s) => choicesCsvOf(s.loaded),
  },
  {
    name: 'parquet.zip',
    label: 'Parquet (zip)',
    contentType: 'application/zip',
    extension: 'zip',
    download: true,
    stream: async (s) => parquetZip(s),
  },
  {
    name: 'table1.md',
    label: 'Table 1 (Markdown)',
    contentType: 'text/markdown; charset=utf-8',
    extension: 'md',
    download: true,
    stream: table1Stream('md'),
  },
  {
    name: 'table1.tex',
    label: 'Table 1 (LaTeX)',
    contentType: 'application/x-tex; charset=utf-8',
    extension: 'tex',
    download: true,
    stream: table1Stream('tex'),
  },
  {
    // written by `tclab run|export --junit` (cli/commands/ci-outputs.ts, with the CI options)
    name: 'junit.xml',
    label: 'JUnit XML',
    contentType: 'application/xml; charset=utf-8',
    extension: 'xml',
    download: false,
    stream: (s) => junitOf(s.loaded),
  },
] as const satisfies readonly ExportFormat[];

export type ExportFormatName = (typeof EXPORT_FORMATS)[number]['name'];

/** The formats the run page offers and the route serves. */
export const DOWNLOAD_FORMATS: readonly ExportFormat[] = EXPORT_FORMATS.filter((f) => f.download);

/** The loop a run is a stage of (its select run or a confirm run) and the loop's record as stored; null for any other run. */
export async function optimisationOfExportedRun(runId: string): Promise<{ stage: 'select' | 'confirm'; record: OptimisationRow } | null> {
  const of = await optimisationOfRun(runId);
  const record = of && (await getOptimisation(of.id));
  return of && record ? { stage: of.stage, record } : null;
}

export function exportFormat(name: string): ExportFormat | undefined {
  return EXPORT_FORMATS.find((f) => f.name === name);
}

/** The file an export downloads as: `run-<id>.json`, `run-<id>-trials.csv`, … */
export function exportFileName(runId: string, f: ExportFormat): string {
  return f.name === 'json' ? `run-${runId}.${f.extension}` : `run-${runId}-${f.name}`;
}

/** One export of a run by id: the run and its experiment read once. */
export async function exportStream(runId: string, name: ExportFormatName, clusterBy: ClusterBy = 'case', known?: RunSummary): Promise<Readable> {
  return exportFormat(name)!.stream(new ExportSession(await loadRunForExport(runId), clusterBy, known));
}

// By id, one format each (tests, the golden exports, scripts): each loads the run once.
export const runJsonStream = (runId: string, clusterBy: ClusterBy = 'case', known?: RunSummary) => exportStream(runId, 'json', clusterBy, known);
export const trialsCsvStream = (runId: string) => exportStream(runId, 'trials.csv');
export const checksCsvStream = (runId: string) => exportStream(runId, 'checks.csv');
export const choicesCsvStream = (runId: string) => exportStream(runId, 'choices.csv');
export const junitStream = (runId: string) => exportStream(runId, 'junit.xml');

/** A run's Table 1 for a report: Markdown (`md`) or a LaTeX table (`tex`), titled with the run's name and experiment. */
export async function table1Document(runId: string, format: 'md' | 'tex', clusterBy: ClusterBy = 'case'): Promise<string> {
  const s = new ExportSession(await loadRunForExport(runId), clusterBy);
  return table1Text(s.loaded, await s.table1(), format);
}

/** A stored trial as its TCC case card and observation file; null when the run or the trial is not there. */
export async function trialTcc(runId: string, trialId: string): Promise<Awaited<ReturnType<typeof trialTccOf>>> {
  const loaded = await loadRunIfThere(runId);
  return loaded && trialTccOf(loaded, trialId);
}

/** The Parquet files of a run (docs/export.md#parquet): `<table>.parquet` for each of PARQUET_TABLES, and the sidecar `run.json`. */
export const PARQUET_FILES = [...PARQUET_TABLES.map((t) => `${t}.parquet`), 'run.json'];

/** The most bytes of Parquet tables a download stores (parquetZip): 100,000 trials' are 13.5 MB. */
export const DOWNLOAD_STORE_MAX_BYTES = 32 * 1024 * 1024;

/**
 * The Parquet tables and their sidecar in one zip, streamed (the tables are stored, not compressed again:
 * Parquet is compressed). The tables (read back as stored, or built: parquetTablesIn) are written first to a
 * folder of their own (one pass over the trials feeds the four at once, which a zip's one-entry-at-a-time reading
 * could not take), then zipped from there; the folder is removed when the zip has been read or abandoned.
 */
async function parquetZip(s: ExportSession): Promise<Readable> {
  const dir = await mkdtemp(path.join(tmpdir(), 'tclab-parquet-'));
  const remove = () => void rm(dir, { recursive: true, force: true });
  let store: (() => Promise<void>) | null;
  try {
    store = await parquetTablesIn(s, dir);
    await writeFile(path.join(dir, 'run.json'), parquetSidecarOf(s.loaded, await s.table1()));
  } catch (e) {
    remove();
    throw e;
  }
  const zip = new yazl.ZipFile();
  const mtime = new Date(s.loaded.run.createdAt);
  for (const f of PARQUET_FILES) zip.addReadStream(createReadStream(path.join(dir, f)), f, { compress: f.endsWith('.parquet') ? false : undefined, mtime });
  zip.end();
  const out = zip.outputStream as Readable;
  // tables built here are stored once the zip has been read or abandoned (the files are whole either way), after
  // what building them held has had time to go; and only up to DOWNLOAD_STORE_MAX_BYTES (the server's peak while
  // storing a larger set is not measured; a worker stores a large run's as it completes:
  // docs/export.md#stored-parquet-tables)
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    const stored = (async () => {
      if (!store) return;
      const sizes = await Promise.all(PARQUET_TABLES.map(async (t) => (await stat(path.join(dir, `${t}.parquet`))).size));
      if (sizes.reduce((a, b) => a + b, 0) <= (s.store.downloadMaxBytes ?? DOWNLOAD_STORE_MAX_BYTES)) await store();
    })().catch((e: unknown) => log('warn', 'storing the Parquet tables failed', { runId: s.loaded.run.id, error: String(e) }));
    void stored.finally(remove);
  };
  out.once('close', finish);
  out.once('end', finish);
  out.once('error', finish);
  return out;
}

/**
 * Bumped whenever the Parquet tables' bytes for the same records change (cells, writer): an older stored set is
 * never read. (A column added, renamed or retyped changes the version by itself: parquetTableColumns is in it.)
 */
export const STORED_PARQUET_FORMAT = 'p1';

/**
 * The version a run's Parquet tables are stored under (docs/export.md#stored-parquet-tables): the format, the
 * product's version and the tables' columns, the run's results version (frozen once it completed), a digest of
 * its reviews and one of the secrets an export redacts. Null when they are not stored: the run is not completed (its trials still move) or has fewer
 * than `minTrials` trials (TCLAB_WARM_MIN_TRIALS: a small run's tables are built in well under a second).
 */
export async function parquetStoreVersion(run: Pick<RunRow, 'id' | 'status' | 'totalTrials'>, minTrials?: number): Promise<string | null> {
  if (!worthWarming(run, minTrials)) return null;
  const results = await resultsVersion(run.id);
  if (!isFrozenResultsVersion(results)) return null;
  const secrets = createHash('sha256').update(knownSecrets().join('\0')).digest('hex');
  const parts = [STORED_PARQUET_FORMAT, pkg.version, JSON.stringify(parquetTableColumns()), results, await reviewsDigest(run.id), secrets];
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

/**
 * The four Parquet tables as files in `dir` (made if missing). A large completed run's tables are read back as
 * stored when stored under its current version (parquetStoreVersion), else built from its trials. Returns, when
 * they were built for a run whose tables are stored, the step that stores them — unless the version moved while
 * they were built — for the caller to take when it suits it (the zip: once sent, when what building them held is
 * gone); null when there is nothing to store.
 */
async function parquetTablesIn(s: ExportSession, dir: string): Promise<(() => Promise<void>) | null> {
  await mkdir(dir, { recursive: true });
  const { run } = s.loaded;
  const version = await parquetStoreVersion(run, s.store.minTrials);
  if (version && (await readStoredExport(run.id, 'parquet', version, dir))) return null;
  const file = (t: ParquetTable): Writable => createWriteStream(path.join(dir, `${t}.parquet`));
  const out = { trials: file('trials'), attempts: file('attempts'), checks: file('checks'), choices: file('choices') } satisfies Record<ParquetTable, Writable>;
  await writeParquetTables(s.loaded, out);
  if (!version) return null;
  return async () => {
    if ((await parquetStoreVersion(run, s.store.minTrials)) !== version) return;
    await storeExport(
      run.id,
      'parquet',
      version,
      PARQUET_TABLES.map((t) => path.join(dir, `${t}.parquet`)),
    );
  };
}

/**
 * The Parquet tables and their sidecar as files in `dir` (made if missing): the tables as stored, or built and
 * then stored (parquetTablesIn; docs/export.md#stored-parquet-tables). The sidecar is written afresh each time.
 */
export async function writeRunParquet(s: ExportSession, dir: string): Promise<string[]> {
  const store = await parquetTablesIn(s, dir);
  await store?.();
  await writeFile(path.join(dir, 'run.json'), parquetSidecarOf(s.loaded, await s.table1()));
  return PARQUET_FILES.map((f) => path.join(dir, f));
}

/**
 * A large completed run's Parquet tables stored (built in a folder of their own, then removed) unless they are
 * stored under its current version already: what a worker does as the run completes (lib/runs/warm.ts). Returns
 * whether they are stored now (false: the run is small, not completed, or gone).
 */
export async function storeRunParquet(runId: string, opts: { minTrials?: number } = {}): Promise<boolean> {
  const loaded = await loadRunIfThere(runId);
  if (!loaded) return false;
  const version = await parquetStoreVersion(loaded.run, opts.minTrials);
  if (!version) return false;
  if ((await storedExportVersion(runId, 'parquet')) === version) return true;
  const dir = await mkdtemp(path.join(tmpdir(), 'tclab-parquet-'));
  try {
    await writeRunParquet(new ExportSession(loaded, 'case', undefined, opts), dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return (await storedExportVersion(runId, 'parquet')) === version;
}

/** Every trial of a loaded run as TCC files in `dir`. */
export const writeRunTcc = writeRunTccOf;
