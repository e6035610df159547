// What the author takes home from an optimisation (docs/optimise.md "What the author takes home"): a candidate's
// definitions — the frozen winner's by default — as a file in the form tools are published in: an MCP
// `tools/list` result or an OpenAI `tools` array. The definitions are read from the select version, which holds
// every candidate as it ran (rule fixes included).

import type { Condition } from '../schema/experiment';
import type { OptimisationRow } from '../schema/optimisation';
import { getExperiment } from '../db/experiments';

export const TAKE_HOME_FORMATS = ['mcp', 'openai'] as const;
export type TakeHomeFormat = (typeof TAKE_HOME_FORMATS)[number];

type Definition = Condition['tools'][string][string][number];

function asFormat(defs: readonly Definition[], format: TakeHomeFormat): unknown {
  if (format === 'mcp') return { tools: defs.map((d) => ({ name: d.name, description: d.description, inputSchema: d.parameters })) };
  return defs.map((d) => ({ type: 'function', function: { name: d.name, description: d.description, parameters: d.parameters } }));
}

/** A condition's definitions in a format: one catalog as it is; several (scenarios × locales) keyed `scenario/locale`. */
export function definitionsFile(condition: Condition, format: TakeHomeFormat): unknown {
  const catalogs = Object.entries(condition.tools).flatMap(([scenario, byLocale]) =>
    Object.entries(byLocale).map(([locale, defs]) => [`${scenario}/${locale}`, defs] as const),
  );
  if (catalogs.length === 1) return asFormat(catalogs[0][1], format);
  return Object.fromEntries(catalogs.map(([key, defs]) => [key, asFormat(defs, format)]));
}

/** The candidate's (default: the first winner's) definitions as a file; null with why when there is none. */
export async function takeHome(
  record: OptimisationRow,
  format: TakeHomeFormat,
  candidate: string | null = null,
): Promise<{ file: unknown; condition: string } | { error: string }> {
  const wanted = candidate ?? record.winners?.[0] ?? null;
  if (wanted === null) return { error: `optimisation ${record.id} has no winner (${record.stage}): name a candidate` };
  if (!record.candidates.some((c) => c.condition === wanted)) return { error: `"${wanted}" is not a candidate of optimisation ${record.id}` };
  const version = record.selectExperimentId ? await getExperiment(record.selectExperimentId) : null;
  const condition = version?.spec.studies.find((s) => s.id === record.studyId)?.conditions.find((c) => c.id === wanted);
  if (!condition) return { error: `the select version of optimisation ${record.id} is not stored yet` };
  return { file: definitionsFile(condition, format), condition: wanted };
}
