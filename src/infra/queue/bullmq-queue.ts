// JobQueue on BullMQ/Redis: durable, shared by every replica (each replica runs workers).
import { Queue, Worker, type Job as BullJob } from 'bullmq';
import { Redis } from 'ioredis';
import {
  assertJobId,
  FAILED_JOBS_KEPT,
  type AddOptions,
  type Job,
  type JobHandler,
  type JobQueue,
  type ProcessOptions,
  type QueueCounts,
} from './job-queue';

export type BullJobQueueOptions = {
  redisUrl: string;
  /** Key prefix in Redis (default "aegis"); tests use a unique one. */
  prefix?: string;
  onError?: (error: Error) => void;
  /** Worker lock lifetime (BullMQ default 30 s); a job whose worker died is retried after it lapses. */
  lockDurationMs?: number;
  /** How often workers look for such stalled jobs (BullMQ default 30 s). */
  stalledIntervalMs?: number;
};

export class BullJobQueue implements JobQueue {
  readonly kind = 'bullmq' as const;
  private readonly connection: Redis;
  private readonly prefix: string;
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  private closed = false;

  constructor(private readonly options: BullJobQueueOptions) {
    this.prefix = options.prefix ?? 'aegis';
    // BullMQ needs maxRetriesPerRequest: null for its blocking worker connections.
    this.connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
    this.connection.on('error', (error: Error) => this.options.onError?.(error));
  }

  async add<T>(queue: string, data: T, options: AddOptions = {}): Promise<string> {
    this.assertOpen();
    assertJobId(options.jobId);
    const job = await this.queue(queue).add(queue, data, {
      jobId: options.jobId,
      attempts: options.attempts ?? 1,
      backoff: options.backoff ? { type: options.backoff.type, delay: options.backoff.delayMs } : undefined,
      delay: options.delayMs,
      removeOnComplete: true,
      removeOnFail: { count: FAILED_JOBS_KEPT },
    });
    return job.id!;
  }

  async process<T>(queue: string, handler: JobHandler<T>, options: ProcessOptions<T> = {}): Promise<void> {
    this.assertOpen();
    const toJob = (job: BullJob): Job<T> => ({
      id: job.id!,
      queue,
      data: job.data as T,
      attempt: job.attemptsMade + 1,
    });
    const worker = new Worker(queue, async (job: BullJob) => handler(toJob(job)), {
      connection: this.connection,
      prefix: this.prefix,
      concurrency: Math.max(1, options.concurrency ?? 1),
      ...(this.options.lockDurationMs ? { lockDuration: this.options.lockDurationMs } : {}),
      ...(this.options.stalledIntervalMs ? { stalledInterval: this.options.stalledIntervalMs } : {}),
    });
    worker.on('failed', (job, error) => {
      // "failed" fires on every failed try; report only the last one, as the in-process queue does.
      if (!job || job.attemptsMade < (job.opts.attempts ?? 1)) return;
      try {
        options.onFailed?.({ ...toJob(job), attempt: job.attemptsMade }, error);
      } catch {
        // A failing failure callback must not stop the worker.
      }
    });
    worker.on('error', (error) => this.options.onError?.(error));
    this.workers.push(worker);
    await worker.waitUntilReady();
  }

  async repeat<T>(queue: string, schedulerId: string, everyMs: number, data: T): Promise<void> {
    this.assertOpen();
    await this.queue(queue).upsertJobScheduler(
      schedulerId,
      { every: everyMs },
      { name: queue, data, opts: { removeOnComplete: true, removeOnFail: { count: FAILED_JOBS_KEPT } } },
    );
  }

  async counts(queue: string): Promise<QueueCounts> {
    const counts = await this.queue(queue).getJobCounts(
      'waiting',
      'prioritized',
      'active',
      'delayed',
      'failed',
    );
    return {
      waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      failed: counts.failed ?? 0,
    };
  }

  async ping(): Promise<void> {
    if (this.connection.status === 'wait') await this.connection.connect();
    await this.connection.ping();
  }

  /** Removes every job and scheduler of a queue (tests). */
  async obliterate(queue: string): Promise<void> {
    await this.queue(queue).obliterate({ force: true });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.workers.map((worker) => worker.close()));
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    if (this.connection.status !== 'end' && this.connection.status !== 'wait') await this.connection.quit();
    else this.connection.disconnect();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('job queue is closed');
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.prefix });
      queue.on('error', (error) => this.options.onError?.(error));
      this.queues.set(name, queue);
    }
    return queue;
  }
}
