import type { StoredTurn } from './turn';
import type { StudyKind } from './study-kind';
import type { AttemptKind, AttemptOutcome, TransportErrorKind } from './run';
import type { TrialStatus } from './run-status';
import type { CheckStatus, Checkpoint, FailureCategory, Evidence } from './verdict';
import type { TccAxis } from './tcc';
import type { Marker } from './observation';

// A trial as stored, with what was sent and received (lib/db/results.ts reads it): the shape the trial page,
// the pair page and the exports are given.

/** What identifies a trial and its place in the matrix (a row of `trials`). */
export interface TrialIdentity {
  id: string;
  runId: string;
  trialKey: string;
  study: string;
  kind: string;
  scenario: string;
  locale: string;
  caseId: string;
  condition: string;
  /** Tool names in the order sent. */
  order: string[];
}

export interface AttemptRecord {
  n: number;
  /** Which turn of the trial the exchange was for (1 for single-answer kinds). */
  turn: number;
  kind: AttemptKind;
  outcome: AttemptOutcome;
  errorKind: TransportErrorKind | null;
  errorMessage: string | null;
  httpStatus: number | null;
  retryAfterMs: number | null;
  latencyMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  request: unknown;
  response: unknown;
  /** The body's bytes as received, base64, when `response` does not hold them exactly (else null). */
  responseRaw?: string | null;
  /** ISO 8601 in UTC (`Date.prototype.toISOString`), as the exports write it. */
  startedAt: string;
  finishedAt: string | null;
}

export interface TrialRecord extends TrialIdentity {
  kind: StudyKind;
  /** The candidate order's index in the design (the `o<i>` of the pair key). */
  orderIndex: number;
  replicate: number;
  pairKey: string;
  status: TrialStatus;
  toolSetRef: string;
  /** Distractors added and the discovery variant (docs/discovery.md); null for a study without a catalog. */
  catalogSize: number | null;
  discovery: string | null;
  /** Names the model could see before it decided; null when not recorded. */
  visible: string[] | null;
  /** The five checkpoints of the formal result (null until scored). */
  checkpoints: Record<Checkpoint, CheckStatus> | null;
  attempts: AttemptRecord[];
  /** Conversation kinds (task): the stored turns, oldest first; empty for single-answer kinds. */
  turns: StoredTurn[];
  /** The kind's own result (task: lib/studies/task TaskDetails), null until scored or for other kinds. */
  details: unknown;
  observation: {
    toolCalls: { name: string; arguments: Record<string, unknown> | null; rawArguments?: string }[];
    marker: Marker | null;
    label: string | null;
    text: string | null;
    refusal: boolean;
    malformed: string | null;
  } | null;
  verdicts: {
    checkId: string;
    axis: TccAxis;
    status: CheckStatus;
    category: FailureCategory | null;
    reason: string;
    /** Where the verdict's evidence sits, and the checkpoint it counts for (stored with it). */
    evidence: Evidence & { checkpoint?: Checkpoint };
    /** A reviewer's reading, stored beside the verdict (null: not reviewed). */
    review: { humanStatus: 'pass' | 'fail'; graderStatus: CheckStatus; reviewer: string; note: string; reviewedAt: string } | null;
  }[];
}
