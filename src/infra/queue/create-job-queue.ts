import { BullJobQueue } from './bullmq-queue';
import { InProcessJobQueue } from './in-process-queue';
import type { JobQueue } from './job-queue';

export type JobQueueHooks = {
  /** The BullMQ watchdog replaced a worker that had stopped taking jobs. */
  onWorkerRestart?: (queue: string, reason: string) => void;
};

export function createJobQueue(
  redisUrl: string | null,
  onError?: (error: Error) => void,
  hooks: JobQueueHooks = {},
): JobQueue {
  return redisUrl
    ? new BullJobQueue({ redisUrl, onError, onWorkerRestart: hooks.onWorkerRestart })
    : new InProcessJobQueue();
}
