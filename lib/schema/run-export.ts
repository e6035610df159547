import { z } from 'zod';
import { StoppingReport } from './stopping';
import { StudyKind } from './study-kind';
import { ExperimentSpecShape } from './experiment';
import { RUN_EXPORT_FORMAT, StudySummary } from './table1';
import { Marker, ToolCall } from './observation';
import { AttemptOutcome, RunSettings, RunStatus, TransportErrorKind, TrialStatus } from './run';
import { TccAxis } from './tcc';
import { CheckStatus, Checkpoint, Evidence, FailureCategory } from './verdict';
import { ExportChoices, ExportTrialChoice } from './choices';

/**
 * The public JSON export of a run (`tclab.run/v2`), written by lib/export/json.ts. The names listed in
 * docs/export.md ("Export fields") are required; the optional ones are extensions. Unknown keys are accepted (and dropped on
 * parse), so newer writers stay readable.
 */

/** One HTTP exchange (a trial's attempt or a pre-check). */
export const ExportAttempt = z.object({
  n: z.number().int().min(1),
  /**
   * `sending`: out at the time of the export; `lost`: sent, its worker died before the answer was recorded;
   * `late`: an answer recorded by a holder presumed dead after the trial's turn was answered again — the `ok`
   * attempt with the highest number carries the formal result (docs/export.md)
   */
  outcome: z.union([AttemptOutcome, z.literal('late')]),
  errorKind: TransportErrorKind.nullable(),
  httpStatus: z.number().int().nullable(),
  latencyMs: z.number().int().min(0).nullable(),
  /** Raw request body as sent, secrets redacted. */
  request: z.unknown(),
  /** Raw response body as received; null when none came. */
  response: z.unknown(),
  /** The body's bytes as received, base64, when `response` does not hold them exactly (not UTF-8, nested past the json parser): then `response` is `{ text }`. */
  responseRaw: z.string().optional(),
  errorMessage: z.string().nullable().optional(),
  retryAfterMs: z.number().int().nullable().optional(),
  inputTokens: z.number().int().nullable().optional(),
  outputTokens: z.number().int().nullable().optional(),
  startedAt: z.string().nullable().optional(),
  finishedAt: z.string().nullable().optional(),
});
export type ExportAttempt = z.infer<typeof ExportAttempt>;

/** A pre-check attempt, recorded apart and in no denominator; it may say which case it sent. */
export const ExportPrecheck = ExportAttempt.extend({
  study: z.string().optional(),
  condition: z.string().optional(),
  caseId: z.string().optional(),
});
export type ExportPrecheck = z.infer<typeof ExportPrecheck>;

export const ExportObservation = z.object({
  toolCalls: z.array(ToolCall),
  marker: Marker.nullable(),
  label: z.string().nullable(),
  text: z.string().nullable(),
  refusal: z.boolean().optional(),
  malformed: z.string().nullable().optional(),
  finishReason: z.string().nullable().optional(),
});
export type ExportObservation = z.infer<typeof ExportObservation>;

export const ExportVerdict = z.object({
  checkId: z.string(),
  axis: TccAxis,
  status: CheckStatus,
  category: FailureCategory.nullable(),
  reason: z.string(),
  checkpoint: Checkpoint.optional(),
  evidence: Evidence.optional(),
  /** A reviewer's reading of this check; the verdict above is the formal result and never changes. */
  review: z
    .object({ humanStatus: z.enum(['pass', 'fail']), graderStatus: CheckStatus, reviewer: z.string(), note: z.string(), reviewedAt: z.string() })
    .nullable()
    .optional(),
});
export type ExportVerdict = z.infer<typeof ExportVerdict>;

