import { z } from 'zod';
import { Id, TEXT_MAX, list, strict, text } from './common';

// Distractor catalogs and discovery (docs/discovery.md): a study may add N distractor tools, drawn from a real MCP
// tool catalog, to every request, and decide by a discovery mechanism which of the tools the model sees.
// N and the mechanism are factors of the matrix (lib/design/matrix.ts); the catalogs themselves live in
// lib/catalogs. This file is the spec's shape only and imports nothing of ours but lib/schema.

/** The catalogs shipped with the project (lib/catalogs/data, with their licences). */
export const BUILTIN_CATALOGS = ['github-mcp-server', 'mcp-reference-servers', 'cloudflare'] as const;
export const BuiltinCatalog = z.enum(BUILTIN_CATALOGS);
export type BuiltinCatalog = z.infer<typeof BuiltinCatalog>;

/** Most tools a catalog given inline (from a file or an imported MCP snapshot) may hold. */
export const MAX_CATALOG_TOOLS = 2_000;
/** Most distinct catalog sizes (N) and discovery mechanisms one study may cross. */
export const MAX_CATALOG_SIZES = 16;
export const MAX_DISCOVERY = 8;

/**
 * One tool of a catalog as `tools/list` gives it (`inputSchema`) or as a request sends it (`parameters`).
 * Other keys of an MCP entry (title, annotations, icons, _meta) are accepted and dropped.
 */
export const CatalogTool = z.object({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, 'a function name: letters, digits, "_", ".", "-", at most 64'),
  description: text(TEXT_MAX.description).default(''),
  inputSchema: z.record(z.string(), z.unknown()).optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
});
export type CatalogTool = z.infer<typeof CatalogTool>;

/** Where the distractors come from: a built-in catalog, or tools given inline (a file, an MCP tool snapshot). */
export const CatalogSource = z.union([
  strict({ builtin: BuiltinCatalog }),
  strict({
    tools: list(CatalogTool, MAX_CATALOG_TOOLS, 1),
    /** Provenance of inline tools: a stored tool snapshot (id and content hash) or a file name. */
    from: z.union([strict({ snapshot: text(TEXT_MAX.short, 1), sha256: text(TEXT_MAX.short, 1) }), strict({ file: text(TEXT_MAX.short, 1) })]).optional(),
  }),
]);
export type CatalogSource = z.infer<typeof CatalogSource>;

/**
 * How the model comes to see tools — one mechanism per variant, discriminated by `mechanism`:
 * - `all`: every tool is sent (scenario tools and distractors);
 * - `bm25-top-k`: a local BM25 retriever (lib/design/retriever.ts) ranks every tool against the task text and
 *   only the top k are sent, in rank order.
 * - `vendor-search`: every tool is sent deferred to the provider's own tool search (`search`: which one; the
 *   provider must list it in its descriptor's `toolSearch`); what the model could see is observed per attempt
 *   (the tool references the provider returned) rather than computed before sending.
 */
export const Discovery = z.discriminatedUnion('mechanism', [
  strict({ id: Id, mechanism: z.literal('all') }),
  strict({ id: Id, mechanism: z.literal('bm25-top-k'), k: z.number().int().min(1).max(128) }),
  strict({ id: Id, mechanism: z.literal('vendor-search'), search: z.enum(['anthropic-regex', 'anthropic-bm25', 'openai']) }),
]);
export type Discovery = z.infer<typeof Discovery>;
export type DiscoveryMechanism = Discovery['mechanism'];

/** Whether the study's candidate orders apply under a mechanism (a ranking fixes the order sent itself). */
export const ORDERS_APPLY: Record<DiscoveryMechanism, boolean> = { all: true, 'bm25-top-k': false, 'vendor-search': true };

/** A catalog size: a number of distractors, or `all` (every tool of the catalog). */
export const CatalogSize = z.union([z.number().int().min(0).max(MAX_CATALOG_TOOLS), z.literal('all')]);
export type CatalogSize = z.infer<typeof CatalogSize>;

/** A study's distractor catalog: the source, the sizes N crossed, the sampling seed, the discovery mechanisms crossed. */
export const StudyCatalog = strict({
  source: CatalogSource,
  sizes: list(CatalogSize, MAX_CATALOG_SIZES, 1),
  /** Stored with the version: the same seed draws the same distractors in the same order. */
  seed: text(TEXT_MAX.short, 1),
  discovery: list(Discovery, MAX_DISCOVERY, 1).default([{ id: 'all', mechanism: 'all' }]),
});
export type StudyCatalog = z.infer<typeof StudyCatalog>;

/** The label of a catalog size in keys and tables: `n0`, `n32`, `nall`. */
export const sizeKey = (n: CatalogSize) => `n${n}`;
