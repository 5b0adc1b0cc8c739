// The composition root. Infrastructure modules are global (APP_CONFIG, LOGGER, PRISMA, DATABASE,
// REDIS_CONNECTIONS, GITEA_HTTP, JOB_QUEUE, METRICS_REGISTRY); features plug in by adding one
// line to FEATURE_MODULES below.
import { DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from './config/app-config';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './infra/database/database.module';
import { LoggingModule } from './infra/logging/logging.module';
import { QueueModule } from './infra/queue/queue.module';
import { RedisModule } from './infra/redis/redis.module';
import { GiteaHttpModule } from './infra/gitea/gitea-http.module';
import { HealthModule } from './modules/health/health.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { AuditModule } from './modules/audit/audit.module';
import { McpModule } from './modules/mcp/mcp.module';
import { GiteaOAuthModule } from './modules/gitea-oauth/gitea-oauth.module';
import { PolicyModule } from './modules/policy/policy.module';
import { ConsoleModule } from './modules/console/console.module';
import { OAuthModule } from './modules/oauth/oauth.module';
import { GrantsModule } from './modules/grants/grants.module';

type ModuleImport = NonNullable<ModuleMetadata['imports']>[number];

// Feature modules, one line each (e.g. ToolsModule, McpModule, AuditModule).
export const FEATURE_MODULES: ModuleImport[] = [
  AuditModule,
  PolicyModule,
  McpModule,
  GiteaOAuthModule,
  ConsoleModule,
  OAuthModule,
  GrantsModule,
];

export type AppModuleOptions = {
  /** A ready configuration; when absent, @nestjs/config validates process.env at boot. */
  config?: AppConfig;
  /** A logger to use instead of one built from LOG_LEVEL (tests). */
  logger?: Logger;
  /** Replaces FEATURE_MODULES (tests that boot only the foundation). */
  features?: ModuleImport[];
};

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(options.config),
        LoggingModule.forRoot(options.logger),
        MetricsModule,
        DatabaseModule,
        RedisModule,
        GiteaHttpModule,
        QueueModule,
        HealthModule,
        ...(options.features ?? FEATURE_MODULES),
      ],
    };
  }
}
