// The use case of every door that imports traces (the "Import traces" page, `tclab cases import`): read a
// file in one of the formats of docs/traces.md line by line, redact, drop duplicates, group, sample, and store
// the candidates with the report in one transaction — a failed import stores nothing.
import { getExperiment } from '../db/experiments';
import { TraceImportWriter, type NewCandidate } from '../db/trace-candidates';
import type { Actor } from '../schema/actor';
import { TRACE_FORMATS, type TraceFormat } from '../schema/trace-candidate';
import { IMPORTERS, type Line } from '../traces';
import { Redactor } from '../traces/redact';
import { ImportSession, type ImportReport, type StoredCandidate } from '../traces/session';

/** Bad input: the message names the field, the line or the span. Nothing was stored. */
export class TraceImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TraceImportError';
  }
}

export interface ImportTracesInput {
  format: string;
  /** The file's name as the user gave it (kept, redacted, in each candidate's provenance). */
  file: string;
  lines: AsyncIterable<Line>;
  /** Candidates may join this experiment's next version; a catalog-less trace is then mapped onto its tools. */
  experimentId?: string | null;
  sample?: number;
  redact?: string[];
  seed?: number;
}

export interface ImportTracesResult {
  importId: string;
  report: ImportReport;
}

const BATCH = 500;

export function parseTraceFormat(v: string): TraceFormat {
  if ((TRACE_FORMATS as readonly string[]).includes(v)) return v as TraceFormat;
  throw new TraceImportError(`format: expected one of ${TRACE_FORMATS.join(', ')} (got "${v}")`);
}

export async function importTraces(input: ImportTracesInput, actor: Actor): Promise<ImportTracesResult> {
  const format = parseTraceFormat(input.format);
  if (input.sample !== undefined && (!Number.isInteger(input.sample) || input.sample < 1))
    throw new TraceImportError(`sample: expected a whole number of at least 1 (got ${String(input.sample)})`);
  try {
    new Redactor(input.redact ?? []);
  } catch (e) {
    throw new TraceImportError((e as Error).message);
  }
  const experimentId = input.experimentId ?? null;
  if (experimentId !== null && !(await getExperiment(experimentId))) throw new TraceImportError(`experiment-id: no experiment "${experimentId}"`);

  const session = new ImportSession({ catalogTarget: experimentId !== null, sample: input.sample, redact: input.redact, seed: input.seed });
  const writer = await TraceImportWriter.begin({ actor, format, file: new Redactor(input.redact ?? []).text(input.file), experimentId });
  const row = (s: StoredCandidate): NewCandidate => ({
    hash: s.hash,
    groupHash: s.groupHash,
    stratum: s.stratum,
    catalogCompleteness: s.candidate.catalogCompleteness,
    candidate: s.candidate,
  });
  try {
    let pending: NewCandidate[] = [];
    for await (const item of IMPORTERS[format](input.lines, input.file)) {
      for (const s of session.feed(item)) pending.push(row(s));
      if (pending.length >= BATCH) {
        await writer.insert(pending);
        pending = [];
      }
    }
    pending.push(...session.finish().map(row));
    await writer.insert(pending);
    const report = session.report;
    if (report.read === 0) throw new TraceImportError(`${input.file}: no records: the file is empty`);
    if (report.refused.unparseable === report.read) {
      const first = report.refusals[0];
      throw new TraceImportError(`${input.file} is not ${format}: nothing could be read (${first.where}: ${first.detail})`);
    }
    await writer.commit(report, actor);
    return { importId: writer.id, report };
  } catch (e) {
    await writer.rollback().catch(() => {});
    throw e;
  }
}
