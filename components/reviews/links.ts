/** Where a pair of the review list opens: side by side, or the one trial there is — the list's filter kept. */
export function pairHref(runHref: string, p: { baselineId: string | null; treatmentId: string | null }, show: string | null): string {
  const q = show ? `?${new URLSearchParams({ show })}` : '';
  if (p.baselineId && p.treatmentId) return `${runHref}/pairs/${encodeURIComponent(p.baselineId)}/${encodeURIComponent(p.treatmentId)}${q}`;
  return `${runHref}/trials/${encodeURIComponent((p.baselineId ?? p.treatmentId)!)}`;
}
