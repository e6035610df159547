// OTLP JSON, as the OpenTelemetry collector's file exporter writes it: one export request a line
// (`{"resourceSpans":[…]}` or `{"resourceLogs":[…]}`). Read line by line; each span goes to the format's
// mapper (genai.ts, openinference.ts, openllmetry.ts). What belongs to one model call but arrives apart —
// event records of the older GenAI conventions, execute_tool / TOOL spans with a call's result — is joined
// in a bounded window: at most WINDOW calls wait, the oldest is let go first (docs/traces.md).
import type { CandidateCall, ImportItem, TraceCandidate, TraceFormat } from '../schema/trace-candidate';
import { arr, isObj, judge, str, type Line, type Obj } from './common';

/** AnyValue of OTLP JSON → a plain value. */
export function anyValue(v: unknown): unknown {
  if (!isObj(v)) return null;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) return typeof v.intValue === 'string' ? Number(v.intValue) : v.intValue;
  if ('doubleValue' in v) return v.doubleValue;
  if ('arrayValue' in v) return arr(isObj(v.arrayValue) ? v.arrayValue.values : []).map(anyValue);
  if ('kvlistValue' in v) return attributesOf(isObj(v.kvlistValue) ? arr(v.kvlistValue.values) : []);
  if ('bytesValue' in v) return v.bytesValue;
  return null;
}

export function attributesOf(list: unknown[]): Obj {
  const out: Obj = {};
  for (const kv of list) if (isObj(kv) && typeof kv.key === 'string') out[kv.key] = anyValue(kv.value);
  return out;
}

/** Dotted attributes under a prefix as a tree: `p.0.message.role` → `[ {message: {role}} ]`. */
export function unflatten(attrs: Obj, prefix: string): unknown {
  const root: Obj = {};
  const p = prefix + '.';
  for (const [key, value] of Object.entries(attrs)) {
    if (!key.startsWith(p)) continue;
    const path = key.slice(p.length).split('.');
    let node: Obj = root;
    for (let i = 0; i < path.length - 1; i++) {
      const next = node[path[i]];
      node = (isObj(next) ? next : (node[path[i]] = {})) as Obj;
    }
    node[path[path.length - 1]] = value;
  }
  return toArrays(root);
}

function toArrays(v: unknown): unknown {
  if (!isObj(v)) return v;
  const keys = Object.keys(v);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k)))
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => toArrays(v[String(k)]));
  const out: Obj = {};
  for (const k of keys) out[k] = toArrays(v[k]);
  return out;
}

export interface SpanView {
  traceId: string | null;
  spanId: string | null;
  name: string;
  attrs: Obj;
  /** Status code 2 (ERROR) and its message. */
  error: string | null;
  line: number;
}

export interface LogEvent {
  name: string;
  attrs: Obj;
  body: unknown;
}

type Partial = Omit<TraceCandidate, 'provenance' | 'catalogCompleteness'>;

export type SpanReading =
  | { kind: 'call'; call: Partial; /** the conversation arrives as event records */ fromEvents?: boolean }
  | { kind: 'result'; callId: string | null; name: string | null; result: unknown }
  | { kind: 'other' };

export interface OtlpDialect {
  format: TraceFormat;
  readSpan(span: SpanView): SpanReading;
  /** Older GenAI conventions: the conversation and the choice as event records of the span. */
  applyEvents?(call: Partial, events: LogEvent[]): Partial;
}

const WINDOW = 1000;

interface Waiting {
  call: Partial;
  span: SpanView;
  events: LogEvent[];
  fromEvents: boolean;
}

const statusError = (s: unknown): string | null => {
  if (!isObj(s)) return null;
  const code = s.code;
  return code === 2 || code === 'STATUS_CODE_ERROR' ? (str(s.message) ?? 'status ERROR') : null;
};

