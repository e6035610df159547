import type { RunBatchState } from '@/lib/runs/batch';
import { batchSavingText } from '@/lib/runs/batch';
import { formatDate, formatInt } from '../format';

const STATE_LABEL: Record<string, string> = {
  submitting: 'submitting',
  accepted: 'submitted',
  in_progress: 'in progress',
  completed: 'ended: completed',
  expired: 'ended: expired',
  cancelled: 'ended: cancelled',
  failed: 'ended: failed',
  recorded: 'recorded',
};

/** Batch mode (docs/batch.md): the run's provider batches, their items' counts, and the estimated saving. */
export function BatchPanel({ state }: { state: RunBatchState }) {
  return (
    <section data-testid="batch-state">
      <h2>Batch mode</h2>
      <p className="small" data-testid="batch-summary">
        {formatInt(state.submitted)} {state.submitted === 1 ? 'batch' : 'batches'} submitted, {formatInt(state.inProgress)} with the provider; {formatInt(state.items)}{' '}
        items, {formatInt(state.succeeded)} answered, {formatInt(state.failed)} failed. Answers come within 24 h; failed and expired items go out again by the run&apos;s
        retry policy.
        {state.saving && <> Estimated saving: {batchSavingText(state.saving)} (price table).</>}
      </p>
      {state.batches.length > 0 && (
        <div className="table-scroll">
          <table className="compact">
            <thead>
              <tr>
                <th>Batch</th>
                <th>State</th>
                <th className="num">Items</th>
                <th className="num">Answered</th>
                <th className="num">Failed</th>
                <th>Submitted</th>
                <th>Last polled</th>
              </tr>
            </thead>
            <tbody>
              {state.batches.map((b) => (
                <tr key={b.id} data-testid="batch-row">
                  <td className="mono">{b.providerBatchId ?? '—'}</td>
                  <td>{STATE_LABEL[b.state] ?? b.state}</td>
                  <td className="num">{formatInt(b.itemCount)}</td>
                  <td className="num">{formatInt(b.succeeded)}</td>
                  <td className="num">{formatInt(b.failed)}</td>
                  <td>{formatDate(b.submittedAt)}</td>
                  <td>{formatDate(b.polledAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
