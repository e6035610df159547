import { catalogTools, type DistractorTool } from '../catalogs';
import { ORDERS_APPLY, type CatalogSize, type Discovery, type DiscoveryMechanism } from '../schema/catalog';
import type { ExperimentSpec, Study, ToolDefinition } from '../schema/experiment';
import type { WireTool } from '../schema/request';
import type { ScoringTool } from '../scoring/observe';
import { sha256 } from '../hash';
import { rankTools, type Ranked } from './retriever';

// Distractor catalogs and discovery as factors of the matrix (docs/discovery.md). For a study with a
// `catalog`, every trial of a case adds N distractors drawn from the catalog and a discovery mechanism decides
// which of the tools are sent. Everything here is a pure function of the spec (the seed is stored with the
// version), so the matrix, the runner and the export compute the same lists.

/** A tool a trial may send: one of the condition's definitions, or a catalog distractor. */
export type SentTool = { kind: 'scenario'; def: ToolDefinition } | { kind: 'distractor'; tool: DistractorTool };

export const sentName = (t: SentTool) => (t.kind === 'scenario' ? t.def.name : t.tool.name);
export const sentWire = (t: SentTool): WireTool =>
  t.kind === 'scenario'
    ? { name: t.def.name, description: t.def.description, parameters: t.def.parameters }
    : { name: t.tool.name, description: t.tool.description, parameters: t.tool.parameters };

/** A sent tool with its hidden metadata, for scoring (a distractor's effect comes from its MCP annotations). */
export function toScoringTool(t: SentTool, effects: ReadonlyMap<string, 'read' | 'write'> | undefined): ScoringTool & { description: string } {
  return t.kind === 'scenario'
    ? { id: t.def.tool, name: t.def.name, description: t.def.description, effect: effects?.get(t.def.tool) ?? 'read', parameters: t.def.parameters }
    : { id: t.tool.name, name: t.tool.name, description: t.tool.description, effect: t.tool.effect, parameters: t.tool.parameters, distractor: true };
}

/** The seeded sort key of a catalog entry (distractor name, or `tool:<scenario tool id>`). */
const seededKey = (seed: string, scenario: string, key: string) => sha256(`${seed}\n${scenario}\n${key}`);

