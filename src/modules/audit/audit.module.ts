// Nest wiring of the audit trail: the AUDIT_SINK provider (AuditPipeline), the queue (BullMQ
// with REDIS_URL, in-process otherwise), the batch writer worker that runs in every replica,
// the retention job and the metrics. The queue is the service's JOB_QUEUE (queue module). Also exports AUDIT_REPOSITORY for the console's reads.
import { Global, Inject, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { AuditQueue } from '../../core/audit';
import { AuditRecordRepository } from '../../infra/audit/audit-record.repository';
import { DATABASE } from '../../infra/database/database.module';
import type { Database } from '../../infra/database/database';
import { AUDIT_QUEUE, AUDIT_REPOSITORY } from '../../infra/audit/audit.tokens';
import { AUDIT_SINK, JOB_QUEUE, LOGGER, METRICS_REGISTRY } from '../tokens';
import { createAuditMetrics, type AuditMetrics } from './audit-metrics';
import { AUDIT_PRUNE_JOB, AuditPipeline } from './audit-pipeline';
import { JobQueueAuditQueue } from '../../infra/audit/job-queue-audit.queue';
import type { JobQueue } from '../../infra/queue/job-queue';

export const AUDIT_METRICS = Symbol('AUDIT_METRICS');
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/**
 * The retention schedule starts this long after start-up, not at it: its first run is the only
 * query a start makes through Prisma, and Prisma's query compiler (a 4.4 MB base64 wasm) loaded
 * for it cost about 0.5 s of CPU and 55-70 MB of resident memory before ready (production RSS at
 * ready 190 -> 135 MB). Retention runs hourly; a minute's delay changes nothing it guarantees.
 */
export const PRUNE_FIRST_DELAY_MS = 60 * 1000;

/** Configured secrets that must never appear in a stored record (defence in depth). */
import { configuredSecrets } from '../../config/configured-secrets';

export { configuredSecrets };

@Global()
@Module({
  providers: [
    {
      provide: AUDIT_QUEUE,
      inject: [JOB_QUEUE],
      useFactory: (jobs: JobQueue): AuditQueue => new JobQueueAuditQueue(jobs),
    },
    {
      // Raw SQL on the driver, not Prisma: every call writes here (infra/database/raw-sql.ts).
      provide: AUDIT_REPOSITORY,
      inject: [DATABASE],
      useFactory: (database: Database) => new AuditRecordRepository(database.sql),
    },
    {
      provide: AUDIT_METRICS,
      inject: [AUDIT_QUEUE, { token: METRICS_REGISTRY, optional: true }],
      useFactory: (queue: AuditQueue, registry: Registry | undefined): AuditMetrics =>
        createAuditMetrics(registry ?? new Registry(), () => queue.depth()),
    },
    {
      provide: AUDIT_SINK,
      inject: [AUDIT_QUEUE, AUDIT_REPOSITORY, AUDIT_METRICS, LOGGER, APP_CONFIG],
      useFactory: (
        queue: AuditQueue,
        repo: AuditRecordRepository,
        metrics: AuditMetrics,
        logger: Logger,
        config: AppConfig,
      ) =>
        new AuditPipeline(queue, repo, metrics, logger, {
          batchSize: config.audit.batchSize,
          flushIntervalMs: config.audit.flushIntervalMs,
          exactSecrets: configuredSecrets(config),
        }),
    },
  ],
  exports: [AUDIT_SINK, AUDIT_REPOSITORY],
})
export class AuditModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(AUDIT_QUEUE) private readonly queue: AuditQueue,
    @Inject(AUDIT_SINK) private readonly pipeline: AuditPipeline,
    @Inject(AUDIT_REPOSITORY) private readonly repository: AuditRecordRepository,
    @Inject(AUDIT_METRICS) private readonly metrics: AuditMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    this.queue.process((name, data) =>
      name === AUDIT_PRUNE_JOB ? this.prune() : this.pipeline.handleJob(name, data),
    );
    if (this.config.audit.retentionDays > 0) {
      this.retentionTimer = setTimeout(() => {
        this.retentionTimer = null;
        this.queue.repeat(AUDIT_PRUNE_JOB, PRUNE_EVERY_MS).catch((error: unknown) => {
          this.logger.warn(
            { component: 'audit', err: String(error) },
            'audit retention job could not be scheduled',
          );
        });
      }, PRUNE_FIRST_DELAY_MS);
      this.retentionTimer.unref();
    }
    this.logger.info(
      { component: 'audit', queue: this.queue.kind, retentionDays: this.config.audit.retentionDays },
      'audit trail ready',
    );
  }

  async prune(): Promise<void> {
    await runRetention(this.repository, this.config.audit.retentionDays, this.metrics, this.logger);
  }

  private retentionTimer: NodeJS.Timeout | null = null;

  async onApplicationShutdown(): Promise<void> {
    if (this.retentionTimer) clearTimeout(this.retentionTimer);
    this.retentionTimer = null;
    await this.pipeline.close();
    await this.queue.close();
  }
}

export async function runRetention(
  repository: AuditRecordRepository,
  retentionDays: number,
  metrics: AuditMetrics | null,
  logger: Pick<Logger, 'info' | 'error'>,
  now: Date = new Date(),
): Promise<void> {
  if (retentionDays <= 0) return;
  const before = new Date(now.getTime() - retentionDays * 86_400_000);
  const result = await repository.prune(before);
  if (result.refused) {
    logger.error(
      { component: 'audit', break: result.refused.firstBreak?.detail ?? 'unknown' },
      'audit retention refused: the records to prune do not verify',
    );
    return;
  }
  if (result.pruned > 0) {
    metrics?.pruned.inc(result.pruned);
    logger.info(
      { component: 'audit', pruned: result.pruned, checkpointSeq: result.checkpoint?.seq.toString() },
      'audit records pruned behind a checkpoint',
    );
  }
}
