import { z } from 'zod';
import { canonicalJson, sha256 } from '../hash';
import { checkJsonValue } from '../schema/input';
import type { ToolFact } from '../schema/experiment';

// Tool files as people have them: an MCP `tools/list` result (`{"tools": […]}`, possibly with the
// server's name beside it), a bare JSON array of MCP tools, a single MCP tool, or an OpenAI `tools`
// array (`[{"type": "function", "function": {…}}]`). Each becomes the same list of tools: the raw
// entries exactly as received (what a tool snapshot stores and hashes) and their normalised reading.

/** MCP tool annotations (all optional hints; unset stays unset). */
export const McpAnnotations = z
  .object({
    title: z.string().optional(),
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  })
  .passthrough();
export type McpAnnotations = z.infer<typeof McpAnnotations>;

const JsonSchemaObject = z.record(z.string(), z.unknown());

/** One `tools/list` entry: only what we read is checked; everything else is kept as received. */
export const McpTool = z
  .object({
    name: z.string().min(1, 'a tool needs a name'),
    title: z.string().optional(),
    description: z.string().optional(),
    inputSchema: JsonSchemaObject,
    outputSchema: JsonSchemaObject.optional(),
    annotations: McpAnnotations.optional(),
  })
  .passthrough();
export type McpTool = z.infer<typeof McpTool>;

export const OpenAiTool = z
  .object({
    type: z.literal('function'),
    function: z.object({ name: z.string().min(1), description: z.string().optional(), parameters: JsonSchemaObject.optional() }).passthrough(),
  })
  .passthrough();

export type ToolFileKind = 'mcp-tools-list' | 'mcp-tool-array' | 'mcp-tool' | 'openai-tools';

/** A tool as the designer and the linter read it, whatever file it came from. */
export interface ImportedTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments; a missing or non-object schema becomes `{type: "object"}` with a note. */
  parameters: Record<string, unknown>;
  /** From `annotations.readOnlyHint`: true → read, false → write; undefined when the server did not say. */
  readOnlyHint?: boolean;
  /** The effect the designer prefills: read when readOnlyHint is true, otherwise write. */
  effect: 'read' | 'write';
  /**
   * The facts the annotations state that no model is sent (docs/linter.md#facts): `idempotent` for a tool that
   * may write and is marked `idempotentHint` (the protocol gives the hint no meaning on a read-only tool).
   */
  facts: ToolFact[];
  annotations?: McpAnnotations;
  /**
   * Whether the effect follows MCP's annotations (true for every MCP tool: an unset readOnlyHint means
   * "not read-only" by the protocol's defaults); false for an OpenAI tool, which has no annotations.
   */
  annotated: boolean;
  /** What the import had to assume (e.g. no inputSchema), in words. */
  notes: string[];
}

export interface ToolList {
  kind: ToolFileKind;
  /** Server name and version when the file says (`server_info`, `serverInfo`, `server`). */
  server: { name: string; version: string | null } | null;
  /** The entries exactly as received. */
  raw: unknown[];
  tools: ImportedTool[];
}

export class ToolFileError extends Error {
  constructor(
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'ToolFileError';
  }
}

/** `tools/list` result, array of MCP tools, one MCP tool, or OpenAI tools array → the tools. */
export function readToolFile(input: unknown): ToolList {
  if (Array.isArray(input)) {
    if (input.length > 0 && input.every((t) => t && typeof t === 'object' && (t as { type?: unknown }).type === 'function' && 'function' in t))
      return { kind: 'openai-tools', server: null, raw: input, tools: input.map((t, i) => fromOpenAi(t, `[${i}]`)) };
    return { kind: 'mcp-tool-array', server: null, raw: input, tools: input.map((t, i) => fromMcp(t, `[${i}]`)) };
  }
  if (input && typeof input === 'object') {
    const o = input as Record<string, unknown>;
    if (Array.isArray(o.tools)) {
      const tools = o.tools as unknown[];
      return { kind: 'mcp-tools-list', server: serverOf(o), raw: tools, tools: tools.map((t, i) => fromMcp(t, `tools[${i}]`)) };
    }
    if (typeof o.name === 'string' && 'inputSchema' in o) return { kind: 'mcp-tool', server: null, raw: [input], tools: [fromMcp(input, '')] };
  }
  throw new ToolFileError(
    'not a tool file: expected an MCP tools/list result ({"tools": [...]}), a JSON array of MCP tools, one MCP tool ({"name", "inputSchema"}) or an OpenAI tools array ([{"type": "function", "function": {...}}])',
  );
}

