// Provides HTTP_ADMISSION: the one admission pipeline (origin, authentication, body, rate and
// concurrency limits) shared by every HTTP route, so limits and failed-authentication budgets are
// per identity and per address across /mcp, /oauth/* and /api/admin/*.
import { Global, Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { AuditSink } from '../../core/ports';
import { AuthModule } from '../auth/auth.module';
import { IDENTITY_RESOLVER, type IdentityResolver } from '../auth/identity-resolver';
import { AUDIT_SINK, LOGGER } from '../tokens';
import { HttpAdmission } from './http-admission';

export const HTTP_ADMISSION = Symbol('HTTP_ADMISSION');

@Global()
@Module({
  imports: [AuthModule],
  providers: [
    {
      provide: HTTP_ADMISSION,
      inject: [
        APP_CONFIG,
        IDENTITY_RESOLVER,
        { token: AUDIT_SINK, optional: true },
        { token: LOGGER, optional: true },
      ],
      useFactory: (
        config: AppConfig,
        identityResolver: IdentityResolver,
        audit?: AuditSink,
        logger?: Logger,
      ) =>
        new HttpAdmission({
          allowedOrigins: config.mcp.allowedOrigins,
          publicUrl: config.server.publicUrl || null,
          identityResolver,
          authFailuresPerMinute: config.mcp.authFailuresPerMinute,
          rateLimitPerMinute: config.mcp.rateLimitPerMinute,
          maxConcurrentPerIdentity: config.mcp.maxConcurrentPerIdentity,
          maxConcurrentTotal: config.mcp.maxConcurrentTotal,
          queueWaitMs: config.mcp.requestTimeoutMs,
          audit: audit ?? null,
          logger: logger ?? pino({ level: config.server.logLevel }),
        }),
    },
  ],
  exports: [HTTP_ADMISSION],
})
export class AdmissionModule implements OnModuleDestroy {
  constructor(@Inject(HTTP_ADMISSION) private readonly admission: HttpAdmission) {}

  onModuleDestroy(): void {
    this.admission.close();
  }
}