export const ExportTrial = z.object({
  id: z.string(),
  study: z.string(),
  kind: StudyKind,
  scenario: z.string(),
  locale: z.string(),
  caseId: z.string(),
  condition: z.string(),
  /** Tool names in the order they were sent. */
  order: z.array(z.string()),
  /** The candidate order, numbered from 1 as every page numbers it (`o1`; the pair key's `o<i>` is the stored index, from 0). */
  orderNumber: z.number().int().min(1),
  replicate: z.number().int().min(1),
  pairKey: z.string(),
  status: TrialStatus,
  toolSetRef: z.string(),
  /** Distractors added from the study's catalog (docs/discovery.md); absent without a catalog. */
  catalogSize: z.number().int().min(0).optional(),
  /** The discovery variant's id; absent without a catalog (every tool sent). */
  discovery: z.string().optional(),
  /** Names the model could see before it decided, in rank order where there is one (checkpoint 1); null: not recorded. */
  visible: z.array(z.string()).nullable().optional(),
  /** The five checkpoints of seed 000 for the formal result; null when the trial was not scored. */
  checkpoints: z.record(Checkpoint, CheckStatus).nullable().optional(),
  attempts: z.array(ExportAttempt),
  observation: ExportObservation.nullable(),
  verdicts: z.array(ExportVerdict),
  /** task trials: the stored turns (answer, calls with wire ids, results sent back, fixture log entries with the gates). */
  turns: z
    .array(z.object({ n: z.number().int(), attemptN: z.number().int(), observation: z.unknown(), calls: z.unknown(), results: z.unknown(), evidence: z.unknown() }))
    .optional(),
  /** task trials: fixture_ref, principal, state before and after, the fixture log, the verified gate. */
  fixture: z.unknown().optional(),
  /** What the model did: expected and chosen decision, the chosen tool's position in the order sent. */
  choice: ExportTrialChoice.optional(),
});
/** One trial of the JSON export; also the row type of the CSV exports. */
export type TrialExportRow = z.infer<typeof ExportTrial>;

const Timestamp = z.union([z.iso.datetime({ offset: true }), z.date().transform((d) => d.toISOString())]);

export const ExportRun = RunSettings.extend({
  id: z.string(),
  /** A researcher's name and note for the run (absent when none was given). */
  name: z.string().optional(),
  note: z.string().optional(),
  status: RunStatus,
  /** How the status reads (`completed with unresolved trials`). */
  statusLabel: z.string().optional(),
  statusReason: z.string().nullable().optional(),
  totalTrials: z.number().int().optional(),
  createdAt: Timestamp,
  startedAt: Timestamp.nullable(),
  finishedAt: Timestamp.nullable(),
  /** True for the simulated provider: a heuristic, not a language model. */
  simulated: z.boolean(),
});
export type ExportRun = z.infer<typeof ExportRun>;
/** What a writer may pass: dates as Date or ISO strings, settings with their defaults. */
export type ExportRunInput = z.input<typeof ExportRun>;

/** A Table 1 column as exported; `kind`, `incomplete`, counts beside n and `categories` are extensions. */
export const ExportStudySummary = StudySummary.extend({ kind: StudySummary.shape.kind.optional() });
export const ExportSummary = z.object({ studies: z.array(ExportStudySummary) });
export type ExportSummary = z.infer<typeof ExportSummary>;

/** One audit entry of the run: who (an account's email, or the local user / command line), what, when. */
export const ExportAuditEntry = z.object({
  at: z.union([z.string(), z.date()]).transform((d) => (typeof d === 'string' ? d : d.toISOString())),
  actor: z.string(),
  action: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export type ExportAuditEntry = z.input<typeof ExportAuditEntry>;

export const RunExport = z.object({
  format: z.literal(RUN_EXPORT_FORMAT),
  experiment: ExperimentSpecShape,
  run: ExportRun,
  prechecks: z.array(ExportPrecheck),
  trials: z.array(ExportTrial),
  summary: ExportSummary,
  /** What the model did, per study × condition: expected × chosen counts and the chosen tool's positions. */
  choices: ExportChoices.optional(),
  /** Catalog studies: the visibility funnel per discovery × N × condition (recall@k, chosen | visible, arguments, result, tokens). */
  funnel: z.array(z.record(z.string(), z.unknown())).optional(),
  /** Catalog studies: each baseline → treatment pair under the same discovery × N, stage 1 (visible) and stage 2 (chosen | visible) paired. */
  descriptionPairs: z.array(z.record(z.string(), z.unknown())).optional(),
  /** Stop when decided: when and why each study stopped, with its anytime-valid intervals (absent for runs without the option). */
  stopping: StoppingReport.optional(),
  /**
   * A select or confirm run of an improve-descriptions loop (docs/optimise.md): which stage it ran and the loop's
   * record as stored (the seal, rule, candidates with their provenance, select and confirm numbers, transfer),
   * as `/api/experiments/ID/optimisations?record=R` gives it. Absent for any other run.
   */
  optimisation: z.object({ stage: z.enum(['select', 'confirm']), record: z.record(z.string(), z.unknown()) }).optional(),
  audit: z.array(ExportAuditEntry),
});
export type RunExport = z.infer<typeof RunExport>;
