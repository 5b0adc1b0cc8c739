// MCP over Streamable HTTP at /mcp for 2025-06-18, 2025-11-25 and 2026-07-28 (docs/adr/0006).
// Needs TOOL_SERVICE and APP_CONFIG from the application; METRICS_REGISTRY and LOGGER are used when
// provided, with private fallbacks otherwise.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import {
  Inject,
  Module,
  Optional,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import pino, { type Logger } from 'pino';
import { Registry } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { CallExit } from '../../core/call/call-exit';
import type { ToolService } from '../../core/executor/tool-service';
import type { AuditSink } from '../../core/ports';
import { AdmissionModule, HTTP_ADMISSION } from '../admission/admission.module';
import type { HttpAdmission } from '../admission/http-admission';
import { AuthModule } from '../auth/auth.module';
import { IDENTITY_RESOLVER, type IdentityResolver } from '../auth/identity-resolver';
import type { RedisConnections } from '../../infra/redis/redis-connections';
import { AUDIT_SINK, CPU_TURNS, LOGGER, METRICS_REGISTRY, REDIS_CONNECTIONS, TOOL_SERVICE } from '../tokens';
import type { CpuTurns } from '../../core/executor/cpu-turns';
import { ToolsModule } from '../tools/tools.module';
import { McpController } from './mcp.controller';
import { McpEndpoint } from './mcp-endpoint';
import { McpMetrics } from './mcp-metrics';
import { McpProtocol } from './mcp-protocol';
import { McpCallObserver } from './tool-call-observer';
import { MCP_ENDPOINT, MCP_PROTOCOL } from './mcp.tokens';
import { routeFirst } from './node-http.util';
import {
  MemorySessionRevocations,
  RedisSessionRevocations,
  type SessionRevocations,
} from '../../infra/mcp/session-revocations';
import { MCP_SESSION_REVOCATIONS } from '../../infra/mcp/mcp.tokens';
import { POLICY_CHANNEL } from '../../infra/policy/policy-cache';

const SERVER_NAME = 'aegis-gitea-mcp';
const SERVER_VERSION = '0.1.0';
const SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;
const MCP_LOGGER = Symbol('MCP_LOGGER');
const MCP_METRICS = Symbol('MCP_METRICS');
const MCP_CALL_EXIT = Symbol('MCP_CALL_EXIT');

/** Secret for session ids: shared by all replicas through their common configuration. */
function sessionSecret(config: AppConfig, logger: Logger): string {
  const secret = config.secrets.encryptionKey ?? config.mcp.bearerToken;
  if (secret) return secret;
  logger.warn(
    { component: 'mcp' },
    'no ENCRYPTION_KEY or MCP_BEARER_TOKEN: MCP session ids are valid on this replica only',
  );
  return randomBytes(32).toString('base64');
}

