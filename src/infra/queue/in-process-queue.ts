// The embedded queue: same contract as the BullMQ one, in memory. Jobs do not survive a
// restart (acceptable for the single-process default; use REDIS_URL for durability).
import {
  assertJobId,
  backoffDelay,
  FAILED_JOBS_KEPT,
  type AddOptions,
  type Job,
  type JobHandler,
  type JobQueue,
  type ProcessOptions,
  type QueueCounts,
} from './job-queue';

type Entry = { id: string; data: unknown; attemptsMade: number; options: AddOptions };

type QueueState = {
  waiting: Entry[];
  delayed: Map<Entry, NodeJS.Timeout>;
  active: Set<Entry>;
  failed: string[];
  /** Ids that block a duplicate add: waiting, delayed, active or kept as failed. */
  ids: Set<string>;
  handler?: JobHandler<unknown>;
  options: ProcessOptions<unknown>;
  running: Set<Promise<void>>;
};

export class InProcessJobQueue implements JobQueue {
  readonly kind = 'in-process' as const;
  private readonly queues = new Map<string, QueueState>();
  private readonly schedulers = new Map<string, NodeJS.Timeout>();
  private nextId = 1;
  private closed = false;

  async add<T>(queue: string, data: T, options: AddOptions = {}): Promise<string> {
    this.assertOpen();
    assertJobId(options.jobId);
    return this.enqueue(queue, data, options);
  }

  private enqueue(queue: string, data: unknown, options: AddOptions): string {
    const state = this.state(queue);
    const id = options.jobId ?? String(this.nextId++);
    if (state.ids.has(id)) return id;
    state.ids.add(id);
    const entry: Entry = { id, data, attemptsMade: 0, options };
    if (options.delayMs && options.delayMs > 0) this.delay(queue, state, entry, options.delayMs);
    else state.waiting.push(entry);
    this.pump(queue, state);
    return id;
  }

  async process<T>(queue: string, handler: JobHandler<T>, options: ProcessOptions<T> = {}): Promise<void> {
    this.assertOpen();
    const state = this.state(queue);
    if (state.handler) throw new Error(`queue ${queue} already has a handler`);
    state.handler = handler as JobHandler<unknown>;
    state.options = options as ProcessOptions<unknown>;
    this.pump(queue, state);
  }

  async repeat<T>(queue: string, schedulerId: string, everyMs: number, data: T): Promise<void> {
    this.assertOpen();
    const key = `${queue}\u0000${schedulerId}`;
    clearInterval(this.schedulers.get(key));
    // One pending run per scheduler, like a BullMQ job scheduler.
    const tick = () => {
      if (!this.closed) this.enqueue(queue, data, { jobId: `repeat-${schedulerId}` });
    };
    tick();
    const timer = setInterval(tick, everyMs);
    timer.unref();
    this.schedulers.set(key, timer);
  }

  async counts(queue: string): Promise<QueueCounts> {
    const state = this.state(queue);
    return {
      waiting: state.waiting.length,
      active: state.active.size,
      delayed: state.delayed.size,
      failed: state.failed.length,
    };
  }

  async ping(): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.schedulers.values()) clearInterval(timer);
    this.schedulers.clear();
    for (const state of this.queues.values()) {
      for (const timer of state.delayed.values()) clearTimeout(timer);
      state.delayed.clear();
    }
    await Promise.all([...this.queues.values()].flatMap((state) => [...state.running]));
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('job queue is closed');
  }

  private state(queue: string): QueueState {
    let state = this.queues.get(queue);
    if (!state) {
      state = {
        waiting: [],
        delayed: new Map(),
        active: new Set(),
        failed: [],
        ids: new Set(),
        options: {},
        running: new Set(),
      };
      this.queues.set(queue, state);
    }
    return state;
  }

  private delay(queue: string, state: QueueState, entry: Entry, ms: number): void {
    const timer = setTimeout(() => {
      state.delayed.delete(entry);
      state.waiting.push(entry);
      this.pump(queue, state);
    }, ms);
    state.delayed.set(entry, timer);
  }

  private pump(queue: string, state: QueueState): void {
    const concurrency = Math.max(1, state.options.concurrency ?? 1);
    while (!this.closed && state.handler && state.active.size < concurrency && state.waiting.length > 0) {
      const entry = state.waiting.shift()!;
      state.active.add(entry);
      const run = this.run(queue, state, entry, state.handler).finally(() => {
        state.running.delete(run);
        state.active.delete(entry);
        this.pump(queue, state);
      });
      state.running.add(run);
    }
  }

  private async run(
    queue: string,
    state: QueueState,
    entry: Entry,
    handler: JobHandler<unknown>,
  ): Promise<void> {
    const job: Job<unknown> = { id: entry.id, queue, data: entry.data, attempt: entry.attemptsMade + 1 };
    try {
      // Always async, so a handler that throws synchronously is handled the same way.
      await Promise.resolve().then(() => handler(job));
      state.ids.delete(entry.id);
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      entry.attemptsMade += 1;
      if (entry.attemptsMade < (entry.options.attempts ?? 1) && !this.closed) {
        this.delay(queue, state, entry, backoffDelay(entry.options.backoff, entry.attemptsMade));
        return;
      }
      state.failed.push(entry.id);
      if (state.failed.length > FAILED_JOBS_KEPT) state.ids.delete(state.failed.shift()!);
      try {
        state.options.onFailed?.(job, error);
      } catch {
        // A failing failure callback must not stop the queue.
      }
    }
  }
}
