'use client';

import { useState, type FormEvent, type ReactNode } from 'react';
import { useRouter } from 'next/navigation';
import { urls } from '@/lib/urls';

/** The name of the runs table's checkboxes: without script the form still sends /runs/compare?ids=A&ids=B. */
export const COMPARE_FIELD = 'ids';

/** Checked run ids, oldest first (the tables list newest first): the oldest is the comparison's reference. */
function checkedIds(form: HTMLFormElement): string[] {
  return [...form.querySelectorAll<HTMLInputElement>(`input[name="${COMPARE_FIELD}"]:checked`)].map((x) => x.value).reverse();
}

/** A runs table with a checkbox per run and "Compare selected" → /runs/compare?ids=OLDEST,…,NEWEST. */
export function CompareSelection({ children }: { children: ReactNode }) {
  const router = useRouter();
  const [count, setCount] = useState(0);
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const ids = checkedIds(e.currentTarget);
    if (ids.length >= 2) router.push(urls.compare(ids));
  }
  return (
    <form action="/runs/compare" method="get" onSubmit={submit} onChange={(e) => setCount(checkedIds(e.currentTarget).length)} aria-label="Pick runs to compare">
      <div className="row" style={{ marginBottom: 8, flexWrap: 'wrap' }}>
        <button type="submit" disabled={count < 2} data-testid="compare-selected">
          Compare selected{count > 0 ? ` (${count})` : ''}
        </button>
        <span className="small muted">
          {count < 2 ? 'Tick two or more runs of one experiment (any versions); the oldest is the reference.' : 'The oldest ticked run is the reference.'}
        </span>
      </div>
      {children}
    </form>
  );
}
