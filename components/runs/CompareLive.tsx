'use client';

import { useEffect, useRef, useState } from 'react';
import { useRouter } from 'next/navigation';
import type { RunLiveState } from './live';
import { formatInt, isFinalRunStatus } from '../format';
import { urls } from '@/lib/urls';

const POLL_MS = 1000;
/** While runs progress, re-render the comparison at most this often (a change of status re-renders at once). */
const REFRESH_MS = 3000;

interface Tracked {
  runId: string;
  label: string;
  status: string;
  done: number | null;
  total: number | null;
}

/**
 * The compare page while any of its runs is not final: polls each run's progress (GET /api/runs/[id]/progress)
 * and re-renders the page (router.refresh) when a status changes or more trials are final, until every run is.
 */
export function CompareLive({ runs }: { runs: { runId: string; label: string; status: string }[] }) {
  const router = useRouter();
  const [tracked, setTracked] = useState<Tracked[]>(runs.map((r) => ({ ...r, done: null, total: null })));
  const live = tracked.some((r) => !isFinalRunStatus(r.status));
  const last = useRef({ at: 0, key: runs.map((r) => r.status).join('|'), done: -1 });
  useEffect(() => {
    last.current.at = Date.now(); // the page was rendered just now
  }, []);

  useEffect(() => {
    if (!live) return;
    let stopped = false;
    const tick = async () => {
      const next = await Promise.all(
        tracked.map(async (r): Promise<Tracked> => {
          if (isFinalRunStatus(r.status)) return r;
          try {
            const res = await fetch(urls.api.runProgress(r.runId), { cache: 'no-store' });
            if (!res.ok) return r;
            const s = (await res.json()) as RunLiveState;
            return { ...r, status: s.status, done: s.progress.done, total: s.progress.total };
          } catch {
            return r; // transient: try again on the next tick
          }
        }),
      );
      if (stopped) return;
      const key = next.map((r) => r.status).join('|');
      const done = next.reduce((a, r) => a + (r.done ?? 0), 0);
      const prev = last.current;
      if (key !== prev.key || (done !== prev.done && Date.now() - prev.at > REFRESH_MS)) {
        last.current = { at: Date.now(), key, done };
        router.refresh();
      }
      setTracked(next);
    };
    const timer = setTimeout(tick, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [live, tracked, router]);

  return (
    <p className="small muted" role="status" data-testid="compare-live" data-live={live ? 'yes' : 'no'}>
      {live ? 'Updating while runs progress: ' : 'Every run is final: '}
      {tracked.map((r, i) => (
        <span key={r.runId}>
          {i > 0 && ' · '}
          <span className="mono">{r.label}</span> {r.status}
          {r.done !== null && r.total !== null && ` ${formatInt(r.done)} / ${formatInt(r.total)}`}
        </span>
      ))}
    </p>
  );
}
