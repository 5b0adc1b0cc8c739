// Entry point: validate the environment (every bad variable reported at once, exit 1), boot
// Nest on HOST:PORT exactly, and shut down gracefully on SIGTERM/SIGINT within
// SHUTDOWN_TIMEOUT_MS (stop accepting, drain the queue, close the database).
// First: every module loaded after this line is compiled from (and into) Node's compile cache.
import './infra/runtime/compile-cache';
// Second: the embedded database's thread starts (embedded default only), so PGlite opens on the
// other core while the rest loads (src/infra/database/pglite-thread.ts).
import './infra/database/pglite-early-start';
import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Logger } from 'pino';
import { AppModule, type AppModuleOptions } from './app.module';
import type { AppConfig } from './config/app-config';
import { readFileSync } from 'node:fs';
import { type ConfigIssue, formatConfigIssues, parseConfig } from './config/env.schema';
import {
  type NamedTool,
  startupRefusals,
  startupWarnings,
  unmatchedDisabledTools,
} from './config/startup-checks';
import { CALL_TOOL_NAME, DESCRIBE_TOOL_NAME, SEARCH_TOOL_NAME } from './core/catalogue/discovery-tools';
import { bundledSpecPath } from './infra/gitea/spec-source';
import { RAW_TOOL_NAME } from './core/catalogue/tool-catalogue';
import { GiteaReadiness } from './modules/health/gitea-readiness';
import { createLogger } from './infra/logging/logger';
import { bufferedDestination, flushLogsBeforeSignalExit } from './infra/logging/log-destination';
import { PinoNestLogger } from './infra/logging/nest-logger';
import { MetricsListener } from './modules/metrics/metrics-listener';
import { LOGGER } from './modules/tokens';

export type StartedApp = { app: INestApplication; url: string; metricsUrl: string; logger: Logger };

/** Builds the application without listening (tests use this with supertest). */
export async function createApp(
  config: AppConfig,
  options: Omit<AppModuleOptions, 'config'> = {},
): Promise<INestApplication> {
  // Buffered, asynchronous stdout (log-destination.ts): the per-call line costs no write on the
  // request path; what is buffered is written on exit and before Nest's re-raised signal.
  const logger = options.logger ?? createLogger({ level: config.server.logLevel }, bufferedDestination());
  const app = await NestFactory.create(AppModule.forRoot({ ...options, config, logger }), {
    logger: new PinoNestLogger(logger.child({ component: 'nest' })),
    // The MCP endpoint reads and bounds its own request bodies (MCP_MAX_BODY_BYTES).
    bodyParser: false,
    abortOnError: false,
  });
  app.enableShutdownHooks();
  return app;
}

/** Builds and listens on config.server.host:port (port 0 picks a free one). */
export async function startApp(
  config: AppConfig,
  options: Omit<AppModuleOptions, 'config'> = {},
): Promise<StartedApp> {
  const app = await createApp(config, options);
  await app.listen(config.server.port, config.server.host);
  const address = app.getHttpServer().address() as { port: number } | string | null;
  const port = typeof address === 'object' && address ? address.port : config.server.port;
  const host = config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host;
  const logger = app.get<Logger>(LOGGER);
  const url = `http://${host}:${port}`;
  // PORT=0 without PUBLIC_URL: the default public URL named port 0; it is the real port now.
  // (The configuration object is the one every module holds, so they all see the real URL.)
  if (config.server.port === 0 && config.server.publicUrl === `http://${host}:0`)
    config.server.publicUrl = url;
  let metricsPort: number;
  try {
    metricsPort = await app.get(MetricsListener).start();
  } catch (error) {
    await app.close();
    throw error;
  }
  const metricsUrl = `http://${host}:${metricsPort}/metrics`;
  logger.info({ component: 'server', url, publicUrl: config.server.publicUrl, metricsUrl }, 'listening');
  return { app, url, metricsUrl, logger };
}

