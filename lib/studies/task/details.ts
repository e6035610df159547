import type { LogEntry } from '../../fixture/backend';
import type { StateProblem } from '../../fixture/verify';

/** What a task trial's scoring keeps beside its verdicts (the trial page and the export show it). */
export interface TaskDetails {
  fixtureRef: string;
  principal: { id: string; permissions: string[] };
  before: unknown;
  after: unknown;
  log: LogEntry[];
  /** The verified gate: the final state against each state the card expects (null: the card expects none). */
  verified: { status: 'pass' | 'fail'; problems: StateProblem[] } | null;
}
