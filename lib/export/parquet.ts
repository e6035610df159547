import { once } from 'node:events';
import { Readable, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ByteWriter, ParquetWriter, schemaFromColumnData } from 'hyparquet-writer';
import type { ExportAttempt, TrialExportRow } from '../schema/run-export';
import type { Choice } from '../analysis/choices';
import { orderNumber } from '../schema/trial-place';
import { failureCategories } from './csv';

// Parquet tables of a run for notebooks (pandas, polars, DuckDB): docs/export.md#parquet. Rows are pulled from
// an async source and written a row group at a time, so memory holds one row group, never the table.

/** A column's Parquet type: strings are UTF-8, timestamps milliseconds since the epoch (UTC). */
export type ParquetType = 'STRING' | 'INT32' | 'BOOLEAN' | 'DOUBLE' | 'TIMESTAMP';
type Value = string | number | boolean | Date | null | undefined;

export interface ParquetColumn<R> {
  name: string;
  type: ParquetType;
  value: (row: R) => Value;
}

/** Rows per row group: about a megabyte or two of a trials table. */
export const PARQUET_ROW_GROUP = 10_000;
/**
 * Rows per row group when the tables fill at once from one pass (writeTrialTables): their groups are held
 * together, so each is half as long (the server's peak over the exports of 100,000 trials: 260 MB with 10,000).
 */
export const PARQUET_ROW_GROUP_SHARED = 5_000;

/** A ByteWriter whose bytes are taken out after each row group (`flush`), keeping `offset` (the file position). */
class ChunkWriter extends ByteWriter {
  readonly chunks: Buffer[] = [];
  flush(): void {
    if (this.index === 0) return;
    this.chunks.push(Buffer.from(this.buffer.slice(0, this.index)));
    this.index = 0;
  }
  take(): Buffer[] {
    this.flush();
    return this.chunks.splice(0);
  }
}

function cell(type: ParquetType, v: Value): Value {
  if (v === undefined || v === null) return null;
  // milliseconds, as the writer stores them: no Date made per value (the writer's statistics of a Date make an array each)
  if (type === 'TIMESTAMP') return v instanceof Date ? v.getTime() : Date.parse(String(v));
  if (type === 'INT32' || type === 'DOUBLE') return typeof v === 'number' ? v : Number(v);
  if (type === 'BOOLEAN') return Boolean(v);
  return typeof v === 'string' ? v : String(v);
}

/**
 * One Parquet file written a row at a time: `add` returns the bytes of a row group when one is complete (every
 * `rowGroupSize` rows), `end` the rest and the footer. Every column nullable and typed as `columns` says; no row
 * added gives a valid file of no rows. Memory holds one row group.
 */
export class ParquetSink<R> {
  private readonly writer = new ChunkWriter(64 * 1024);
  private readonly pq: ParquetWriter;
  private group: Value[][];
  private size = 0;

  constructor(
    private readonly columns: readonly ParquetColumn<R>[],
    private readonly rowGroupSize = PARQUET_ROW_GROUP,
  ) {
    const schema = schemaFromColumnData({ columnData: columns.map((c) => ({ name: c.name, data: [], type: c.type, nullable: true })) });
    this.pq = new ParquetWriter({ writer: this.writer, schema, createdBy: 'tool-contract-lab' });
    this.group = columns.map(() => []);
  }

  add(row: R): Buffer[] {
    this.columns.forEach((c, i) => this.group[i].push(cell(c.type, c.value(row))));
    if (++this.size < this.rowGroupSize) return [];
    this.writeGroup();
    return this.writer.take();
  }

  end(): Buffer[] {
    if (this.size > 0) this.writeGroup();
    this.pq.finish();
    return this.writer.take();
  }

  private writeGroup(): void {
    // min/max statistics for the numbers and times only: a string's (its first 16 bytes) cost about a tenth of the
    // writer's time, and no reader needs them to read the file (docs/benchmarks.md, "Results at scale", session 23)
    const columnData = this.columns.map((c, i) => ({ name: c.name, data: this.group[i], statistics: c.type !== 'STRING' }));
    this.pq.write({ columnData, rowGroupSize: this.size });
    this.group = this.columns.map(() => []);
    this.size = 0;
  }
}

/** One Parquet file of `rows`, streamed a row group at a time (ParquetSink). */
export function parquetStream<R>(rows: AsyncIterable<R> | Iterable<R>, columns: readonly ParquetColumn<R>[], rowGroupSize = PARQUET_ROW_GROUP): Readable {
  async function* bytes(): AsyncGenerator<Buffer> {
    const sink = new ParquetSink(columns, rowGroupSize);
    for await (const row of rows) yield* sink.add(row);
    yield* sink.end();
  }
  return Readable.from(bytes(), { objectMode: false });
}

/**
 * `trials.parquet`, `attempts.parquet`, `checks.parquet` and `choices.parquet` from one pass over the trials: each
 * trial is read once and its rows go to the four files as they come (waiting whenever an output asks to:
 * backpressure).
 * The outputs are ended when done.
 */
