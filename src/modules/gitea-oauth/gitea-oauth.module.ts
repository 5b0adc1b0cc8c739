// Wires the Gitea sign-in, the encrypted grant store and their background jobs. Active when the
// Gitea OAuth2 application (GITEA_OAUTH_CLIENT_ID/_SECRET) and ENCRYPTION_KEY are configured;
// otherwise every provider here is null and nothing is scheduled. The seam for the MCP
// authorization server is GITEA_SIGN_IN + GITEA_GRANT_STORE (src/core/oauth/gitea-seam.ts).
import { randomUUID } from 'node:crypto';
import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { GrantCipher } from '../../core/gitea-oauth/grant-cipher';
import { GiteaGrantService } from '../../core/gitea-oauth/grant-service';
import type { PrismaClient } from '../../generated/prisma/client';
import { HttpGiteaOAuthEndpoint } from '../../infra/gitea-oauth/gitea-oauth.endpoint';
import { PrismaGiteaGrantRepository } from '../../infra/gitea-oauth/prisma-gitea-grant.repository';
import { PrismaSignInStateStore } from '../../infra/gitea-oauth/sign-in-state.store';
import { GITEA_OAUTH_ENDPOINT, SIGN_IN_STATES } from '../../infra/gitea-oauth/gitea-oauth.tokens';
import type { JobQueue } from '../../infra/queue/job-queue';
import { GiteaHttpModule } from '../../infra/gitea/gitea-http.module';
import type { GiteaHttpClient } from '../../infra/gitea/gitea-http-client';
import { GITEA_HTTP, JOB_QUEUE, LOGGER, PRISMA } from '../tokens';
import { GiteaGrantJobs } from './gitea-grant.jobs';
import { GiteaGrantStoreAdapter } from './gitea-grant-store';
import type { GiteaGrantStore, GiteaSignIn, McpGrantRevoker } from '../../core/oauth/gitea-seam';
import { GITEA_GRANT_STORE, GITEA_SIGN_IN, MCP_GRANT_REVOKER } from '../tokens';
import {
  GITEA_BROWSER_SIGN_IN,
  GITEA_GRANT_CIPHER,
  GITEA_GRANT_JOBS,
  GITEA_GRANT_SERVICE,
} from './gitea-oauth.tokens';
import { CONNECT_PATH, GiteaBrowserSignIn, renderPage } from './gitea-sign-in';
import { GiteaSignInController } from './gitea-sign-in.controller';

export const giteaOAuthEnabled = (config: AppConfig): boolean =>
  !!(config.gitea.oauthClientId && config.gitea.oauthClientSecret && config.secrets.encryptionKey);

