import type { Condition, ExperimentSpecInput, Scenario, ToolDefinition } from '../schema/experiment';
import type { ImportedTool } from './tools';

// A snapshot becomes a scenario's tools: each picked tool is a scenario tool with its hidden effect and
// facts (prefilled from the annotations), and its definition as published is copied into every condition
// (the baseline is the tools as received; the others start as copies to edit).

export interface SnapshotRef {
  id: string;
  sha256: string;
  server: { name: string; version: string | null } | null;
}

export interface ImportedScenario {
  scenario: Scenario;
  /** The definitions as published, one per picked tool, in the server's order. */
  definitions: ToolDefinition[];
}

/** A tool name as a spec id (letters, digits, "_", ".", "-"; starts with a letter or digit), unique in the list. */
function toolIds(names: string[]): string[] {
  const seen = new Set<string>();
  return names.map((n) => {
    const base =
      n
        .replace(/[^A-Za-z0-9_.-]+/g, '-')
        .replace(/^[^A-Za-z0-9]+/, '')
        .slice(0, 70) || 'tool';
    let id = base;
    for (let i = 2; seen.has(id); i++) id = `${base}-${i}`;
    seen.add(id);
    return id;
  });
}

export function scenarioFromTools(tools: ImportedTool[], opts: { id: string; title: string; pick?: string[]; snapshot?: SnapshotRef }): ImportedScenario {
  const picked = opts.pick ? tools.filter((t) => opts.pick!.includes(t.name)) : tools;
  const missing = (opts.pick ?? []).filter((n) => !tools.some((t) => t.name === n));
  if (missing.length) throw new Error(`not in the snapshot: ${missing.map((n) => JSON.stringify(n)).join(', ')}`);
  if (picked.length === 0) throw new Error('pick at least one tool');
  const ids = toolIds(picked.map((t) => t.name));
  const scenario: Scenario = {
    id: opts.id,
    title: opts.title,
    tools: picked.map((t, i) => ({ id: ids[i], effect: t.effect, ...(t.facts.length ? { facts: t.facts } : {}) })),
    ...(opts.snapshot ? { source: { snapshot: opts.snapshot.id, sha256: opts.snapshot.sha256, server: opts.snapshot.server?.name ?? null } } : {}),
  };
  const definitions = picked.map((t, i) => ({ tool: ids[i], name: t.name, description: t.description, parameters: t.parameters }));
  return { scenario, definitions };
}

export const DEFAULT_SYSTEM: Record<string, string> = {
  en: 'You are an assistant with the tools listed. Call a tool only when it is the right one for the request. If required information is missing, reply with CLARIFY: and the question. If no tool can do what is asked, reply with STOP: and the reason.',
  'zh-TW':
    '你是一個可以使用所列工具的助理。只有在工具適合這個請求時才呼叫它。如果缺少必要資訊，請以 CLARIFY: 開頭提出問題。如果沒有工具能完成請求，請以 STOP: 開頭說明原因。',
};

/**
 * A new experiment (a draft: it has no cases yet) around imported tools: one selection study whose baseline
 * sends the tools as published and whose treatment starts as a copy to rewrite.
 */
export function experimentFromTools(imported: ImportedScenario, opts: { id: string; name: string; locales?: string[]; description?: string }): ExperimentSpecInput {
  const locales = opts.locales?.length ? opts.locales : ['en'];
  const copy = (): Condition['tools'] => ({ [imported.scenario.id]: Object.fromEntries(locales.map((l) => [l, imported.definitions.map((d) => structuredClone(d))])) });
  return {
    format: 'tclab.experiment/v1',
    id: opts.id,
    name: opts.name,
    description: opts.description ?? '',
    locales,
    scenarios: [imported.scenario],
    studies: [
      {
        id: 'selection',
        kind: 'selection',
        title: 'Tool selection: published vs. rewritten definitions',
        orderPolicy: imported.definitions.length > 2 ? 'rotations' : 'reverse-swap',
        protocol: { system: Object.fromEntries(locales.map((l) => [l, DEFAULT_SYSTEM[l] ?? DEFAULT_SYSTEM.en])) },
        conditions: [
          { id: 'published', label: 'As published', baseline: true, tools: copy() },
          { id: 'rewritten', label: 'Rewritten', baseline: false, tools: copy() },
        ],
        cases: [],
      },
    ],
    replicates: 1,
    prechecks: [],
  };
}
