import type { Case, Condition, ExperimentSpec, OrderPolicy, Study, ToolDefinition } from '../schema/experiment';
import type { ProviderRequest, WireTool } from '../schema/request';
import { kindModule } from '../studies/registry';
import { sha256, toolSetRef } from '../hash';
import { matrixSize, orderCount, type MatrixSize } from '../schema/bounds';
import { sizeKey } from '../schema/catalog';
import { DISCOVERY, catalogPool, resolveSize, seededCatalog, sentName, sentWire, vendorSearchOf, type SentTool } from './catalog';

/** One formal request of the matrix: study × scenario × locale × case × condition × order × replicate. */
export interface TrialSpec {
  trialKey: string;
  /** The trial key without the condition: trials sharing it form a pair. */
  pairKey: string;
  study: string;
  kind: Study['kind'];
  scenario: string;
  locale: string;
  caseId: string;
  condition: string;
  baseline: boolean;
  orderIndex: number;
  /** Scenario tool ids in the order sent (aligned across conditions, so pairs share an order). */
  toolOrder: string[];
  /** Tool names in the order sent (names may differ between conditions). */
  order: string[];
  replicate: number;
  toolSetRef: string;
  /** Distractors added (N) for a study with a catalog; null without one. */
  catalogSize: number | null;
  /** The discovery variant's id for a study with a catalog; null without one (every tool sent). */
  discovery: string | null;
  /** Names the model could see before it decided, in rank order where there is one; null: only the answer can tell. */
  visible: string[] | null;
}

/** The catalog cell of a key (`n32|d:bm25`), absent for a study without a catalog (its keys are as before). */
interface CatalogCell {
  catalogLabel?: string;
  discovery?: string | null;
}
const cellParts = (t: CatalogCell) => (t.catalogLabel !== undefined && t.discovery ? [t.catalogLabel, `d:${t.discovery}`] : []);

export function trialKeyOf(t: Pick<TrialSpec, 'study' | 'scenario' | 'locale' | 'caseId' | 'condition' | 'orderIndex' | 'replicate'> & CatalogCell): string {
  return [t.study, t.scenario, t.locale, t.caseId, t.condition, ...cellParts(t), `o${t.orderIndex}`, `r${t.replicate}`].join('|');
}

export function pairKeyOf(t: Pick<TrialSpec, 'study' | 'scenario' | 'locale' | 'caseId' | 'orderIndex' | 'replicate'> & CatalogCell): string {
  return [t.study, t.scenario, t.locale, t.caseId, ...cellParts(t), `o${t.orderIndex}`, `r${t.replicate}`].join('|');
}

/** Deterministic trial id (also the BullMQ job id, which may not contain ':'). */
export function trialIdOf(runId: string, trialKey: string): string {
  return `t_${sha256(`${runId}\n${trialKey}`).slice(0, 32)}`;
}

/** Orders as permutations of indices into the natural (scenario-declared) tool order. */
export function candidateOrders(n: number, policy: OrderPolicy): number[][] {
  const natural = Array.from({ length: n }, (_, i) => i);
  if (policy === 'fixed' || n < 2) return [natural];
  if (policy === 'reverse-swap') return [natural, [...natural].reverse()];
  if (policy === 'rotations') return natural.map((k) => natural.map((i) => (i + k) % n));
  // specs are bounded when read (lib/schema/bounds.ts): this guards code that skipped the parse
  if (n > MAX_PERMUTATION_TOOLS)
    throw new Error(
      `all-permutations with ${n} tools would make ${orderCount(n, policy)} orders (at most ${MAX_PERMUTATION_TOOLS} tools, ${orderCount(MAX_PERMUTATION_TOOLS, policy)} orders); use rotations`,
    );
  return permutations(natural);
}

/** all-permutations is refused past this many tools (7! = 5,040 orders per case). */
export const MAX_PERMUTATION_TOOLS = 6;

/** How many candidate orders a policy makes for n tools, computed without listing them (lib/schema/bounds.ts). */
export { orderCount };

