// Per-user OAuth, the authorization-server and resource-server half (issue 13): provides the
// AuthorizationServer behind /oauth/* and the OAuth identity resolver the AuthModule composes into
// IDENTITY_RESOLVER. Active when AUTH_MODES includes "oauth"; it needs the Gitea side's
// GITEA_SIGN_IN and GITEA_GRANT_STORE and the database (PRISMA).
import { Global, Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { GiteaGrantStore, GiteaSignIn } from '../../core/oauth/gitea-seam';
import type { AuditSink } from '../../core/ports';
import type { PrismaClient } from '../../generated/prisma/client';
import { CimdFetcher } from '../../infra/oauth/cimd-fetcher';
import { OAuthStore } from '../../infra/oauth/oauth-store';
import {
  AUDIT_SINK,
  GITEA_GRANT_STORE,
  GITEA_SIGN_IN,
  LOGGER,
  MCP_GRANT_REVOKER,
  OAUTH_RESOLVER,
  PRISMA,
} from '../tokens';
import { GiteaOAuthModule } from '../gitea-oauth/gitea-oauth.module';
import { AuthorizationServer } from './authorization-server';
import { GrantRevokerRelay } from './grant-revoker-relay';
import { OAuthController } from './oauth.controller';
import { OAuthIdentityResolver } from './oauth-identity.resolver';
import { CIMD_FETCHER, OAUTH_STORE } from '../../infra/oauth/oauth.tokens';
import { AUTHORIZATION_SERVER } from './oauth.tokens';

export const issuerOf = (config: AppConfig): string => config.server.publicUrl.replace(/\/+$/, '');

function enabled(config: AppConfig): boolean {
  return config.oauth?.modes.includes('oauth') ?? false;
}

@Global()
@Module({
  imports: [GiteaOAuthModule],
  controllers: [OAuthController],
  providers: [
    {
      provide: OAUTH_STORE,
      inject: [APP_CONFIG, { token: PRISMA, optional: true }],
      useFactory: (config: AppConfig, prisma?: PrismaClient) => {
        if (!enabled(config)) return null;
        if (!prisma) throw new Error('AUTH_MODES includes oauth, but no database is available');
        return new OAuthStore(prisma);
      },
    },
    {
      provide: CIMD_FETCHER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        enabled(config) ? new CimdFetcher(config.oauth.cimdAllowHttpOrigins) : null,
    },
    {
      provide: AUTHORIZATION_SERVER,
      inject: [
        APP_CONFIG,
        OAUTH_STORE,
        CIMD_FETCHER,
        MCP_GRANT_REVOKER,
        { token: GITEA_SIGN_IN, optional: true },
        { token: GITEA_GRANT_STORE, optional: true },
        { token: LOGGER, optional: true },
        { token: AUDIT_SINK, optional: true },
      ],
      useFactory: (
        config: AppConfig,
        store: OAuthStore | null,
        fetcher: CimdFetcher | null,
        relay: GrantRevokerRelay,
        signIn?: GiteaSignIn | null,
        grants?: GiteaGrantStore | null,
        logger?: Logger,
        audit?: AuditSink,
      ) => {
        if (!enabled(config) || !store || !fetcher) return null;
        if (!signIn || !grants)
          throw new Error(
            'AUTH_MODES includes oauth, but the Gitea sign-in (GITEA_SIGN_IN, GITEA_GRANT_STORE) is not wired',
          );
        const issuer = issuerOf(config);
        const server = new AuthorizationServer({
          issuer,
          resource: `${issuer}/mcp`,
          accessTokenTtlSeconds: config.oauth.accessTokenTtlSeconds,
          refreshTokenTtlSeconds: config.oauth.refreshTokenTtlSeconds,
          dcrEnabled: config.oauth.dcrEnabled,
          dcrPerHour: config.oauth.dcrPerHour,
          cimdAllowHttpOrigins: config.oauth.cimdAllowHttpOrigins,
          cimdCacheMaxSeconds: config.oauth.cimdCacheMaxSeconds,
          secret: config.secrets.encryptionKey as string,
          store,
          fetcher,
          signIn,
          grants,
          audit: audit ?? null,
          warn: (message) => logger?.warn({ component: 'oauth' }, message),
        });
        relay.attach(server);
        return server;
      },
    },
    // No dependencies, so that the Gitea side can inject it without a provider cycle.
    { provide: MCP_GRANT_REVOKER, useClass: GrantRevokerRelay },
    {
      provide: OAUTH_RESOLVER,
      inject: [
        APP_CONFIG,
        OAUTH_STORE,
        { token: GITEA_GRANT_STORE, optional: true },
        { token: LOGGER, optional: true },
      ],
      useFactory: (
        config: AppConfig,
        store: OAuthStore | null,
        grants?: GiteaGrantStore,
        logger?: Logger,
      ) => {
        if (!enabled(config) || !store || !grants) return null;
        const issuer = issuerOf(config);
        return new OAuthIdentityResolver({
          store,
          grants,
          resource: `${issuer}/mcp`,
          resourceMetadataUrl: `${issuer}/.well-known/oauth-protected-resource/mcp`,
          warn: (message) => logger?.warn({ component: 'oauth' }, message),
        });
      },
    },
  ],
  exports: [OAUTH_RESOLVER, MCP_GRANT_REVOKER, AUTHORIZATION_SERVER, OAUTH_STORE],
})
export class OAuthModule implements OnModuleDestroy {
  constructor(@Inject(CIMD_FETCHER) private readonly fetcher: CimdFetcher | null) {}

  async onModuleDestroy(): Promise<void> {
    await this.fetcher?.close();
  }
}
