// Audit load figures for `npm run bench`: records per second written to the database (PGlite,
// or PostgreSQL when BENCH_DATABASE_URL is set; in-process queue), the time record() adds to a
// call (p50/p99 of the synchronous enqueue), and what the writes cost the process at a steady
// call rate: CPU per record, transactions and records per transaction, event-loop delay, and
// the time one appendBatch() takes for 1, 10 and 100 records. Prints nothing when the bench
// runner calls it; `node dist/bench/audit/audit-bench.js [--quick] [--pg URL]` prints JSON.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Registry } from 'prom-client';
import { prepareAuditFields } from '../../src/core/audit';
import type { AuditEntry } from '../../src/core/ports';
import { AuditRecordRepository } from '../../src/infra/audit/audit-record.repository';
import { IN_MEMORY_DATA_DIR, openDatabase } from '../../src/infra/database/database';
import { InProcessJobQueue } from '../../src/infra/queue/in-process-queue';
import { createAuditMetrics } from '../../src/modules/audit/audit-metrics';
import {
  AuditPipeline,
  type AuditPipelineOptions,
  type AuditWriter,
} from '../../src/modules/audit/audit-pipeline';
import { JobQueueAuditQueue } from '../../src/infra/audit/job-queue-audit.queue';

export type AuditBenchResult = {
  database: 'pglite' | 'postgres';
  records: number;
  recordsPerSecond: number;
  recordP50Ms: number;
  recordP99Ms: number;
  batchSize: number;
  flushIntervalMs: number;
  /** Records offered at a steady rate (like calls arriving), written by the pipeline as configured. */
  steady: {
    callsPerSecond: number;
    records: number;
    cpuPerRecordMs: number;
    transactions: number;
    recordsPerTransaction: number;
    transactionMedianMs: number;
    transactionMaxMs: number;
    eventLoopDelayP99Ms: number;
    eventLoopDelayMaxMs: number;
  };
  /** Median wall time of one appendBatch() by batch size (on PGlite this is main-thread time). */
  appendBatchMs: Record<string, number>;
};

