import { describe, expect, it } from 'vitest';
import { keysetPages } from './keyset';

// A keyset of `total` rows whose pages arrive as a query's do: on a later turn of the event loop.
function source(total: number) {
  const asked: string[] = [];
  let answered = 0;
  const page = (after: string) => {
    asked.push(after);
    return new Promise<{ trial_key: string }[]>((resolve) =>
      setImmediate(() => {
        answered++;
        const from = after === '' ? 0 : Number(after) + 1;
        resolve(Array.from({ length: Math.max(0, Math.min(3, total - from)) }, (_, i) => ({ trial_key: String(from + i).padStart(4, '0') })));
      }),
    );
  };
  return { page, asked, answered: () => answered };
}

describe('keysetPages', () => {
  it('gives every page once, in key order, each asked for after the last key of the one before', async () => {
    const s = source(10);
    const keys: string[] = [];
    for await (const rows of keysetPages(s.page, 3, 1)) keys.push(...rows.map((r) => r.trial_key));
    expect(keys).toEqual(Array.from({ length: 10 }, (_, i) => String(i).padStart(4, '0')));
    expect(s.asked).toEqual(['', '0002', '0005', '0008']);
  });

  it('has the next page in already when a consumer that never waits on I/O takes a page', async () => {
    // the page in flight is let in between pages: without that turn of the loop, a consumer that works through
    // its pages without waiting on I/O found the next page still in the socket every time (docs/benchmarks.md)
    const s = source(28);
    const answeredAtTake: number[] = [];
    let taken = 0;
    for await (const _ of keysetPages(s.page, 3, 4)) {
      taken++;
      answeredAtTake.push(s.answered() - taken);
    }
    expect(taken).toBe(10);
    // while pages remain to be read, at least one more has come in than the consumer has taken
    expect(answeredAtTake.slice(0, -1).every((ahead) => ahead >= 1)).toBe(true);
  });

  it('asks for no further page once the consumer stops', async () => {
    const s = source(30);
    for await (const rows of keysetPages(s.page, 3, 4)) if (rows[0].trial_key === '0003') break;
    const asked = s.asked.length;
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(s.asked.length).toBe(asked);
  });

  it('throws a failed page after the pages before it', async () => {
    let n = 0;
    const page = async (after: string) => {
      if (n++ === 2) throw new Error('the third page failed');
      const from = after === '' ? 0 : Number(after) + 1;
      return [0, 1, 2].map((i) => ({ trial_key: String(from + i).padStart(4, '0') }));
    };
    const got: string[] = [];
    await expect(
      (async () => {
        for await (const rows of keysetPages(page, 3, 2)) got.push(rows[0].trial_key);
      })(),
    ).rejects.toThrow('the third page failed');
    expect(got).toEqual(['0000', '0003']);
  });
});
