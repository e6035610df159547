import { describe, expect, it } from 'vitest';
import { TRACE_UPLOAD_LIMIT, traceImportFromQuery, traceImportQuery } from './case-forms';

// The Traces form's options on their way to the import route: the form's fields as a query, read back with each
// problem named by its field; the file's size from the request's Content-Length.

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

describe('the import route query', () => {
  it('carries the options the form holds, one redact pattern a line, and reads them back', () => {
    const q = traceImportQuery(form({ format: 'otlp', experimentId: ' ref-v1 ', sample: '50', redact: 'ACME-\\d+\n\n  ticket #\\d+  \n' }), 'spans.json');
    expect(q.getAll('redact')).toEqual(['ACME-\\d+', 'ticket #\\d+']);
    expect(traceImportFromQuery(q, '1234')).toEqual({
      ok: true,
      value: { format: 'otlp', file: 'spans.json', experimentId: 'ref-v1', sample: 50, redact: ['ACME-\\d+', 'ticket #\\d+'] },
    });
    expect(traceImportFromQuery(traceImportQuery(form({ format: 'openai-log' }), 'a.jsonl'), null)).toEqual({
      ok: true,
      value: { format: 'openai-log', file: 'a.jsonl', experimentId: null, sample: undefined, redact: [] },
    });
  });

  it('names each bad field: format, an empty or too large file, a sample that is not a whole number', () => {
    const bad = traceImportFromQuery(new URLSearchParams({ format: 'csv', file: 'x', sample: '2.5' }), '0');
    expect(bad.ok === false && bad.issues.map((i) => i.path)).toEqual(['format', 'file', 'sample']);
    const big = traceImportFromQuery(new URLSearchParams({ format: 'openai-log', file: 'x' }), String(TRACE_UPLOAD_LIMIT + 1));
    expect(big.ok === false && big.issues).toEqual([{ path: 'file', message: '1,073,741,825 bytes: files over 1 GiB are imported with tclab cases import' }]);
    const nameless = traceImportFromQuery(new URLSearchParams({ format: 'openai-log' }), '10');
    expect(nameless.ok === false && nameless.issues[0].path).toBe('file');
  });
});
