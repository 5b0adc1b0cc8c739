// The admin console (issue 15): the React app in web/, built to web/dist, served under /admin,
// and its server-side sessions (/admin/auth/*). The session controller is listed first so its
// routes win over the page fallback. Sign-in goes through the service's Gitea OAuth2 application
// (GiteaOAuthModule, purpose 'console'); without one, /admin/auth/sign-in says so.
import { Inject, Module, Optional, type OnModuleInit } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import {
  CONSOLE_SESSION_LIFETIME_MS,
  consoleCookie,
  setCookieHeader,
} from '../../core/console/console-session';
import { ConsoleSessionStore, type SessionDb } from '../../infra/console/console-session.store';
import { GiteaOAuthModule } from '../gitea-oauth/gitea-oauth.module';
import { GITEA_BROWSER_SIGN_IN, GITEA_GRANT_SERVICE } from '../gitea-oauth/gitea-oauth.tokens';
import type { GiteaBrowserSignIn } from '../gitea-oauth/gitea-sign-in';
import type { GiteaGrantService } from '../../core/gitea-oauth/grant-service';
import type { AdminAuthRegistry } from '../policy/admin-auth';
import { ADMIN_AUTH_REGISTRY } from '../policy/policy.tokens';
import { GiteaHttpModule } from '../../infra/gitea/gitea-http.module';
import type { GiteaHttpClient } from '../../infra/gitea/gitea-http-client';
import { GITEA_HTTP, PRISMA } from '../tokens';
import { giteaAsGrant } from './console-gitea';
import { ConsoleSessionAuthenticator } from './console-session.authenticator';
import { ConsoleController } from './console.controller';
import { ConsoleSessionController } from './console-session.controller';
import { CONSOLE_SESSIONS } from '../../infra/console/console.tokens';
import { CONSOLE_SIGN_IN, type ConsoleSignIn } from './console.tokens';

export const CONSOLE_PURPOSE = 'console';

@Module({
  imports: [GiteaOAuthModule, GiteaHttpModule],
  controllers: [ConsoleSessionController, ConsoleController],
  providers: [
    {
      provide: CONSOLE_SESSIONS,
      inject: [PRISMA],
      useFactory: (prisma: SessionDb) => new ConsoleSessionStore(prisma),
    },
    {
      provide: CONSOLE_SIGN_IN,
      inject: [GITEA_BROWSER_SIGN_IN],
      useFactory: (browser: GiteaBrowserSignIn | null): ConsoleSignIn | null =>
        browser
          ? {
              // The console reads (policies, audit, grants) as the person: read access is enough.
              start: (req, res) =>
                browser.start(req as never, res as never, { purpose: CONSOLE_PURPOSE, access: 'read' }),
            }
          : null,
    },
  ],
  exports: [CONSOLE_SESSIONS],
})
export class ConsoleModule implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CONSOLE_SESSIONS) private readonly sessions: ConsoleSessionStore,
    @Optional() @Inject(GITEA_BROWSER_SIGN_IN) private readonly browser: GiteaBrowserSignIn | null,
    @Optional() @Inject(GITEA_GRANT_SERVICE) private readonly grants: GiteaGrantService | null,
    @Optional() @Inject(ADMIN_AUTH_REGISTRY) private readonly adminAuth: AdminAuthRegistry | null,
    @Inject(GITEA_HTTP) private readonly gitea: GiteaHttpClient,
  ) {}

  onModuleInit(): void {
    // The console session is an /api/admin credential (issue 14): reads with the cookie, changes
    // only with the session's CSRF token; the org-owner check asks Gitea with the person's grant.
    const grants = this.grants;
    this.adminAuth?.register(
      'session',
      new ConsoleSessionAuthenticator(
        this.config.server.publicUrl,
        this.sessions,
        grants ? giteaAsGrant(grants, this.gitea, this.config.gitea.timeoutMs) : undefined,
      ),
    );
    // A person whose Gitea grant is revoked (by them, an admin, or Gitea) is signed out everywhere.
    grants?.onRevoked((personId) => {
      void this.sessions.endAllFor(personId).catch(() => undefined);
    });
    if (!this.browser) return;
    const cookie = consoleCookie(this.config.server.publicUrl);
    // Back from Gitea: a new session (never reusing one the browser brought: no fixation).
    this.browser.onSignedIn(CONSOLE_PURPOSE, async (person, _context, _req, res) => {
      const { id } = await this.sessions.create({
        personId: person.personId,
        login: person.login,
        isSiteAdmin: person.isSiteAdmin,
      });
      const out = res as unknown as ServerResponse;
      const earlier = out.getHeader('set-cookie');
      const cookies = earlier === undefined ? [] : Array.isArray(earlier) ? earlier : [String(earlier)];
      out.setHeader('set-cookie', [...cookies, setCookieHeader(cookie, id, CONSOLE_SESSION_LIFETIME_MS)]);
      out.statusCode = 303;
      out.setHeader('location', '/admin/');
      out.setHeader('cache-control', 'no-store');
      out.end();
    });
  }
}