@Module({
  imports: [GiteaHttpModule],
  controllers: [GiteaSignInController],
  providers: [
    {
      provide: GITEA_GRANT_CIPHER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): GrantCipher | null =>
        config.secrets.encryptionKey
          ? new GrantCipher(config.secrets.encryptionKey, config.secrets.previousEncryptionKeys)
          : null,
    },
    {
      provide: GITEA_OAUTH_ENDPOINT,
      inject: [APP_CONFIG, GITEA_HTTP],
      useFactory: (config: AppConfig, gitea: GiteaHttpClient): HttpGiteaOAuthEndpoint | null =>
        giteaOAuthEnabled(config)
          ? new HttpGiteaOAuthEndpoint({
              gitea,
              clientId: config.gitea.oauthClientId!,
              clientSecret: config.gitea.oauthClientSecret!,
              timeoutMs: config.gitea.timeoutMs,
            })
          : null,
    },
    {
      provide: SIGN_IN_STATES,
      inject: [PRISMA, GITEA_GRANT_CIPHER],
      useFactory: (prisma: PrismaClient, cipher: GrantCipher | null) =>
        cipher ? new PrismaSignInStateStore(prisma, cipher) : null,
    },
    {
      provide: GITEA_GRANT_SERVICE,
      inject: [
        APP_CONFIG,
        PRISMA,
        GITEA_GRANT_CIPHER,
        GITEA_OAUTH_ENDPOINT,
        LOGGER,
        { token: MCP_GRANT_REVOKER, optional: true },
      ],
      useFactory: (
        config: AppConfig,
        prisma: PrismaClient,
        cipher: GrantCipher | null,
        endpoint: HttpGiteaOAuthEndpoint | null,
        logger: Logger,
        revoker?: McpGrantRevoker,
      ): GiteaGrantService | null => {
        if (!cipher || !endpoint) return null;
        const service = new GiteaGrantService({
          repository: new PrismaGiteaGrantRepository(prisma),
          endpoint,
          cipher,
          now: () => Date.now(),
          newId: () => randomUUID(),
          reconnectUrl: `${config.server.publicUrl}${CONNECT_PATH}`,
          refreshAheadMs: config.gitea.tokenRefreshAheadMs,
          onError: (message, error) =>
            logger.warn(
              { component: 'gitea-grants', err: error instanceof Error ? error.message : String(error) },
              message,
            ),
        });
        // A person who lost their Gitea grant loses their MCP grants too (lifecycle, 401, admin).
        service.onRevoked((personId, reason) => {
          logger.info({ component: 'gitea-grants', personId, reason }, 'gitea grant revoked');
          revoker?.revokePerson(personId, reason).catch((error: unknown) =>
            logger.warn(
              {
                component: 'gitea-grants',
                personId,
                err: error instanceof Error ? error.message : String(error),
              },
              'revoking the MCP grants of a person failed',
            ),
          );
        });
        return service;
      },
    },
    {
      provide: GITEA_GRANT_STORE,
      inject: [GITEA_GRANT_SERVICE],
      useFactory: (grants: GiteaGrantService | null): GiteaGrantStore | null =>
        grants ? new GiteaGrantStoreAdapter(grants) : null,
    },
    {
      provide: GITEA_BROWSER_SIGN_IN,
      inject: [APP_CONFIG, GITEA_GRANT_SERVICE, GITEA_OAUTH_ENDPOINT, SIGN_IN_STATES],
      useFactory: (
        config: AppConfig,
        grants: GiteaGrantService | null,
        endpoint: HttpGiteaOAuthEndpoint | null,
        states: PrismaSignInStateStore | null,
      ): GiteaBrowserSignIn | null => {
        if (!grants || !endpoint || !states) return null;
        const signIn = new GiteaBrowserSignIn({
          giteaUrl: config.gitea.url,
          publicUrl: config.server.publicUrl,
          clientId: config.gitea.oauthClientId!,
          clientSecret: config.gitea.oauthClientSecret!,
          includeAdminScopes: config.gitea.oauthAdminScopes,
          grants,
          endpoint,
          states,
        });
        // The plain "connect Gitea" flow (also the reconnect link of auth_required answers).
        signIn.onSignedIn('connect', (person, _context, _req, res) => {
          renderPage(
            res,
            200,
            'Connected to Gitea',
            `Signed in through Gitea as ${person.login}: your Gitea authorization (${person.access}) is active.`,
            { href: `${signIn.connectUrl}?access=write`, text: 'Reconnect with read and write access' },
          );
        });
        return signIn;
      },
    },
    {
      provide: GITEA_SIGN_IN,
      inject: [GITEA_BROWSER_SIGN_IN],
      useFactory: (browser: GiteaBrowserSignIn | null): GiteaSignIn | null => browser?.seam() ?? null,
    },
    {
      provide: GITEA_GRANT_JOBS,
      inject: [APP_CONFIG, JOB_QUEUE, GITEA_GRANT_SERVICE, SIGN_IN_STATES, LOGGER],
      useFactory: (
        config: AppConfig,
        queue: JobQueue,
        grants: GiteaGrantService | null,
        states: PrismaSignInStateStore | null,
        logger: Logger,
      ): GiteaGrantJobs | null =>
        grants && states
          ? new GiteaGrantJobs({
              queue,
              grants,
              purgeStates: () => states.purgeExpired(),
              reconcileEveryMs: config.gitea.grantReconcileIntervalMs,
              refreshEveryMs: Math.max(30_000, Math.floor(config.gitea.tokenRefreshAheadMs / 2)),
              log: (message, fields) => logger.info({ component: 'gitea-grants', ...fields }, message),
            })
          : null,
    },
  ],
  exports: [
    GITEA_SIGN_IN,
    GITEA_GRANT_STORE,
    GITEA_BROWSER_SIGN_IN,
    GITEA_GRANT_SERVICE,
    GITEA_GRANT_CIPHER,
    GITEA_GRANT_JOBS,
  ],
})
export class GiteaOAuthModule implements OnApplicationBootstrap {
  constructor(@Inject(GITEA_GRANT_JOBS) private readonly jobs: GiteaGrantJobs | null) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs?.start();
  }
}