/** Every operation (name, method, route) of the spec the catalogue will be built from, plus the meta-tools (for DISABLED_TOOLS). */
function knownTools(specSource: string): NamedTool[] | null {
  const source = specSource.trim() || 'bundled';
  if (source === 'live') return null; // known only once Gitea answers; checked by no one at start
  const spec = JSON.parse(readFileSync(source === 'bundled' ? bundledSpecPath() : source, 'utf8')) as {
    paths?: Record<string, Record<string, { operationId?: unknown } | null> | null>;
  };
  const tools: NamedTool[] = [];
  for (const [route, item] of Object.entries(spec.paths ?? {}))
    for (const [method, op] of Object.entries(item ?? {}))
      if (typeof op?.operationId === 'string') tools.push({ name: op.operationId, method, route });
  for (const name of [SEARCH_TOOL_NAME, DESCRIBE_TOOL_NAME, CALL_TOOL_NAME, RAW_TOOL_NAME])
    tools.push({ name });
  return tools;
}

/** Parse errors, then refusals across variables; [] when the service may start. */
export function startupProblems(env: NodeJS.ProcessEnv): { config: AppConfig | null; issues: ConfigIssue[] } {
  const parsed = parseConfig(env);
  if (!parsed.ok) return { config: null, issues: parsed.issues };
  const config = parsed.config;
  const issues = startupRefusals(config);
  if (config.tools.disabledTools.length > 0) {
    let tools: NamedTool[] | null;
    try {
      tools = knownTools(config.tools.specSource);
    } catch {
      tools = null; // an unreadable SPEC_SOURCE file is reported by the catalogue at boot
    }
    if (tools) issues.push(...unmatchedDisabledTools(config.tools.disabledTools, tools));
  }
  return { config, issues };
}

/** One line for the errors an operator causes at start (busy port, ...), else null. */
export function describeStartupError(error: unknown, config: AppConfig): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
    const port = (error as { port?: unknown }).port ?? config.server.port;
    const which = port === config.server.metricsPort && port !== config.server.port ? 'METRICS_PORT' : 'PORT';
    const what =
      code === 'EADDRINUSE'
        ? 'is already in use (is another AegisGitea-MCP or demo still running?): stop it, or choose another'
        : code === 'EACCES'
          ? 'may not be opened by this user: choose one above 1023'
          : 'cannot be bound on this machine: check HOST';
    return `cannot listen on ${config.server.host}:${String(port)}: ${which} ${String(port)} ${what} ${which}`;
  }
  return null;
}

async function main(): Promise<void> {
  const { config, issues } = startupProblems(process.env);
  if (!config || issues.length > 0) {
    process.stderr.write(`${formatConfigIssues(issues)}\n`);
    process.exit(1);
  }
  const startupLogger = createLogger({ level: config.server.logLevel }).child({ component: 'startup' });
  for (const warning of startupWarnings(config)) startupLogger.warn(warning);
  let started: StartedApp;
  try {
    started = await startApp(config);
  } catch (error) {
    const line = describeStartupError(error, config);
    if (line) process.stderr.write(`${line}\n`);
    else
      startupLogger.fatal(
        { err: error instanceof Error ? { message: error.message, stack: error.stack } : String(error) },
        'start-up failed',
      );
    process.exit(1);
  }
  // First readiness probe now: a refused token, an unreachable Gitea or an old Gitea shows in
  // the log at start, not at the first probe.
  void started.app.get(GiteaReadiness).check();
  // enableShutdownHooks closes the app on signals; this only bounds how long that may take.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      flushLogsBeforeSignalExit(signal);
      started.logger.info({ component: 'server', signal }, 'shutting down');
      setTimeout(() => {
        started.logger.error(
          { component: 'server' },
          `shutdown exceeded ${config.server.shutdownTimeoutMs} ms; exiting`,
        );
        process.exit(1);
      }, config.server.shutdownTimeoutMs).unref();
    });
  }
}

if (require.main === module) void main();
