export * from './job-queue';
export { BullJobQueue, type BullJobQueueOptions } from './bullmq-queue';
export { InProcessJobQueue } from './in-process-queue';
export { createJobQueue } from './create-job-queue';
export { QueueModule } from './queue.module';
