'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { useRouter } from 'next/navigation';
import { CONTROL_ACTIONS, controlAllowed, type ControlAction, type RunLiveState } from './live';
import { StatusBadge } from '../StatusBadge';
import { formatInt, isFinalRunStatus } from '../format';
import { urls } from '@/lib/urls';

const POLL_MS = 1000;
/** While running, re-render the server parts (Table 1) at most this often. */
const REFRESH_MS = 5000;

/** Live status, progress and Pause / Resume / Cancel. Polls every second until the run is final. */
/** `canControl`: the viewer's role may pause, resume and cancel (the route handler checks again). */
export function RunLive({ runId, initial, canControl }: { runId: string; initial: RunLiveState; canControl: boolean }) {
  const router = useRouter();
  const [state, setState] = useState(initial);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** Cancel is for good: it asks first. */
  const [confirming, setConfirming] = useState(false);
  const [polling, setPolling] = useState(!isFinalRunStatus(initial.status));
  const lastRefresh = useRef({ at: 0, status: initial.status, done: initial.progress.done });
  useEffect(() => {
    lastRefresh.current.at = Date.now(); // the page was rendered just now
  }, []);

  const url = urls.api.run(runId);

  const apply = useCallback(
    (next: RunLiveState) => {
      setState(next);
      const last = lastRefresh.current;
      const statusChanged = next.status !== last.status;
      const stale = next.progress.done !== last.done && Date.now() - last.at > REFRESH_MS;
      if (statusChanged || stale) {
        lastRefresh.current = { at: Date.now(), status: next.status, done: next.progress.done };
        router.refresh();
      }
      if (isFinalRunStatus(next.status)) setPolling(false);
    },
    [router],
  );

  useEffect(() => {
    if (!polling) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const res = await fetch(`${url}/progress`, { cache: 'no-store' });
        if (res.ok && !stopped) apply((await res.json()) as RunLiveState);
      } catch {
        // transient: try again on the next tick
      }
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    };
    timer = setTimeout(tick, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [polling, url, apply]);

  async function control(action: ControlAction) {
    setBusy(true);
    try {
      const res = await fetch(`${url}/control`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action }) });
      const body = (await res.json()) as { ok: boolean; status: string; message: string };
      setMessage(body.message);
      const p = await fetch(`${url}/progress`, { cache: 'no-store' });
      if (p.ok) apply((await p.json()) as RunLiveState);
      if (!isFinalRunStatus(body.status)) setPolling(true);
    } catch (e) {
      setMessage(`request failed: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  const p = state.progress;
  const total = p.total || 1;
  const unresolved = p.byStatus.unresolved ?? 0;
  const stats: [string, string, number][] = [
    ['in-flight', 'in flight', p.inFlight],
    ['queued', 'queued', p.queued],
    ['transport-errors', 'transport errors', p.transportErrors],
    ['unresolved', 'unresolved', unresolved],
    ['lost', 'lost attempts', p.lostAttempts],
    ['attempts', 'attempts', p.attempts],
    ['tokens', 'tokens in / out', p.inputTokens + p.outputTokens],
  ];

  return (
    <section className="panel" aria-label="Progress" data-testid="run-live">
      <div className="spread">
        <div className="row">
          <strong>Status</strong> <StatusBadge status={state.status} testId="run-status" />
          {state.statusReason && (
            <span className="small" data-testid="run-status-reason">
              {state.statusReason}
            </span>
          )}
        </div>
        <div className="row">
          {canControl &&
            CONTROL_ACTIONS.map((a) => (
              <button
                key={a}
                type="button"
                className={a === 'cancel' ? 'danger' : undefined}
                disabled={busy || !controlAllowed(a, state.status)}
                onClick={() => (a === 'cancel' ? setConfirming(true) : control(a))}
              >
                {a[0].toUpperCase() + a.slice(1)}
              </button>
            ))}
        </div>
      </div>
      {confirming && canControl && controlAllowed('cancel', state.status) && (
        <div className="notice" role="alertdialog" aria-labelledby="cancel-confirm-text" data-testid="cancel-confirm" style={{ marginTop: 12 }}>
          <p id="cancel-confirm-text" style={{ margin: 0 }}>
            <strong>Cancel this run for good?</strong> It stops new requests: trials not yet sent are cancelled and the run cannot be resumed. Nothing already sent is
            undone — those requests and their answers stay recorded.
          </p>
          <div className="row" style={{ marginTop: 8 }}>
            <button
              type="button"
              className="danger"
              disabled={busy}
              onClick={() => {
                setConfirming(false);
                void control('cancel');
              }}
            >
              Stop the run for good
            </button>
            <button type="button" onClick={() => setConfirming(false)} autoFocus>
              Keep it
            </button>
          </div>
        </div>
      )}
      <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={p.total} aria-valuenow={p.done} aria-label="trials done" style={{ marginTop: 12 }}>
        <span className="done" style={{ width: `${(100 * p.done) / total}%` }} />
        <span className="inflight" style={{ width: `${(100 * p.inFlight) / total}%` }} />
      </div>
      <div className="stats">
        <div className="stat">
          <div className="value" data-testid="progress-done-of-total">
            {formatInt(p.done)} / {formatInt(p.total)}
          </div>
          <div className="label">trials final</div>
        </div>
        {stats.map(([id, label, value]) => (
          <div className="stat" key={id}>
            <div className="value" data-testid={`progress-${id}`}>
              {id === 'tokens' ? `${formatInt(p.inputTokens)} / ${formatInt(p.outputTokens)}` : formatInt(value)}
            </div>
            <div className="label">{label}</div>
          </div>
        ))}
      </div>
      <span hidden data-testid="progress-done">
        {p.done}
      </span>
      {message && (
        <p className="small muted" role="status" data-testid="control-message">
          {message}
        </p>
      )}
    </section>
  );
}
