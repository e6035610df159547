// Use case: what a door shows of trace imports as stored — the list, one import with its report, one
// candidate, and where a reviewer goes next (docs/traces.md).
import { getCandidate, getTraceImport, listCandidateHeads, listTraceImports, type CandidateRow, type TraceImportRow } from '../db/trace-candidates';
import type { ImportReport } from '../traces/session';

export { getTraceImport, listTraceImports, type CandidateRow, type TraceImportRow };
export type { ImportReport };

/** One candidate as the review page shows it, and the unreviewed group heads before and after it. */
export async function candidateForReview(importId: string, seq: number) {
  const [imp, row, heads] = await Promise.all([getTraceImport(importId), getCandidate(importId, seq), listCandidateHeads(importId)]);
  if (!imp || !row) return null;
  const unreviewed = heads.filter((h) => h.status === 'unreviewed' && h.seq !== seq).map((h) => h.seq);
  return {
    import: imp,
    row,
    /** the group head this candidate is reviewed with (itself when it heads its group) */
    head: row.hash === row.groupHash ? row.seq : (heads.find((h) => h.groupHash === row.groupHash)?.seq ?? null),
    position: heads.findIndex((h) => h.seq === seq) + 1,
    heads: heads.length,
    nextUnreviewed: unreviewed.find((s) => s > seq) ?? unreviewed[0] ?? null,
  };
}

/** An import's report as stored (the importers write every field: lib/traces/session.ts). */
export const reportOf = (imp: TraceImportRow): ImportReport => imp.report as ImportReport;
