import type { AttemptRecord } from '@/lib/schema/trial-record';
import { formatDate, jsonText } from '../format';

/** One HTTP exchange: outcome, error, status, latency, tokens, and the raw request/response as JSON text. */
export function AttemptView({ a, open = false }: { a: AttemptRecord; open?: boolean }) {
  return (
    <div className="panel" data-testid="attempt">
      <div className="row">
        <strong>
          {a.kind === 'precheck' ? 'Pre-check' : 'Attempt'} {a.n}
          {a.turn > 1 && ` · turn ${a.turn}`}
        </strong>
        <span className={`badge ${a.outcome === 'ok' ? 'good' : a.outcome === 'sending' ? 'warn' : 'bad'}`}>
          {a.outcome === 'sending' ? 'sending (no answer yet)' : a.outcome}
        </span>
        {a.errorKind && <span className="badge warn">{a.errorKind}</span>}
        <span className="small muted">
          HTTP {a.httpStatus ?? '—'} · {a.latencyMs ?? '—'} ms · tokens {a.inputTokens ?? '—'} in / {a.outputTokens ?? '—'} out
          {a.retryAfterMs !== null && ` · retry after ${a.retryAfterMs} ms`} · {formatDate(a.startedAt)}
        </span>
      </div>
      {a.errorMessage && <pre className="text">{a.errorMessage}</pre>}
      <details open={open}>
        <summary>Raw request (secrets redacted)</summary>
        <pre className="text" data-testid="raw-request">
          {jsonText(a.request)}
        </pre>
      </details>
      <details open={open}>
        <summary>Raw response</summary>
        <pre className="text" data-testid="raw-response">
          {a.response === null ? 'no response' : jsonText(a.response)}
        </pre>
      </details>
    </div>
  );
}
