import type { RunSettings, StoredRunBudget } from './run';
import type { RunStatus } from './run-status';

// A run as stored (lib/db/runs.ts reads it) and its progress: the shapes the pages, the CLI and the exports
// are given.

export interface RunRow {
  id: string;
  experimentId: string;
  provider: string;
  model: string;
  settings: RunSettings;
  status: RunStatus;
  statusReason: string | null;
  totalTrials: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** Shared by the runs one Run created for several provider/model targets; null for a run on its own. */
  groupId: string | null;
  /** What the run may spend (null: no budget); see lib/db/budget.ts. */
  budget: StoredRunBudget | null;
  /** A researcher's name and note for the run (null: none given). */
  name: string | null;
  note: string | null;
  /** Why a worker left the run's trials unsent (its configuration does not fit the run's base URL); null: none. */
  unsentReason: string | null;
}

export interface RunProgress {
  total: number;
  byStatus: Record<string, number>;
  done: number;
  inFlight: number;
  queued: number;
  transportErrors: number;
  lostAttempts: number;
  attempts: number;
  inputTokens: number;
  outputTokens: number;
}
