// Which attempt carries a trial's formal result (docs/export.md, "Formal and late attempts"). A holder presumed
// dead (its heartbeat lapsed, e.g. a worker frozen with SIGSTOP and thawed) may still record the answer it was
// waiting for: it replaces its `lost` row (it happened), but the trial's result was written by the newer claim,
// which re-sent that turn under a higher attempt number. So of the `ok` attempts answering one turn of a trial,
// the one with the highest number is the formal one; the others are late answers and are exported as `late`.

interface AttemptKey {
  n: number;
  turn: number;
  outcome: string;
}

/** The numbers of a trial's late answers: `ok` attempts to a turn that a later `ok` attempt answered too. */
export function lateAttemptNumbers(attempts: readonly AttemptKey[]): Set<number> {
  const formal = new Map<number, number>(); // turn → highest n answered ok
  for (const a of attempts) if (a.outcome === 'ok' && a.n > (formal.get(a.turn) ?? 0)) formal.set(a.turn, a.n);
  const late = new Set<number>();
  for (const a of attempts) if (a.outcome === 'ok' && a.n !== formal.get(a.turn)) late.add(a.n);
  return late;
}

/** The attempts as exported: a late answer's outcome is `late`; every other attempt is as stored. */
export function withLateAnswers<A extends AttemptKey>(attempts: readonly A[]): (Omit<A, 'outcome'> & { outcome: A['outcome'] | 'late' })[] {
  const late = lateAttemptNumbers(attempts);
  return late.size === 0 ? [...attempts] : attempts.map((a) => (late.has(a.n) ? { ...a, outcome: 'late' as const } : a));
}
