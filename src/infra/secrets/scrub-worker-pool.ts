// Worker threads for the secret pass over large results (ADR 0018): a result whose body is at least
// SECRET_SCAN_WORKER_MIN_BYTES is scanned by a piscina pool of SECRET_SCAN_WORKERS threads, so the
// event loop (health checks, other calls) keeps running while it is scanned. The call's deadline
// (REQUEST_TIMEOUT_MS) aborts the task: piscina terminates the thread mid-scan and starts another.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import type { ScrubContext, ScrubResult } from '../../core/secrets';
import type { ScrubTask } from './scrub.worker';

export type ScrubWorkerOptions = {
  /** threads at most (0: never use workers) */
  threads: number;
  /** results whose body has at least this many bytes go to a worker */
  minBytes: number;
  /** an idle thread exits after this long (none are kept: most results are small) */
  idleTimeoutMs?: number;
};

/** The worker's entry: the compiled scrub.worker.js, or a bootstrap that compiles the .ts sources. */
function workerFile(): string {
  const js = join(__dirname, 'scrub.worker.js');
  return existsSync(js) ? js : join(__dirname, 'ts-worker-bootstrap.cjs');
}

export class ScrubWorkerPool {
  private pool: Piscina<ScrubTask, ScrubResult> | null = null;

  constructor(private readonly options: ScrubWorkerOptions) {}

  /** Whether a result is scanned in a worker: its Gitea body has at least `minBytes` bytes. */
  wants(bytes: number): boolean {
    return this.options.threads > 0 && bytes >= this.options.minBytes;
  }

  /** The scrub of `value` in a worker thread; rejects with an AbortError when `signal` aborts first. */
  scrub(value: unknown, ctx: ScrubContext, signal?: AbortSignal): Promise<ScrubResult> {
    this.pool ??= new Piscina<ScrubTask, ScrubResult>({
      filename: workerFile(),
      minThreads: 0,
      maxThreads: this.options.threads,
      idleTimeout: this.options.idleTimeoutMs ?? 30_000,
      // a scan is CPU work: one task per thread, the rest wait in the queue
      concurrentTasksPerWorker: 1,
    });
    return this.pool.run({ value, ctx }, signal ? { signal } : {});
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
