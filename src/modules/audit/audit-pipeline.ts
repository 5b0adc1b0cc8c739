// The AuditSink behind the AUDIT_SINK token. record() only prepares the entry and buffers it:
// no I/O on the call path. Buffered entries leave as one queue job per batch (a few ms later,
// or at once when the batch is full); the worker writes a job's batch in one transaction.
// When the queue refuses a job (Redis down), the batch is written directly to the database;
// when that fails too, it is kept and retried with backoff. Every record carries its event
// id, so a batch that reaches the database twice (retry, fallback racing the queue) is
// stored once.
import {
  fromJobEntry,
  prepareAuditFields,
  toJobEntry,
  type AuditQueue,
  type AuditRecordFields,
} from '../../core/audit';
import type { AuditEntry, AuditSink } from '../../core/ports';
import type { AuditMetrics } from './audit-metrics';

export const AUDIT_WRITE_JOB = 'audit.write';
export const AUDIT_PRUNE_JOB = 'audit.prune';

export type AuditWriter = {
  appendBatch(batch: readonly AuditRecordFields[]): Promise<{ written: number; duplicates: number }>;
};

export type AuditLog = {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
};

export type AuditPipelineOptions = {
  batchSize: number;
  /** How long a partial batch waits for company before it is sent. */
  flushDelayMs?: number;
  /** add() slower than this counts as a refusal (fallback). */
  enqueueTimeoutMs?: number;
  exactSecrets?: readonly string[];
  retryBaseMs?: number;
  retryMaxMs?: number;
};

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`enqueue timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class AuditPipeline implements AuditSink {
  private buffer: AuditRecordFields[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly inflight = new Set<Promise<void>>();
  private retrying: AuditRecordFields[] = [];
  private retryTimer: NodeJS.Timeout | null = null;
  private retryDelay: number;
  private closed = false;

  constructor(
    private readonly queue: AuditQueue,
    private readonly writer: AuditWriter,
    private readonly metrics: AuditMetrics | null,
    private readonly log: AuditLog,
    private readonly options: AuditPipelineOptions,
  ) {
    this.retryDelay = options.retryBaseMs ?? 250;
  }

  /** Call path: synchronous, no I/O. */
  record(entry: AuditEntry): void {
    let fields: AuditRecordFields;
    try {
      const prepared = prepareAuditFields(entry, { exactSecrets: this.options.exactSecrets });
      fields = prepared.fields;
      if (prepared.scrubbed > 0) {
        this.metrics?.scrubbed.inc(prepared.scrubbed);
        this.log.warn(
          { component: 'audit', tool: fields.tool, count: prepared.scrubbed },
          'secret value removed from audit record',
        );
      }
    } catch (error) {
      this.metrics?.failed.inc();
      this.log.error({ component: 'audit', err: errorMessage(error) }, 'audit record could not be prepared');
      return;
    }
    this.buffer.push(fields);
    if (this.buffer.length >= this.options.batchSize) void this.flush();
    else if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => void this.flush(), this.options.flushDelayMs ?? 5);
      this.flushTimer.unref?.();
    }
  }

  /** Sends everything buffered now; resolves when it was enqueued or written (or parked for retry). */
  flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const work: Promise<void>[] = [];
    while (this.buffer.length > 0)
      work.push(this.track(this.dispatch(this.buffer.splice(0, this.options.batchSize))));
    return Promise.all(work).then(() => undefined);
  }

  /** Buffered + in flight + waiting for a retry in this replica. */
  localDepth(): number {
    return this.buffer.length + this.retrying.length + this.inflight.size;
  }

  /** Worker side: writes one job's batch; throws so the queue retries it later. */
  async handleJob(name: string, data: unknown): Promise<void> {
    if (name !== AUDIT_WRITE_JOB) return;
    const entries = (data as { entries?: unknown } | null)?.entries;
    if (!Array.isArray(entries)) {
      this.log.error({ component: 'audit' }, 'malformed audit job dropped');
      return;
    }
    const batch = entries.map(fromJobEntry).filter((f): f is AuditRecordFields => f !== null);
    if (batch.length !== entries.length) {
      this.log.error(
        { component: 'audit', invalid: entries.length - batch.length },
        'malformed audit entries dropped',
      );
    }
    await this.write(batch);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
    await Promise.all([...this.inflight]);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.retrying.length > 0) {
      const batch = this.retrying.splice(0);
      try {
        await this.write(batch);
      } catch (error) {
        this.log.error(
          { component: 'audit', records: batch.length, err: errorMessage(error) },
          'audit records could not be stored before shutdown',
        );
      }
    }
  }

  private track(promise: Promise<void>): Promise<void> {
    const tracked = promise.finally(() => this.inflight.delete(tracked));
    this.inflight.add(tracked);
    return tracked;
  }

  private async write(batch: AuditRecordFields[]): Promise<void> {
    try {
      const result = await this.writer.appendBatch(batch);
      this.metrics?.written.inc(result.written);
      if (result.duplicates > 0) this.metrics?.duplicates.inc(result.duplicates);
    } catch (error) {
      this.metrics?.failed.inc(batch.length);
      this.log.warn(
        { component: 'audit', records: batch.length, err: errorMessage(error) },
        'audit batch write failed',
      );
      throw error;
    }
  }

  private async dispatch(batch: AuditRecordFields[]): Promise<void> {
    if (batch.length === 0) return;
    if (!this.closed) {
      try {
        const job = { v: 1, entries: batch.map(toJobEntry) };
        // The first event id names the job: re-sending the same batch is deduplicated by the queue.
        await withTimeout(
          this.queue.add(AUDIT_WRITE_JOB, job, `audit-${batch[0]?.eventId}`),
          this.options.enqueueTimeoutMs ?? 1000,
        );
        this.metrics?.enqueued.inc(batch.length);
        return;
      } catch (error) {
        this.metrics?.fallback.inc(batch.length);
        this.log.warn(
          { component: 'audit', queue: this.queue.kind, records: batch.length, err: errorMessage(error) },
          'audit queue refused a batch; writing it directly to the database',
        );
      }
    }
    try {
      await this.write(batch);
      this.retryDelay = this.options.retryBaseMs ?? 250;
    } catch {
      this.park(batch);
    }
  }

  private park(batch: AuditRecordFields[]): void {
    this.retrying.push(...batch);
    if (this.retryTimer || this.closed) return;
    const delay = this.retryDelay;
    this.retryDelay = Math.min(this.retryDelay * 2, this.options.retryMaxMs ?? 30_000);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      const parked = this.retrying.splice(0);
      for (let i = 0; i < parked.length; i += this.options.batchSize) {
        void this.track(this.dispatch(parked.slice(i, i + this.options.batchSize)));
      }
    }, delay);
    this.retryTimer.unref?.();
  }
}
