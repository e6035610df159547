import type { ExperimentSpec } from '../schema/experiment';
import type { ExportChoices } from '../schema/choices';
import { changedAcross, choiceGrid, choicesOf, choiceSummary, type ChoiceGridSection } from '../analysis/choices';
import { orderCount } from '../schema/bounds';
import { choiceRowsOf, groupedChoiceRows } from '../db/choices';
import { cachedJsonText } from '../db/result-cache';
import { getRun } from '../db/runs';
import { getExperiment } from '../db/experiments';

// Use case: what the model did in a run (docs/results.md#what-the-model-did) — one section of the grid (study × scenario × locale,
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

/** A page of the grid shows whole cases, about this many trials at most (at least one case): a large run's section holds all its trials. */
export const GRID_PAGE_TRIALS = 1000;

/** Which cases of a section one page of the grid shows: `from` (0-based) to `from + caseIds.length` of `total`, `size` a page. */
export interface GridPage {
  from: number;
  size: number;
  total: number;
  caseIds: string[];
}

/** The page of a section's cases (in the spec's order) that holds case `from` (clamped to the section). */
export function gridPage(spec: ExperimentSpec, section: GridSectionRef, from = 0, pageTrials = GRID_PAGE_TRIALS): GridPage {
  const study = spec.studies.find((s) => s.id === section.study);
  const ids = (study?.cases ?? []).filter((c) => c.scenario === section.scenario && c.locale === section.locale).map((c) => c.id);
  const tools = spec.scenarios.find((s) => s.id === section.scenario)?.tools.length ?? 1;
  const perCase = Math.max(1, spec.replicates * (study?.conditions.length ?? 1) * (study ? orderCount(tools, study.orderPolicy) : 1));
  const size = Math.max(1, Math.floor(pageTrials / perCase));
  const start = Math.min(Math.floor(Math.max(0, Number.isFinite(from) ? from : 0) / size) * size, Math.max(0, Math.floor((ids.length - 1) / size) * size));
  return { from: start, size, total: ids.length, caseIds: ids.slice(start, start + size) };
}

/** One page of a section's grid (all of it when it fits one page, read as before). */
async function gridOf(runId: string, spec: ExperimentSpec, current: GridSectionRef, page: GridPage): Promise<ChoiceGridSection | null> {
  const conditions = spec.studies.find((s) => s.id === current.study)?.conditions.map((c) => c.id) ?? [];
  const rows = await choiceRowsOf(runId, current, page.total > page.size ? { caseIds: page.caseIds, conditions } : undefined);
  return choiceGrid(spec, choicesOf(spec, rows))[0] ?? null;
}

/** The run's matrices and positions: counted from grouped trials; stored once the run is completed (lib/db/result-cache.ts), as the JSON text the run export writes. */
export function runChoiceSummary(runId: string, spec: ExperimentSpec): Promise<ExportChoices> {
  return cachedJsonText([runId], 'choice-summary.json', async () => choiceSummary(spec, choicesOf(spec, await groupedChoiceRows(runId))), { onlyCompleted: true });
}

/**
 * `section`: "study|scenario|locale" as the page's URL carries it; the first section when absent or unknown.
 * `from`: the first case of the grid's page (see gridPage; `pageTrials` its size in trials).
 */
export async function loadRunChoices(
  runId: string,
  spec: ExperimentSpec,
  section?: string,
  from?: number,
  pageTrials?: number,
): Promise<{ sections: GridSectionRef[]; current: GridSectionRef | null; page: GridPage | null; grid: ChoiceGridSection | null } & ExportChoices> {
  const sections = gridSections(spec);
  const current = sections.find((s) => `${s.study}|${s.scenario}|${s.locale}` === section) ?? sections[0] ?? null;
  const page = current ? gridPage(spec, current, from, pageTrials) : null;
  const [grid, summary] = await Promise.all([current && page ? gridOf(runId, spec, current, page) : Promise.resolve(null), runChoiceSummary(runId, spec)]);
  return { sections, current, page, grid, ...summary };
}

/**
 * The compare page's grids: one section (study × scenario × locale, the same for every run) of each run's grid,
 * side by side. Sections come from the first run's spec; a run whose version lacks the section shows none.
 */
export async function loadCompareGrids(
  runIds: readonly string[],
  section?: string,
  from?: number,
): Promise<{
  sections: GridSectionRef[];
  current: GridSectionRef | null;
  page: GridPage | null;
  grids: { runId: string; grid: ChoiceGridSection | null }[];
  /** The page's cases that changed across the runs (lib/analysis/choices.ts changedAcross): the grids' "changed rows only". */
  changed: string[];
}> {
  const specs = await Promise.all(
    runIds.map(async (id) => {
      const run = await getRun(id);
      return run ? ((await getExperiment(run.experimentId))?.spec ?? null) : null;
    }),
  );
  const sections = specs[0] ? gridSections(specs[0]) : [];
  const current = sections.find((s) => `${s.study}|${s.scenario}|${s.locale}` === section) ?? sections[0] ?? null;
  // the first run's page of cases; every run shows the same cases
  const page = specs[0] && current ? gridPage(specs[0], current, from) : null;
  const grids = await Promise.all(
    runIds.map(async (runId, i) => {
      const spec = specs[i];
      if (!spec || !current || !page) return { runId, grid: null };
      return { runId, grid: await gridOf(runId, spec, current, page) };
    }),
  );
  return { sections, current, page, grids, changed: [...changedAcross(grids.map((g) => g.grid))] };
}
