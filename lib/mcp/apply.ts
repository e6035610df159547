import type { ExperimentSpec } from '../schema/experiment';
import type { ImportedTool } from './tools';

// A condition's tool definitions taken from an MCP server's tools/list (docs/ci-recipe.md): each definition of
// the condition, in every scenario × locale, gets the description and argument schema of the server's tool of
// the same name. Ids, names, effects and everything else of the spec stay as they are.

export interface AppliedTools {
  spec: ExperimentSpec;
  /** Definitions changed, per condition. */
  changed: Record<string, number>;
  /** Names the condition sends that the server does not list (the spec is not applied when there are any). */
  missing: { condition: string; name: string }[];
  /** Tools the server lists that no definition of the condition sends (left out; the experiment decides what is sent). */
  unused: { condition: string; name: string }[];
}

export class ApplyToolsError extends Error {}

/** `sets`: condition id → the tools listed for it. Throws ApplyToolsError naming an unknown condition. */
export function applyToolsToConditions(spec: ExperimentSpec, sets: Record<string, readonly ImportedTool[]>): AppliedTools {
  const out = structuredClone(spec);
  const changed: Record<string, number> = {};
  const missing: AppliedTools['missing'] = [];
  const unused: AppliedTools['unused'] = [];
  for (const [conditionId, tools] of Object.entries(sets)) {
    const byName = new Map(tools.map((t) => [t.name, t]));
    const conditions = out.studies.flatMap((s) => s.conditions.filter((c) => c.id === conditionId));
    if (conditions.length === 0)
      throw new ApplyToolsError(
        `condition "${conditionId}": no study has it (conditions: ${[...new Set(out.studies.flatMap((s) => s.conditions.map((c) => c.id)))].join(', ')})`,
      );
    const sent = new Set<string>();
    changed[conditionId] = 0;
    for (const c of conditions)
      for (const byLocale of Object.values(c.tools))
        for (const defs of Object.values(byLocale))
          for (const d of defs) {
            sent.add(d.name);
            const t = byName.get(d.name);
            if (!t) {
              if (!missing.some((m) => m.condition === conditionId && m.name === d.name)) missing.push({ condition: conditionId, name: d.name });
              continue;
            }
            if (d.description !== t.description || JSON.stringify(d.parameters) !== JSON.stringify(t.parameters)) changed[conditionId]++;
            d.description = t.description;
            d.parameters = structuredClone(t.parameters);
          }
    for (const t of tools) if (!sent.has(t.name)) unused.push({ condition: conditionId, name: t.name });
  }
  return { spec: missing.length ? spec : out, changed, missing, unused };
}
