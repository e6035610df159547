export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  return (
    <span className={`badge status-${status}`} data-testid={testId}>
      {status}
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
