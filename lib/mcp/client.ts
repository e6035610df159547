import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import { readToolFile, toolsHash, type ImportedTool } from './tools';
import { AddressRefused, checkUrl, guardedFetch } from './guarded-fetch';
import { stderrReason } from './stderr';

// List a live MCP server's tools with the official SDK (1.x): over stdio (the server runs as a child
// process of ours) or Streamable HTTP. Everything is bounded by one time limit; whatever goes wrong
// (a server that hangs, exits at once, a URL where nothing listens) is a McpListError with a message
// that says which, and nothing is stored by this module.

/** Variables a stdio server may be given: names only letters, digits and "_"; never a provider key. */
const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name');
const PROVIDER_KEYS = /^(OPENAI|OPENAI_COMPATIBLE|GEMINI|GOOGLE|ANTHROPIC)_API_KEY$/;

export const StdioTarget = z.object({
  kind: z.literal('stdio'),
  command: z.string().min(1, 'a command to start the server'),
  args: z.array(z.string()).default([]),
  /**
   * The child's environment beyond the SDK's safe defaults (HOME, LOGNAME, PATH, SHELL, TERM, USER):
   * only what is listed here, so it never inherits the app's provider keys.
   */
  env: z
    .record(EnvName, z.string())
    .default({})
    .superRefine((env, ctx) => {
      for (const k of Object.keys(env))
        if (PROVIDER_KEYS.test(k)) ctx.addIssue({ code: 'custom', path: [k], message: `${k} is a provider key and is never given to an MCP server` });
    }),
  cwd: z.string().optional(),
});
export const HttpTarget = z.object({
  kind: z.literal('http'),
  url: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//.test(u), 'an http:// or https:// URL'),
  headers: z.record(z.string(), z.string()).default({}),
});
export const McpTarget = z.discriminatedUnion('kind', [StdioTarget, HttpTarget]);
export type McpTarget = z.infer<typeof McpTarget>;
export type McpTargetInput = z.input<typeof McpTarget>;

export class McpListError extends Error {
  constructor(
    message: string,
    readonly reason: 'timeout' | 'exited' | 'unreachable' | 'protocol' | 'invalid' | 'refused',
  ) {
    super(message);
    this.name = 'McpListError';
  }
}

export interface ListedTools {
  server: { name: string; version: string | null } | null;
  protocolVersion: string | null;
  /** The tools/list entries exactly as received, every page in order. */
  raw: unknown[];
  tools: ImportedTool[];
  sha256: string;
  /** Pages read (tools/list follows nextCursor). */
  pages: number;
}

export const DEFAULT_MCP_TIMEOUT_MS = 15_000;

export interface McpClientOptions {
  timeoutMs?: number;
  /**
   * A guarded import (lib/mcp/policy.ts): a URL is reached only at public addresses or where listed here
   * (normalized URLs), decided before any connection (lib/mcp/guarded-fetch.ts). Absent: unrestricted.
   */
  guard?: { allowedUrls: string[] };
}
const MAX_PAGES = 1000;
/** Characters of a stdio server's stderr kept from its start, and from its end. */
const STDERR_HEAD = 16_000;
const STDERR_TAIL = 4_000;

/** `"node server.js --flag 'a b'"` → command and args (quotes group; no shell is involved). */
export function splitCommandLine(line: string): { command: string; args: string[] } {
  const parts: string[] = [];
  const re = /"((?:\\.|[^"\\])*)"|'([^']*)'|(\S+)/g;
  for (const m of line.matchAll(re)) parts.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3]));
  if (parts.length === 0) throw new McpListError('no command given', 'invalid');
  return { command: parts[0], args: parts.slice(1) };
}

/** Connect, initialize, list every tool (following nextCursor), close. Bounded by `timeoutMs` in all. */
export async function listMcpTools(input: McpTargetInput, opts: McpClientOptions = {}): Promise<ListedTools> {
  return withMcpClient(input, opts, async (client, request, where) => {
    const raw: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, request);
      pages++;
      raw.push(...page.tools);
      cursor = page.nextCursor;
      if (pages > MAX_PAGES) throw new McpListError(`${where} kept returning a nextCursor after ${MAX_PAGES} pages`, 'protocol');
    } while (cursor);
    return { raw, pages };
  }).then(({ result: { raw, pages }, server, protocolVersion }) => ({
    server,
    protocolVersion,
    raw,
    tools: readToolFile({ tools: raw }).tools,
    sha256: toolsHash(raw),
    pages,
  }));
}

type RequestOptions = { signal: AbortSignal; timeout: number };

/**
 * Connect and initialize, run `fn` with the client, close. The whole exchange is bounded by `timeoutMs`;
 * a stdio server that exits fails at once. Every failure is a McpListError saying which kind it was.
 */
