// Bounded concurrency per key (identity) and overall. Callers beyond a limit wait in FIFO order up to
// `maxWaitMs`; a bounded queue keeps a flood from piling up unbounded promises. Pure: timers only.
export type Release = () => void;

type Waiter = {
  key: string;
  grant: (release: Release | null) => void;
  timer: ReturnType<typeof setTimeout> | null;
};

export type ConcurrencyLimits = { perKey: number; total: number; maxQueue: number };

export class ConcurrencyLimiter {
  private readonly active = new Map<string, number>();
  private total = 0;
  private readonly queue: Waiter[] = [];

  constructor(private readonly limits: ConcurrencyLimits) {}

  get inFlight(): number {
    return this.total;
  }

  get waiting(): number {
    return this.queue.length;
  }

  /** Resolves with a release function, or null when the queue is full or the wait expired. */
  acquire(key: string, maxWaitMs: number): Promise<Release | null> {
    if (this.queue.length === 0 && this.fits(key)) return Promise.resolve(this.grant(key));
    if (this.queue.length >= this.limits.maxQueue || maxWaitMs <= 0) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter: Waiter = { key, grant: resolve, timer: null };
      waiter.timer = setTimeout(() => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        resolve(null);
      }, maxWaitMs);
      this.queue.push(waiter);
    });
  }

  private fits(key: string): boolean {
    return this.total < this.limits.total && (this.active.get(key) ?? 0) < this.limits.perKey;
  }

  private grant(key: string): Release {
    this.total += 1;
    this.active.set(key, (this.active.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.active.get(key) ?? 1) - 1;
      if (left <= 0) this.active.delete(key);
      else this.active.set(key, left);
      this.drain();
    };
  }

  // Admit the first waiters that fit; a waiter blocked on its own identity does not block others.
  private drain(): void {
    for (let i = 0; i < this.queue.length && this.total < this.limits.total;) {
      const waiter = this.queue[i] as Waiter;
      if (this.fits(waiter.key)) {
        this.queue.splice(i, 1);
        if (waiter.timer) clearTimeout(waiter.timer);
        waiter.grant(this.grant(waiter.key));
      } else {
        i += 1;
      }
    }
  }
}
