import { TRACE_FORMATS, type TraceFormat } from '@/lib/schema/trace-candidate';
import type { FieldIssue } from '@/lib/experiments/import';

// The Import traces form and the review form, read into what the use cases take (lib/cases); each problem
// names its field.

type Parsed<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

/**
 * The largest file the Traces page imports (1 GiB: its body is spooled to disk and read line by line, app/api/trace-imports);
 * larger ones with `tclab cases import`.
 */
export const TRACE_UPLOAD_LIMIT = 2 ** 30;

/** What an import is asked for besides the file's content: its format, the file's name and the options. */
export interface TraceImportOptions {
  format: TraceFormat;
  file: string;
  experimentId: string | null;
  sample?: number;
  redact: string[];
}

/** The Traces form's fields as the import route's query (the file itself goes as the request's body). */
export function traceImportQuery(form: FormData, fileName: string): URLSearchParams {
  const q = new URLSearchParams();
  q.set('format', String(form.get('format') ?? ''));
  q.set('file', fileName);
  for (const k of ['experimentId', 'sample'] as const) {
    const v = form.get(k);
    if (typeof v === 'string' && v.trim()) q.set(k, v.trim());
  }
  const redact = form.get('redact');
  if (typeof redact === 'string') for (const line of redact.split('\n')) if (line.trim()) q.append('redact', line.trim());
  return q;
}

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' ? v.trim() : '';
};

/**
 * The Traces form's options as the import route reads them from its query (the file is the request's body):
 * `format`, `file` (its name), `experimentId`, `sample`, `redact` once per pattern; `length` the body's
 * Content-Length as sent.
 */
export function traceImportFromQuery(q: URLSearchParams, length: string | null): Parsed<TraceImportOptions> {
  const issues: FieldIssue[] = [];
  const format = (q.get('format') ?? '').trim();
  if (!(TRACE_FORMATS as readonly string[]).includes(format)) issues.push({ path: 'format', message: `expected one of ${TRACE_FORMATS.join(', ')}` });
  const file = (q.get('file') ?? '').trim();
  const bytes = length === null ? null : Number(length);
  if (!file || bytes === 0) issues.push({ path: 'file', message: 'choose a trace or log file (it is empty or missing)' });
  else if (bytes !== null && bytes > TRACE_UPLOAD_LIMIT)
    issues.push({ path: 'file', message: `${bytes.toLocaleString('en-US')} bytes: files over ${TRACE_UPLOAD_LIMIT / 2 ** 30} GiB are imported with tclab cases import` });
  const sampleText = (q.get('sample') ?? '').trim();
  const sample = sampleText === '' ? undefined : Number(sampleText);
  if (sample !== undefined && !(Number.isInteger(sample) && sample >= 1)) issues.push({ path: 'sample', message: `a whole number of at least 1 (got "${sampleText}")` });
  const redact = q
    .getAll('redact')
    .map((l) => l.trim())
    .filter(Boolean);
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: { format: format as TraceFormat, file, experimentId: (q.get('experimentId') ?? '').trim() || null, sample, redact } };
}

export type ReviewDecision =
  | { accept: { decision: 'call'; tool: string; effect: 'read' | 'write'; arguments: Record<string, unknown> } }
  | { accept: { decision: 'clarify' } }
  | { accept: { decision: 'stop' } }
  | { reject: string };

export function reviewFromForm(form: FormData): Parsed<ReviewDecision> {
  const decision = text(form, 'decision');
  if (decision === 'clarify') return { ok: true, value: { accept: { decision: 'clarify' } } };
  if (decision === 'stop') return { ok: true, value: { accept: { decision: 'stop' } } };
  if (decision === 'reject') {
    const reason = text(form, 'reason');
    return reason ? { ok: true, value: { reject: reason } } : { ok: false, issues: [{ path: 'reason', message: 'a rejection needs a reason' }] };
  }
  if (decision !== 'call') return { ok: false, issues: [{ path: 'decision', message: 'choose a call, CLARIFY, STOP or reject' }] };
  const issues: FieldIssue[] = [];
  const tool = text(form, 'tool');
  if (!tool) issues.push({ path: 'tool', message: 'choose the tool that should be called' });
  const effect = text(form, 'effect');
  if (effect !== 'read' && effect !== 'write') issues.push({ path: 'effect', message: 'read or write' });
  const argsText = text(form, 'arguments') || '{}';
  let args: unknown;
  try {
    args = JSON.parse(argsText);
  } catch (e) {
    issues.push({ path: 'arguments', message: `not JSON: ${(e as Error).message}` });
  }
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
    issues.push({ path: 'arguments', message: 'a JSON object of the arguments' });
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: { accept: { decision: 'call', tool, effect: effect as 'read' | 'write', arguments: args as Record<string, unknown> } } };
}
