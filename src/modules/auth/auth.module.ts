// Authentication for the MCP endpoint. Provides IDENTITY_RESOLVER; the OAuth issue replaces the
// provider with a composite (issued tokens first, then the service token) without touching the transport.
import { Inject, Module, OnModuleInit, Optional } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { LOGGER } from '../tokens';
import { fetchGiteaUser } from './gitea-user.client';
import { IDENTITY_RESOLVER } from './identity-resolver';
import { ServiceTokenIdentityResolver } from './service-token.resolver';

export const SERVICE_TOKEN_RESOLVER = Symbol('SERVICE_TOKEN_RESOLVER');

@Module({
  providers: [
    {
      provide: SERVICE_TOKEN_RESOLVER,
      inject: [APP_CONFIG, { token: LOGGER, optional: true }],
      useFactory: (config: AppConfig, logger?: Logger) =>
        new ServiceTokenIdentityResolver({
          bearerToken: config.mcp.bearerToken,
          giteaToken: config.gitea.token,
          resourceMetadataUrl: null,
          lookupUser: (token) => fetchGiteaUser(config.gitea.url, token, config.gitea.timeoutMs),
          now: () => Date.now(),
          warn: (message) =>
            logger ? logger.warn({ component: 'auth' }, message) : console.warn(`[auth] ${message}`),
        }),
    },
    { provide: IDENTITY_RESOLVER, useExisting: SERVICE_TOKEN_RESOLVER },
  ],
  exports: [IDENTITY_RESOLVER, SERVICE_TOKEN_RESOLVER],
})
export class AuthModule implements OnModuleInit {
  constructor(
    @Inject(SERVICE_TOKEN_RESOLVER) private readonly serviceToken: ServiceTokenIdentityResolver,
    @Optional() @Inject(APP_CONFIG) private readonly config?: AppConfig,
  ) {}

  onModuleInit(): void {
    // Resolve the service account's login now, without holding up the boot when Gitea is slow;
    // the first request waits for this lookup if it is still running.
    if (this.config) void this.serviceToken.init();
  }
}
