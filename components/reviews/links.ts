import { urls } from '@/lib/urls';

/** Where a pair of the review list opens: side by side, or the one trial there is — the list's filter kept. */
export function pairHref(runId: string, p: { baselineId: string | null; treatmentId: string | null }, show: string | null): string {
  if (p.baselineId && p.treatmentId) return urls.trialPair(runId, p.baselineId, p.treatmentId, show);
  return urls.trial(runId, (p.baselineId ?? p.treatmentId)!);
}
