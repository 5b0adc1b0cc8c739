// Worker threads for the secret pass over large results (ADR 0018): a result whose body is at least
// SECRET_SCAN_WORKER_MIN_BYTES is scanned by a piscina pool of SECRET_SCAN_WORKERS threads, so the
// event loop (health checks, other calls) keeps running while it is scanned. The call's deadline
// (REQUEST_TIMEOUT_MS) aborts the task: piscina terminates the thread mid-scan and starts another.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import type { ContainerPolicy, ScrubContext, ScrubResult } from '../../core/secrets';
import type { OffLoopSuccessTask, SuccessOutput } from '../../core/executor/success-result';
import type { ScrubTask } from './scrub.worker';

export type ScrubWorkerOptions = {
  /** threads at most (0: never use workers) */
  threads: number;
  /** results whose body has at least this many bytes go to a worker */
  minBytes: number;
  /** an idle thread exits after this long (none are kept: most results are small) */
  idleTimeoutMs?: number;
  /** told of a pool error that concerns no call (default: ignored) */
  onError?: (err: Error) => void;
};

/** The worker's entry: the compiled scrub.worker.js, or a bootstrap that compiles the .ts sources. */
function workerFile(): string {
  const js = join(__dirname, 'scrub.worker.js');
  return existsSync(js) ? js : join(__dirname, 'ts-worker-bootstrap.cjs');
}

export class ScrubWorkerPool {
  private pool: Piscina<ScrubTask, ScrubResult | SuccessOutput> | null = null;

  constructor(private readonly options: ScrubWorkerOptions) {}

  /** Whether a result is scanned in a worker: its Gitea body has at least `minBytes` bytes. */
  wants(bytes: number): boolean {
    return this.options.threads > 0 && bytes >= this.options.minBytes;
  }

  private started(): Piscina<ScrubTask, ScrubResult | SuccessOutput> {
    if (this.pool) return this.pool;
    const pool = new Piscina<ScrubTask, ScrubResult | SuccessOutput>({
      filename: workerFile(),
      minThreads: 0,
      maxThreads: this.options.threads,
      idleTimeout: this.options.idleTimeoutMs ?? 30_000,
      // a scan is CPU work: one task per thread, the rest wait in the queue
      concurrentTasksPerWorker: 1,
    });
    // A task aborted by its call's deadline just as its thread answered leaves that answer with no
    // task to settle: piscina emits it as an 'error' on the pool, which without a listener is an
    // uncaught exception that would end the process. The call has already been answered (timeout).
    pool.on('error', (err: Error) => this.options.onError?.(err));
    this.pool = pool;
    return pool;
  }

  /** The scrub of `value` in a worker thread; rejects with an AbortError when `signal` aborts first. */
  scrub(value: unknown, ctx: ScrubContext, signal?: AbortSignal): Promise<ScrubResult> {
    return this.started().run({ value, ctx }, signal ? { signal } : {}) as Promise<ScrubResult>;
  }

  /**
   * The rest of a successful call in a worker thread (success-result.ts), answered with the result
   * text. The body's bytes are moved to the thread, not copied, when they own their whole buffer (the
   * transport's do); a view into a shared buffer is copied. Rejects with an AbortError on `signal`.
   */
  finish(
    task: OffLoopSuccessTask,
    containers: ContainerPolicy,
    signal?: AbortSignal,
  ): Promise<SuccessOutput> {
    const body = task.input.response.body;
    const movable =
      body.byteOffset === 0 &&
      body.byteLength === body.buffer.byteLength &&
      body.buffer instanceof ArrayBuffer &&
      body.byteLength > 0;
    return this.started().run(
      { finish: task, containers },
      { ...(signal ? { signal } : {}), ...(movable ? { transferList: [body.buffer as ArrayBuffer] } : {}) },
    ) as Promise<SuccessOutput>;
  }

  /** Threads currently started (for tests and metrics). */
  get threads(): number {
    return this.pool?.threads.length ?? 0;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    if (pool) await pool.destroy();
  }
}
