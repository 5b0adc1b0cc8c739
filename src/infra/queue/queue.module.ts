// Provides JOB_QUEUE: BullMQ when REDIS_URL is set, otherwise the in-process queue. Closed on
// shutdown after the HTTP server stopped taking requests, so queued work can finish.
import { Global, Inject, Module, type BeforeApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { LOGGER } from '../logging/logging.tokens';
import type { RedisConnections } from '../redis/redis-connections';
import { REDIS_CONNECTIONS } from '../redis/redis.tokens';
import { JOB_QUEUE } from './queue.tokens';
import { createJobQueue } from './create-job-queue';
import type { JobQueue } from './job-queue';

@Global()
@Module({
  providers: [
    {
      provide: JOB_QUEUE,
      inject: [APP_CONFIG, LOGGER, { token: REDIS_CONNECTIONS, optional: true }],
      useFactory: async (
        config: AppConfig,
        logger: Logger,
        connections?: RedisConnections | null,
      ): Promise<JobQueue> => {
        const queue = await createJobQueue(
          config.storage.redisUrl,
          (error) => logger.error({ component: 'queue', err: error.message }, 'queue backend error'),
          {
            onWorkerRestart: (name, reason) =>
              logger.warn({ component: 'queue', queue: name, reason }, 'queue worker replaced'),
            connections,
          },
        );
        logger.info({ component: 'queue', kind: queue.kind }, 'job queue ready');
        return queue;
      },
    },
  ],
  exports: [JOB_QUEUE],
})
export class QueueModule implements BeforeApplicationShutdown {
  constructor(@Inject(JOB_QUEUE) private readonly queue: JobQueue) {}

  // Before the database closes (DatabaseModule uses onApplicationShutdown): running jobs may write.
  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}
