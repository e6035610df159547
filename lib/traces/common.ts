// What every trace importer shares: reading lines at bounded memory, the tool shapes of the three
// vendors and the conventions, arguments as received, the catalog's completeness (docs/traces.md).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { CandidateCall, CandidateMessage, CandidateTool, CatalogCompleteness, ImportItem, TraceCandidate } from '../schema/trace-candidate';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const num = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  return null;
};
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A line as the reader gives it: its text and its 1-based number in the file. */
export interface Line {
  text: string;
  line: number;
}

/** Lines of a file, one at a time (readline over a stream: memory holds one line, not the file). */
export async function* fileLines(path: string): AsyncGenerator<Line> {
  const rl = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let n = 0;
  for await (const text of rl) yield { text, line: ++n };
}

/** Lines of text chunks (an upload's stream), split as they arrive. */
export async function* chunkLines(chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>): AsyncGenerator<Line> {
  const decoder = new TextDecoder();
  let rest = '';
  let n = 0;
  for await (const chunk of chunks) {
    rest += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let at = rest.indexOf('\n');
    while (at >= 0) {
      yield { text: rest.slice(0, at).replace(/\r$/, ''), line: ++n };
      rest = rest.slice(at + 1);
      at = rest.indexOf('\n');
    }
  }
  rest += decoder.decode();
  if (rest.length > 0) yield { text: rest.replace(/\r$/, ''), line: ++n };
}

/** Arguments as the model sent them: JSON text is parsed, anything else is kept as the text it was. */
export function parseArguments(v: unknown): unknown {
  if (typeof v !== 'string') return v ?? {};
  if (v.trim() === '') return {};
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** A JSON attribute's value (the conventions store structured values as JSON strings); null when it is not JSON. */
export function parseJsonText(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return null;
  }
}

/**
 * One tool definition in any of the shapes traces hold: OpenAI `{type:"function", function:{…}}`, the
 * conventions' flat `{type, name, description, parameters}`, Anthropic `{name, description, input_schema}`,
 * Gemini `functionDeclarations` entries (`parameters` or `parametersJsonSchema`).
 */
export function toolOf(v: unknown): CandidateTool | null {
  if (!isObj(v)) return null;
  const f = isObj(v.function) ? v.function : v;
  const name = str(f.name);
  if (!name) return null;
  const parameters = f.parameters ?? f.input_schema ?? f.parametersJsonSchema ?? f.inputSchema ?? null;
  return { name, description: str(f.description), parameters: parameters ?? null };
}

export function toolsOf(list: unknown[]): CandidateTool[] {
  const out: CandidateTool[] = [];
  for (const t of list) {
    if (isObj(t) && Array.isArray(t.functionDeclarations)) {
      for (const d of t.functionDeclarations) {
        const tool = toolOf(d);
        if (tool) out.push(tool);
      }
      continue;
    }
    const tool = toolOf(t);
    if (tool) out.push(tool);
  }
  return out;
}

export function completenessOf(tools: CandidateTool[]): CatalogCompleteness {
  if (tools.length === 0) return 'missing';
  return tools.every((t) => t.parameters !== null) ? 'full' : 'names-only';
}

/** Finish reasons that mean the answer was cut off, across the vendors and the conventions. */
const TRUNCATED = new Set(['length', 'max_tokens', 'MAX_TOKENS', 'model_context_window_exceeded']);
export const isTruncated = (finishReason: string | null): boolean => finishReason !== null && TRUNCATED.has(finishReason);

export const hasUserTurn = (conversation: CandidateMessage[]): boolean => conversation.some((m) => m.role === 'user' && m.text !== null && m.text.trim() !== '');

/**
 * The checks every importer makes once it has read a model call: it offered tools (or the model called one),
 * it has a user turn, it was not cut off. A call with calls but no catalog is a candidate with `missing`.
 */
export function judge(candidate: TraceCandidate, where: string): ImportItem {
  const c = candidate;
  if (c.tools.length === 0 && c.observed.calls.length === 0) return { kind: 'skipped', reason: 'no-tools-offered', where };
  if (isTruncated(c.observed.finishReason))
    return { kind: 'refused', reason: 'truncated', where, detail: `finish reason ${c.observed.finishReason}: the answer was cut off` };
  if (!hasUserTurn(c.conversation)) return { kind: 'refused', reason: 'no-user-turn', where, detail: 'the conversation has no user text' };
  return { kind: 'candidate', candidate: { ...c, catalogCompleteness: completenessOf(c.tools) } };
}

export const call = (id: unknown, name: unknown, args: unknown): CandidateCall | null => {
  const n = str(name);
  return n ? { id: str(id), name: n, arguments: parseArguments(args) } : null;
};

export const nonNull = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

/** Text of a content that is a string or a list of text parts (`{type:"text", text}`). */
export function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const texts = content.map((p) => (isObj(p) && (p.type === 'text' || p.type === undefined) ? str(p.text) : null)).filter(nonNull);
    return texts.length > 0 ? texts.join('') : null;
  }
  return null;
}
