import type { z } from 'zod';
import { env } from '../env';
import { SpecError, formatIssues, zodIssues, type Issue } from '../schema/common';
import { readJson, checkJsonValue, type Parsed, type ReadOptions } from '../schema/input';
import { ExperimentSpec } from '../design/experiment-spec';
import { TccCard, TccObservations } from '../schema/tcc';
import { checkSpecBounds, type SpecBounds } from '../schema/bounds';
import { catalogCollisions } from '../design/catalog';

// THE parse of every door. A spec, a case card or an observation file read from bytes (a file, an upload,
// a paste, a request body, a designer draft) goes through exactly these steps, so the same input gets the
// same verdict everywhere (outside lib/schema, the pure core, since it reads its bounds from lib/env):
//   1. bytes → JSON (lib/schema/input.ts): BOM stripped, UTF-8 only, 5 MB and depth 64 checked before
//      JSON.parse, NUL and lone surrogates refused in every string and key;
//   2. zod: strict shapes (unknown keys are errors), text and list limits, control characters refused;
//   3. semantics (specs): every reference resolves, ids unique, parameters schemas compile (Ajv);
//   4. bounds (specs): trials per run (TCLAB_MAX_TRIALS_PER_RUN, default 1,000,000) and candidate orders
//      (720), computed arithmetically.
// Each issue names its path. `…Value` takes a value already parsed from JSON or built in code.

export type { Parsed } from '../schema/input';
export type ParseOptions = ReadOptions & { bounds?: Partial<SpecBounds> };

/** The bounds every door applies (the trial limit from the environment). */
export function specBounds(over: Partial<SpecBounds> = {}): SpecBounds {
  return { maxTrialsPerRun: env().TCLAB_MAX_TRIALS_PER_RUN, maxOrders: 720, ...over };
}

function viaSchema<T extends z.ZodType>(schema: T, value: unknown, opts: ReadOptions): Parsed<z.output<T>> {
  const unstorable = checkJsonValue(value, opts.maxDepth);
  if (unstorable.length) return { ok: false, issues: unstorable };
  const r = schema.safeParse(value);
  return r.success ? { ok: true, value: r.data } : { ok: false, issues: zodIssues(r.error) };
}

/** An experiment spec from a value (already JSON-parsed, or built in code: templates, importers, drafts). */
export function parseSpecValue(value: unknown, opts: ParseOptions = {}): Parsed<ExperimentSpec> {
  const r = viaSchema(ExperimentSpec, value, opts);
  if (!r.ok) return r;
  // a distractor named like a scenario tool is refused, naming both (the catalogs live outside lib/schema)
  const clashes = catalogCollisions(r.value);
  if (clashes.length) return { ok: false, issues: clashes };
  const over = checkSpecBounds(r.value, specBounds(opts.bounds));
  if (over.length) return { ok: false, issues: over.map((i) => ({ path: i.path.join('.') || '(root)', message: i.message })) };
  return r;
}

/** An experiment spec from bytes or pasted text. */
export function parseSpecBytes(input: Uint8Array | string, opts: ParseOptions = {}): Parsed<ExperimentSpec> {
  const j = readJson(input, opts);
  return j.ok ? parseSpecValue(j.value, opts) : j;
}

/** A TCC v0.1 case card (unknown keys kept, as the public format says). */
export function parseCardValue(value: unknown, opts: ReadOptions = {}): Parsed<TccCard> {
  return viaSchema(TccCard, value, opts);
}
export function parseCardBytes(input: Uint8Array | string, opts: ReadOptions = {}): Parsed<TccCard> {
  const j = readJson(input, opts);
  return j.ok ? parseCardValue(j.value, opts) : j;
}

/** A TCC observation file (an object keyed by check id, null-prototype). */
export function parseObservationsValue(value: unknown, opts: ReadOptions = {}): Parsed<TccObservations> {
  return viaSchema(TccObservations, value, opts);
}
export function parseObservationsBytes(input: Uint8Array | string, opts: ReadOptions = {}): Parsed<TccObservations> {
  const j = readJson(input, opts);
  return j.ok ? parseObservationsValue(j.value, opts) : j;
}

/** The value, or a SpecError whose message has one line per issue (`what: path: message`). */
export function orThrow<T>(r: Parsed<T>, what: string): T {
  if (r.ok) return r.value;
  throw new SpecError(`${what} is invalid:\n${formatIssues(r.issues)}`, r.issues);
}

export type { Issue };
