import type { Condition, ExperimentSpec, Study, ToolDefinition } from '../schema/experiment';
import { baselineOf } from '../schema/experiment';

// Single-field ablations (docs/designer.md): the reference study rewrote names, descriptions and structure at
// once, so its effect cannot be attributed. For a study with a baseline and a treatment, each ablation takes
// exactly one field group from the treatment and everything else from the baseline — only for groups that
// actually differ. They are ordinary conditions, paired with the baseline like any other.

export const FIELD_GROUPS = {
  names: { label: 'tool names', pick: (d: ToolDefinition) => ({ name: d.name }) },
  descriptions: { label: 'descriptions', pick: (d: ToolDefinition) => ({ description: d.description }) },
  parameters: { label: 'parameter schemas (with their descriptions)', pick: (d: ToolDefinition) => ({ parameters: d.parameters }) },
} as const;
export type FieldGroup = keyof typeof FIELD_GROUPS;

export interface AblationProposal {
  group: FieldGroup;
  condition: Condition;
  /** Each definition the ablation changes from the baseline: where, which field, before → after. */
  changes: { scenario: string; locale: string; tool: string; field: string; before: unknown; after: unknown }[];
}

/** The ablations of `treatmentId` against the study's baseline; none for a group that does not differ. */
export function proposeAblations(study: Study, treatmentId: string): AblationProposal[] {
  const base = baselineOf(study);
  const treat = study.conditions.find((c) => c.id === treatmentId);
  if (!treat) throw new Error(`no condition "${treatmentId}" in study "${study.id}"`);
  if (treat.id === base.id) throw new Error(`"${treatmentId}" is the baseline; pick a treatment`);
  const taken = new Set(study.conditions.map((c) => c.id));
  const out: AblationProposal[] = [];
  for (const group of Object.keys(FIELD_GROUPS) as FieldGroup[]) {
    const pick = FIELD_GROUPS[group].pick;
    const changes: AblationProposal['changes'] = [];
    const tools: Condition['tools'] = {};
    for (const [scenario, byLocale] of Object.entries(base.tools)) {
      tools[scenario] = {};
      for (const [locale, defs] of Object.entries(byLocale)) {
        const other = treat.tools[scenario]?.[locale] ?? [];
        tools[scenario][locale] = defs.map((d) => {
          const t = other.find((x) => x.tool === d.tool);
          if (!t) return structuredClone(d);
          const from = pick(t) as Partial<ToolDefinition>;
          const next = { ...structuredClone(d), ...structuredClone(from) };
          for (const [field, after] of Object.entries(from)) {
            const before = (d as unknown as Record<string, unknown>)[field];
            if (JSON.stringify(before) !== JSON.stringify(after)) changes.push({ scenario, locale, tool: d.tool, field, before, after });
          }
          return next;
        });
      }
    }
    if (changes.length === 0) continue;
    let id = `${treat.id}-only-${group}`;
    for (let i = 2; taken.has(id); i++) id = `${treat.id}-only-${group}-${i}`;
    taken.add(id);
    out.push({
      group,
      changes,
      condition: {
        id,
        label: `${base.label} + ${FIELD_GROUPS[group].label} of ${treat.label}`,
        baseline: false,
        tools,
        variant: { kind: 'ablation', of: treat.id },
      },
    });
  }
  return out;
}

/** The spec with the proposals added to the study as conditions (nothing else changes). */
export function withAblations(spec: ExperimentSpec, studyId: string, proposals: AblationProposal[]): ExperimentSpec {
  return { ...spec, studies: spec.studies.map((s) => (s.id === studyId ? { ...s, conditions: [...s.conditions, ...proposals.map((p) => p.condition)] } : s)) };
}
