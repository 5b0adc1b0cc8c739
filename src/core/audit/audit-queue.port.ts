// The queue the audit pipeline needs: named jobs with an id (dedupe), a worker that retries a
// job with backoff when its handler throws, a repeatable job, and a depth for the metrics.
// BullMQ implements it when REDIS_URL is set (src/infra/audit/audit-bull.queue.ts); the
// in-process implementation (src/modules/audit/local-audit.queue.ts) runs the same handlers otherwise.
export type AuditJobHandler = (name: string, data: unknown) => Promise<void>;

export interface AuditQueue {
  readonly kind: 'bullmq' | 'in-process';
  /** Rejects when the queue cannot take the job right now (the caller falls back). */
  add(name: string, data: unknown, jobId: string): Promise<void>;
  process(handler: AuditJobHandler): void;
  repeat(name: string, everyMs: number): Promise<void>;
  depth(): Promise<number>;
  close(): Promise<void>;
}
