import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { checksFor, type ExperimentSpec } from '../schema/experiment';
import type { Observation } from '../schema/observation';
import { TccObservations, type TccCard } from '../schema/tcc';
import { findStudyCase, naturalDefinitions, resolveSent } from '../design/matrix';
import { toScoringTool } from '../design/catalog';
import { exportTrialTcc, tccFileNames, trialCard } from './tcc';
import { kindModule } from '../studies/registry';
import type { ExportAttempt, ExportPrecheck, ExportSummary, TrialExportRow } from '../schema/run-export';
import type { ExperimentRow } from '../db/experiments';
import type { RunRow } from '../db/runs';
import {
  getTrialRecord,
  iterateTrialRecords,
  iterateTrialRecordsWithText,
  iterateTrialVerdicts,
  precheckAttempts,
  trialCountsByStudy,
  type AttemptRecord,
  type TrialRecord,
} from '../db/results';
import { orderNumber } from '../schema/trial-place';
import { junitXml } from './junit';
import { ATTEMPT_PARQUET_COLUMNS, CHECK_PARQUET_COLUMNS, CHOICE_PARQUET_COLUMNS, writeTrialTables, TRIAL_PARQUET_COLUMNS, type ParquetColumn } from './parquet';
import { jsonMayHoldSecret, redactSecrets } from '../providers/secrets';
import { checksCsv, choicesCsv, trialsCsv } from './csv';
import { choiceResolver, type Choice, type ChoiceRow } from '../analysis/choices';
import { iterateChoiceRows } from '../db/choices';
import { writeRunJson } from './json';
import { runStatusLabel } from '../schema/run-status';
import { runAudit } from '../db/audit';
import { isSimulatedProvider } from '../providers/vendor-descriptors';
import type { StoppingReport } from '../schema/stopping';
import type { ExportChoices } from '../schema/choices';
import { withLateAnswers } from './late';

// Exports stream from PostgreSQL page by page: a 20,000-trial run never sits in memory whole.
// Everything passes redactSecrets once more on the way out — a key must never leave in an export.

// `clean`: the record's JSON text was checked (jsonMayHoldSecret) and nothing in it could be redacted, so the
// deep-copying walk is skipped — its result would equal its input.
const redact = <T>(v: T, clean: boolean): T => (clean ? v : redactSecrets(v));

/** The Parquet sidecar's format name. */
export const PARQUET_EXPORT_FORMAT = 'tclab.parquet/v1';

function toExportAttempt(a: Omit<AttemptRecord, 'outcome'> & { outcome: ExportAttempt['outcome'] }, clean = false): ExportAttempt {
  return {
    n: a.n,
    outcome: a.outcome,
    errorKind: a.errorKind,
    httpStatus: a.httpStatus,
    latencyMs: a.latencyMs,
    request: redact(a.request, clean),
    response: redact(a.response, clean),
    // only when the body's text does not hold its bytes exactly: an ordinary attempt's export has no such key
    ...(a.responseRaw != null && { responseRaw: a.responseRaw }),
    errorMessage: a.errorMessage,
    retryAfterMs: a.retryAfterMs,
    inputTokens: a.inputTokens,
    outputTokens: a.outputTokens,
    startedAt: a.startedAt,
    finishedAt: a.finishedAt,
  };
}

/** A stored trial as the choice views read it (lib/analysis/choices.ts). */
function choiceRowOf(t: TrialRecord): ChoiceRow {
  const o = t.observation;
  // one literal of the row's own fields, not `{...t, …}`: spreading the whole record into five more fields left a
  // slow object per trial (docs/benchmarks.md, session 20)
  return {
    trialId: t.id,
    study: t.study,
    scenario: t.scenario,
    locale: t.locale,
    caseId: t.caseId,
    condition: t.condition,
    orderIndex: t.orderIndex,
    replicate: t.replicate,
    order: t.order,
    status: t.status,
    tool: o?.toolCalls[0]?.name ?? null,
    marker: o?.marker ?? null,
    label: o?.label ?? null,
    answered: o !== null,
  };
}

