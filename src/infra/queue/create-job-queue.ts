import type { RedisConnections } from '../redis/redis-connections';
import { InProcessJobQueue } from './in-process-queue';
import type { JobQueue } from './job-queue';

export type JobQueueHooks = {
  /** The BullMQ watchdog replaced a worker that had stopped taking jobs. */
  onWorkerRestart?: (queue: string, reason: string) => void;
  /** The application's Redis clients; the queue makes its own without them. */
  connections?: RedisConnections | null;
};

/** BullMQ (loaded only then: it and ioredis are a fifth of the modules the service loads) or the in-process queue. */
export async function createJobQueue(
  redisUrl: string | null,
  onError?: (error: Error) => void,
  hooks: JobQueueHooks = {},
): Promise<JobQueue> {
  if (!redisUrl) return new InProcessJobQueue();
  const { BullJobQueue } = await import('./bullmq-queue');
  return new BullJobQueue({
    redisUrl,
    onError,
    onWorkerRestart: hooks.onWorkerRestart,
    ...(hooks.connections ? { connections: hooks.connections } : {}),
  });
}
