// The one format of rates, differences and their intervals lives in lib/analysis/format.ts (shared with the
// CLI and the exports' human text); the pages take it from here.
export {
  clusteredCi,
  diffCi,
  differenceCi,
  formatDifference,
  kappaCi,
  numberedOrderLabel,
  orderLabel,
  orderNumber,
  placeLabel,
  pct,
  plural,
  pts,
  rateCi,
  rateWithInterval,
  wilsonCi,
  type ShownInterval,
} from '@/lib/analysis/format';

/** Exact McNemar p for display: "p = 0.0001", "p < 0.0001", "—". */
export function formatP(p: number | null): string {
  if (p === null) return 'p —';
  if (p < 0.0001) return 'p < 0.0001';
  return `p = ${p.toPrecision(2)}`;
}

export function formatDate(d: Date | string | null): string {
  if (!d) return '—';
  const date = typeof d === 'string' ? new Date(d) : d;
  return date.toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
}

export function formatInt(n: number): string {
  return n.toLocaleString('en-US');
}

/** Pretty JSON as text (never HTML). Undefined becomes "—". */
export function jsonText(value: unknown): string {
  if (value === undefined) return '—';
  return JSON.stringify(value, null, 2) ?? String(value);
}

export { isFinalRunStatus, runStatusLabel } from '@/lib/schema/run-status';

/** A base URL as shown to every reader: without user info and with query values masked (they may hold a key). */
export function displayBaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = '';
      u.password = '';
    }
    for (const k of [...u.searchParams.keys()]) u.searchParams.set(k, 'REDACTED');
    return u.toString();
  } catch {
    return '(not a URL)';
  }
}
