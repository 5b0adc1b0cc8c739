// Entry point: validate the environment (every bad variable reported at once, exit 1), boot
// Nest on HOST:PORT exactly, and shut down gracefully on SIGTERM/SIGINT within
// SHUTDOWN_TIMEOUT_MS (stop accepting, drain the queue, close the database).
import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import pino, { type Logger } from 'pino';
import { AppModule, type AppModuleOptions } from './app.module';
import type { AppConfig } from './config/app-config';
import { formatConfigIssues, parseConfig } from './config/env.schema';
import { createLogger } from './infra/logging/logger';
import { PinoNestLogger } from './infra/logging/nest-logger';
import { MetricsListener } from './modules/metrics/metrics-listener';
import { LOGGER } from './modules/tokens';

export type StartedApp = { app: INestApplication; url: string; metricsUrl: string; logger: Logger };

/** Builds the application without listening (tests use this with supertest). */
export async function createApp(
  config: AppConfig,
  options: Omit<AppModuleOptions, 'config'> = {},
): Promise<INestApplication> {
  // Synchronous stdout: on SIGTERM Nest re-raises the signal once closed, which would drop log
  // lines still queued in an asynchronous writer (the shutdown lines above all).
  const logger =
    options.logger ??
    createLogger({ level: config.server.logLevel }, pino.destination({ dest: 1, sync: true }));
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

async function main(): Promise<void> {
  const parsed = parseConfig(process.env);
  if (!parsed.ok) {
    process.stderr.write(`${formatConfigIssues(parsed.issues)}\n`);
    process.exit(1);
  }
  const config = parsed.config;
  let started: StartedApp;
  try {
    started = await startApp(config);
  } catch (error) {
    const logger = createLogger({ level: config.server.logLevel });
    logger.fatal(
      { err: error instanceof Error ? { message: error.message, stack: error.stack } : String(error) },
      'start-up failed',
    );
    process.exit(1);
  }
  // enableShutdownHooks closes the app on signals; this only bounds how long that may take.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
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
