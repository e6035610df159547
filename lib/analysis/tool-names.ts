/**
 * Verdict reasons and evidence name a scenario's hidden tool ids ("tool: expected create_booking, observed
 * find_tables"); a reviewer reads them in the names the model was sent in that condition. The stored text
 * never changes (formal results are immutable): it is translated for display only, into segments — plain
 * text, or a tool as sent with its scenario id beside it (`pay_invoice (pay)`).
 */

import { naturalDefinitions } from '../design/matrix';
import type { ExperimentSpec } from '../schema/experiment';

export type NameSegment = { text: string } | { name: string; tool: string };

/**
 * The names a trial's condition sent its scenario's tools under (for its locale): none when the condition is
 * gone from the version or sends no tools there.
 */
export function trialSentNames(spec: ExperimentSpec, trial: { study: string; condition: string; scenario: string; locale: string }): Map<string, string> {
  const condition = spec.studies.find((s) => s.id === trial.study)?.conditions.find((c) => c.id === trial.condition);
  if (!condition) return new Map();
  try {
    return sentNames(naturalDefinitions(spec, condition, trial.scenario, trial.locale));
  } catch {
    return new Map(); // the condition sends no tools for this scenario/locale: nothing to translate
  }
}

/** A scenario tool id → the name a condition sent it under, from that condition's definitions. */
export function sentNames(definitions: readonly { tool: string; name: string }[]): Map<string, string> {
  return new Map(definitions.map((d) => [d.tool, d.name]));
}

// An id is matched whole: not inside a longer identifier (ids hold letters, digits, "_", "." and "-"), a
// trailing "." that ends a sentence aside.
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/** The text split into plain runs and the tool ids it names, each with its sent name. Ids sent under their own name stay text. */
export function toolNameSegments(text: string, names: ReadonlyMap<string, string>): NameSegment[] {
  const ids = [...names].filter(([tool, name]) => tool !== name && tool.length > 0).map(([tool]) => tool);
  if (ids.length === 0 || text.length === 0) return text.length > 0 ? [{ text }] : [];
  const pattern = new RegExp(
    `(?<![A-Za-z0-9_.-])(?:${ids
      .sort((a, b) => b.length - a.length)
      .map(escape)
      .join('|')})(?![A-Za-z0-9_-]|\\.[A-Za-z0-9_-])`,
    'g',
  );
  const out: NameSegment[] = [];
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index) });
    out.push({ name: names.get(m[0])!, tool: m[0] });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}

/** The same, flattened to one string: `pay_invoice (pay)` for each tool named. */
export function withSentNames(text: string, names: ReadonlyMap<string, string>): string {
  return toolNameSegments(text, names)
    .map((s) => ('text' in s ? s.text : `${s.name} (${s.tool})`))
    .join('');
}
