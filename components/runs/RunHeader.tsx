import Link from 'next/link';
import type { RunRow } from '@/lib/schema/run-row';
import { SimulatedBadge } from '../StatusBadge';
import { formatDate } from '../format';
import { urls } from '@/lib/urls';
import { isFinalRunStatus } from '@/lib/schema/run-status';

/** Experiment, provider + model, settings and timestamps of a run. Status is live in RunLive. */
/** `simulated`: the run's provider is a simulation (its descriptor says so). */
export function RunHeader({ run, experimentName, destination, simulated }: { run: RunRow; experimentName: string; destination: string; simulated: boolean }) {
  const s = run.settings;
  const settings: [string, string][] = [
    ['temperature', s.temperature === null ? 'provider default' : String(s.temperature)],
    ['max output tokens', s.maxOutputTokens === null ? 'provider default' : String(s.maxOutputTokens)],
    ['seed', s.seed === null ? 'none' : String(s.seed)],
    ['concurrency', String(s.concurrency)],
    ['requests / minute', s.requestsPerMinute === null ? 'no limit' : String(s.requestsPerMinute)],
    ['max attempts', String(s.maxAttempts)],
    ['timeout', `${s.timeoutMs} ms`],
    ['retry base', `${s.retryBaseMs} ms`],
  ];
  settings.push(['requests go to', destination]);
  return (
    <header>
      <div className="row">
        <h1 className="mono" style={{ fontSize: '1.3rem' }}>
          Run {run.id}
        </h1>
        {simulated && <SimulatedBadge />}
      </div>
      {run.name && (
        <p className="run-name" data-testid="run-name">
          <strong>{run.name}</strong>
        </p>
      )}
      {run.note && (
        <p className="muted" style={{ whiteSpace: 'pre-wrap' }} data-testid="run-note">
          {run.note}
        </p>
      )}
      {run.unsentReason && !isFinalRunStatus(run.status) && (
        <p className="notice" data-testid="run-unsent">
          Trials left unsent: {run.unsentReason}
        </p>
      )}
      <div className="panel grid-2">
        <dl className="kv">
          <dt>Experiment</dt>
          <dd>
            <Link href={urls.experiment(run.experimentId)}>{experimentName}</Link> <span className="mono small muted">{run.experimentId}</span>
          </dd>
          <dt>Provider / model</dt>
          <dd className="mono" data-testid="run-provider">
            {run.provider} / {run.model}
          </dd>
          <dt>Trials</dt>
          <dd>{run.totalTrials}</dd>
          <dt>Created</dt>
          <dd>{formatDate(run.createdAt)}</dd>
          <dt>Started / finished</dt>
          <dd>
            {formatDate(run.startedAt)} / {formatDate(run.finishedAt)}
          </dd>
        </dl>
        <dl className="kv small">
          {settings.map(([k, v]) => (
            <div key={k} style={{ display: 'contents' }}>
              <dt>{k}</dt>
              <dd className="mono">{v}</dd>
            </div>
          ))}
        </dl>
      </div>
    </header>
  );
}
