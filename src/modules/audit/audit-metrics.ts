// Prometheus metrics of the audit pipeline (registered on the METRICS_REGISTRY registry).
import { Counter, Gauge, type Registry } from 'prom-client';

export type AuditMetrics = {
  enqueued: Counter;
  written: Counter;
  duplicates: Counter;
  failed: Counter;
  fallback: Counter;
  scrubbed: Counter;
  pruned: Counter;
  queueDepth: Gauge;
};

export function createAuditMetrics(registry: Registry, depth: () => Promise<number>): AuditMetrics {
  const registers = [registry];
  return {
    enqueued: new Counter({
      name: 'aegis_audit_records_enqueued_total',
      help: 'Audit records handed to the queue.',
      registers,
    }),
    written: new Counter({
      name: 'aegis_audit_records_written_total',
      help: 'Audit records written to the database.',
      registers,
    }),
    duplicates: new Counter({
      name: 'aegis_audit_records_duplicate_total',
      help: 'Audit records skipped because their event id was already stored (retries).',
      registers,
    }),
    failed: new Counter({
      name: 'aegis_audit_write_failures_total',
      help: 'Audit records whose write attempt failed (they are retried).',
      registers,
    }),
    fallback: new Counter({
      name: 'aegis_audit_fallback_total',
      help: 'Audit records written directly to the database because the queue refused them.',
      registers,
    }),
    scrubbed: new Counter({
      name: 'aegis_audit_secrets_scrubbed_total',
      help: 'Known secret values removed from audit records before storage (should stay 0).',
      registers,
    }),
    pruned: new Counter({
      name: 'aegis_audit_records_pruned_total',
      help: 'Audit records deleted by retention.',
      registers,
    }),
    queueDepth: new Gauge({
      name: 'aegis_audit_queue_depth',
      help: 'Audit jobs waiting in the queue (-1 when the queue is unreachable), plus batches buffered in this replica.',
      registers,
      async collect() {
        this.set(await depth().catch(() => -1));
      },
    }),
  };
}
