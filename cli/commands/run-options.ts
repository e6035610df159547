import path from 'node:path';
import type { Command } from 'commander';
import { SpecError } from '../../lib/schema/common';
import { parseRunLabel, type RunLabel } from '../../lib/schema/run-label';
import type { RunBudgetInput } from '../../lib/schema/run';
import type { SpendConfirmation } from '../../lib/runner/spend';
import { UsageError } from '../errors';
import type { CiOptions } from './ci-outputs';
import type { ExportFiles } from './shared';
import type { SettingsOptions } from './settings-options';

// `tclab run`'s options and what they become; each bad value is a usage error naming its flag, before
// anything is stored.

export interface RunOptions extends SettingsOptions, CiOptions {
  cluster?: string;
  template?: string;
  experiment?: string;
  experimentId?: string;
  out?: string;
  csv?: string;
  checksCsv?: string;
  wait: boolean;
  worker: boolean;
  allowUnresolved?: boolean;
  yes?: boolean;
  maxRequests?: string;
  budgetRequests?: string;
  budgetTokens?: string;
  budgetCost?: string;
  name?: string;
  note?: string;
  stopWhenDecided?: boolean;
  batch?: boolean;
  stopPrecision?: string;
  stopSeed?: string;
}

/** The run command's own options (the settings and CI options are added by their modules). */
export function runOptions(cmd: Command): Command {
  return cmd
    .option('--template <id>', 'a built-in template, e.g. reference-study')
    .option('--experiment <file>', 'an experiment spec JSON file (tclab.experiment/v1)')
    .option('--experiment-id <id>', 'a stored experiment version, e.g. reference-study-v1')
    .option('--out <file>', 'write the run as JSON (tclab.run/v2)')
    .option('--csv <file>', 'write one CSV row per trial')
    .option('--checks-csv <file>', 'write one CSV row per check')
    .option('--no-wait', 'print the run id and return once the run has started')
    .option('--no-worker', 'never start an in-process worker (wait for `npm run worker` processes)')
    .option('--allow-unresolved', 'exit 0 also when the run completed with unresolved trials (every attempt failed in transport)')
    .option('--cluster <by>', 'cluster of the clustered intervals: case (default) or scenario')
    .option('--yes', 'start the run even when its paid requests or estimated cost pass TCLAB_CONFIRM_REQUESTS / TCLAB_CONFIRM_COST')
    .option('--max-requests <n>', 'confirm a run of up to N paid requests (refused when it would send more)')
    .option('--budget-requests <n>', 'stop sending once the run has sent N requests (the run ends cancelled: "budget reached")')
    .option('--budget-tokens <n>', 'stop sending once the answers have used N tokens (input + output)')
    .option('--budget-cost <amount>', "stop sending once the estimated cost (price table's row for the model) reaches this amount")
    .option('--stop-when-decided', 'send the pairs in a random order fixed now, and stop each study once an anytime-valid test has decided it (docs/statistics.md)')
    .option('--stop-precision <points>', 'with --stop-when-decided: also stop a study once its anytime-valid interval is narrower than this many percentage points')
    .option('--stop-seed <n>', 'with --stop-when-decided: the seed of the pair order (default: drawn and stored with the run)')
    .option(
      '--batch',
      "send the trials through the provider's batch API: about half price, answers within 24 h (openai, anthropic, gemini; single-turn studies; docs/batch.md)",
    )
    .option('--name <text>', "the run's name (shown in the runs list, the run page and the export; editable later)")
    .option('--note <text>', 'a note on the run: what it is for, what changed');
}

/** --name / --note, checked before anything is stored (a usage error naming the option). */
export function labelFromOptions(opts: RunOptions): RunLabel {
  try {
    return parseRunLabel({ name: opts.name ?? null, note: opts.note ?? null });
  } catch (e) {
    if (e instanceof SpecError) throw new UsageError(e.issues.map((i) => `--${i.path}: ${i.message}`).join('; '));
    throw e;
  }
}

/** --stop-when-decided [--stop-precision POINTS] [--stop-seed N] → the run setting (nothing without the switch). */
export function stopWhenDecidedOf(opts: RunOptions): { stopWhenDecided?: { precision: number | null; seed?: number } } {
  if (!opts.stopWhenDecided) {
    if (opts.stopPrecision !== undefined || opts.stopSeed !== undefined) throw new UsageError('--stop-precision and --stop-seed need --stop-when-decided');
    return {};
  }
  let precision: number | null = null;
  if (opts.stopPrecision !== undefined) {
    const p = Number(opts.stopPrecision);
    if (!(Number.isFinite(p) && p > 0 && p <= 200))
      throw new UsageError(`--stop-precision: percentage points, more than 0 and at most 200 (got "${opts.stopPrecision}")`);
    precision = p / 100;
  }
  if (opts.stopSeed === undefined) return { stopWhenDecided: { precision } };
  const seed = Number(opts.stopSeed);
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 2_147_483_647) throw new UsageError(`--stop-seed: a whole number from 0 to 2147483647 (got "${opts.stopSeed}")`);
  return { stopWhenDecided: { precision, seed } };
}

/** --yes / --max-requests N → the spend confirmation; a bad number names the flag. */
export function confirmationOf(opts: RunOptions): SpendConfirmation {
  return { yes: opts.yes === true, maxRequests: opts.maxRequests === undefined ? null : wholeNumber(opts.maxRequests, '--max-requests') };
}

/** --budget-requests / --budget-tokens / --budget-cost → the run's budget (null: none). */
export function budgetOf(opts: Pick<RunOptions, 'budgetRequests' | 'budgetTokens' | 'budgetCost'>): RunBudgetInput | null {
  if (opts.budgetRequests === undefined && opts.budgetTokens === undefined && opts.budgetCost === undefined) return null;
  const cost = opts.budgetCost === undefined ? null : Number(opts.budgetCost);
  if (cost !== null && !(Number.isFinite(cost) && cost > 0)) throw new UsageError(`--budget-cost: a positive amount (got "${opts.budgetCost}")`);
  return {
    requests: opts.budgetRequests === undefined ? null : wholeNumber(opts.budgetRequests, '--budget-requests'),
    tokens: opts.budgetTokens === undefined ? null : wholeNumber(opts.budgetTokens, '--budget-tokens'),
    cost,
  };
}

function wholeNumber(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${flag}: a whole number of at least 1 (got "${text}")`);
  return n;
}

/** With several runs, each export file gets the run id before its extension (run.json → run.r_….json). */
export function perRunFiles(opts: RunOptions, runId: string): ExportFiles {
  const withId = (f: string | undefined) => {
    if (!f) return undefined;
    const ext = path.extname(f);
    return `${f.slice(0, f.length - ext.length)}.${runId}${ext}`;
  };
  return { json: withId(opts.out), 'trials.csv': withId(opts.csv), 'checks.csv': withId(opts.checksCsv) };
}
