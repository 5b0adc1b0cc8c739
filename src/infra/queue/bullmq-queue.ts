// JobQueue on BullMQ/Redis: durable, shared by every replica (each replica runs workers).
//
// Connection loss is handled here, not left to BullMQ alone (see BullMQ issues #2466, #2964,
// #3185, #4656): each worker owns its connections, a watchdog recreates a worker that stopped
// taking jobs (main loop ended, or jobs waiting while none is active and nothing runs here),
// and close() is bounded: running jobs get a grace period, then the workers are closed by
// force and every connection is dropped, so neither shutdown nor the process can hang on Redis.
import { Queue, Worker, type Job as BullJob } from 'bullmq';
import type { Redis } from 'ioredis';
import { RedisConnections } from '../redis/redis-connections';
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
  /** The application's Redis clients (src/infra/redis); without it the queue makes and ends its own. */
  connections?: RedisConnections;
  /** Key prefix in Redis (default "aegis"); tests use a unique one. */
  prefix?: string;
  onError?: (error: Error) => void;
  /** Called when the watchdog replaced a worker that stopped taking jobs. */
  onWorkerRestart?: (queue: string, reason: string) => void;
  /** Worker lock lifetime (BullMQ default 30 s); a job whose worker died is retried after it lapses. */
  lockDurationMs?: number;
  /** How often workers look for such stalled jobs (BullMQ default 30 s). */
  stalledIntervalMs?: number;
  /** close(): how long running jobs may still finish before the workers are closed by force (10 s). */
  closeTimeoutMs?: number;
  /** How often the watchdog looks at each worker (2 s); 0 turns it off. */
  watchdogIntervalMs?: number;
  /** Jobs waiting, none active and none running here for this long: the worker is replaced (10 s). */
  stuckAfterMs?: number;
  /** Longest wait between two reconnect attempts (2 s). */
  maxReconnectDelayMs?: number;
};

/** A worker and the connections it owns (its own main connection and BullMQ's copies of it). */
type Slot = { worker: Worker; clients: Redis[]; pending: Set<string> };

type Consumer = {
  queue: string;
  slot: Slot;
  spawn: () => Slot;
  /** Handler calls in flight in this process, including those of replaced workers. */
  running: Set<Promise<void>>;
  stuckSince: number | null;
  restarting: Promise<void> | null;
  checking: boolean;
};

const FORCE_STEP_MS = 1_000; // each forced shutdown step (pause, close(true), quit) gets this long
const ERROR_REPEAT_MS = 10_000; // the same error message is reported at most this often

function bounded<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise.catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

async function until(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(20, Math.max(1, deadline - Date.now()))));
  }
  return true;
}

const ignore = (): void => undefined;

/**
 * disconnect(), plus what ioredis leaves undone when the socket was already gone (status
 * "reconnecting"; BullMQ's close(true) even marks such a client "end"): no "close" event
 * follows, so commands waiting for the reconnect would stay pending for ever, and BullMQ keeps
 * a timer per pending blocking fetch until it gives up. Rejecting them twice is harmless.
 */
export function drop(client: Redis): void {
  client.disconnect();
  const internals = client as unknown as {
    flushQueue?: (error: Error) => void;
    offlineQueue?: QueuedCommands;
    commandQueue?: QueuedCommands;
  };
  // BullMQ sends some commands without awaiting them; rejected here, they surfaced as unhandled
  // rejections at shutdown (a failed test in CI). A catch marks them handled; awaiting callers
  // still get the error.
  for (const queue of [internals.offlineQueue, internals.commandQueue])
    for (const item of queue?.toArray?.() ?? []) item.command?.promise?.catch(ignore);
  // Same message as ioredis' own: BullMQ treats it as a closed connection, not a job error.
  internals.flushQueue?.(new Error('Connection is closed.'));
}

/** ioredis' internal command queues (denque), as far as drop() reads them. */
type QueuedCommands = { toArray?: () => Array<{ command?: { promise?: Promise<unknown> } }> };