let counter = 0;
function entry(i: number): AuditEntry {
  counter += 1;
  return {
    eventId: `bench-${process.pid}-${Date.now()}-${counter}`,
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

const round = (n: number, digits = 3): number => Number(n.toFixed(digits));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const DEFAULT_FLUSH_INTERVAL_MS = 100;

/** A writer that counts what the pipeline asked of the repository. */
class CountingWriter implements AuditWriter {
  written = 0;
  durations: number[] = [];
  constructor(private readonly repo: AuditRecordRepository) {}
  async appendBatch(batch: Parameters<AuditWriter['appendBatch']>[0]) {
    const t0 = process.hrtime.bigint();
    const result = await this.repo.appendBatch(batch);
    this.durations.push(Number(process.hrtime.bigint() - t0) / 1e6);
    this.written += result.written;
    return result;
  }
  reset(): void {
    this.written = 0;
    this.durations = [];
  }
}

async function drained(writer: CountingWriter, target: number, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (writer.written < target) {
    if (Date.now() > deadline) throw new Error(`audit bench: ${writer.written}/${target} records written`);
    await sleep(2);
  }
}

export async function runAuditBench(
  options: { quick?: boolean; databaseUrl?: string | null; flushIntervalMs?: number } = {},
): Promise<AuditBenchResult> {
  const records = options.quick ? 2_000 : 20_000;
  const batchSize = 100;
  const flushIntervalMs = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
  const databaseUrl = options.databaseUrl ?? process.env.BENCH_DATABASE_URL ?? null;
  const database = await openDatabase({ databaseUrl, dataDir: IN_MEMORY_DATA_DIR });
  await database.migrate();
  const jobs = new InProcessJobQueue();
  const queue = new JobQueueAuditQueue(jobs);
  const repo = new AuditRecordRepository(database.prisma);
  const writer = new CountingWriter(repo);
  const quiet = { warn: () => undefined, error: () => undefined, info: () => undefined };
  const pipelineOptions: AuditPipelineOptions & { flushIntervalMs?: number } = {
    batchSize,
    flushIntervalMs,
    exactSecrets: ['gta_bench_secret_value_0123456789'],
  };
  const pipeline = new AuditPipeline(
    queue,
    writer,
    createAuditMetrics(new Registry(), () => queue.depth()),
    quiet,
    pipelineOptions,
  );
  queue.process((name, data) => pipeline.handleJob(name, data));
  try {
    const before = await repo.count();

    // 1. Burst: records offered as fast as record() takes them; records/s until all are stored.
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
    await drained(writer, records);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    latencies.sort((a, b) => a - b);

    // 2. Steady: a call every 2 ms (500 calls/s, the order of the sidecar at c=32) for 2 s
    //    (1 s quick); CPU of the whole process per record and the event-loop delay it sees.
    const steadyRate = 500;
    const steadyRecords = options.quick ? 500 : 1_000;
    await sleep(50);
    writer.reset();
    const loop = monitorEventLoopDelay({ resolution: 1 });
    const cpu0 = process.cpuUsage();
    loop.enable();
    const steadyStart = performance.now();
    for (let i = 0; i < steadyRecords; i += 1) {
      const due = steadyStart + (i * 1000) / steadyRate;
      const wait = due - performance.now();
      if (wait > 1) await sleep(Math.floor(wait));
      else if (i % 4 === 3) await new Promise((resolve) => setImmediate(resolve));
      pipeline.record(entry(i));
    }
    await pipeline.flush();
    await drained(writer, steadyRecords);
    loop.disable();
    const cpu = process.cpuUsage(cpu0);
    const tx = [...writer.durations].sort((a, b) => a - b);

    // 3. One appendBatch() by size, straight to the repository (median of a few).
    const appendBatchMs: Record<string, number> = {};
    for (const size of [1, 10, 100]) {
      const times: number[] = [];
      for (let rep = 0; rep < (options.quick ? 7 : 21); rep += 1) {
        const batch = Array.from({ length: size }, (_, i) => prepareAuditFields(entry(i)).fields);
        const t0 = process.hrtime.bigint();
        await repo.appendBatch(batch);
        times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      times.sort((a, b) => a - b);
      appendBatchMs[String(size)] = round(percentile(times, 50));
    }

    const total = (await repo.count()) - before;
    const expected = records + steadyRecords + (options.quick ? 7 : 21) * 111;
    if (total !== expected) throw new Error(`audit bench: ${total} records stored, expected ${expected}`);
    const verified = await repo.verify();
    if (!verified.ok) throw new Error(`audit bench: chain does not verify (${verified.firstBreak?.detail})`);

    return {
      database: database.kind,
      records,
      recordsPerSecond: Math.round(records / seconds),
      recordP50Ms: round(percentile(latencies, 50), 4),
      recordP99Ms: round(percentile(latencies, 99), 4),
      batchSize,
      flushIntervalMs,
      steady: {
        callsPerSecond: steadyRate,
        records: steadyRecords,
        cpuPerRecordMs: round((cpu.user + cpu.system) / 1000 / steadyRecords, 4),
        transactions: tx.length,
        recordsPerTransaction: round(steadyRecords / Math.max(1, tx.length), 1),
        transactionMedianMs: round(percentile(tx, 50)),
        transactionMaxMs: round(tx[tx.length - 1] ?? 0),
        eventLoopDelayP99Ms: round(loop.percentile(99) / 1e6),
        eventLoopDelayMaxMs: round(loop.max / 1e6),
      },
      appendBatchMs,
    };
  } finally {
    await pipeline.close();
    await jobs.close();
    await database.close();
  }
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--pg');
  const interval = args.indexOf('--interval');
  runAuditBench({
    quick: args.includes('--quick'),
    databaseUrl: at >= 0 ? (args[at + 1] ?? null) : null,
    flushIntervalMs: interval >= 0 ? Number(args[interval + 1]) : undefined,
  })
    .then((result) => process.stdout.write(`${JSON.stringify(result, null, 2)}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    });
}
