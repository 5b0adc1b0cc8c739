export * from './job-queue';
export { BullJobQueue, type BullJobQueueOptions } from './bullmq-queue';
export { InProcessJobQueue } from './in-process-queue';
export { createJobQueue, type JobQueueHooks } from './create-job-queue';
export { QueueModule } from './queue.module';