/** What the model did in a stored trial, resolved against the run's spec (choiceResolver). */
export function choiceOfTrial(t: TrialRecord, resolve: (r: ChoiceRow) => Choice): Choice {
  return resolve(choiceRowOf(t));
}

/** `c`: the trial's expected and chosen decision (choiceOfTrial; exports that have the spec pass it). */
export function toExportTrial(t: TrialRecord, clean = false, c?: Choice): TrialExportRow {
  return {
    id: t.id,
    study: t.study,
    kind: t.kind,
    scenario: t.scenario,
    locale: t.locale,
    caseId: t.caseId,
    condition: t.condition,
    order: t.order,
    orderNumber: orderNumber(t.orderIndex),
    replicate: t.replicate,
    pairKey: t.pairKey,
    status: t.status,
    toolSetRef: t.toolSetRef,
    ...(t.catalogSize !== null && { catalogSize: t.catalogSize }),
    ...(t.discovery !== null && { discovery: t.discovery }),
    visible: t.visible,
    checkpoints: t.checkpoints,
    attempts: withLateAnswers(t.attempts).map((a) => toExportAttempt(a, clean)),
    observation: t.observation ? redact(t.observation, clean) : null,
    verdicts: t.verdicts.map((v) => {
      const { checkpoint, ...evidence } = v.evidence;
      return {
        checkId: v.checkId,
        axis: v.axis,
        status: v.status,
        category: v.category,
        reason: v.reason,
        checkpoint,
        evidence,
        review: v.review ? { ...v.review, reviewedAt: new Date(v.review.reviewedAt).toISOString() } : null,
      };
    }),
    ...(t.turns.length > 0 && { turns: redact(t.turns, clean) }),
    ...(t.details !== null && { fixture: redact(t.details, clean) }),
    ...(c && { choice: { expected: c.expected, expectedToolId: c.expectedToolId, chosen: c.chosen, position: c.position } }),
  };
}

/**
 * The stored trials as exported, each with what the model did when the spec is given. `lean`: without bodies,
 * turns or details (the Parquet tables).
 */
async function* exportRows(
  runId: string,
  opts: { bodies?: boolean; lean?: boolean; spec?: ExperimentSpec } = {},
): AsyncGenerator<{ trial: TrialExportRow; choice?: Choice }> {
  const resolve = opts.spec ? choiceResolver(opts.spec) : undefined;
  // without bodies a trial is small: larger pages, fewer round trips
  for await (const { record, text } of iterateTrialRecordsWithText(runId, opts.bodies === false || opts.lean ? 500 : 100, opts)) {
    const choice = resolve && choiceOfTrial(record, resolve);
    yield { trial: toExportTrial(record, !jsonMayHoldSecret(text), choice), choice };
  }
}

async function* exportTrials(runId: string, opts: { bodies?: boolean; spec?: ExperimentSpec } = {}): AsyncGenerator<TrialExportRow> {
  for await (const { trial } of exportRows(runId, opts)) yield trial;
}

/** A run and its experiment version, loaded once by the use case (lib/runs/export.ts) and passed to every export. */
export interface RunAndExperiment {
  run: RunRow;
  experiment: ExperimentRow & { spec: ExperimentSpec };
}

/** What only some runs' JSON carries, computed by the use case: omitted when absent or empty. */
export interface RunJsonExtras {
  /** Catalog studies: the visibility funnel's rows as exported. */
  funnel?: readonly unknown[];
  /** Catalog studies: stage 1 and stage 2 paired per baseline → treatment × discovery × N. */
  descriptionPairs?: readonly unknown[];
  /** Stop when decided: when and why each study stopped. */
  stopping?: StoppingReport | null;
  /** A select or confirm run of an improve-descriptions loop: the stage and the loop's record. */
  optimisation?: { stage: 'select' | 'confirm'; record: unknown } | null;
}

