// The AuditSink behind the AUDIT_SINK token. record() only prepares the entry and buffers it:
// no I/O on the call path. Buffered entries leave as one queue job per batch, when the batch is
// full or when the oldest buffered entry has waited the flush interval, whichever comes first;
// the worker writes a job's batch with one statement. A flush never runs inside record(): it is
// scheduled with setImmediate, so the call that filled the batch finishes (and pending I/O is
// served) before the database gets the event loop (embedded PGlite runs on this thread).
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

/** AUDIT_FLUSH_INTERVAL_MS default: see ADR 0008 for the choice. */
export const DEFAULT_AUDIT_FLUSH_INTERVAL_MS = 100;

export type AuditPipelineOptions = {
  batchSize: number;
  /** Longest a buffered entry waits for its batch to fill before the batch is sent anyway. */
  flushIntervalMs?: number;
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
  private flushImmediate: NodeJS.Immediate | null = null;
  /** The scheduled flush sends everything (deadline reached), not only full batches. */
  private pendingAll = false;
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
    if (this.buffer.length >= this.options.batchSize) this.flushSoon(false);
    else if (!this.flushTimer) this.startTimer();
  }

  /** Sends everything buffered now; resolves when it was enqueued or written (or parked for retry). */
  flush(): Promise<void> {
    return this.send(true);
  }

  private startTimer(): void {
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flushSoon(true);
    }, this.options.flushIntervalMs ?? DEFAULT_AUDIT_FLUSH_INTERVAL_MS);
    this.flushTimer.unref?.();
  }

  /** After the current callback and pending I/O: full batches only, or everything when `all`. */
  private flushSoon(all: boolean): void {
    if (this.flushImmediate) {
      if (all) this.pendingAll = true;
      return;
    }
    this.pendingAll = all;
    this.flushImmediate = setImmediate(() => {
      this.flushImmediate = null;
      void this.send(this.pendingAll);
    });
  }

  private send(all: boolean): Promise<void> {
    if (this.flushImmediate) clearImmediate(this.flushImmediate);
    this.flushImmediate = null;
    const size = this.options.batchSize;
    const work: Promise<void>[] = [];
    while (this.buffer.length >= size || (all && this.buffer.length > 0))
      work.push(this.track(this.dispatch(this.buffer.splice(0, size))));
    // What stays behind (a partial batch) keeps, or gets, its deadline.
    if (this.buffer.length === 0) {
      if (this.flushTimer) clearTimeout(this.flushTimer);
      this.flushTimer = null;
    } else if (!this.flushTimer) this.startTimer();
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
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
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