export async function withMcpClient<T>(
  input: McpTargetInput,
  opts: McpClientOptions,
  fn: (client: Client, request: RequestOptions, where: string) => Promise<T>,
): Promise<{ result: T; server: ListedTools['server']; protocolVersion: string | null }> {
  const parsed = McpTarget.safeParse(input);
  if (!parsed.success)
    throw new McpListError(`invalid MCP server: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`, 'invalid');
  const target = parsed.data;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
  if (target.kind === 'http' && opts.guard) {
    // decided before any connection; every later request is checked again by the guarded fetch
    try {
      await checkUrl(new URL(target.url), opts.guard.allowedUrls);
    } catch (e) {
      if (e instanceof AddressRefused) throw new McpListError(e.message, 'refused');
      throw e;
    }
  }
  const where = target.kind === 'stdio' ? `stdio server "${[target.command, ...target.args].join(' ')}"` : `MCP server at ${target.url}`;

  // the start of stderr (where a failing server says why) and its end (where a long-running one does)
  let stderrHead = '';
  let stderrTail = '';
  const said = () => {
    const reason = stderrReason(`${stderrHead}\n${stderrTail}`);
    return reason ? `; its stderr says: ${reason}` : '';
  };
  let exited = false;
  let protocolVersion: string | null = null;
  let transport: Transport;
  if (target.kind === 'stdio') {
    const t = new StdioClientTransport({ command: target.command, args: target.args, env: target.env, cwd: target.cwd, stderr: 'pipe' });
    t.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      if (stderrHead.length < STDERR_HEAD) stderrHead += text.slice(0, STDERR_HEAD - stderrHead.length);
      else stderrTail = (stderrTail + text).slice(-STDERR_TAIL);
    });
    transport = t;
  } else {
    const t = new StreamableHTTPClientTransport(new URL(target.url), {
      requestInit: { headers: target.headers },
      ...(opts.guard ? { fetch: guardedFetch(opts.guard.allowedUrls) } : {}),
    });
    transport = t;
  }
  // the client tells the transport the negotiated version (HTTP transports need it; we record it for all)
  const setVersion = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (v: string) => {
    protocolVersion = v;
    setVersion?.(v);
  };

  const client = new Client({ name: 'tool-contract-lab', version: '0.1.0' }, { capabilities: {} });
  const closed = new Promise<void>((resolve) => {
    client.onclose = () => {
      exited = true;
      resolve();
    };
  });
  // the child's pid, read before anything closes the transport (closing forgets it, and the SDK's close
  // waits 2 s on unref'd timers before SIGTERM: a CLI that exits meanwhile would leave the child running)
  const stdioPid = () => (target.kind === 'stdio' ? (transport as StdioClientTransport).pid : null);
  let pid: number | null = null;
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      pid ??= stdioPid();
      abort.abort();
      reject(new McpListError(`${where} did not answer within ${timeoutMs} ms (time limit)`, 'timeout'));
    }, timeoutMs);
  });
  const describe = (e: unknown): McpListError => {
    if (e instanceof McpListError) return e;
    for (let c: unknown = e, i = 0; c && i < 5; c = (c as { cause?: unknown }).cause, i++) if (c instanceof AddressRefused) return new McpListError(c.message, 'refused');
    const msg = messageOf(e);
    const tail = said();
    if (target.kind === 'stdio' && (exited || /ENOENT|closed|EPIPE/i.test(msg))) return new McpListError(`${where} exited before answering (${msg})${tail}`, 'exited');
    if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|fetch failed|ECONNRESET|EHOSTUNREACH/i.test(msg))
      return new McpListError(`nothing answered at ${target.kind === 'http' ? target.url : where}: ${msg}`, 'unreachable');
    return new McpListError(`${where}: ${msg}${tail}`, 'protocol');
  };

  const work = (async () => {
    const request = { signal: abort.signal, timeout: timeoutMs };
    // a stdio server that exits at once closes the transport: fail then rather than at the time limit
    const gone = closed.then(() => {
      throw new McpListError(`${where} exited before answering${said()}`, 'exited');
    });
    gone.catch(() => undefined);
    await Promise.race([client.connect(transport, request), gone]);
    pid ??= stdioPid();
    const result = await Promise.race([fn(client, request, where), gone]);
    const info = client.getServerVersion();
    return { result, server: info ? { name: info.name, version: info.version ?? null } : null, protocolVersion };
  })();
  work.catch(() => undefined);

  try {
    return await Promise.race([work, deadline]);
  } catch (e) {
    killProcess(pid ?? stdioPid()); // a server that hung or failed is not asked politely
    throw describe(e);
  } finally {
    clearTimeout(timer);
    pid ??= stdioPid();
    await client.close().catch(() => undefined);
    killProcess(pid); // whatever close() left running (a server that ignores its closed stdin)
  }
}

function killProcess(pid: number | null | undefined): void {
  if (!pid) return;
  try {
    process.kill(pid, 0); // still there?
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function messageOf(e: unknown): string {
  const parts: string[] = [];
  let cur: unknown = e;
  for (let i = 0; cur && i < 5; i++) {
    const x = cur as { message?: string; code?: string; cause?: unknown };
    if (x.message) parts.push(x.code && !x.message.includes(x.code) ? `${x.message} (${x.code})` : x.message);
    else if (typeof cur === 'string') parts.push(cur);
    cur = x.cause;
  }
  return parts.join(': ') || String(e);
}
