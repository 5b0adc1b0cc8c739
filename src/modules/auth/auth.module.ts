// Authentication for the MCP endpoint. Provides IDENTITY_RESOLVER; the OAuth issue replaces the
// provider with a composite (issued tokens first, then the service token) without touching the transport.
import { Inject, Module, OnModuleInit, Optional } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { GiteaHttpModule } from '../../infra/gitea/gitea-http.module';
import type { GiteaHttpClient } from '../../infra/gitea/gitea-http-client';
import { GITEA_HTTP, LOGGER, OAUTH_RESOLVER } from '../tokens';
import { CompositeIdentityResolver } from '../oauth/composite.resolver';
import type { OAuthIdentityResolver } from '../oauth/oauth-identity.resolver';
import { fetchGiteaUser } from './gitea-user.client';
import { IDENTITY_RESOLVER, type AuthResult, type IdentityResolver } from './identity-resolver';
import { ServiceTokenIdentityResolver } from './service-token.resolver';

export const SERVICE_TOKEN_RESOLVER = Symbol('SERVICE_TOKEN_RESOLVER');

/** AUTH_MODES names only "oauth" but OAuth is not wired in this application: nobody gets in. */
class RefusingResolver implements IdentityResolver {
  authenticate(): Promise<AuthResult> {
    return Promise.resolve({
      ok: false,
      status: 401,
      error: 'invalid_token',
      message: 'The bearer token is not valid',
    });
  }
  upstreamUnauthorized(): void {}
  challenge(): string {
    return 'Bearer realm="aegis-gitea-mcp", error="invalid_token"';
  }
}

@Module({
  imports: [GiteaHttpModule],
  providers: [
    {
      provide: SERVICE_TOKEN_RESOLVER,
      inject: [APP_CONFIG, GITEA_HTTP, { token: LOGGER, optional: true }],
      useFactory: (config: AppConfig, gitea: GiteaHttpClient, logger?: Logger) =>
        new ServiceTokenIdentityResolver({
          bearerToken: config.mcp.bearerToken,
          giteaToken: config.gitea.token,
          resourceMetadataUrl: null,
          lookupUser: (token) => fetchGiteaUser(gitea, token, config.gitea.timeoutMs),
          now: () => Date.now(),
          warn: (message) =>
            logger ? logger.warn({ component: 'auth' }, message) : console.warn(`[auth] ${message}`),
        }),
    },
    {
      // Mode "token" alone: the service-token resolver. With mode "oauth" (OAuthModule present and
      // enabled): the composite, with or without the static bearer token as AUTH_MODES says.
      provide: IDENTITY_RESOLVER,
      inject: [APP_CONFIG, SERVICE_TOKEN_RESOLVER, { token: OAUTH_RESOLVER, optional: true }],
      useFactory: (
        config: AppConfig,
        serviceToken: ServiceTokenIdentityResolver,
        oauth?: OAuthIdentityResolver | null,
      ): IdentityResolver => {
        const modes = config.oauth?.modes ?? [];
        const tokenMode = modes.includes('token');
        if (oauth) return new CompositeIdentityResolver(oauth, tokenMode ? serviceToken : null);
        return tokenMode || modes.length === 0 ? serviceToken : new RefusingResolver();
      },
    },
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
