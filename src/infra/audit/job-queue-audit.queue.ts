// Runs the audit pipeline on the service's JobQueue (BullMQ with REDIS_URL, in-process
// otherwise) as one queue, "aegis-audit", carrying write batches and the retention job.
import type { AuditJobHandler, AuditQueue } from '../../core/audit';
import type { JobQueue } from '../queue/job-queue';

export const AUDIT_QUEUE_NAME = 'aegis-audit';

type Envelope = { name: string; data: unknown };

export class JobQueueAuditQueue implements AuditQueue {
  readonly kind: 'bullmq' | 'in-process';

  constructor(
    private readonly jobs: JobQueue,
    private readonly retry = { attempts: 20, delayMs: 500 },
  ) {
    this.kind = jobs.kind;
  }

  async add(name: string, data: unknown, jobId: string): Promise<void> {
    await this.jobs.add<Envelope>(
      AUDIT_QUEUE_NAME,
      { name, data },
      {
        jobId: jobId.replace(/:/g, '_'), // BullMQ reserves ':'
        // While the database is down the worker retries with exponential backoff; a job that
        // runs out of attempts is kept as failed in the queue, not dropped.
        attempts: this.retry.attempts,
        backoff: { type: 'exponential', delayMs: this.retry.delayMs },
      },
    );
  }

  process(handler: AuditJobHandler): void {
    void this.jobs.process<Envelope>(AUDIT_QUEUE_NAME, (job) => handler(job.data.name, job.data.data), {
      concurrency: 1,
    });
  }

  async repeat(name: string, everyMs: number): Promise<void> {
    await this.jobs.repeat<Envelope>(AUDIT_QUEUE_NAME, name, everyMs, { name, data: null });
  }

  async depth(): Promise<number> {
    const counts = await this.jobs.counts(AUDIT_QUEUE_NAME);
    return counts.waiting + counts.active + counts.delayed;
  }

  async close(): Promise<void> {
    // The JobQueue belongs to the queue module, which closes it.
  }
}