@Module({
  imports: [ToolsModule, AuthModule, AdmissionModule],
  controllers: [McpController],
  providers: [
    {
      provide: MCP_LOGGER,
      inject: [APP_CONFIG, { token: LOGGER, optional: true }],
      useFactory: (config: AppConfig, logger?: Logger) => logger ?? pino({ level: config.server.logLevel }),
    },
    {
      provide: MCP_METRICS,
      inject: [{ token: METRICS_REGISTRY, optional: true }],
      useFactory: (registry?: Registry) => new McpMetrics(registry ?? new Registry()),
    },
    {
      provide: MCP_SESSION_REVOCATIONS,
      inject: [APP_CONFIG, MCP_LOGGER, { token: REDIS_CONNECTIONS, optional: true }],
      useFactory: (
        config: AppConfig,
        logger: Logger,
        redis?: RedisConnections | null,
      ): SessionRevocations => {
        if (!config.storage.redisUrl) return new MemorySessionRevocations();
        // Ended sessions must be seen by every replica: never a silent per-replica fallback.
        if (!redis) throw new Error('REDIS_URL is set but no Redis connections are provided (RedisModule)');
        // Failures are reported per use (the store fails open with a warning). The subscription keeps
        // a replica-local copy of the ended sessions, so a request needs no Redis command (ADR 0006).
        return new RedisSessionRevocations(
          redis.client('mcp-session-revocations', 'command'),
          (message) => logger.warn({ component: 'mcp' }, message),
          undefined,
          // Every replica, this version or an older one, subscribes to the policy changes' channel.
          { subscriber: redis.client('mcp-session-ends', 'blocking'), censusChannel: POLICY_CHANNEL },
        );
      },
    },
    {
      provide: MCP_CALL_EXIT,
      inject: [MCP_METRICS, MCP_LOGGER, { token: AUDIT_SINK, optional: true }],
      useFactory: (metrics: McpMetrics, logger: Logger, audit?: AuditSink) =>
        new CallExit({
          audit: audit ?? { record: () => undefined },
          observers: [new McpCallObserver(metrics, logger)],
          warn: (message) => logger.warn({ component: 'mcp' }, message),
        }),
    },
    {
      provide: MCP_PROTOCOL,
      inject: [APP_CONFIG, TOOL_SERVICE, IDENTITY_RESOLVER, MCP_METRICS, MCP_LOGGER, MCP_CALL_EXIT],
      useFactory: (
        config: AppConfig,
        toolService: ToolService,
        identityResolver: IdentityResolver,
        metrics: McpMetrics,
        logger: Logger,
        exit: CallExit,
      ) =>
        new McpProtocol({
          serverName: SERVER_NAME,
          serverVersion: SERVER_VERSION,
          allowSudo: config.tools.allowSudo,
          maxBodyBytes: config.mcp.maxBodyBytes,
          toolService,
          identityResolver,
          metrics,
          logger,
          exit,
        }),
    },
    {
      provide: MCP_ENDPOINT,
      inject: [
        APP_CONFIG,
        HTTP_ADMISSION,
        MCP_PROTOCOL,
        MCP_SESSION_REVOCATIONS,
        MCP_METRICS,
        MCP_LOGGER,
        IDENTITY_RESOLVER,
        { token: CPU_TURNS, optional: true },
      ],
      useFactory: (
        config: AppConfig,
        admission: HttpAdmission,
        protocol: McpProtocol,
        revocations: SessionRevocations,
        metrics: McpMetrics,
        logger: Logger,
        resolver: IdentityResolver,
        turns: CpuTurns | undefined,
      ) =>
        new McpEndpoint({
          admission,
          maxBodyBytes: config.mcp.maxBodyBytes,
          requestTimeoutMs: config.mcp.requestTimeoutMs,
          sessionSecret: sessionSecret(config, logger),
          sessionMaxAgeSeconds: SESSION_MAX_AGE_SECONDS,
          protocol,
          revocations,
          metrics,
          logger,
          resourceMetadataUrl: `${config.server.publicUrl.replace(/\/+$/, '')}/.well-known/oauth-protected-resource/mcp`,
          stepUp: (identity, refusalEventId) => resolver.stepUpRequested?.(identity, refusalEventId),
          ...(turns ? { turns } : {}),
        }),
    },
  ],
  exports: [MCP_ENDPOINT],
})
export class McpModule implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    @Inject(MCP_PROTOCOL) private readonly protocol: McpProtocol,
    @Inject(MCP_SESSION_REVOCATIONS) private readonly revocations: SessionRevocations,
    @Inject(MCP_ENDPOINT) private readonly endpoint: McpEndpoint,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.protocol.start();
  }

  /** /mcp is answered straight from the HTTP server (McpController stays as the routed fallback). */
  onApplicationBootstrap(): void {
    const server = this.adapterHost?.httpAdapter?.getHttpServer() as Server | undefined;
    if (server && typeof server.listeners === 'function') {
      routeFirst(server, '/mcp', (req, res) => this.endpoint.handle(req, res));
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.protocol.close();
    await this.revocations.close();
  }
}