export async function writeTrialTables(
  trials: AsyncIterable<{ trial: T; choice: Choice }>,
  out: { trials: Writable; attempts: Writable; checks: Writable; choices: Writable },
): Promise<void> {
  const sinks = {
    trials: new ParquetSink(TRIAL_PARQUET_COLUMNS, PARQUET_ROW_GROUP_SHARED),
    attempts: new ParquetSink(ATTEMPT_PARQUET_COLUMNS, PARQUET_ROW_GROUP_SHARED),
    checks: new ParquetSink(CHECK_PARQUET_COLUMNS, PARQUET_ROW_GROUP_SHARED),
    choices: new ParquetSink(CHOICE_PARQUET_COLUMNS, PARQUET_ROW_GROUP_SHARED),
  };
  const put = async (w: Writable, chunks: Buffer[]) => {
    for (const c of chunks) if (!w.write(c)) await once(w, 'drain');
  };
  for await (const { trial, choice } of trials) {
    await put(out.trials, sinks.trials.add(trial));
    for (const attempt of trial.attempts) await put(out.attempts, sinks.attempts.add({ trial, attempt }));
    for (const verdict of trial.verdicts) await put(out.checks, sinks.checks.add({ trial, verdict }));
    await put(out.choices, sinks.choices.add(choice));
  }
  for (const k of ['trials', 'attempts', 'checks', 'choices'] as const) {
    await put(out[k], sinks[k].end());
    out[k].end();
    await finished(out[k]);
  }
}

const json = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));
const sum = (xs: readonly ExportAttempt[], f: (a: ExportAttempt) => number | null | undefined): number | null =>
  xs.some((a) => f(a) != null) ? xs.reduce((s, a) => s + (f(a) ?? 0), 0) : null;

function lastAttempt(attempts: readonly ExportAttempt[]): ExportAttempt | undefined {
  let last: ExportAttempt | undefined;
  for (const a of attempts) if (!last || a.n >= last.n) last = a;
  return last;
}

type T = TrialExportRow;
/** `trials.parquet`: one row per trial — the trials CSV's columns, typed, with the tokens summed over its attempts. */
export const TRIAL_PARQUET_COLUMNS: readonly ParquetColumn<T>[] = [
  { name: 'id', type: 'STRING', value: (t) => t.id },
  { name: 'study', type: 'STRING', value: (t) => t.study },
  { name: 'kind', type: 'STRING', value: (t) => t.kind },
  { name: 'scenario', type: 'STRING', value: (t) => t.scenario },
  { name: 'locale', type: 'STRING', value: (t) => t.locale },
  { name: 'caseId', type: 'STRING', value: (t) => t.caseId },
  { name: 'condition', type: 'STRING', value: (t) => t.condition },
  { name: 'order', type: 'STRING', value: (t) => t.order.join(' > ') },
  { name: 'orderNumber', type: 'INT32', value: (t) => t.orderNumber },
  { name: 'replicate', type: 'INT32', value: (t) => t.replicate },
  { name: 'pairKey', type: 'STRING', value: (t) => t.pairKey },
  { name: 'status', type: 'STRING', value: (t) => t.status },
  { name: 'toolSetRef', type: 'STRING', value: (t) => t.toolSetRef },
  { name: 'catalogSize', type: 'INT32', value: (t) => t.catalogSize },
  { name: 'discovery', type: 'STRING', value: (t) => t.discovery },
  { name: 'visible', type: 'STRING', value: (t) => json(t.visible) },
  { name: 'attempts', type: 'INT32', value: (t) => t.attempts.length },
  { name: 'lastOutcome', type: 'STRING', value: (t) => lastAttempt(t.attempts)?.outcome },
  { name: 'lastErrorKind', type: 'STRING', value: (t) => lastAttempt(t.attempts)?.errorKind },
  { name: 'httpStatus', type: 'INT32', value: (t) => lastAttempt(t.attempts)?.httpStatus },
  { name: 'latencyMs', type: 'INT32', value: (t) => lastAttempt(t.attempts)?.latencyMs },
  { name: 'inputTokens', type: 'INT32', value: (t) => sum(t.attempts, (a) => a.inputTokens) },
  { name: 'outputTokens', type: 'INT32', value: (t) => sum(t.attempts, (a) => a.outputTokens) },
  {
    name: 'toolCalls',
    type: 'STRING',
    value: (t) => (t.observation ? JSON.stringify(t.observation.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments }))) : null),
  },
  { name: 'marker', type: 'STRING', value: (t) => t.observation?.marker },
  { name: 'label', type: 'STRING', value: (t) => t.observation?.label },
  { name: 'text', type: 'STRING', value: (t) => t.observation?.text },
  { name: 'passed', type: 'BOOLEAN', value: (t) => (t.verdicts.length === 0 ? null : t.verdicts.every((v) => v.status === 'pass')) },
  { name: 'verdicts', type: 'STRING', value: (t) => t.verdicts.map((v) => `${v.checkId}=${v.status}${v.category ? `(${v.category})` : ''}`).join('; ') },
  { name: 'categories', type: 'STRING', value: (t) => failureCategories(t).join(';') },
  { name: 'checkpoints', type: 'STRING', value: (t) => json(t.checkpoints) },
];