/** SHA-256 of the raw entries as received (canonical JSON, in the order received). */
export function toolsHash(raw: unknown[]): string {
  return `sha256:${sha256(canonicalJson(raw))}`;
}

/**
 * A tool whose name or any other text holds what PostgreSQL cannot store (NUL, a lone surrogate) is refused
 * here, naming the tool, rather than failing later when it is picked into a draft (a live server's listing is
 * not read through readJson, which refuses them in files and pastes).
 */
function refuseUnstorable(entry: unknown, name: unknown, path: string): void {
  const issues = checkJsonValue(entry).map((i) => ({ path: [path, i.path === '(input)' ? '' : i.path].filter(Boolean).join('.'), message: i.message }));
  if (issues.length === 0) return;
  const named = typeof name === 'string' ? JSON.stringify(name) : '(unnamed)';
  throw new ToolFileError(`the tool ${named} at ${path || '(root)'} cannot be stored: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
}

function fromMcp(entry: unknown, path: string): ImportedTool {
  refuseUnstorable(entry, (entry as { name?: unknown } | null)?.name, path);
  const r = McpTool.safeParse(entry);
  if (!r.success) {
    const issues = r.error.issues.map((i) => ({ path: [path, ...i.path.map(String)].filter(Boolean).join('.'), message: i.message }));
    throw new ToolFileError(`not an MCP tool at ${path || '(root)'}:\n${issues.map((i) => `${i.path}: ${i.message}`).join('\n')}`, issues);
  }
  const t = r.data;
  const notes: string[] = [];
  const readOnlyHint = t.annotations?.readOnlyHint;
  return {
    name: t.name,
    description: t.description ?? '',
    parameters: objectSchema(t.inputSchema, notes),
    readOnlyHint,
    effect: readOnlyHint === true ? 'read' : 'write',
    facts: readOnlyHint !== true && t.annotations?.idempotentHint === true ? ['idempotent'] : [],
    annotations: t.annotations,
    annotated: true,
    notes,
  };
}

function fromOpenAi(entry: unknown, path: string): ImportedTool {
  refuseUnstorable(entry, (entry as { function?: { name?: unknown } } | null)?.function?.name, path);
  const r = OpenAiTool.safeParse(entry);
  if (!r.success) {
    const issues = r.error.issues.map((i) => ({ path: [path, ...i.path.map(String)].join('.'), message: i.message }));
    throw new ToolFileError(`not an OpenAI tool at ${path}:\n${issues.map((i) => `${i.path}: ${i.message}`).join('\n')}`, issues);
  }
  const f = r.data.function;
  const notes: string[] = ['an OpenAI tool carries no annotations: effect set to write until you say otherwise'];
  return { name: f.name, description: f.description ?? '', parameters: objectSchema(f.parameters ?? {}, notes), effect: 'write', facts: [], annotated: false, notes };
}

function objectSchema(schema: Record<string, unknown>, notes: string[]): Record<string, unknown> {
  if (schema.type === 'object') return schema;
  notes.push(
    schema.type === undefined
      ? 'the input schema has no type: read as type "object"'
      : `the input schema's type is ${JSON.stringify(schema.type)}: read as type "object"`,
  );
  return { ...schema, type: 'object' };
}

function serverOf(o: Record<string, unknown>): ToolList['server'] {
  const info = (o.server_info ?? o.serverInfo) as { name?: unknown; version?: unknown } | undefined;
  if (info && typeof info === 'object' && typeof info.name === 'string') return { name: info.name, version: typeof info.version === 'string' ? info.version : null };
  if (typeof o.server === 'string') return { name: o.server, version: null };
  return null;
}
