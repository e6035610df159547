import type { ExperimentSpec } from '../schema/experiment';
import type { ExportChoices } from '../schema/choices';
import { choiceGrid, choicesOf, choiceSummary, type ChoiceGridSection } from '../analysis/choices';
import { choiceRowsOf, groupedChoiceRows } from '../db/choices';
import { getRun } from '../db/runs';
import { getExperiment } from '../db/experiments';

// Use case: what the model did in a run (issue 22.2) — one section of the grid (study × scenario × locale,
// read alone, so a large run's page reads a few hundred trials) and the run's matrices and positions
// (counted from trials grouped in PostgreSQL).

export interface GridSectionRef {
  study: string;
  scenario: string;
  locale: string;
}

/** The grid's sections in the spec's order: each study's scenario × locale pairs that have cases. */
export function gridSections(spec: ExperimentSpec): GridSectionRef[] {
  const seen = new Set<string>();
  const out: GridSectionRef[] = [];
  for (const study of spec.studies)
    for (const c of study.cases) {
      const key = `${study.id}|${c.scenario}|${c.locale}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ study: study.id, scenario: c.scenario, locale: c.locale });
    }
  return out;
}

/** `section`: "study|scenario|locale" as the page's URL carries it; the first section when absent or unknown. */
export async function loadRunChoices(
  runId: string,
  spec: ExperimentSpec,
  section?: string,
): Promise<{ sections: GridSectionRef[]; current: GridSectionRef | null; grid: ChoiceGridSection | null } & ExportChoices> {
  const sections = gridSections(spec);
  const current = sections.find((s) => `${s.study}|${s.scenario}|${s.locale}` === section) ?? sections[0] ?? null;
  const [rows, grouped] = await Promise.all([current ? choiceRowsOf(runId, current) : Promise.resolve([]), groupedChoiceRows(runId)]);
  const grid = choiceGrid(spec, choicesOf(spec, rows))[0] ?? null;
  return { sections, current, grid, ...choiceSummary(spec, choicesOf(spec, grouped)) };
}

/**
 * The compare page's grids: one section (study × scenario × locale, the same for every run) of each run's grid,
 * side by side. Sections come from the first run's spec; a run whose version lacks the section shows none.
 */
export async function loadCompareGrids(
  runIds: readonly string[],
  section?: string,
): Promise<{ sections: GridSectionRef[]; current: GridSectionRef | null; grids: { runId: string; grid: ChoiceGridSection | null }[] }> {
  const specs = await Promise.all(
    runIds.map(async (id) => {
      const run = await getRun(id);
      return run ? ((await getExperiment(run.experimentId))?.spec ?? null) : null;
    }),
  );
  const sections = specs[0] ? gridSections(specs[0]) : [];
  const current = sections.find((s) => `${s.study}|${s.scenario}|${s.locale}` === section) ?? sections[0] ?? null;
  const grids = await Promise.all(
    runIds.map(async (runId, i) => {
      const spec = specs[i];
      if (!spec || !current) return { runId, grid: null };
      const rows = await choiceRowsOf(runId, current);
      return { runId, grid: choiceGrid(spec, choicesOf(spec, rows))[0] ?? null };
    }),
  );
  return { sections, current, grids };
}