/** The distractors of a study's catalog, in its seeded order for a scenario (the first N are a draw of size N). */
export function seededCatalog(study: Study, scenario: string): DistractorTool[] {
  if (!study.catalog) return [];
  const mine = seededMemo.get(study) ?? seededMemo.set(study, new Map()).get(study)!;
  const hit = mine.get(scenario);
  if (hit) return hit;
  const seed = study.catalog.seed;
  const sorted = catalogTools(study.catalog.source)
    .map((t) => ({ t, k: seededKey(seed, scenario, t.name) }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
    .map((x) => x.t);
  mine.set(scenario, sorted);
  return sorted;
}
/** A parsed study is not changed after parsing: its seeded catalogs are computed once per scenario. */
const seededMemo = new WeakMap<Study, Map<string, DistractorTool[]>>();

/** How many distractors a size means (`all`: the whole catalog). */
export function resolveSize(study: Study, size: CatalogSize): number {
  const total = study.catalog ? catalogTools(study.catalog.source).length : 0;
  if (size === 'all') return total;
  if (size > total) throw new Error(`catalog size ${size} exceeds the ${total} tools of the catalog`);
  return size;
}

/**
 * The full list a trial could send before discovery: the scenario's tools (in the candidate order given) and
 * the first N distractors of the seeded catalog, interleaved at seeded places. Each scenario tool's place is
 * keyed by its scenario tool id, so every description condition puts it at the same place (pairs stay
 * paired); the candidate order permutes the scenario tools among those places.
 */
export function catalogPool(study: Study, scenario: string, ordered: ToolDefinition[], n: number): SentTool[] {
  const seed = study.catalog?.seed ?? '';
  const distractors = seededCatalog(study, scenario).slice(0, n);
  const slots = [
    ...ordered.map(() => ({ scenario: true, i: -1, k: '' })).map((x, j) => ({ ...x, k: seededKey(seed, scenario, `tool:${ordered[j].tool}`) })),
    ...distractors.map((t, i) => ({ scenario: false, i, k: seededKey(seed, scenario, t.name) })),
  ].sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  let next = 0;
  return slots.map((s) => (s.scenario ? { kind: 'scenario' as const, def: ordered[next++] } : { kind: 'distractor' as const, tool: distractors[s.i] }));
}

/** What a discovery mechanism gave: the tools sent, in order, and what the model could see (names, rank order). */
export interface Discovered {
  sent: SentTool[];
  /** Names the model could see before it decided; null when only the provider's answer can tell (vendor search). */
  visible: string[] | null;
  /** The retriever's ranking of the whole pool (bm25-top-k), for the record. */
  ranked: Ranked[] | null;
}

interface MechanismModule {
  /** Whether the study's candidate orders apply (a ranking fixes the order itself). */
  ordersApply: boolean;
  discover(d: Discovery, task: string, pool: SentTool[]): Discovered;
}

/**
 * One module per discovery mechanism. A mechanism decided before sending (all, bm25-top-k) knows what is
 * visible; a vendor's tool search sends everything deferred and returns `visible: null`, the attempt's
 * tool references deciding it afterwards.
 */
export const DISCOVERY: Record<DiscoveryMechanism, MechanismModule> = {
  all: {
    ordersApply: ORDERS_APPLY.all,
    discover: (_d, _task, pool) => ({ sent: pool, visible: pool.map(sentName), ranked: null }),
  },
  'bm25-top-k': {
    ordersApply: ORDERS_APPLY['bm25-top-k'],
    discover(d, task, pool) {
      if (d.mechanism !== 'bm25-top-k') throw new Error(`not bm25-top-k: ${d.mechanism}`);
      const ranked = rankTools(task, pool.map(sentWire));
      const byName = new Map(pool.map((t) => [sentName(t), t]));
      const sent = ranked.slice(0, d.k).map((r) => byName.get(r.name)!);
      return { sent, visible: sent.map(sentName), ranked };
    },
  },
  // every tool is sent, deferred (buildRequest adds `toolSearch`): the provider's search decides what is seen
  'vendor-search': {
    ordersApply: ORDERS_APPLY['vendor-search'],
    discover: (_d, _task, pool) => ({ sent: pool, visible: null, ranked: null }),
  },
};

/** The vendor tool search a trial's discovery variant asks for, or null (not a vendor-search variant, no catalog). */
export function vendorSearchOf(study: Study, discovery: string | null | undefined): Extract<Discovery, { mechanism: 'vendor-search' }> | null {
  if (!discovery || !study.catalog) return null;
  const d = study.catalog.discovery.find((x) => x.id === discovery);
  return d?.mechanism === 'vendor-search' ? d : null;
}

/** Every vendor tool search the spec's studies ask for, with the path of each (for refusing a provider that lacks one). */
export function vendorSearchesOf(spec: ExperimentSpec): { path: string; search: Extract<Discovery, { mechanism: 'vendor-search' }>['search'] }[] {
  return spec.studies.flatMap((study, si) =>
    (study.catalog?.discovery ?? []).flatMap((d, di) =>
      d.mechanism === 'vendor-search' ? [{ path: `studies.${si}.catalog.discovery.${di}.search`, search: d.search }] : [],
    ),
  );
}

/** Every name a study's catalog could collide with: the scenario tools' names in any condition, and their ids. */
export function catalogCollisions(spec: ExperimentSpec): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  spec.studies.forEach((study, si) => {
    if (!study.catalog) return;
    const names = new Map<string, string>();
    for (const c of study.conditions)
      for (const [scenario, byLocale] of Object.entries(c.tools))
        for (const [locale, defs] of Object.entries(byLocale))
          for (const d of defs) {
            names.set(d.name, `condition "${c.id}" ${scenario}/${locale} tool "${d.name}" (scenario tool ${d.tool})`);
            if (!names.has(d.tool)) names.set(d.tool, `scenario tool id "${d.tool}"`);
          }
    let tools: DistractorTool[];
    try {
      tools = catalogTools(study.catalog.source);
    } catch (e) {
      issues.push({ path: `studies.${si}.catalog.source`, message: (e as Error).message });
      return;
    }
    for (const t of tools) {
      const hit = names.get(t.name);
      if (hit) issues.push({ path: `studies.${si}.catalog.source`, message: `distractor "${t.name}" collides with ${hit}: rename one of them` });
    }
    study.catalog.sizes.forEach((s, i) => {
      if (s !== 'all' && s > tools.length)
        issues.push({ path: `studies.${si}.catalog.sizes.${i}`, message: `${s} distractors asked for, the catalog has ${tools.length}` });
    });
  });
  return issues;
}
