'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';
import { readComparison, type PairedNumbers } from '@/lib/analysis/reading';

// The difference the readings plan for (docs/statistics.md, "Reading a comparison"): empty, each reading says
// how many pairs would detect the difference it observed; a number of points, how many would detect that one —
// the same computation as `tclab plan --pilot`, with the compared runs as the pilot, in the browser.

const DeltaContext = createContext<number | null>(null);

/** The chosen difference (points, typed) as a share, or null when empty; an error in words when it is not one. */
export function deltaOf(text: string): { delta: number | null; error: string | null } {
  const t = text.trim().replace(/^\+/, '');
  if (t === '') return { delta: null, error: null };
  const n = Number(t);
  if (!Number.isFinite(n) || n <= 0 || n > 100) return { delta: null, error: `a difference in points above 0 and at most 100 (got "${text}")` };
  return { delta: n / 100, error: null };
}

/** The input and the readings under it. */
export function PlanDelta({ children }: { children: ReactNode }) {
  const [text, setText] = useState('');
  const { delta, error } = deltaOf(text);
  return (
    <DeltaContext.Provider value={delta}>
      <div className="field" style={{ maxWidth: 420 }}>
        <label htmlFor="plan-delta">
          Plan for a difference of <span className="hint">(points; empty: the difference each row observed)</span>
        </label>
        <input
          id="plan-delta"
          inputMode="decimal"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="e.g. 10"
          aria-invalid={error !== null}
          data-testid="plan-delta"
        />
        {error && <div className="field-error">{error}</div>}
      </div>
      {children}
    </DeltaContext.Provider>
  );
}

/** One comparison read in words, with the pairs needed for the difference chosen above (or the observed one). */
export function ReadingText({ numbers, cluster, alpha, testId = 'pairs-needed' }: { numbers: PairedNumbers; cluster: string; alpha?: number; testId?: string }) {
  const delta = useContext(DeltaContext);
  const r = readComparison(numbers, { cluster, delta, alpha });
  return (
    <>
      <strong>{r.label}</strong>
      <span className="small muted">
        {' '}
        — {r.why};{' '}
        <span data-testid={testId} data-pairs-needed={r.power.pairsNeeded ?? ''}>
          {r.pairsText}
        </span>
      </span>
    </>
  );
}
