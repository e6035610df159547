import Link from 'next/link';
import type { RunRow, RunProgress } from '@/lib/schema/run-row';
import { StatusBadge } from '../StatusBadge';
import { formatDate, formatInt } from '../format';
import { COMPARE_FIELD, CompareSelection } from './CompareSelection';
import { urls } from '@/lib/urls';

export interface RunListItem {
  run: RunRow;
  progress: RunProgress | null;
  experimentName?: string;
}

/** Runs with status and progress (done / total), newest first; a checkbox per run picks runs to compare. */
export function RunsTable({ items, showExperiment = true, empty = 'No runs yet.' }: { items: RunListItem[]; showExperiment?: boolean; empty?: string }) {
  if (items.length === 0)
    return (
      <p className="muted" data-testid="runs-empty">
        {empty}
      </p>
    );
  return (
    <CompareSelection>
      <div className="table-scroll">
        <table data-testid="runs">
          <thead>
            <tr>
              <th className="small">Pick</th>
              <th>Run</th>
              {showExperiment && <th>Experiment</th>}
              <th>Provider / model</th>
              <th>Status</th>
              <th>Progress</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {items.map(({ run, progress, experimentName }) => {
              const total = progress?.total || run.totalTrials;
              const done = progress?.done ?? 0;
              return (
                <tr key={run.id} data-testid={`run-row-${run.id}`}>
                  <td>
                    <input type="checkbox" name={COMPARE_FIELD} value={run.id} aria-label={`Compare run ${run.id}`} />
                  </td>
                  <td className="mono">
                    <Link href={urls.run(run.id)}>{run.name ?? run.id}</Link>
                    {run.name && <div className="small muted">{run.id}</div>}
                    {run.note && (
                      <div className="small muted" style={{ fontFamily: 'inherit' }} data-testid="run-note">
                        {run.note.length > 120 ? `${run.note.slice(0, 119)}…` : run.note}
                      </div>
                    )}
                  </td>
                  {showExperiment && (
                    <td>
                      <Link href={urls.experiment(run.experimentId)}>{experimentName ?? run.experimentId}</Link>
                    </td>
                  )}
                  <td>
                    <span className="mono small">
                      {run.provider} / {run.model}
                    </span>
                  </td>
                  <td>
                    <StatusBadge status={run.status} />
                    {run.statusReason && <div className="small muted">{run.statusReason}</div>}
                  </td>
                  <td style={{ minWidth: 180 }}>
                    <div className="progress" aria-hidden="true">
                      <span className="done" style={{ width: `${total ? (100 * done) / total : 0}%` }} />
                    </div>
                    <span className="small muted">
                      {formatInt(done)} / {formatInt(total)} done
                    </span>
                  </td>
                  <td className="small muted nowrap">{formatDate(run.createdAt)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </CompareSelection>
  );
}
