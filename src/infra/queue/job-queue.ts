// The queue contract the rest of the service codes against (token JOB_QUEUE). Two
// implementations keep the same semantics: BullMQ on Redis (REDIS_URL) and an in-process queue
// (embedded default). Jobs of one queue start in FIFO order; a failed job is retried up to
// `attempts` times with its backoff; a jobId that is still waiting, delayed, running or kept as
// failed is not added twice; completed jobs are removed, so their ids can be reused.

export type Backoff = { type: 'fixed' | 'exponential'; delayMs: number };

export type AddOptions = {
  /** Deduplication key; must not contain ':' (BullMQ reserves it). */
  jobId?: string;
  /** Total tries including the first (default 1). */
  attempts?: number;
  /** Wait before a retry: fixed, or delayMs * 2^(retry-1) for exponential. */
  backoff?: Backoff;
  /** Wait before the first try. */
  delayMs?: number;
};

export type Job<T> = {
  id: string;
  queue: string;
  data: T;
  /** 1 on the first try, 2 on the first retry, ... */
  attempt: number;
};

export type JobHandler<T> = (job: Job<T>) => Promise<void>;

export type ProcessOptions<T> = {
  /** Jobs of this queue run at the same time in this process (default 1, which keeps FIFO). */
  concurrency?: number;
  /** Called once when a job failed its last attempt. */
  onFailed?: (job: Job<T>, error: Error) => void;
};

export type QueueCounts = { waiting: number; active: number; delayed: number; failed: number };

export interface JobQueue {
  readonly kind: 'bullmq' | 'in-process';
  /** Adds a job; returns its id (the existing one when jobId is already queued). */
  add<T>(queue: string, data: T, options?: AddOptions): Promise<string>;
  /** Registers the one handler of a queue and starts working. */
  process<T>(queue: string, handler: JobHandler<T>, options?: ProcessOptions<T>): Promise<void>;
  /** Adds a job with `data` every `everyMs`; upserting the same schedulerId replaces it. */
  repeat<T>(queue: string, schedulerId: string, everyMs: number, data: T): Promise<void>;
  counts(queue: string): Promise<QueueCounts>;
  /** Throws when the backend is unreachable (readiness). */
  ping(): Promise<void>;
  /** Stops taking jobs, waits for running ones, releases connections. */
  close(): Promise<void>;
}

export const FAILED_JOBS_KEPT = 1000;

export function backoffDelay(backoff: Backoff | undefined, retry: number): number {
  if (!backoff) return 0;
  return backoff.type === 'fixed' ? backoff.delayMs : backoff.delayMs * 2 ** (retry - 1);
}

export function assertJobId(jobId: string | undefined): void {
  if (jobId !== undefined && (jobId.length === 0 || jobId.includes(':') || /^\d+$/.test(jobId))) {
    throw new Error('jobId must be a non-empty, non-numeric string without ":"');
  }
}
