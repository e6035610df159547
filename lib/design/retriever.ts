import MiniSearch from 'minisearch';
import type { WireTool } from '../schema/request';

// The `bm25-top-k` discovery mechanism: a local BM25 retriever over the tools a request could send, queried
// with the task text. It indexes what the vendors' tool searches index (docs/discovery.md): the name split at `_`,
// `.`, `-` and camelCase, the description, and the parameters' names and descriptions. Library: minisearch
// (BM25+); its parameters are recorded with every result (`RETRIEVER_PARAMS`). Ties are broken before the
// cut by a key the caller gives (seeded, stable across processes), never by the library's internal order.

/** minisearch's version as pinned in package.json (recorded with each retrieval). */
export const RETRIEVER_LIBRARY = 'minisearch@7.2.0';

export const RETRIEVER_PARAMS = {
  library: RETRIEVER_LIBRARY,
  /** minisearch's BM25+ parameters (its defaults, stated so a change of default cannot move results). */
  bm25: { k: 1.2, b: 0.7, d: 0.5 },
  fields: ['name', 'description', 'parameters'],
  boost: { name: 2, description: 1, parameters: 1 },
  combineWith: 'OR',
  fuzzy: false,
  prefix: false,
  query: 'the task text',
  ties: 'equal scores (rounded to 1e-9) keep the seeded catalog order',
} as const;

/** Words of an identifier: `get_invoice`, `issue.read`, `listPullRequests` → get invoice … list pull requests. */
export function splitName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_.\-]+/g, ' ')
    .toLowerCase();
}

/** Parameter names (split) and their descriptions, one line each. */
function parameterText(parameters: Record<string, unknown>): string {
  const props = parameters.properties;
  if (!props || typeof props !== 'object') return '';
  return Object.entries(props as Record<string, unknown>)
    .map(([k, v]) => {
      const d = v && typeof v === 'object' && typeof (v as { description?: unknown }).description === 'string' ? (v as { description: string }).description : '';
      return `${splitName(k)} ${d}`;
    })
    .join('\n');
}

export interface Ranked {
  name: string;
  score: number;
}

/**
 * Every tool ranked against the query: by BM25 score, highest first; equal scores (and tools matching no
 * query term, score 0) keep the order of `tools` — pass them in a seeded order so ties are reproducible.
 */
export function rankTools(query: string, tools: readonly WireTool[]): Ranked[] {
  const ms = new MiniSearch<{ id: number; name: string; description: string; parameters: string }>({
    fields: [...RETRIEVER_PARAMS.fields],
    idField: 'id',
    searchOptions: { bm25: { ...RETRIEVER_PARAMS.bm25 }, boost: { ...RETRIEVER_PARAMS.boost }, combineWith: 'OR', fuzzy: false, prefix: false },
  });
  ms.addAll(tools.map((t, id) => ({ id, name: splitName(t.name), description: t.description, parameters: parameterText(t.parameters) })));
  const score = new Map<number, number>();
  for (const r of ms.search(query)) score.set(r.id as number, Math.round(r.score * 1e9) / 1e9);
  return tools
    .map((t, i) => ({ name: t.name, score: score.get(i) ?? 0, i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ name, score: s }) => ({ name, score: s }));
}