export class BullJobQueue implements JobQueue {
  readonly kind = 'bullmq' as const;
  private readonly producer: Redis;
  private readonly connections: RedisConnections;
  /** Connections made for this queue alone (no shared factory given): ended by close(). */
  private readonly ownsConnections: boolean;
  private readonly prefix: string;
  private readonly queues = new Map<string, Queue>();
  private readonly consumers: Consumer[] = [];
  private readonly lastReported = new Map<string, number>();
  private watchdog: NodeJS.Timeout | null = null;
  private closing: Promise<void> | null = null;
  private restarts = 0;

  constructor(private readonly options: BullJobQueueOptions) {
    this.prefix = options.prefix ?? 'aegis';
    // Producer side (add, counts, schedulers, ping): fail fast while Redis is away instead of
    // parking commands until it returns; callers (the audit pipeline) have a fallback.
    this.ownsConnections = !options.connections;
    this.connections =
      options.connections ??
      new RedisConnections(options.redisUrl, { maxReconnectDelayMs: options.maxReconnectDelayMs });
    this.producer = this.connections.client('queue-producer', 'fail-fast');
    this.producer.on('error', (error: Error) => this.report(error));
  }

  /** Workers the watchdog replaced so far (tests, diagnostics). */
  get workerRestarts(): number {
    return this.restarts;
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
    const running = new Set<Promise<void>>();
    const toJob = (job: BullJob): Job<T> => ({
      id: job.id!,
      queue,
      data: job.data as T,
      attempt: job.attemptsMade + 1,
    });
    const run = (job: BullJob): Promise<void> => {
      // Always async, so a handler that throws synchronously is handled the same way.
      const call = Promise.resolve().then(() => handler(toJob(job)));
      running.add(call);
      void call.catch(ignore).finally(() => running.delete(call));
      return call;
    };
    const onFailed = (job: BullJob, error: Error) => {
      // "failed" fires on every failed try; report only the last one, as the in-process queue does.
      if (job.attemptsMade < (job.opts.attempts ?? 1)) return;
      try {
        options.onFailed?.({ ...toJob(job), attempt: job.attemptsMade }, error);
      } catch {
        // A failing failure callback must not stop the worker.
      }
    };
    const spawn = (): Slot => this.spawnWorker(queue, Math.max(1, options.concurrency ?? 1), run, onFailed);
    const consumer: Consumer = {
      queue,
      slot: spawn(),
      spawn,
      running,
      stuckSince: null,
      restarting: null,
      checking: false,
    };
    this.consumers.push(consumer);
    this.startWatchdog();
    await consumer.slot.worker.waitUntilReady();
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
    if (this.producer.status === 'wait') await this.producer.connect();
    await this.producer.ping();
  }

  /** Removes every job and scheduler of a queue (tests). */
  async obliterate(queue: string): Promise<void> {
    await this.queue(queue).obliterate({ force: true });
  }

