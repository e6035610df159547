import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { z } from 'zod';
import { compareCard, type CardComparison } from '../../lib/scoring/compare';
import { TccCard, TccObservations } from '../../lib/schema/tcc';
import { UsageError } from '../errors';

/** `['checks', 0, 'axis']` → `$.checks[0].axis`; a key that is not an identifier → `$["tool-choice"]`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  const step = (p: PropertyKey) =>
    typeof p === 'number' ? `[${p}]` : /^[A-Za-z_$][\w$]*$/.test(String(p)) ? `.${String(p)}` : `[${JSON.stringify(String(p))}]`;
  return `$${path.map(step).join('')}`;
}

/** Read and parse a JSON file; a failure is a UsageError (exit 2) naming the file and the line/column. */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`${file}: cannot read: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (e) {
    const msg = (e as Error).message.replace(/\s+/g, ' ');
    const pos = /position (\d+)/.exec(msg);
    let where = '';
    if (pos) {
      const before = text.slice(0, Number(pos[1]));
      const line = before.split('\n').length;
      where = ` (line ${line}, column ${Number(pos[1]) - before.lastIndexOf('\n')})`;
    }
    throw new UsageError(`${file}: not valid JSON${where}: ${msg}`);
  }
}

/** Validate with a zod schema; a failure is a UsageError naming the file and each failing JSON path. */
export function parseFile<T extends z.ZodType>(schema: T, value: unknown, file: string, what: string): z.infer<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const lines = r.error.issues.map((i) => `  ${jsonPath(i.path)}: ${i.message}`);
  throw new UsageError(`${file}: not a valid ${what}:\n${lines.join('\n')}`);
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
  const lines = rows.map((r) => r.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]) : cell)).join('  ').trimEnd());
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  ') + '  ------');
  const s = c.summary;
  return `case ${c.case_id}\n\n${lines.join('\n')}\n\n${s.pass} pass, ${s.fail} fail, ${s.untested} untested\n`;
}

/** `tclab compare CARD OBSERVATIONS`: a TCC v0.1 case card against an observation file keyed by check id. */
export function runCompare(cardFile: string, observationsFile: string, opts: { json?: boolean } = {}): CompareRun {
  const card = parseFile(TccCard, readJsonFile(cardFile), cardFile, 'TCC v0.1 case card');
  const observations = parseFile(TccObservations, readJsonFile(observationsFile), observationsFile, 'observation file (an object keyed by check id)');
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
      for (const id of r.unknownIds) process.stderr.write(`tclab: ${observationsFile}: "${id}" is not a check of the card (ignored)\n`);
      process.stdout.write(r.output);
      if (r.exitCode !== 0) process.exitCode = r.exitCode;
    });
}
