import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import { trialCategories } from '../scoring/categories';
import type { ExportAttempt, TrialExportRow } from '../schema/run-export';
import type { Choice } from '../analysis/choices';
import { orderNumber } from '../schema/trial-place';

export type { TrialExportRow } from '../schema/run-export';

/** Columns of the trials CSV: the JSON export's names, flattened (docs/export.md). */
export const TRIAL_CSV_COLUMNS = [
  'id',
  'study',
  'kind',
  'scenario',
  'locale',
  'caseId',
  'condition',
  'order',
  'replicate',
  'pairKey',
  'status',
  'toolSetRef',
  'attempts',
  'lastOutcome',
  'lastErrorKind',
  'httpStatus',
  'latencyMs',
  'toolCalls',
  'marker',
  'label',
  'text',
  'verdicts',
  'categories',
  'checkpoints',
] as const;

/** Columns of the checks CSV: one row per verdict. */
export const CHECK_CSV_COLUMNS = [
  'trialId',
  'study',
  'scenario',
  'locale',
  'caseId',
  'condition',
  'checkId',
  'axis',
  'checkpoint',
  'status',
  'category',
  'reason',
  'reviewStatus',
  'reviewer',
  'reviewNote',
] as const;

/** Columns of the choices CSV: one row per trial, what the model did (lib/analysis/choices.ts). */
export const CHOICE_CSV_COLUMNS = [
  'trialId',
  'study',
  'scenario',
  'locale',
  'caseId',
  'condition',
  'orderNumber',
  'replicate',
  'status',
  'expected',
  'expectedToolId',
  'chosen',
  'position',
  'toolsSent',
] as const;

export interface CsvOptions {
  /** Prefix a UTF-8 byte-order mark (helps spreadsheet programs read zh-TW text). Default false. */
  bom?: boolean;
}

type Rows<R = TrialExportRow> = AsyncIterable<R> | Iterable<R>;
type Cell = string | number | boolean | null | undefined;

/**
 * One CSV row per trial, streamed: rows are pulled from `rows` as the reader consumes the stream, so a
 * database cursor can feed it. `order` joins the tool names with " > "; `attempts` is the count and
 * lastOutcome/lastErrorKind/httpStatus/latencyMs come from the last attempt; `toolCalls` is JSON;
 * `verdicts` reads `checkId=status(category)` joined by "; "; `categories` the distinct failure
 * categories joined by ";". Every cell is neutralised against formula injection (see `neutralise`).
 */
export function trialsCsv(rows: Rows, options: CsvOptions = {}): Readable {
  return toCsv(rows, TRIAL_CSV_COLUMNS, options, function* (t) {
    const last = lastAttempt(t.attempts);
    const obs = t.observation;
    yield [
      t.id,
      t.study,
      t.kind,
      t.scenario,
      t.locale,
      t.caseId,
      t.condition,
      t.order.join(' > '),
      t.replicate,
      t.pairKey,
      t.status,
      t.toolSetRef,
      t.attempts.length,
      last?.outcome,
      last?.errorKind,
      last?.httpStatus,
      last?.latencyMs,
      obs ? JSON.stringify(obs.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments }))) : null,
      obs?.marker,
      obs?.label,
      obs?.text,
      t.verdicts.map((v) => `${v.checkId}=${v.status}${v.category ? `(${v.category})` : ''}`).join('; '),
      failureCategories(t).join(';'),
      t.checkpoints
        ? Object.entries(t.checkpoints)
            .map(([k, v]) => `${k}=${v}`)
            .join('; ')
        : null,
    ];
  });
}

/** One CSV row per check (verdict) of every trial, streamed like `trialsCsv`; a reviewer's reading, if any, beside it. */
export function checksCsv(rows: Rows, options: CsvOptions = {}): Readable {
  return toCsv(rows, CHECK_CSV_COLUMNS, options, function* (t) {
    for (const v of t.verdicts)
      yield [
        t.id,
        t.study,
        t.scenario,
        t.locale,
        t.caseId,
        t.condition,
        v.checkId,
        v.axis,
        v.checkpoint,
        v.status,
        v.category,
        v.reason,
        v.review?.humanStatus,
        v.review?.reviewer,
        v.review?.note,
      ];
  });
}

/** One CSV row per trial of what the model did, streamed like `trialsCsv`. */
export function choicesCsv(rows: Rows<Choice>, options: CsvOptions = {}): Readable {
  return toCsv(rows, CHOICE_CSV_COLUMNS, options, function* (c) {
    yield [
      c.trialId,
      c.study,
      c.scenario,
      c.locale,
      c.caseId,
      c.condition,
      orderNumber(c.orderIndex),
      c.replicate,
      c.status,
      c.expected,
      c.expectedToolId,
      c.chosen,
      c.position,
      c.toolsSent,
    ];
  });
}

/**
 * OWASP CSV-injection rule: a cell whose first visible character is `=`, `+`, `-` or `@` — also behind any
 * leading whitespace or control characters, which spreadsheet programs skip (` =1`, `\n=1`, `\u0000=1`) —
 * or that starts with a tab or carriage return gets a leading apostrophe, so a spreadsheet shows it as text
 * instead of evaluating it. Model output is untrusted.
 */
export function neutralise(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}
// whitespace (Unicode too, e.g. U+3000, NBSP) and C0/C1 controls before a formula sign; or a leading tab / CR
const FORMULA_START = /^(?:[\s\p{Cc}\p{Cf}]*[=+\-@]|[\t\r])/u;

/** Cells holding a separator, a quote, a CR or an LF are always quoted (a lone CR must not start a row). */
const MUST_QUOTE = /[,"\r\n]/;

/** The distinct failure categories of a trial's verdicts, in verdict order. */
export function failureCategories(t: Pick<TrialExportRow, 'verdicts'>): string[] {
  return trialCategories(t.verdicts);
}

function lastAttempt(attempts: readonly ExportAttempt[]): ExportAttempt | undefined {
  let last: ExportAttempt | undefined;
  for (const a of attempts) if (!last || a.n >= last.n) last = a;
  return last;
}

function cellText(v: Cell): string {
  if (v === null || v === undefined) return '';
  return neutralise(typeof v === 'string' ? v : String(v));
}

function toCsv<R>(rows: Rows<R>, columns: readonly string[], options: CsvOptions, toRecords: (row: R) => Iterable<Cell[]>): Readable {
  // csv-stringify quotes on its own only for the separator, quote and LF, not for a lone CR: quote_match
  // makes every such cell quoted explicitly.
  const out = stringify({ header: true, columns: [...columns], bom: options.bom ?? false, record_delimiter: 'unix', quoted_match: MUST_QUOTE });
  async function* records(): AsyncGenerator<string[]> {
    for await (const row of rows) for (const r of toRecords(row)) yield r.map(cellText);
  }
  // Errors of the source (e.g. a failing cursor) destroy `out`, so the reader sees them; a reader that
  // stops early destroys the source in turn, which closes the underlying iterator.
  pipeline(Readable.from(records()), out, () => {});
  return out;
}
