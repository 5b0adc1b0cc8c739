import { BullJobQueue } from './bullmq-queue';
import { InProcessJobQueue } from './in-process-queue';
import type { JobQueue } from './job-queue';

export function createJobQueue(redisUrl: string | null, onError?: (error: Error) => void): JobQueue {
  return redisUrl ? new BullJobQueue({ redisUrl, onError }) : new InProcessJobQueue();
}
