// Audit load figures for `npm run bench`: records per second written to the database (PGlite,
// or PostgreSQL when BENCH_DATABASE_URL is set; in-process queue) and the time record() adds
// to a call (p50/p99 of the synchronous enqueue). Prints nothing; the bench runner reports.
import { Registry } from 'prom-client';
import type { AuditEntry } from '../../src/core/ports';
import { AuditRecordRepository } from '../../src/infra/audit/audit-record.repository';
import { IN_MEMORY_DATA_DIR, openDatabase } from '../../src/infra/database/database';
import { InProcessJobQueue } from '../../src/infra/queue/in-process-queue';
import { createAuditMetrics } from '../../src/modules/audit/audit-metrics';
import { AuditPipeline } from '../../src/modules/audit/audit-pipeline';
import { JobQueueAuditQueue } from '../../src/modules/audit/job-queue-audit.queue';

export type AuditBenchResult = {
  database: 'pglite' | 'postgres';
  records: number;
  recordsPerSecond: number;
  recordP50Ms: number;
  recordP99Ms: number;
  batchSize: number;
};

function entry(i: number): AuditEntry {
  return {
    eventId: `bench-${process.pid}-${Date.now()}-${i}`,
    time: new Date(),
    login: 'alice',
    mode: 'oauth',
    sudo: null,
    clientName: 'bench',
    clientVersion: '1.0.0',
    tool: 'issue_list',
    operationId: 'issueListIssues',
    org: 'acme',
    repo: 'widgets',
    method: 'GET',
    path: '/repos/acme/widgets/issues',
    status: 200,
    kind: null,
    durationMs: 3.2,
    resultBytes: 2048,
    redactions: 0,
    masks: 0,
    blocked: false,
    arguments: { owner: 'acme', repo: 'widgets', state: 'open', page: i % 10, limit: 50 },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function runAuditBench(
  options: { quick?: boolean; databaseUrl?: string | null } = {},
): Promise<AuditBenchResult> {
  const records = options.quick ? 2_000 : 20_000;
  const batchSize = 100;
  const databaseUrl = options.databaseUrl ?? process.env.BENCH_DATABASE_URL ?? null;
  const database = await openDatabase({ databaseUrl, dataDir: IN_MEMORY_DATA_DIR });
  await database.migrate();
  const jobs = new InProcessJobQueue();
  const queue = new JobQueueAuditQueue(jobs);
  const repo = new AuditRecordRepository(database.prisma);
  const quiet = { warn: () => undefined, error: () => undefined, info: () => undefined };
  const pipeline = new AuditPipeline(
    queue,
    repo,
    createAuditMetrics(new Registry(), () => queue.depth()),
    quiet,
    {
      batchSize,
      exactSecrets: ['gta_bench_secret_value_0123456789'],
    },
  );
  queue.process((name, data) => pipeline.handleJob(name, data));
  try {
    const before = await repo.count();
    const latencies: number[] = new Array(records);
    const started = process.hrtime.bigint();
    for (let i = 0; i < records; i += 1) {
      const e = entry(i);
      const t0 = process.hrtime.bigint();
      pipeline.record(e);
      latencies[i] = Number(process.hrtime.bigint() - t0) / 1e6;
      // Let the event loop breathe as a real server would between calls.
      if (i % batchSize === batchSize - 1) await new Promise((resolve) => setImmediate(resolve));
    }
    await pipeline.flush();
    while ((await repo.count()) - before < records) await new Promise((resolve) => setTimeout(resolve, 10));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    latencies.sort((a, b) => a - b);
    return {
      database: database.kind,
      records,
      recordsPerSecond: Math.round(records / seconds),
      recordP50Ms: Number(percentile(latencies, 50).toFixed(4)),
      recordP99Ms: Number(percentile(latencies, 99).toFixed(4)),
      batchSize,
    };
  } finally {
    await pipeline.close();
    await jobs.close();
    await database.close();
  }
}
