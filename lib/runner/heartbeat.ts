import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { env } from '../env';
import { log } from '../log/logger';
import { HeartbeatConnection } from '../db/holders';

// A process's heartbeat (docs/faults.md › Recovery after a crash). Every holder id this process uses — a
// worker's, or this process's own while it sends a run's pre-checks — is renewed in PostgreSQL in one
// statement every TCLAB_HEARTBEAT_MS, until now + TCLAB_HEARTBEAT_TTL_MS on the database clock. It runs from a
// timer of its own, over a connection of its own: work that waits (a request, a slot, a busy pool) does not
// delay it, and a process whose event loop is blocked stops renewing — its claims are then taken over, and
// whatever it writes under them afterwards is fenced out. While it cannot renew, `alive()` is false and the
// process claims nothing new.

/** This process as the holder of the pre-checks it sends. */
export const PROCESS_HOLDER = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

const FAILURE_LOG_MS = 5000;

export class Heartbeat {
  private readonly held = new Map<string, number>();
  private readonly db: HeartbeatConnection;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private queued = false;
  /** performance.now() when the last renewal that succeeded was sent (the rows live at least TTL past it). */
  private okSentAt = -Infinity;
  private failLoggedAt = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly ttlMs: number,
  ) {
    this.db = new HeartbeatConnection(ttlMs);
  }

  /**
   * Keep `id` alive until the returned release is called (counted: the same id may be held several times).
   * Resolves after a renewal that includes it was tried (it does not throw: a database that is down shows
   * as alive() false).
   */
  async hold(id: string): Promise<() => void> {
    this.held.set(id, (this.held.get(id) ?? 0) + 1);
    if (!this.timer) {
      this.timer = setInterval(() => void this.beat(), this.intervalMs);
      this.timer.unref();
    }
    await this.renew();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(id);
    };
  }

  /** The last renewal is recent enough that this process's rows are alive (with half an interval to spare). */
  alive(): boolean {
    return performance.now() - this.okSentAt < this.ttlMs - this.intervalMs / 2;
  }

  /** Ids held now. */
  ids(): string[] {
    return [...this.held.keys()];
  }

  private release(id: string): void {
    const n = (this.held.get(id) ?? 1) - 1;
    if (n > 0) {
      this.held.set(id, n);
      return;
    }
    this.held.delete(id);
    if (this.held.size > 0) return;
    // nothing held: stop renewing (the rows lapse on their own) and close the connection once idle
    clearInterval(this.timer);
    this.timer = undefined;
    this.chain = this.chain.then(() => this.db.close());
  }

  /** The timer's renewal: skipped while one is already waiting to run. */
  private beat(): void {
    if (this.queued) return;
    void this.renew();
  }

  private renew(): Promise<void> {
    this.queued = true;
    this.chain = this.chain.then(async () => {
      this.queued = false;
      const ids = this.ids();
      if (ids.length === 0) return;
      const sentAt = performance.now();
      try {
        await this.db.renew(ids, this.ttlMs);
        this.okSentAt = sentAt;
      } catch (e) {
        if (Date.now() - this.failLoggedAt > FAILURE_LOG_MS) {
          this.failLoggedAt = Date.now();
          log('warn', 'heartbeat not renewed: this process claims nothing new until it is', { err: (e as Error).message });
        }
      }
    });
    return this.chain;
  }
}

let instance: Heartbeat | undefined;

/** The process's heartbeat (settings read from lib/env.ts when first used). */
export function heartbeat(): Heartbeat {
  instance ??= new Heartbeat(env().TCLAB_HEARTBEAT_MS, env().TCLAB_HEARTBEAT_TTL_MS);
  return instance;
}
