// /healthz: the process is alive (no dependencies checked, so a slow database never gets the
// pod killed). /readyz: the database, Redis (when configured) and Gitea answer, and Gitea accepts
// the service token. Each check's result is reused for READINESS_CACHE_MS, so probes and floods
// on this unauthenticated route cost at most one database query and one Gitea probe a second.
import { Controller, Get, Inject } from '@nestjs/common';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  type HealthIndicatorFunction,
  type HealthIndicatorResult,
} from '@nestjs/terminus';
import { DATABASE } from '../../infra/database/database.module';
import type { Database } from '../../infra/database/database';
import type { JobQueue } from '../../infra/queue/job-queue';
import { JOB_QUEUE } from '../tokens';
import { GiteaReadiness, PROBE_TIMEOUT_MS, READINESS_CACHE_MS } from './gitea-readiness';

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const reason = (error: unknown): string => (error instanceof Error ? error.message : 'failed');

@Controller()
export class HealthController {
  private readonly cache = new Map<string, { at: number; result: Promise<HealthIndicatorResult> }>();

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly gitea: GiteaReadiness,
    @Inject(DATABASE) private readonly database: Database,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
  ) {}

  @Get('healthz')
  @HealthCheck()
  liveness() {
    return this.health.check([
      async () => this.indicators.check('process').up({ uptimeSeconds: Math.round(process.uptime()) }),
    ]);
  }

  @Get('readyz')
  @HealthCheck()
  readiness() {
    const checks: HealthIndicatorFunction[] = [() => this.cached('database', () => this.checkDatabase())];
    if (this.queue.kind === 'bullmq') checks.push(() => this.cached('redis', () => this.checkRedis()));
    checks.push(() => this.checkGitea());
    return this.health.check(checks);
  }

  private cached(key: string, run: () => Promise<HealthIndicatorResult>): Promise<HealthIndicatorResult> {
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && now - hit.at < READINESS_CACHE_MS) return hit.result;
    const result = run();
    this.cache.set(key, { at: now, result });
    return result;
  }

  private async checkDatabase() {
    const indicator = this.indicators.check('database');
    try {
      await withTimeout(this.database.ping(), PROBE_TIMEOUT_MS);
      return indicator.up({ kind: this.database.kind });
    } catch (error) {
      return indicator.down({ kind: this.database.kind, message: reason(error) });
    }
  }

  private async checkRedis() {
    const indicator = this.indicators.check('redis');
    try {
      await withTimeout(this.queue.ping(), PROBE_TIMEOUT_MS);
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: reason(error) });
    }
  }

  // Cached inside GiteaReadiness (which start-up also uses).
  private async checkGitea() {
    const indicator = this.indicators.check('gitea');
    const status = await this.gitea.check();
    return status.up
      ? indicator.up({
          version: status.version,
          ...(status.serviceAccount ? { serviceToken: 'accepted' } : {}),
        })
      : indicator.down({ message: status.message });
  }
}
