/**
 * Group commit for the hot path: per-item calls that arrive while earlier batches are in flight are
 * coalesced into one statement. With nothing in flight an item is flushed at the end of the current turn
 * of the event loop (setImmediate: everything that became ready in the same I/O poll goes together), so a
 * lone trial waits for no timer; under load batches grow by themselves, bounded by `maxBatch`.
 *
 * If a batch fails, its items are run again one by one, so one bad row fails only its own caller.
 */
export interface BatcherOptions<In, Out> {
  /** Runs one batch; returns one result per item, in the same order. */
  run(items: In[]): Promise<Out[]>;
  maxBatch: number;
  /** Batches in flight at once (each holds a connection). */
  maxInFlight: number;
}

interface Pending<In, Out> {
  item: In;
  resolve(out: Out): void;
  reject(error: unknown): void;
}

export class Batcher<In, Out> {
  private queue: Pending<In, Out>[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly opts: BatcherOptions<In, Out>) {}

  load(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.opts.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.queue.length > 0 && this.inFlight < this.opts.maxInFlight) {
      const batch = this.queue.splice(0, this.opts.maxBatch);
      this.inFlight++;
      void this.execute(batch).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }

  private async execute(batch: Pending<In, Out>[]): Promise<void> {
    try {
      const out = await this.opts.run(batch.map((p) => p.item));
      if (out.length !== batch.length) throw new Error(`batch returned ${out.length} results for ${batch.length} items`);
      batch.forEach((p, i) => p.resolve(out[i]));
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      // isolate the failing item: the others still get their own answer
      await Promise.all(
        batch.map((p) =>
          this.opts.run([p.item]).then(
            (out) => p.resolve(out[0]),
            (e: unknown) => p.reject(e),
          ),
        ),
      );
    }
  }
}
