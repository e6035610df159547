import type { ShownInterval } from './format';

/**
 * An interval as the pages show it (docs/design.md#the-statistics-it-relies-on): its text, or "—" with the reason on hover (and for screen
 * readers) where there is nothing to estimate it from. The text comes from lib/analysis/format.ts.
 */
export function Interval({ ci, testId }: { ci: ShownInterval; testId?: string }) {
  if (!ci.reason) return <span data-testid={testId}>{ci.text}</span>;
  return (
    <abbr className="no-ci" title={`no interval: ${ci.reason}`} aria-label={`no interval: ${ci.reason}`} data-testid={testId}>
      —
    </abbr>
  );
}
