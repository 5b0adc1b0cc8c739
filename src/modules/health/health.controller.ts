// /healthz: the process is alive (no dependencies checked, so a slow database never gets the
// pod killed). /readyz: the database, Redis (when configured) and Gitea answer.
import { Controller, Get, Inject } from '@nestjs/common';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  type HealthIndicatorFunction,
} from '@nestjs/terminus';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { DATABASE } from '../../infra/database/database.module';
import type { Database } from '../../infra/database/database';
import type { JobQueue } from '../../infra/queue/job-queue';
import { JOB_QUEUE } from '../tokens';

const PROBE_TIMEOUT_MS = 5_000;

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
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
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
    const checks: HealthIndicatorFunction[] = [() => this.checkDatabase()];
    if (this.queue.kind === 'bullmq') checks.push(() => this.checkRedis());
    checks.push(() => this.checkGitea());
    return this.health.check(checks);
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

  private async checkGitea() {
    const indicator = this.indicators.check('gitea');
    const timeoutMs = Math.min(this.config.gitea.timeoutMs, PROBE_TIMEOUT_MS);
    try {
      // Unauthenticated on purpose: readiness must not spend or expose a credential.
      const response = await fetch(`${this.config.gitea.url}/api/v1/version`, {
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/json' },
      });
      if (!response.ok) return indicator.down({ message: `GET /api/v1/version answered ${response.status}` });
      const body = (await response.json()) as { version?: unknown };
      return indicator.up({ version: typeof body.version === 'string' ? body.version : null });
    } catch (error) {
      const message =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : reason(error);
      return indicator.down({ message });
    }
  }
}
