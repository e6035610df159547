import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { checkGateNames, evaluateGates, formatGateResults, gateValues, GateNameError, GateSyntaxError, parseGate, type Gate } from '../../lib/analysis/ci-gates';
import { summarizeCells, type SummarySpec } from '../../lib/analysis/summary';
import { formatTable1Markdown } from '../../lib/analysis/format';
import type { RunSummary } from '../../lib/schema/table1';
import { exportFormat, type ExportSession } from '../../lib/runs/export';
import { UsageError } from '../errors';
import { err } from '../output';

// The CI side of `tclab run` and `tclab export`: gates, a JUnit report, Table 1 as Markdown.

export interface CiOptions {
  gate?: string[];
  junit?: string;
  summaryMd?: string;
}

export function ciOptions(cmd: Command): Command {
  return cmd
    .option(
      '--gate <expr>',
      'fail (exit 1) unless EXPR holds, e.g. "selection.treatment.unwanted_write == 0" (repeatable; see docs/gates.md)',
      (v: string, acc: string[] = []) => [...acc, v],
    )
    .option('--junit <file>', 'write a JUnit XML report: one test case per trial, failures with their categories')
    .option('--summary-md <file>', 'write Table 1 as Markdown (for a CI job summary)');
}

/** Parse the gates and check their names against what the spec's Table 1 can name, before anything runs. */
export function parseGates(opts: CiOptions, spec: SummarySpec): Gate[] {
  const gates = (opts.gate ?? []).map((g) => {
    try {
      return parseGate(g);
    } catch (e) {
      if (e instanceof GateSyntaxError) throw new UsageError(`--gate: ${e.message}`);
      throw e;
    }
  });
  const empty = summarizeCells(spec, { status: [], pairs: [], categories: [], tasks: [], orders: [], flipped: [], flippedTotal: new Map() });
  try {
    checkGateNames(gates, gateValues(empty));
  } catch (e) {
    if (e instanceof GateNameError) throw new UsageError(`--gate: ${e.message}`);
    throw e;
  }
  return gates;
}

/** Write the JUnit and Markdown files, evaluate the gates (on stderr); false when a gate failed. */
export async function ciOutputs(session: ExportSession, title: string, summary: RunSummary, gates: Gate[], opts: CiOptions): Promise<boolean> {
  if (opts.junit) {
    await pipeline(await exportFormat('junit.xml')!.stream(session), createWriteStream(opts.junit));
    err(`wrote junit → ${opts.junit}\n`);
  }
  if (opts.summaryMd) {
    await writeFile(opts.summaryMd, formatTable1Markdown(summary, title));
    err(`wrote summary-md → ${opts.summaryMd}\n`);
  }
  if (gates.length === 0) return true;
  let results;
  try {
    results = evaluateGates(gates, summary);
  } catch (e) {
    if (e instanceof GateNameError) throw new UsageError(`--gate: ${e.message}`);
    throw e;
  }
  err(`${formatGateResults(results)}\n`);
  const failed = results.filter((r) => !r.ok);
  if (failed.length) err(`tclab: ${failed.length} of ${results.length} gates failed: ${failed.map((r) => r.gate).join('; ')}\n`);
  return failed.length === 0;
}
