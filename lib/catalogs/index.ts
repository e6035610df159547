import type { BuiltinCatalog, CatalogSource, CatalogTool } from '../schema/catalog';
import github from './data/github-mcp-server/tools_list.json';
import filesystem from './data/reference-servers/server-filesystem.json';
import memory from './data/reference-servers/server-memory.json';
import serverGithub from './data/reference-servers/server-github.json';
import fetchServer from './data/reference-servers/mcp-server-fetch.json';
import puppeteer from './data/reference-servers/server-puppeteer.json';
import cfDocs from './data/reference-servers/cloudflare-docs.json';
import cfRadar from './data/reference-servers/cloudflare-radar.json';
import cfBrowser from './data/reference-servers/cloudflare-browser.json';

// Real MCP tool catalogs shipped with the project as distractors (docs/discovery.md). Provenance and licences:
// lib/catalogs/data/NOTICE.txt (the GitHub MCP server: MIT, GitHub; the reference-server and Cloudflare
// captures: MIT, their upstream authors). The files are the upstream `tools/list` entries, unchanged.

/** A catalog tool as sent: name, description and the JSON Schema of its arguments. */
export interface DistractorTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** From the MCP annotations: `readOnlyHint: false` or `destructiveHint: true` → write, otherwise read. */
  effect: 'read' | 'write';
}

interface RawTool {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  parameters?: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
}

export interface BuiltinCatalogInfo {
  id: BuiltinCatalog;
  title: string;
  licence: string;
  servers: string[];
  raw: RawTool[];
}

const rawOf = (...files: { tools: unknown[] }[]) => files.flatMap((f) => f.tools as RawTool[]);

const BUILTIN: Record<BuiltinCatalog, BuiltinCatalogInfo> = {
  'github-mcp-server': {
    id: 'github-mcp-server',
    title: 'GitHub MCP server (117 tools, commit 64a49f3)',
    licence: 'MIT, Copyright (c) 2025 GitHub',
    servers: ['github/github-mcp-server'],
    raw: rawOf(github),
  },
  'mcp-reference-servers': {
    id: 'mcp-reference-servers',
    title: 'MCP reference servers: filesystem, memory, github (npm 0.6.2), fetch, puppeteer (57 tools)',
    licence: 'MIT, modelcontextprotocol/servers',
    servers: ['server-filesystem', 'server-memory', 'server-github', 'mcp-server-fetch', 'server-puppeteer'],
    raw: rawOf(filesystem, memory, serverGithub, fetchServer, puppeteer),
  },
  cloudflare: {
    id: 'cloudflare',
    title: 'Cloudflare remote MCP servers: docs, radar, browser (24 distinct tools)',
    licence: 'Apache-2.0, cloudflare/mcp-server-cloudflare',
    servers: ['cloudflare-docs', 'cloudflare-radar', 'cloudflare-browser'],
    raw: rawOf(cfDocs, cfRadar, cfBrowser),
  },
};

function toDistractor(t: RawTool | CatalogTool): DistractorTool {
  const a = 'annotations' in t ? (t as RawTool).annotations : undefined;
  const write = a ? a.readOnlyHint === false || a.destructiveHint === true : false;
  return {
    name: t.name,
    description: t.description ?? '',
    parameters: t.inputSchema ?? t.parameters ?? { type: 'object', properties: {} },
    effect: write ? 'write' : 'read',
  };
}

const cache = new Map<string, DistractorTool[]>();

/**
 * The tools of a catalog source, each name once (the first entry wins: two Cloudflare servers both list
 * `accounts_list` and `set_active_account`), in the catalog's own order.
 */
export function catalogTools(source: CatalogSource): DistractorTool[] {
  if ('builtin' in source) {
    const hit = cache.get(source.builtin);
    if (hit) return hit;
    const tools = dedupe(BUILTIN[source.builtin].raw.map(toDistractor));
    cache.set(source.builtin, tools);
    return tools;
  }
  return dedupe(source.tools.map(toDistractor));
}

function dedupe(tools: DistractorTool[]): DistractorTool[] {
  const seen = new Set<string>();
  return tools.filter((t) => (seen.has(t.name) ? false : (seen.add(t.name), true)));
}
