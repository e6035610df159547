// Request/response logs, one exchange a line: `{"request": <the body sent>, "response": <the body received>}`
// (optional `"model"` where the wire puts it in the path, as Gemini does; `"error"` when the call failed).
// The vendor modules map a request and its response to the candidate record (docs/traces.md).
import type { ImportItem, TraceCandidate, TraceFormat } from '../schema/trace-candidate';
import { isObj, judge, str, type Line, type Obj } from './common';

export type ExchangeMapper = (request: Obj, response: Obj, line: Obj) => Omit<TraceCandidate, 'provenance' | 'catalogCompleteness' | 'results'>;

export async function* readExchangeLog(lines: AsyncIterable<Line>, file: string, format: TraceFormat, map: ExchangeMapper): AsyncGenerator<ImportItem> {
  for await (const { text, line } of lines) {
    if (text.trim() === '') continue;
    const where = `line ${line}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      yield { kind: 'refused', reason: 'unparseable', where, detail: `not JSON: ${(e as Error).message}` };
      continue;
    }
    if (!isObj(parsed) || !isObj(parsed.request)) {
      yield { kind: 'refused', reason: 'unparseable', where, detail: 'expected an object with a "request" body' };
      continue;
    }
    if (parsed.error !== undefined && parsed.error !== null) {
      yield { kind: 'refused', reason: 'aborted', where, detail: `the call failed: ${str(parsed.error) ?? JSON.stringify(parsed.error).slice(0, 200)}` };
      continue;
    }
    if (!isObj(parsed.response)) {
      yield { kind: 'refused', reason: 'aborted', where, detail: 'no response was logged: the call did not finish' };
      continue;
    }
    let mapped: ReturnType<ExchangeMapper>;
    try {
      mapped = map(parsed.request, parsed.response, parsed);
    } catch (e) {
      yield { kind: 'refused', reason: 'unparseable', where, detail: (e as Error).message };
      continue;
    }
    yield judge(
      {
        ...mapped,
        catalogCompleteness: 'missing',
        results: [],
        provenance: { format, file, line, traceId: str(parsed.trace_id), spanId: str(parsed.span_id) },
      },
      where,
    );
  }
}