function permutations(xs: number[]): number[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

/** The definitions a condition sends for a scenario/locale, in the scenario's declared tool order. */
export function naturalDefinitions(spec: ExperimentSpec, condition: Condition, scenario: string, locale: string): ToolDefinition[] {
  const byLocale = Object.hasOwn(condition.tools, scenario) ? condition.tools[scenario] : undefined;
  const defs = byLocale && Object.hasOwn(byLocale, locale) ? byLocale[locale] : undefined;
  if (!defs) throw new Error(`condition "${condition.id}" has no tools for ${scenario}/${locale}`);
  const rank = new Map(spec.scenarios.find((s) => s.id === scenario)?.tools.map((t, i) => [t.id, i]) ?? []);
  return [...defs].sort((a, b) => (rank.get(a.tool) ?? 0) - (rank.get(b.tool) ?? 0));
}

/** One tool catalog: the definitions a condition sends for a scenario and locale, with each tool's hidden effect. */
export interface Catalog {
  study: string;
  condition: string;
  scenario: string;
  locale: string;
  definitions: ToolDefinition[];
  effects: Map<string, 'read' | 'write'>;
}

/** Every catalog of the experiment: study × condition × scenario × locale, where the condition defines tools. */
export function* catalogsOf(spec: ExperimentSpec): Generator<Catalog> {
  for (const study of spec.studies)
    for (const condition of study.conditions)
      for (const scenario of spec.scenarios)
        for (const locale of spec.locales) {
          if (!Object.hasOwn(condition.tools, scenario.id) || !Object.hasOwn(condition.tools[scenario.id], locale)) continue;
          yield {
            study: study.id,
            condition: condition.id,
            scenario: scenario.id,
            locale,
            definitions: naturalDefinitions(spec, condition, scenario.id, locale),
            effects: new Map(scenario.tools.map((t) => [t.id, t.effect])),
          };
        }
}

export function toWireTool(d: ToolDefinition): WireTool {
  return { name: d.name, description: d.description, parameters: d.parameters };
}

export function expandTrials(spec: ExperimentSpec): TrialSpec[] {
  return [...iterateTrials(spec)];
}

/**
 * The trials of the matrix one at a time, in the design's order (what expandTrials lists): a run's rows are
 * created from it in chunks, so a million-trial run never holds its matrix in memory.
 */
export function* iterateTrials(spec: ExperimentSpec): Generator<TrialSpec> {
  for (const study of spec.studies) {
    for (const c of study.cases) {
      const n = naturalDefinitions(spec, study.conditions[0], c.scenario, c.locale).length;
      const orders = candidateOrders(n, study.orderPolicy);
      for (const condition of study.conditions) {
        const defs = naturalDefinitions(spec, condition, c.scenario, c.locale);
        for (const cell of catalogCellsOf(study, c.task, c.scenario, orders)) {
          for (const [orderIndex, perm] of cell.orders.entries()) {
            const ordered = perm.map((i) => defs[i]).filter(Boolean);
            const { sent, visible } = cell.send(ordered);
            // the same for every replicate: computed once per order
            const toolOrder = sent.filter((t) => t.kind === 'scenario').map((t) => t.def.tool);
            const order = sent.map(sentName);
            const ref = toolSetRef(sent.map(sentWire));
            for (let replicate = 1; replicate <= spec.replicates; replicate++) {
              const base = {
                study: study.id,
                scenario: c.scenario,
                locale: c.locale,
                caseId: c.id,
                orderIndex,
                replicate,
                catalogLabel: cell.label,
                discovery: cell.discovery,
              };
              yield {
                study: study.id,
                scenario: c.scenario,
                locale: c.locale,
                caseId: c.id,
                orderIndex,
                replicate,
                kind: study.kind,
                condition: condition.id,
                baseline: condition.baseline,
                trialKey: trialKeyOf({ ...base, condition: condition.id }),
                pairKey: pairKeyOf(base),
                toolOrder,
                order,
                toolSetRef: ref,
                catalogSize: cell.size,
                discovery: cell.discovery,
                visible,
              };
            }
          }
        }
      }
    }
  }
}

interface CellPlan {
  label: string | undefined;
  size: number | null;
  discovery: string | null;
  orders: number[][];
  send(ordered: ToolDefinition[]): { sent: SentTool[]; visible: string[] | null };
}

/** The catalog cells of a case: one without a catalog (every tool sent, as always), else size × discovery. */
function catalogCellsOf(study: Study, task: string, scenario: string, orders: number[][]): CellPlan[] {
  const plain = (ordered: ToolDefinition[]) => ({ sent: ordered.map((def) => ({ kind: 'scenario' as const, def })), visible: ordered.map((d) => d.name) });
  if (!study.catalog) return [{ label: undefined, size: null, discovery: null, orders, send: plain }];
  const cells: CellPlan[] = [];
  for (const size of study.catalog.sizes) {
    const n = resolveSize(study, size);
    for (const d of study.catalog.discovery) {
      const mech = DISCOVERY[d.mechanism];
      cells.push({
        label: sizeKey(size),
        size: n,
        discovery: d.id,
        orders: mech.ordersApply ? orders : orders.slice(0, 1),
        send: (ordered) => {
          const r = mech.discover(d, task, catalogPool(study, scenario, ordered, n));
          return { sent: r.sent, visible: r.visible };
        },
      });
    }
  }
  return cells;
}

export interface TrialCoordinates {
  study: string;
  caseId: string;
  condition: string;
  /** Scenario tool ids in send order; defaults to the natural order. */
  toolOrder?: string[];
  /** The exact names sent, in order (a trial row's `order`): scenario tools and catalog distractors. Wins over toolOrder. */
  names?: string[];
  /** The trial's discovery variant id (a trial row's `discovery`): a `vendor-search` variant adds `toolSearch`. */
  discovery?: string | null;
}

/** The tools behind a trial's names: the condition's definitions, else the study's catalog (distractors). */
export function resolveSent(study: Study, defs: ToolDefinition[], scenario: string, names: readonly string[]): SentTool[] {
  let catalog: Map<string, SentTool> | null = null;
  return names.map((name) => {
    const d = defs.find((x) => x.name === name);
    if (d) return { kind: 'scenario', def: d };
    catalog ??= new Map(seededCatalog(study, scenario).map((tool) => [tool.name, { kind: 'distractor' as const, tool }]));
    const t = catalog.get(name);
    if (!t) throw new Error(`tool "${name}" is neither defined in the condition nor in study ${study.id}'s catalog`);
    return t;
  });
}

export function findStudyCase(spec: ExperimentSpec, studyId: string, caseId: string): { study: Study; kase: Case } {
  const study = spec.studies.find((s) => s.id === studyId);
  if (!study) throw new Error(`unknown study "${studyId}"`);
  const kase = study.cases.find((c) => c.id === caseId);
  if (!kase) throw new Error(`unknown case "${caseId}" in study "${studyId}"`);
  return { study, kase };
}

/** The provider-neutral request for a trial (or a pre-check). Never includes the case card. */
export function buildRequest(spec: ExperimentSpec, t: TrialCoordinates): ProviderRequest {
  const { study, kase } = findStudyCase(spec, t.study, t.caseId);
  const condition = study.conditions.find((c) => c.id === t.condition);
  if (!condition) throw new Error(`unknown condition "${t.condition}" in study "${study.id}"`);
  const defs = naturalDefinitions(spec, condition, kase.scenario, kase.locale);
  const ordered = t.toolOrder ? t.toolOrder.map((id) => defs.find((d) => d.tool === id)!).filter(Boolean) : defs;
  const mod = kindModule(study.kind);
  const tools = t.names ? resolveSent(study, defs, kase.scenario, t.names).map(sentWire) : ordered.map(toWireTool);
  const request: ProviderRequest = {
    callsRun: mod.turns === 'conversation',
    locale: kase.locale,
    system: (Object.hasOwn(study.protocol.system, kase.locale) ? study.protocol.system[kase.locale] : undefined) ?? Object.values(study.protocol.system)[0],
    markers: study.protocol.markers,
    labels: study.protocol.labels,
    tools,
    task: kase.task,
    history: [],
  };
  // vendor tool search: every tool deferred (the provider's search tool itself stays loaded, docs/providers.md)
  const search = vendorSearchOf(study, t.discovery);
  if (search) request.toolSearch = { mechanism: search.search, deferred: tools.map((x) => x.name) };
  mod.extendRequest(request, { kase, condition, definitions: defs });
  return request;
}

export type MatrixCount = MatrixSize;

/**
 * The matrix's counts, computed arithmetically (lib/schema/bounds.ts) rather than by expanding it, so a page
 * counting a million-trial spec does a few multiplications; `expandTrials(spec).length` equals `formal`.
 */
export function countMatrix(spec: ExperimentSpec, expanded?: TrialSpec[]): MatrixCount {
  return expanded ? countExpanded(spec, expanded) : matrixSize(spec);
}

/** The same counts from an expanded matrix (tests hold the arithmetic to it). */
function countExpanded(spec: ExperimentSpec, trials: TrialSpec[]): MatrixCount {
  const studies = spec.studies.map((study) => {
    const mine = trials.filter((t) => t.study === study.id);
    return {
      study: study.id,
      kind: study.kind,
      conditions: study.conditions.map((c) => ({ condition: c.id, baseline: c.baseline, trials: mine.filter((t) => t.condition === c.id).length })),
      pairs: new Set(mine.map((t) => t.pairKey)).size,
      trials: mine.length,
    };
  });
  return { studies, formal: trials.length, prechecks: spec.prechecks.length };
}
