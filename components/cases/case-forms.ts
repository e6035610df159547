import { TRACE_FORMATS, type TraceFormat } from '@/lib/schema/trace-candidate';
import type { FieldIssue } from '@/lib/experiments/import';

// The Import traces form and the review form, read into what the use cases take (lib/cases); each problem
// names its field.

type Parsed<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

/** The largest file the form sends (a server action's body limit, next.config.ts); larger files: `tclab cases import`. */
export const TRACE_UPLOAD_LIMIT = 24 * 1024 * 1024 - 64 * 1024;

export interface TraceImportForm {
  format: TraceFormat;
  file: File;
  experimentId: string | null;
  sample?: number;
  redact: string[];
}

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' ? v.trim() : '';
};

export function traceImportFromForm(form: FormData): Parsed<TraceImportForm> {
  const issues: FieldIssue[] = [];
  const format = text(form, 'format');
  if (!(TRACE_FORMATS as readonly string[]).includes(format)) issues.push({ path: 'format', message: `expected one of ${TRACE_FORMATS.join(', ')}` });
  const file = form.get('file');
  if (!(file instanceof File) || file.size === 0) issues.push({ path: 'file', message: 'choose a trace or log file (it is empty or missing)' });
  else if (file.size > TRACE_UPLOAD_LIMIT)
    issues.push({ path: 'file', message: `${file.size.toLocaleString('en-US')} bytes: larger files are imported with tclab cases import` });
  const sampleText = text(form, 'sample');
  const sample = sampleText === '' ? undefined : Number(sampleText);
  if (sample !== undefined && !(Number.isInteger(sample) && sample >= 1)) issues.push({ path: 'sample', message: `a whole number of at least 1 (got "${sampleText}")` });
  const redact = text(form, 'redact')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: { format: format as TraceFormat, file: file as File, experimentId: text(form, 'experimentId') || null, sample, redact } };
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