  /**
   * Stops taking jobs, lets running ones finish for up to closeTimeoutMs, then closes the
   * workers by force and drops every connection. Resolves within closeTimeoutMs + ~3 s even
   * when Redis is gone; nothing of the queue keeps the process alive afterwards.
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    const deadline = Date.now() + (this.options.closeTimeoutMs ?? 10_000);
    await Promise.all(
      this.consumers.map(async (consumer) => {
        if (consumer.restarting) await consumer.restarting; // bounded: it force-closes
        await this.stopSlot(consumer.slot, deadline, consumer.running);
      }),
    );
    await Promise.all([...this.queues.values()].map((queue) => bounded(queue.close(), FORCE_STEP_MS)));
    if (this.producer.status === 'ready') await bounded(this.producer.quit(), FORCE_STEP_MS);
    drop(this.producer); // no-op after a clean quit; stops reconnect timers otherwise
    if (this.ownsConnections) await this.connections.close();
  }

  private spawnWorker(
    queue: string,
    concurrency: number,
    run: (job: BullJob) => Promise<void>,
    onFailed: (job: BullJob, error: Error) => void,
  ): Slot {
    const clients: Redis[] = [];
    const track = (client: Redis) => {
      // BullMQ detaches its listeners when it closes a connection; a late error must not
      // become an "Unhandled error event" on the console.
      client.on('error', ignore);
      clients.push(client);
    };
    // Workers wait for Redis rather than fail: BullMQ requires maxRetriesPerRequest null for the
    // blocking connection, and commands sent while reconnecting are kept in the offline queue.
    const connection = this.connections.client(
      `queue-worker:${queue.replace(/[^\w.:-]/g, '_')}`,
      'blocking',
      track,
    );
    const pending = new Set<string>();
    const worker = new Worker(
      queue,
      async (job: BullJob) => {
        pending.add(job.id!);
        await run(job);
      },
      {
        connection,
        prefix: this.prefix,
        concurrency,
        // BullMQ waits 15 s before fetching again after a failed fetch; resume sooner.
        runRetryDelay: 1_000,
        ...(this.options.lockDurationMs ? { lockDuration: this.options.lockDurationMs } : {}),
        ...(this.options.stalledIntervalMs ? { stalledInterval: this.options.stalledIntervalMs } : {}),
      },
    );
    // BullMQ has recorded a job's outcome once one of these fires: only then may close() cut the connection.
    worker.on('completed', (job) => pending.delete(job.id!));
    worker.on('failed', (job, error) => {
      if (!job) return;
      pending.delete(job.id!);
      onFailed(job, error);
    });
    worker.on('error', (error) => this.report(error));
    return { worker, clients, pending };
  }

  /** Pauses, lets this worker's jobs end until `deadline`, then closes it by force and drops its connections. */
  private async stopSlot(slot: Slot, deadline: number, running?: Set<Promise<void>>): Promise<void> {
    const { worker } = slot;
    // Never worker.close(false): it waits on BullMQ's main loop and the blocking connection's
    // "end", which is what hangs after a Redis restart; a later close(true) would return that
    // same pending promise.
    await bounded(worker.pause(true), FORCE_STEP_MS);
    await until(() => slot.pending.size === 0 && (running?.size ?? 0) === 0, deadline - Date.now());
    await bounded(worker.close(true), FORCE_STEP_MS);
    for (const client of slot.clients) drop(client);
  }

  private startWatchdog(): void {
    const every = this.options.watchdogIntervalMs ?? 2_000;
    if (this.watchdog || every <= 0) return;
    this.watchdog = setInterval(() => {
      for (const consumer of this.consumers) void this.check(consumer);
    }, every);
    this.watchdog.unref();
  }

  private async check(consumer: Consumer): Promise<void> {
    if (this.closing || consumer.restarting || consumer.checking) return;
    consumer.checking = true;
    try {
      const { worker } = consumer.slot;
      if (!worker.isRunning()) return this.restart(consumer, 'the worker loop has stopped');
      if (consumer.running.size > 0) {
        consumer.stuckSince = null;
        return;
      }
      const counts = await bounded(this.counts(consumer.queue), FORCE_STEP_MS);
      if (!counts || this.closing) {
        consumer.stuckSince = null; // Redis unreachable: nothing to judge yet
        return;
      }
      if (counts.waiting === 0 || counts.active > 0) {
        consumer.stuckSince = null;
        return;
      }
      consumer.stuckSince ??= Date.now();
      if (Date.now() - consumer.stuckSince >= (this.options.stuckAfterMs ?? 10_000)) {
        return this.restart(consumer, 'jobs are waiting but the worker takes none');
      }
    } finally {
      consumer.checking = false;
    }
  }

  private restart(consumer: Consumer, reason: string): Promise<void> {
    this.restarts += 1;
    this.options.onWorkerRestart?.(consumer.queue, reason);
    consumer.restarting = (async () => {
      // A stuck worker runs nothing here (checked), so closing it by force loses no work; a job
      // it had fetched stays active in Redis and is retried by BullMQ's stalled-job check.
      await this.stopSlot(consumer.slot, Date.now());
      if (!this.closing) consumer.slot = consumer.spawn();
    })().finally(() => {
      consumer.restarting = null;
      consumer.stuckSince = null;
    });
    return consumer.restarting;
  }

  private report(error: Error): void {
    // While Redis is away every reconnect attempt fails the same way: report it now and then.
    const now = Date.now();
    const last = this.lastReported.get(error.message);
    if (last !== undefined && now - last < ERROR_REPEAT_MS) return;
    if (this.lastReported.size > 100) this.lastReported.clear();
    this.lastReported.set(error.message, now);
    this.options.onError?.(error);
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('job queue is closed');
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.producer, prefix: this.prefix });
      queue.on('error', (error) => this.report(error));
      this.queues.set(name, queue);
    }
    return queue;
  }
}
