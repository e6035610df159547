import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { compareCard, type CardComparison } from '../../lib/scoring/compare';
import { parseCardBytes, parseObservationsBytes, type Parsed } from '../../lib/experiments/parse';
import { UsageError } from '../errors';
import { err, out, setExitCode } from '../output';

/** Read a file's bytes; a failure is a UsageError (exit 2) naming the file. */
export function readInputFile(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new UsageError(`${file}: cannot read: ${(e as Error).message}`);
  }
}

/** A parse result's value, or a UsageError with one line per issue, each naming the file and the field. */
export function fileValue<T>(r: Parsed<T>, file: string, what: string): T {
  if (r.ok) return r.value;
  throw new UsageError(r.issues.map((i) => `${file}: ${i.path}: ${i.message}`).join('\n'), `${file}: not a valid ${what}`);
}

export interface CompareRun {
  comparison: CardComparison;
  output: string;
  /** Observation keys that name no check of the card (ignored). */
  unknownIds: string[];
  /** 0: nothing failed; 1: a check failed. */
  exitCode: 0 | 1;
}

export function formatComparison(c: CardComparison): string {
  const rows = [['check', 'axis', 'status', 'reason'], ...c.checks.map((k) => [k.id, k.axis, k.status, k.reason])];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) =>
    r
      .map((cell, i) => (i < 3 ? cell.padEnd(widths[i]) : cell))
      .join('  ')
      .trimEnd(),
  );
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  ') + '  ------');
  const s = c.summary;
  return `case ${c.case_id}\n\n${lines.join('\n')}\n\n${s.pass} pass, ${s.fail} fail, ${s.untested} untested\n`;
}

/** `tclab compare CARD OBSERVATIONS`: a TCC v0.1 case card against an observation file keyed by check id. */
export function runCompare(cardFile: string, observationsFile: string, opts: { json?: boolean } = {}): CompareRun {
  const card = fileValue(parseCardBytes(readInputFile(cardFile)), cardFile, 'TCC v0.1 case card');
  const observations = fileValue(parseObservationsBytes(readInputFile(observationsFile)), observationsFile, 'observation file (an object keyed by check id)');
  const comparison = compareCard(card, observations);
  const ids = new Set(card.checks.map((c) => c.id));
  const unknownIds = Object.keys(observations).filter((k) => !ids.has(k));
  const output = opts.json ? `${JSON.stringify(comparison, null, 2)}\n` : formatComparison(comparison);
  return { comparison, output, unknownIds, exitCode: comparison.summary.fail > 0 ? 1 : 0 };
}

export function register(program: Command): void {
  program
    .command('compare <card> <observations>')
    .description('compare a TCC v0.1 case card with an observation file; checks without an observation are untested (exit 0 ok, 1 a check failed, 2 invalid file)')
    .option('--json', 'print {case_id, checks: [{id, axis, status, reason}], summary}')
    .action((cardFile: string, observationsFile: string, opts: { json?: boolean }) => {
      const r = runCompare(cardFile, observationsFile, opts);
      for (const id of r.unknownIds) err(`tclab: ${observationsFile}: "${id}" is not a check of the card (ignored)\n`);
      out(r.output);
      if (r.exitCode !== 0) setExitCode(r.exitCode);
    });
}