export async function* readOtlp(lines: AsyncIterable<Line>, file: string, dialect: OtlpDialect): AsyncGenerator<ImportItem> {
  const waiting = new Map<string, Waiting>();
  const earlyEvents = new Map<string, LogEvent[]>();
  const byCallId = new Map<string, string>();
  let anon = 0;

  const finish = (key: string): ImportItem => {
    const w = waiting.get(key)!;
    waiting.delete(key);
    for (const c of w.call.observed.calls) if (c.id) byCallId.delete(c.id);
    const where = `span ${w.span.spanId ?? w.span.name} (line ${w.span.line})`;
    const call = w.fromEvents && dialect.applyEvents ? dialect.applyEvents(w.call, w.events) : w.call;
    if (w.span.error !== null && call.observed.calls.length === 0 && call.observed.text === null)
      return { kind: 'refused', reason: 'aborted', where, detail: `the call ended in an error: ${w.span.error}` };
    return judge(
      {
        ...call,
        catalogCompleteness: 'missing',
        provenance: { format: dialect.format, file, line: w.span.line, traceId: w.span.traceId, spanId: w.span.spanId },
      },
      where,
    );
  };

  for await (const { text, line } of lines) {
    if (text.trim() === '') continue;
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      yield { kind: 'refused', reason: 'unparseable', where: `line ${line}`, detail: `not JSON: ${(e as Error).message}` };
      continue;
    }
    if (!isObj(doc) || (!Array.isArray(doc.resourceSpans) && !Array.isArray(doc.resourceLogs))) {
      yield { kind: 'refused', reason: 'unparseable', where: `line ${line}`, detail: 'expected an OTLP export request ("resourceSpans" or "resourceLogs")' };
      continue;
    }
    for (const rl of arr(doc.resourceLogs))
      for (const sl of arr(isObj(rl) ? rl.scopeLogs : []))
        for (const rec of arr(isObj(sl) ? sl.logRecords : [])) {
          if (!isObj(rec)) continue;
          const attrs = attributesOf(arr(rec.attributes));
          const name = str(rec.eventName) ?? str(attrs['event.name']);
          const spanId = str(rec.spanId);
          if (!name || !spanId) continue;
          const ev: LogEvent = { name, attrs, body: anyValue(rec.body) };
          const w = waiting.get(spanId);
          if (w) w.events.push(ev);
          else {
            const list = earlyEvents.get(spanId) ?? [];
            list.push(ev);
            earlyEvents.set(spanId, list);
            if (earlyEvents.size > WINDOW * 4) earlyEvents.delete(earlyEvents.keys().next().value!);
          }
        }
    for (const rs of arr(doc.resourceSpans))
      for (const ss of arr(isObj(rs) ? rs.scopeSpans : []))
        for (const s of arr(isObj(ss) ? ss.spans : [])) {
          if (!isObj(s)) continue;
          const span: SpanView = {
            traceId: str(s.traceId),
            spanId: str(s.spanId),
            name: str(s.name) ?? '',
            attrs: attributesOf(arr(s.attributes)),
            error: statusError(s.status),
            line,
          };
          const where = `span ${span.spanId ?? span.name} (line ${line})`;
          let reading: SpanReading;
          try {
            reading = dialect.readSpan(span);
          } catch (e) {
            yield { kind: 'refused', reason: 'unparseable', where, detail: (e as Error).message };
            continue;
          }
          if (reading.kind === 'other') {
            yield { kind: 'skipped', reason: 'not-a-model-call', where };
            continue;
          }
          if (reading.kind === 'result') {
            const key = reading.callId ? byCallId.get(reading.callId) : undefined;
            if (key) waiting.get(key)?.call.results.push({ callId: reading.callId, name: reading.name, result: reading.result });
            yield { kind: 'skipped', reason: 'not-a-model-call', where };
            continue;
          }
          const key = span.spanId ?? `anon-${++anon}`;
          const events = earlyEvents.get(key) ?? [];
          earlyEvents.delete(key);
          waiting.set(key, { call: reading.call, span, events, fromEvents: reading.fromEvents === true });
          for (const c of reading.call.observed.calls) if (c.id) byCallId.set(c.id, key);
          while (waiting.size > WINDOW) yield finish(waiting.keys().next().value!);
        }
  }
  for (const key of [...waiting.keys()]) yield finish(key);
}

/** Calls of the conventions' message parts (`{type:"tool_call", id, name, arguments}`). */
export function partCalls(parts: unknown[], make: (id: unknown, name: unknown, args: unknown) => CandidateCall | null): CandidateCall[] {
  const out: CandidateCall[] = [];
  for (const p of parts) {
    if (!isObj(p) || p.type !== 'tool_call') continue;
    const c = make(p.id, p.name, p.arguments);
    if (c) out.push(c);
  }
  return out;
}
