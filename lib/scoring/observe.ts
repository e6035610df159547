import type { Observation } from '../schema/observation';
import type { TccCheck, TccObservations, TccObservedEntry } from '../schema/tcc';
import { answerField } from './fields';
import { deriveDecision } from './fields/decision';
import type { ScoringTool } from './fields/types';

export { deriveDecision } from './fields/decision';
export type { DerivedDecision, ObservedDecision, ScoringTool } from './fields/types';

/**
 * The observation file of a trial (TCC v0.1, keyed by check id). A check gets `null` (→ untested) when
 * there is no model answer, or when it expects anything only a fixture back-end could show (`write_count`).
 * Otherwise its entry holds, for each expected field, what was observed: `decision`, `tool` (scenario tool
 * id of the first call; absent without a call), `call_count`, `arguments` (of the first call; null without
 * a usable call — none, or one naming no sent tool, or unparseable), `label` (null when none was reported).
 * An unusable first call adds `malformed` (its reason).
 */
export function observationToTcc(checks: readonly TccCheck[], observation: Observation | null, tools: readonly ScoringTool[]): TccObservations {
  const out = Object.create(null) as TccObservations; // keyed by check ids: no prototype to find
  const derived = observation ? deriveDecision(observation, tools) : null;
  for (const check of checks) {
    const keys = Object.keys(check.expected).filter((k) => check.expected[k] !== undefined);
    if (!observation || !derived || keys.some((k) => !answerField(k))) {
      out[check.id] = null;
      continue;
    }
    const entry: TccObservedEntry = {};
    for (const key of keys) {
      const value = answerField(key)!.observe({ observation, derived });
      if (value !== undefined) entry[key] = value;
    }
    if (derived.malformed && keys.some((k) => answerField(k)!.reportsMalformed)) entry.malformed = derived.malformed;
    out[check.id] = entry;
  }
  return out;
}
