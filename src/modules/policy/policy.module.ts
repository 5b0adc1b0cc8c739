// Org policies (issue 14): the store, the cache that propagates changes to every replica, the
// quota counters, and the admin API at /api/admin. Global so that ToolsModule's policy provider
// and the executor pick up POLICY_SOURCE and QUOTA_COUNTER when this module is composed.
import { Global, Inject, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { ToolExecutor } from '../../core/executor/tool-executor';
import type { ToolService } from '../../core/executor/tool-service';
import { MemoryQuotaCounter, type QuotaCounter } from '../../core/policy/quota';
import type { AuditSink, PolicyProvider } from '../../core/ports';
import { OrgPolicyRepository } from '../../infra/policy/org-policy.repository';
import { DATABASE } from '../../infra/database/database.module';
import type { Database } from '../../infra/database/database';
import { PolicyCache } from '../../infra/policy/policy-cache';
import type { RedisConnections } from '../../infra/redis/redis-connections';
import type { GiteaHttpClient } from '../../infra/gitea/gitea-http-client';
import {
  AUDIT_SINK,
  GITEA_HTTP,
  LOGGER,
  POLICY_PROVIDER,
  POLICY_SOURCE,
  PRISMA,
  QUOTA_COUNTER,
  REDIS_CONNECTIONS,
  SPEC_REPORT,
  TOOL_SERVICE,
} from '../tokens';
import type { SpecReportHolder } from '../../core/catalogue/spec-diff';
import {
  AdminAuthRegistry,
  AdminTokenAuthenticator,
  giteaAsToken,
  OAuthAdminAuthenticator,
  OrgOwnership,
} from './admin-auth';
import { AuthModule } from '../auth/auth.module';
import { IDENTITY_RESOLVER, type IdentityResolver } from '../auth/identity-resolver';
import { AdminController } from './admin.controller';
import { AdminPolicyService } from './admin-policy.service';
import {
  ADMIN_AUDIT_SERVICE,
  ADMIN_AUTH_REGISTRY,
  ADMIN_POLICY_SERVICE,
  ORG_OWNERSHIP,
} from './policy.tokens';
import { ORG_POLICY_REPOSITORY } from '../../infra/policy/policy.tokens';
import { AdminAuditService } from './admin-audit.service';
import { AUDIT_REPOSITORY } from '../../infra/audit/audit.tokens';
import type { AuditRecordRepository } from '../../infra/audit/audit-record.repository';
import { AuditStatsRepository, type StatsDb } from '../../infra/audit/audit-stats.repository';

/** How long an answer of Gitea to "is this person an owner of that org" is trusted. */
export const OWNER_CHECK_CACHE_MS = 30_000;

@Global()
@Module({
  imports: [AuthModule],
  controllers: [AdminController],
  providers: [
    {
      // Raw SQL on the driver, not Prisma: read on the call path (infra/database/raw-sql.ts).
      provide: ORG_POLICY_REPOSITORY,
      inject: [DATABASE],
      useFactory: (database: Database) => new OrgPolicyRepository(database.sql),
    },
    {
      provide: POLICY_SOURCE,
      inject: [ORG_POLICY_REPOSITORY, APP_CONFIG, LOGGER],
      useFactory: (repository: OrgPolicyRepository, config: AppConfig, logger: Logger) =>
        new PolicyCache(repository, {
          ttlMs: config.admin.policyCacheTtlMs,
          warn: (message) => logger.warn({ component: 'policy' }, message),
        }),
    },
    {
      provide: QUOTA_COUNTER,
      inject: [REDIS_CONNECTIONS, LOGGER],
      // ioredis is loaded only when Redis is configured (start-up CPU of the embedded default).
      useFactory: async (redis: RedisConnections | null, logger: Logger): Promise<QuotaCounter> => {
        if (!redis) return new MemoryQuotaCounter();
        const { RedisQuotaCounter } = await import('../../infra/policy/redis-quota-counter');
        return new RedisQuotaCounter(redis, (message) => logger.warn({ component: 'policy' }, message));
      },
    },
    {
      provide: ADMIN_AUTH_REGISTRY,
      inject: [APP_CONFIG, IDENTITY_RESOLVER, GITEA_HTTP],
      useFactory: (config: AppConfig, identities: IdentityResolver, gitea: GiteaHttpClient) => {
        const registry = new AdminAuthRegistry();
        if (config.admin.token)
          registry.register('admin_token', new AdminTokenAuthenticator(config.admin.token));
        // People's OAuth access tokens, through the same resolver as /mcp (mode "oauth" only).
        registry.register('oauth', new OAuthAdminAuthenticator(identities, gitea, config.gitea.timeoutMs));
        return registry;
      },
    },
    { provide: ORG_OWNERSHIP, useFactory: () => new OrgOwnership(OWNER_CHECK_CACHE_MS) },
    {
      provide: ADMIN_POLICY_SERVICE,
      inject: [
        APP_CONFIG,
        ORG_POLICY_REPOSITORY,
        POLICY_SOURCE,
        POLICY_PROVIDER,
        ORG_OWNERSHIP,
        TOOL_SERVICE,
        QUOTA_COUNTER,
        GITEA_HTTP,
        { token: AUDIT_SINK, optional: true },
        { token: SPEC_REPORT, optional: true },
      ],
      useFactory: (
        config: AppConfig,
        repository: OrgPolicyRepository,
        cache: PolicyCache,
        provider: PolicyProvider,
        ownership: OrgOwnership,
        tools: ToolService,
        quotas: QuotaCounter,
        gitea: GiteaHttpClient,
        audit?: AuditSink,
        specReport?: SpecReportHolder,
      ) =>
        new AdminPolicyService({
          config,
          repository,
          cache,
          provider,
          ownership,
          operations: () => (tools as ToolExecutor).catalogue.operations,
          spec: () => ({
            version: (tools as ToolExecutor).catalogue.specVersion,
            source: config.tools.specSource,
            report: specReport?.current ?? null,
          }),
          quotas,
          audit: audit ?? null,
          serviceGitea: config.gitea.token
            ? giteaAsToken(gitea, config.gitea.token, config.gitea.timeoutMs)
            : null,
        }),
    },
    {
      provide: ADMIN_AUDIT_SERVICE,
      inject: [
        ADMIN_POLICY_SERVICE,
        { token: AUDIT_REPOSITORY, optional: true },
        { token: PRISMA, optional: true },
      ],
      useFactory: (policies: AdminPolicyService, records?: AuditRecordRepository, prisma?: StatsDb) =>
        new AdminAuditService(records ?? null, prisma ? new AuditStatsRepository(prisma) : null, policies),
    },
  ],
  exports: [
    ADMIN_AUDIT_SERVICE,
    POLICY_SOURCE,
    QUOTA_COUNTER,
    ORG_POLICY_REPOSITORY,
    ADMIN_AUTH_REGISTRY,
    ORG_OWNERSHIP,
    ADMIN_POLICY_SERVICE,
  ],
})
export class PolicyModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(POLICY_SOURCE) private readonly cache: PolicyCache,
    @Inject(QUOTA_COUNTER) private readonly quotas: QuotaCounter,
    @Inject(REDIS_CONNECTIONS) private readonly redis: RedisConnections | null,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.redis) await this.cache.connect(this.redis);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.cache.close();
    await this.quotas.close?.();
  }
}