/** The run's settings and state as the exports write them (`run` of the JSON export and of the Parquet sidecar). */
function exportRunOf(run: RunRow) {
  return {
    ...run.settings,
    id: run.id,
    experimentId: run.experimentId,
    ...(run.name !== null ? { name: run.name } : {}),
    ...(run.note !== null ? { note: run.note } : {}),
    status: run.status,
    statusLabel: runStatusLabel(run.status),
    statusReason: run.statusReason,
    totalTrials: run.totalTrials,
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    simulated: isSimulatedProvider(run.provider),
  };
}

/** The whole run as `tclab.run/v2` JSON, streamed, with its Table 1 (`summary`) and what the model did (`choices`), computed by the caller. */
export async function runJson({ run, experiment: exp }: RunAndExperiment, summary: ExportSummary, choices: ExportChoices, extras: RunJsonExtras = {}): Promise<Readable> {
  const runId = run.id;
  const [prechecks, audit] = await Promise.all([precheckAttempts(runId), runAudit(runId)]);
  const out = new PassThrough();
  const parts = {
    experiment: exp.spec,
    run: exportRunOf(run),
    prechecks: prechecks.map((a): ExportPrecheck => toExportAttempt(a)),
    trials: exportTrials(runId, { spec: exp.spec }),
    summary,
    choices,
    funnel: extras.funnel,
    descriptionPairs: extras.descriptionPairs,
    stopping: extras.stopping,
    optimisation: extras.optimisation,
    audit: audit.map((a) => ({ at: a.at, actor: a.actor, action: a.action, detail: a.detail })),
  };
  writeRunJson(parts, out).catch((e: Error) => out.destroy(e));
  return out;
}

/** One CSV row per trial, streamed. */
export function trialsCsvOf({ run }: RunAndExperiment): Readable {
  return trialsCsv(exportTrials(run.id, { bodies: false }), { bom: false });
}

/** One CSV row per trial: what the model did (lib/analysis/choices.ts), streamed. */
export function choicesCsvOf({ run, experiment }: RunAndExperiment): Readable {
  const resolve = choiceResolver(experiment.spec);
  async function* choices(): AsyncGenerator<Choice> {
    for await (const r of iterateChoiceRows(run.id)) yield resolve(r);
  }
  return choicesCsv(choices());
}

/** The run as JUnit XML (one test case per trial), for CI. */
export async function junitOf({ run }: RunAndExperiment): Promise<Readable> {
  return junitXml(`tclab run ${run.id} (${run.provider}/${run.model})`, await trialCountsByStudy(run.id), iterateTrialVerdicts(run.id));
}

/** The Parquet tables of a run (docs/export.md#parquet), each streamed from its own database cursor. */
/** The Parquet tables of a run, in the order they are written (docs/export.md#parquet). */
export const PARQUET_TABLES = ['trials', 'attempts', 'checks', 'choices'] as const;
export type ParquetTable = (typeof PARQUET_TABLES)[number];

/**
 * The Parquet tables of a run written to `out` (one Writable per table, each ended): trials, attempts, checks
 * and choices from one pass over the stored trials (writeTrialTables; a second pass over the choice rows cost a
 * tenth of the export, docs/benchmarks.md). A failure destroys every output not yet finished and rethrows.
 */
export async function writeParquetTables({ run, experiment }: RunAndExperiment, out: Record<ParquetTable, Writable>): Promise<void> {
  async function* rows(): AsyncGenerator<{ trial: TrialExportRow; choice: Choice }> {
    for await (const { trial, choice } of exportRows(run.id, { lean: true, spec: experiment.spec })) yield { trial, choice: choice! };
  }
  try {
    await writeTrialTables(rows(), out);
  } catch (e) {
    for (const w of Object.values(out)) if (!w.writableFinished) w.destroy();
    throw e;
  }
}

