import type { Writable } from 'node:stream';
import type { ExperimentSpec } from '../schema/experiment';
import { RUN_EXPORT_FORMAT } from '../schema/table1';
import type { ExportAuditEntry, ExportPrecheck, ExportRunInput, ExportSummary, TrialExportRow } from '../schema/run-export';
import type { ExportChoices } from '../schema/choices';
import type { StoppingReport } from '../schema/stopping';

export interface RunJsonParts {
  experiment: ExperimentSpec;
  /** Dates may be Date objects or ISO strings; JSON.stringify writes Dates as ISO strings. */
  run: ExportRunInput;
  prechecks: readonly ExportPrecheck[];
  /** Pulled one at a time, so a database cursor can feed 20k trials without holding them. */
  trials: AsyncIterable<TrialExportRow> | Iterable<TrialExportRow>;
  summary: ExportSummary;
  /** What the model did (matrices and positions); omitted when not given. */
  choices?: ExportChoices;
  /** The visibility funnel per catalog study × discovery × N × condition (lib/analysis/funnel.ts); omitted without catalogs. */
  funnel?: readonly unknown[];
  /** Per baseline → treatment pair × discovery × N: stage 1 and stage 2 paired (lib/analysis/funnel.ts descriptionPairs); omitted without catalogs. */
  descriptionPairs?: readonly unknown[];
  /** Stop when decided: the report (omitted for runs without the option). */
  stopping?: StoppingReport | null;
  /** A select or confirm run of an improve-descriptions loop: the stage and the loop's record (omitted for any other run). */
  optimisation?: { stage: 'select' | 'confirm'; record: unknown } | null;
  /** Who did what to the run, when (attribution); none when omitted. */
  audit?: readonly ExportAuditEntry[];
}

export interface WriteRunJsonOptions {
  /** End `out` when done and wait until it has flushed ('finish'). Default true. */
  end?: boolean;
}

/**
 * Streams the public run export (`tclab.run/v2`, schema `RunExport` in lib/schema/run-export.ts) to `out`,
 * piece by piece: the head, then one trial per line, then the summary. Waits for 'drain' whenever `out`
 * asks it to (backpressure). Rejects if `out` errors or closes early, or if the trials iterator throws —
 * then the output is incomplete and must be discarded. The values are written as given, not re-validated.
 */
/** Characters of trial lines gathered before one write (what an export holds beyond its stream's buffer). */
export const RUN_JSON_CHUNK = 64 * 1024;

export async function writeRunJson(parts: RunJsonParts, out: Writable, options: WriteRunJsonOptions = {}): Promise<void> {
  const w = (chunk: string) => write(out, chunk);
  await w(`{"format":${JSON.stringify(RUN_EXPORT_FORMAT)},\n"experiment":${JSON.stringify(parts.experiment)},\n`);
  await w(`"run":${JSON.stringify(parts.run)},\n"prechecks":[`);
  for (let i = 0; i < parts.prechecks.length; i++) await w(`${i ? ',' : ''}\n${JSON.stringify(parts.prechecks[i])}`);
  await w(`${parts.prechecks.length ? '\n' : ''}],\n"trials":[`);
  let first = true;
  // trials go out in chunks of about RUN_JSON_CHUNK characters, not one write each: a write per 3 KB trial cost a tenth of
  // a 100,000-trial export in stream and syscall overhead (docs/benchmarks.md, "Results at scale")
  let pending = '';
  for await (const trial of parts.trials) {
    pending += `${first ? '' : ','}\n${JSON.stringify(trial)}`;
    first = false;
    if (pending.length >= RUN_JSON_CHUNK) {
      await w(pending);
      pending = '';
    }
  }
  if (pending) await w(pending);
  const choices = parts.choices ? `"choices":${JSON.stringify(parts.choices)},\n` : '';
  const funnel = parts.funnel?.length ? `"funnel":${JSON.stringify(parts.funnel)},\n` : '';
  const pairs = parts.descriptionPairs?.length ? `"descriptionPairs":${JSON.stringify(parts.descriptionPairs)},\n` : '';
  const stopping = parts.stopping ? `"stopping":${JSON.stringify(parts.stopping)},\n` : '';
  const optimisation = parts.optimisation ? `"optimisation":${JSON.stringify(parts.optimisation)},\n` : '';
  await w(
    `${first ? '' : '\n'}],\n"summary":${JSON.stringify(parts.summary)},\n${choices}${funnel}${pairs}${stopping}${optimisation}"audit":${JSON.stringify(parts.audit ?? [])}}\n`,
  );
  if (options.end ?? true) await finish(out);
}

async function write(out: Writable, chunk: string): Promise<void> {
  if (out.destroyed || out.writableEnded) throw new Error('writeRunJson: the output stream is closed');
  if (!out.write(chunk)) await waitFor(out, 'drain');
}

function finish(out: Writable): Promise<void> {
  const done = waitFor(out, 'finish');
  out.end();
  return done;
}

/** Resolves on `event`; rejects on 'error', or on 'close' before it (a destroyed stream never drains). */
function waitFor(out: Writable, event: 'drain' | 'finish'): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      out.off(event, onEvent);
      out.off('error', onError);
      out.off('close', onClose);
    };
    const onEvent = () => (cleanup(), resolve());
    const onError = (err: Error) => (cleanup(), reject(err));
    const onClose = () => (cleanup(), reject(new Error(`writeRunJson: the output stream closed before '${event}'`)));
    out.on(event, onEvent);
    out.on('error', onError);
    out.on('close', onClose);
  });
}
