import type { ExperimentSpec } from '../schema/experiment';
import { canonicalJson, sha256 } from '../hash';
import { storeExperimentVersion, type ExperimentRow } from '../db/experiments';
import { orThrow, parseSpecValue } from './parse';

// Use case: store a spec as a frozen experiment version. The input goes through the one parse of every door
// (./parse.ts) — once: a door that parsed already passes the spec it got (saveParsedExperiment).

export function specHashOf(spec: ExperimentSpec): string {
  return `sha256:${sha256(canonicalJson(spec))}`;
}

/**
 * Store a spec as a frozen experiment version. The same content returns the existing version; changed
 * content under the same id becomes the next version — nothing stored is ever edited in place. Invalid
 * input throws a SpecError naming each field, before anything is written. Doors reading bytes call
 * `parseSpecBytes` first and pass its value to saveParsedExperiment.
 */
export async function saveExperiment(input: unknown, opts: { template?: string } = {}): Promise<ExperimentRow & { created: boolean }> {
  return saveParsedExperiment(orThrow(parseSpecValue(input), 'experiment spec'), opts);
}

/** Store a spec the one parse has already read (parseSpecBytes / parseSpecValue): it is not parsed again. */
export async function saveParsedExperiment(spec: ExperimentSpec, opts: { template?: string } = {}): Promise<ExperimentRow & { created: boolean }> {
  return storeExperimentVersion(spec, specHashOf(spec), opts);
}