/** Each Parquet table's column names and types, in order (the sidecar's `tables`). */
export function parquetTableColumns(): Record<ParquetTable, { name: string; type: string }[]> {
  const columns = (cs: readonly ParquetColumn<never>[]) => cs.map((c) => ({ name: c.name, type: c.type }));
  return {
    trials: columns(TRIAL_PARQUET_COLUMNS),
    attempts: columns(ATTEMPT_PARQUET_COLUMNS),
    checks: columns(CHECK_PARQUET_COLUMNS),
    choices: columns(CHOICE_PARQUET_COLUMNS),
  };
}

/** The Parquet tables' sidecar (`run.json`): the run, its experiment spec and Table 1, and each table's columns. */
export function parquetSidecarOf({ run, experiment }: RunAndExperiment, summary: ExportSummary): string {
  const tables = parquetTableColumns();
  return `${JSON.stringify(redactSecrets({ format: PARQUET_EXPORT_FORMAT, run: exportRunOf(run), experiment: experiment.spec, summary, tables }), null, 2)}\n`;
}

/** One CSV row per check, streamed. */
export function checksCsvOf({ run }: RunAndExperiment): Readable {
  return checksCsv(exportTrials(run.id, { bodies: false }));
}

/** A stored trial of this run as its TCC v0.1 case card (context filled in) and observation file; null when
 * the run has no such trial (a trial of another run included). */
export async function trialTccOf({ run, experiment }: RunAndExperiment, trialId: string): Promise<{ card: TccCard; observations: TccObservations } | null> {
  const t = await getTrialRecord(run.id, trialId);
  return t ? tccOf(t, experiment.spec, run) : null;
}

function tccOf(t: TrialRecord, spec: ExperimentSpec, run: RunRow): { card: TccCard; observations: TccObservations } {
  const { study, kase } = findStudyCase(spec, t.study, t.caseId);
  const condition = study.conditions.find((c) => c.id === t.condition)!;
  const defs = naturalDefinitions(spec, condition, t.scenario, t.locale);
  const effects = new Map(spec.scenarios.find((s) => s.id === t.scenario)?.tools.map((x) => [x.id, x.effect]));
  const tools = resolveSent(study, defs, t.scenario, t.order).map((x) => toScoringTool(x, effects));
  const s = run.settings;
  const model = `${run.provider}/${run.model} temperature=${s.temperature ?? 'default'}${s.seed != null ? ` seed=${s.seed}` : ''}`;
  const observation: Observation | null = t.observation ? { ...t.observation, finishReason: null } : null;
  const checks = checksFor(kase, t.condition);
  const own = kindModule(study.kind).tcc?.({ id: t.id, details: t.details, checks, observation, tools, scenario: spec.scenarios.find((x) => x.id === t.scenario) });
  if (!own) return exportTrialTcc({ kase: { ...kase, checks }, model, tools, observation });
  const card = trialCard({
    kase: { ...kase, checks: own.checks, evidenceGate: [...kase.evidenceGate, ...own.evidenceGate] },
    model,
    tools,
    observation,
    fixtureRef: own.fixtureRef,
    mode: own.mode,
  });
  return { card, observations: own.observations };
}

/** Every trial of a run as TCC files in `dir` (`<trialId>.card.json`, `<trialId>.observations.json`). */
export async function writeRunTccOf({ run, experiment }: RunAndExperiment, dir: string): Promise<number> {
  await mkdir(dir, { recursive: true });
  let n = 0;
  for await (const t of iterateTrialRecords(run.id)) {
    const { card, observations } = tccOf(t, experiment.spec, run);
    const names = tccFileNames(t.id);
    await writeFile(path.join(dir, names.card), `${JSON.stringify(redactSecrets(card), null, 2)}\n`);
    await writeFile(path.join(dir, names.observations), `${JSON.stringify(redactSecrets(observations), null, 2)}\n`);
    n++;
  }
  return n;
}
