'use client';

import { useActionState, useEffect, useRef } from 'react';
import { useRouter } from 'next/navigation';
import { IssueList } from '../IssueList';
import { keepValues } from '../keep-values';
import type { ActionState } from '@/lib/experiments/import';
import { MAX_CANDIDATES } from '@/lib/optimise/limits';

const initial: ActionState = { issues: [], message: null };

export interface OptimiseFormStudy {
  id: string;
  /** The study's declared split, `40/30/30` and its seed, or null (the defaults apply). */
  split: string | null;
  seed: number | null;
}

/**
 * The Improve descriptions form: the study, its split and seed (empty: the study's own, else 40/30/30 and 0),
 * the selection rule, the bound on candidates and the targets. The record is stored before any run starts.
 */
export function OptimiseForm({
  action,
  studies,
  defaultTargets,
}: {
  action: (s: ActionState, f: FormData) => Promise<ActionState>;
  studies: OptimiseFormStudy[];
  defaultTargets: string;
}) {
  const [state, formAction, pending] = useActionState(action, initial);
  return (
    <form action={formAction} onSubmit={keepValues(formAction)} className="panel" aria-label="Improve descriptions">
      <h2 style={{ marginTop: 0 }}>Start</h2>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="opt-study">Study</label>
          <select id="opt-study" name="study" defaultValue={studies[0]?.id}>
            {studies.map((s) => (
              <option key={s.id} value={s.id}>
                {s.id}
                {s.split ? ` (declares ${s.split}, seed ${s.seed})` : ''}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="opt-split">
            Split <span className="hint">(tune/select/confirm %; empty: the study&apos;s, else 40/30/30)</span>
          </label>
          <input id="opt-split" name="split" placeholder="40/30/30" spellCheck={false} />
        </div>
        <div className="field">
          <label htmlFor="opt-seed">
            Seed <span className="hint">(empty: the study&apos;s, else 0)</span>
          </label>
          <input id="opt-seed" name="seed" inputMode="numeric" />
        </div>
        <div className="field">
          <label htmlFor="opt-rule">
            Selection rule <span className="hint">(best or top:M, stated before the select run)</span>
          </label>
          <input id="opt-rule" name="rule" defaultValue="best" spellCheck={false} />
        </div>
        <div className="field">
          <label htmlFor="opt-candidates">
            Candidates <span className="hint">(at most, besides the placebo; 1–{MAX_CANDIDATES})</span>
          </label>
          <input id="opt-candidates" name="candidates" inputMode="numeric" defaultValue={String(MAX_CANDIDATES)} />
        </div>
        <div className="field">
          <label htmlFor="opt-targets">
            Targets <span className="hint">(provider:model, comma-separated; the first selects, each confirms)</span>
          </label>
          <input id="opt-targets" name="targets" defaultValue={defaultTargets} spellCheck={false} />
        </div>
        <div className="field">
          <label htmlFor="opt-rewriter">
            Rewriter <span className="hint">(optional provider:model: asked first, with the tune cases only, for one more candidate)</span>
          </label>
          <input id="opt-rewriter" name="rewriter" spellCheck={false} />
        </div>
      </div>
      <fieldset className="field" style={{ border: 0, padding: 0, margin: '8px 0' }}>
        <legend className="small">
          Budget for the whole loop{' '}
          <span className="hint">(optional; every request of the loop counts: the model&apos;s rewrite, the select run and the confirmation)</span>
        </legend>
        <div className="form-grid">
          <div className="field">
            <label htmlFor="opt-budget-requests">Requests</label>
            <input id="opt-budget-requests" name="budget-requests" inputMode="numeric" />
          </div>
          <div className="field">
            <label htmlFor="opt-budget-tokens">Tokens</label>
            <input id="opt-budget-tokens" name="budget-tokens" inputMode="numeric" />
          </div>
          <div className="field">
            <label htmlFor="opt-budget-cost">Cost</label>
            <input id="opt-budget-cost" name="budget-cost" inputMode="decimal" />
          </div>
        </div>
      </fieldset>
      <label className="small">
        <input type="checkbox" name="yes" /> send the whole loop's paid requests past the request and cost confirmation
      </label>
      <div style={{ marginTop: 10 }}>
        <button type="submit" className="primary" disabled={pending}>
          {pending ? 'Starting…' : 'Start improving'}
        </button>
      </div>
      <IssueList message={state.message} issues={state.issues} testId="optimise-errors" />
    </form>
  );
}

/** Re-renders the page every two seconds while a record is not final (the worker moves it on). */
export function RefreshWhileRunning({ active }: { active: boolean }) {
  const router = useRouter();
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);
  useEffect(() => {
    if (!active) return;
    timer.current = setInterval(() => router.refresh(), 2000);
    return () => clearInterval(timer.current);
  }, [active, router]);
  return null;
}
