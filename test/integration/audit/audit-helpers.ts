// Shared helpers for the audit pipeline suites: a pipeline wired like the module does, a
// redis-server the test owns (so it can kill and restart it), a TCP proxy that can cut the
// database away, and polling.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Registry } from 'prom-client';
import { AuditRecordRepository, type AuditDb } from '../../../src/infra/audit/audit-record.repository';
import { BullJobQueue } from '../../../src/infra/queue/bullmq-queue';
import { InProcessJobQueue } from '../../../src/infra/queue/in-process-queue';
import type { JobQueue } from '../../../src/infra/queue/job-queue';
import { createAuditMetrics, type AuditMetrics } from '../../../src/modules/audit/audit-metrics';
import { AuditPipeline } from '../../../src/modules/audit/audit-pipeline';
import { JobQueueAuditQueue } from '../../../src/infra/audit/job-queue-audit.queue';

export const SECRET = 'gta_0123456789abcdef0123456789abcdef01234567';
export const quietLog = { warn: () => undefined, error: () => undefined, info: () => undefined };

export type Harness = {
  pipeline: AuditPipeline;
  jobs: JobQueue;
  repo: AuditRecordRepository;
  metrics: AuditMetrics;
  registry: Registry;
  close(): Promise<void>;
};

export function buildPipeline(prisma: AuditDb, redisUrl: string | null, batchSize = 20): Harness {
  const jobs: JobQueue = redisUrl
    ? new BullJobQueue({
        redisUrl,
        prefix: `aegis-audit-test-${process.pid}-${Date.now()}`,
        onError: () => undefined,
        // A job that was running when Redis was killed is recovered by BullMQ's stalled-job
        // check; a short clock (instead of 30 s + 30 s) keeps the Redis-kill test at seconds.
        lockDurationMs: 5_000,
        stalledIntervalMs: 1_000,
      })
    : new InProcessJobQueue();
  const queue = new JobQueueAuditQueue(jobs, { attempts: 40, delayMs: 25 });
  const repo = new AuditRecordRepository(prisma);
  const registry = new Registry();
  const metrics = createAuditMetrics(registry, () => queue.depth());
  const pipeline = new AuditPipeline(queue, repo, metrics, quietLog, {
    batchSize,
    exactSecrets: [SECRET],
    enqueueTimeoutMs: 500,
    retryBaseMs: 50,
    retryMaxMs: 400,
  });
  queue.process((name, data) => pipeline.handleJob(name, data));
  return {
    pipeline,
    jobs,
    repo,
    metrics,
    registry,
    async close() {
      await pipeline.close();
      await jobs.close();
    },
  };
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function metricValue(registry: Registry, name: string): Promise<number> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  return (metric?.values as Array<{ value: number }> | undefined)?.reduce((sum, v) => sum + v.value, 0) ?? 0;
}

// One redis-server helper for every suite that kills and restarts Redis.
export { OwnRedis, REDIS_BINARY, freePort } from '../queue/own-redis';

/** TCP proxy in front of PostgreSQL: cut() drops every connection and refuses new ones. */
export class CuttableProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;
  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}
  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}