type A = { trial: T; attempt: ExportAttempt };
/** `attempts.parquet`: one row per HTTP exchange of a trial (the raw bodies stay in the JSON export and archives). */
export const ATTEMPT_PARQUET_COLUMNS: readonly ParquetColumn<A>[] = [
  { name: 'trialId', type: 'STRING', value: (r) => r.trial.id },
  { name: 'study', type: 'STRING', value: (r) => r.trial.study },
  { name: 'caseId', type: 'STRING', value: (r) => r.trial.caseId },
  { name: 'condition', type: 'STRING', value: (r) => r.trial.condition },
  { name: 'n', type: 'INT32', value: (r) => r.attempt.n },
  { name: 'outcome', type: 'STRING', value: (r) => r.attempt.outcome },
  { name: 'errorKind', type: 'STRING', value: (r) => r.attempt.errorKind },
  { name: 'httpStatus', type: 'INT32', value: (r) => r.attempt.httpStatus },
  { name: 'latencyMs', type: 'INT32', value: (r) => r.attempt.latencyMs },
  { name: 'retryAfterMs', type: 'INT32', value: (r) => r.attempt.retryAfterMs },
  { name: 'inputTokens', type: 'INT32', value: (r) => r.attempt.inputTokens },
  { name: 'outputTokens', type: 'INT32', value: (r) => r.attempt.outputTokens },
  { name: 'errorMessage', type: 'STRING', value: (r) => r.attempt.errorMessage },
  { name: 'startedAt', type: 'TIMESTAMP', value: (r) => r.attempt.startedAt },
  { name: 'finishedAt', type: 'TIMESTAMP', value: (r) => r.attempt.finishedAt },
];

type K = { trial: T; verdict: T['verdicts'][number] };
/** `checks.parquet`: one row per check (verdict), the reviewer's reading beside it — the checks CSV's columns. */
export const CHECK_PARQUET_COLUMNS: readonly ParquetColumn<K>[] = [
  { name: 'trialId', type: 'STRING', value: (r) => r.trial.id },
  { name: 'study', type: 'STRING', value: (r) => r.trial.study },
  { name: 'scenario', type: 'STRING', value: (r) => r.trial.scenario },
  { name: 'locale', type: 'STRING', value: (r) => r.trial.locale },
  { name: 'caseId', type: 'STRING', value: (r) => r.trial.caseId },
  { name: 'condition', type: 'STRING', value: (r) => r.trial.condition },
  { name: 'checkId', type: 'STRING', value: (r) => r.verdict.checkId },
  { name: 'axis', type: 'STRING', value: (r) => r.verdict.axis },
  { name: 'checkpoint', type: 'STRING', value: (r) => r.verdict.checkpoint },
  { name: 'status', type: 'STRING', value: (r) => r.verdict.status },
  { name: 'category', type: 'STRING', value: (r) => r.verdict.category },
  { name: 'reason', type: 'STRING', value: (r) => r.verdict.reason },
  { name: 'reviewStatus', type: 'STRING', value: (r) => r.verdict.review?.humanStatus },
  { name: 'reviewer', type: 'STRING', value: (r) => r.verdict.review?.reviewer },
  { name: 'reviewNote', type: 'STRING', value: (r) => r.verdict.review?.note },
];

/** `choices.parquet`: one row per trial, what the model did — the choices CSV's columns. */
export const CHOICE_PARQUET_COLUMNS: readonly ParquetColumn<Choice>[] = [
  { name: 'trialId', type: 'STRING', value: (c) => c.trialId },
  { name: 'study', type: 'STRING', value: (c) => c.study },
  { name: 'scenario', type: 'STRING', value: (c) => c.scenario },
  { name: 'locale', type: 'STRING', value: (c) => c.locale },
  { name: 'caseId', type: 'STRING', value: (c) => c.caseId },
  { name: 'condition', type: 'STRING', value: (c) => c.condition },
  { name: 'orderNumber', type: 'INT32', value: (c) => orderNumber(c.orderIndex) },
  { name: 'replicate', type: 'INT32', value: (c) => c.replicate },
  { name: 'status', type: 'STRING', value: (c) => c.status },
  { name: 'expected', type: 'STRING', value: (c) => c.expected },
  { name: 'expectedToolId', type: 'STRING', value: (c) => c.expectedToolId },
  { name: 'chosen', type: 'STRING', value: (c) => c.chosen },
  { name: 'position', type: 'INT32', value: (c) => c.position },
  { name: 'toolsSent', type: 'INT32', value: (c) => c.toolsSent },
];

export async function* attemptRowsOf(trials: AsyncIterable<T>): AsyncGenerator<A> {
  for await (const trial of trials) for (const attempt of trial.attempts) yield { trial, attempt };
}

export async function* checkRowsOf(trials: AsyncIterable<T>): AsyncGenerator<K> {
  for await (const trial of trials) for (const verdict of trial.verdicts) yield { trial, verdict };
}
