import { setImmediate as setImmediatePromise } from 'node:timers/promises';

// A run's trials read a page at a time by trial key, the next page read while one is consumed: the exports' streams.

/**
 * The pages of a keyset read by trial key, up to `depth` of them read ahead of the one being consumed: each page
 * is asked for as soon as the one before it is in (one query at a time), until `depth` pages wait. With one page ahead
 * the database sat idle while the Parquet writer worked through a row group, and the writer then waited on it
 * (docs/benchmarks.md, "Results at scale", session 23). A failed page is thrown after the pages before it.
 */
export async function* keysetPages<R extends { trial_key: string }>(page: (after: string) => Promise<R[]>, pageSize: number, depth: number): AsyncGenerator<R[]> {
  const ready: R[][] = [];
  let after = '';
  let fetching = false;
  let ended = false;
  let stopped = false;
  let failure = null as { error: unknown } | null; // set by the callback below
  let wake: (() => void) | null = null;
  const pump = () => {
    if (fetching || ended || stopped || ready.length >= depth) return;
    fetching = true;
    page(after)
      .then(
        (rows) => {
          ready.push(rows);
          if (rows.length < pageSize) ended = true;
          else after = rows[rows.length - 1].trial_key;
        },
        (error: unknown) => {
          failure = { error };
          ended = true;
        },
      )
      .finally(() => {
        fetching = false;
        pump();
        wake?.();
      });
  };
  try {
    for (;;) {
      const rows = ready.shift();
      pump(); // before the page is consumed: with a depth of 1, the next page is read while this one is
      // The page in flight is received only when the event loop gets to its socket, and the next one is asked for
      // only then: a consumer that works through pages without waiting on I/O (the Parquet writer between row
      // groups) left the database idle and then waited on it, page after page. One turn of the loop per page
      // lets it in (docs/benchmarks.md, "Results at scale", session 25).
      if (rows && fetching) await setImmediatePromise();
      if (rows) yield rows;
      else if (failure) throw failure.error;
      else if (ended && !fetching) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    stopped = true; // a reader that stops early: no further page is asked for
  }
}
