import type { ToolSearchRequest, WireTool } from '../schema/request';

// The provider-neutral side of vendor tool search: which tools are deferred, what the model could see
// (non-deferred tools, then the search's results in rank order), and a small deterministic lexical search
// over names and descriptions — what the simulated provider "sees" through a tool search, and what the
// loopback server runs in place of the vendor's search. Not the vendors' algorithms: a documented stand-in
// (docs/providers.md, "Vendor tool search").

/** At most this many tools come back from one search (Anthropic documents 3–5 references per search). */
export const TOOL_SEARCH_LIMIT = 5;

/** The searchable text of a tool: name split at `_`, `.`, `-` and camelCase, description, parameter names and descriptions. */
export function searchableText(tool: WireTool): string {
  const parts = [tool.name, splitName(tool.name), tool.description];
  const props = tool.parameters.properties;
  if (props !== null && typeof props === 'object') {
    for (const [name, schema] of Object.entries(props as Record<string, unknown>)) {
      parts.push(name, splitName(name));
      if (schema !== null && typeof schema === 'object' && typeof (schema as { description?: unknown }).description === 'string') {
        parts.push((schema as { description: string }).description);
      }
    }
  }
  return parts.join(' ');
}

function splitName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_.\-]+/g, ' ')
    .toLowerCase();
}

/** English function words a search ignores (they would match almost every description). */
const STOP_WORDS = new Set(
  'the and for with what who how which this that from are was were its you your not any all can has have into only after never than then there their them when where does did'.split(
    ' ',
  ),
);

/** Lower-case word terms of at least three letters (digits count), stop words left out, in order, each once. */
export function terms(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])].filter((t) => !STOP_WORDS.has(t));
}

/**
 * Term-match search: each tool scores the number of distinct query terms its searchable text holds; tools
 * scoring 0 are left out; higher scores first, ties in the given order; at most `limit`.
 */
export function termSearch(tools: readonly WireTool[], query: string, limit = TOOL_SEARCH_LIMIT): WireTool[] {
  const q = terms(query);
  return tools
    .map((tool, i) => {
      const have = new Set(terms(searchableText(tool)));
      return { tool, i, score: q.filter((t) => have.has(t)).length };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, limit)
    .map((s) => s.tool);
}

/** Regex search (case-insensitive, JavaScript syntax) over the searchable text; given order; at most `limit`. Bad pattern: none. */
export function regexSearch(tools: readonly WireTool[], pattern: string, limit = TOOL_SEARCH_LIMIT): WireTool[] {
  let re: RegExp;
  try {
    // Python's inline flag (the regex tool takes re.search syntax): case-insensitive anyway
    re = new RegExp(pattern.replace(/^\(\?i\)/, ''), 'i');
  } catch {
    return [];
  }
  return tools.filter((t) => re.test(searchableText(t))).slice(0, limit);
}

/** The tools of a request split into loaded (non-deferred, in order) and deferred (in order). */
export function splitDeferred(tools: readonly WireTool[], search: ToolSearchRequest | undefined): { loaded: WireTool[]; deferred: WireTool[] } {
  const deferredNames = new Set(search?.deferred ?? []);
  return { loaded: tools.filter((t) => !deferredNames.has(t.name)), deferred: tools.filter((t) => deferredNames.has(t.name)) };
}

/** What the model could see: the loaded tools, then the names the search returned, in rank order, each once. */
export function visibleNames(loaded: readonly WireTool[], found: readonly string[]): string[] {
  return [...new Set([...loaded.map((t) => t.name), ...found])];
}
