import { runBatches, type BatchView } from '../db/batches';
import { getExperiment } from '../db/experiments';
import { getRun } from '../db/runs';
import { batchSaving } from '../design/cost';
import { formalInputTokens } from '../design/run-cost';
import { matrixSize } from '../schema/bounds';
import { getPriceTable } from '../runner/price-table';
import { priceOf } from '../runner/spend';

// A batch-mode run's batches as the run page and `tclab status` show them (docs/batch.md): how many were
// submitted, how many are still with the provider, their items' counts, and what batch mode saves on the
// run's estimated tokens at the price table's prices.

export interface RunBatchState {
  /** The run's batches, newest first (at most 200). */
  batches: BatchView[];
  /** Batches the provider accepted (with a provider id). */
  submitted: number;
  /** Batches still with the provider (accepted, in progress). */
  inProgress: number;
  /** Items in all batches (attempts: a retried trial is in more than one), answered so far, failed so far. */
  items: number;
  succeeded: number;
  failed: number;
  /** The run's estimated cost one by one and in batches (price table, estimated tokens); null: the model has no price. */
  saving: { currency: string; single: number; batch: number; saving: number } | null;
}

/** Null: the run is not in batch mode (or does not exist). */
export async function runBatchState(runId: string, opts: { saving?: boolean } = {}): Promise<RunBatchState | null> {
  const run = await getRun(runId);
  if (!run?.settings.batch) return null;
  const withSaving = opts.saving ?? true;
  const [batches, exp, prices] = await Promise.all([runBatches(runId), withSaving ? getExperiment(run.experimentId) : null, getPriceTable()]);
  const row = priceOf(prices, run.settings.provider, run.settings.model);
  let saving: RunBatchState['saving'] = null;
  if (row && exp) {
    const formal = matrixSize(exp.spec).formal;
    saving = { currency: prices.currency, ...batchSaving(row, formalInputTokens(exp.spec), formal * prices.outputTokensPerRequest) };
  }
  return {
    batches,
    submitted: batches.filter((b) => b.providerBatchId !== null).length,
    inProgress: batches.filter((b) => b.state === 'accepted' || b.state === 'in_progress').length,
    items: batches.reduce((a, b) => a + b.itemCount, 0),
    succeeded: batches.reduce((a, b) => a + b.succeeded, 0),
    failed: batches.reduce((a, b) => a + b.failed, 0),
    saving,
  };
}

/** Money as the spend guard writes it (two decimals). */
const money = (n: number) => n.toFixed(2);

/** One line: "batch mode: 1 batch submitted, 1 in progress; 152 items, 120 answered, 3 failed; estimated saving USD 1.20 of 2.40 one by one". */
export function batchStateLine(s: RunBatchState): string {
  const parts = [
    `batch mode: ${s.submitted} batch${s.submitted === 1 ? '' : 'es'} submitted, ${s.inProgress} in progress`,
    `${s.items} items, ${s.succeeded} answered, ${s.failed} failed`,
  ];
  if (s.saving) parts.push(`estimated saving ${batchSavingText(s.saving)}`);
  return parts.join('; ');
}

/** "USD 1.20 of 2.40 one by one". */
export function batchSavingText(s: NonNullable<RunBatchState['saving']>): string {
  return `${s.currency} ${money(s.saving)} of ${money(s.single)} one by one`;
}
