import { runStatusLabel } from '@/lib/schema/run-status';

/** A run's or a trial's status as a badge; a run status reads as its label (`completed with unresolved trials`). */
export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  return (
    <span className={`badge status-${status}`} data-testid={testId} data-status={status}>
      {runStatusLabel(status)}
    </span>
  );
}

export const SIMULATED_LABEL = 'simulated — not a language model';

export function SimulatedBadge() {
  return (
    <span className="badge sim" data-testid="simulated-badge">
      {SIMULATED_LABEL}
    </span>
  );
}
