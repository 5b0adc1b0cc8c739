// What people granted, on the admin API (issue 15's Connections page): the Gitea grants this
// service holds (GiteaOAuthModule) and the MCP clients people authorised (the authorization
// server's OAUTH_STORE, as MCP_CLIENT_GRANTS). Authentication is the admin API's
// registry (PolicyModule, global).
import { Module } from '@nestjs/common';
import type { GiteaGrantService } from '../../core/gitea-oauth/grant-service';
import { GiteaGrantListingRepository, type GrantListingDb } from '../../infra/grants/gitea-grant-listing';
import { GiteaOAuthModule } from '../gitea-oauth/gitea-oauth.module';
import { GITEA_GRANT_SERVICE } from '../gitea-oauth/gitea-oauth.tokens';
import { OAUTH_STORE } from '../../infra/oauth/oauth.tokens';
import type { OAuthStore } from '../../infra/oauth/oauth-store';
import { mcpClientGrantsOf } from './mcp-client-grants';
import { AUDIT_SINK, PRISMA } from '../tokens';
import type { AuditSink } from '../../core/ports';
import { ConnectionsService, type McpClientGrants } from './connections.service';
import { GrantsController } from './grants.controller';
import { CONNECTIONS_SERVICE, MCP_CLIENT_GRANTS } from './grants.tokens';

@Module({
  imports: [GiteaOAuthModule],
  controllers: [GrantsController],
  providers: [
    {
      // The MCP authorization server's grants (OAuthModule, global; null when AUTH_MODES lacks oauth).
      provide: MCP_CLIENT_GRANTS,
      inject: [{ token: OAUTH_STORE, optional: true }],
      useFactory: (store?: OAuthStore | null): McpClientGrants | null =>
        store ? mcpClientGrantsOf(store) : null,
    },
    {
      provide: CONNECTIONS_SERVICE,
      inject: [
        { token: PRISMA, optional: true },
        GITEA_GRANT_SERVICE,
        { token: MCP_CLIENT_GRANTS, optional: true },
        { token: AUDIT_SINK, optional: true },
      ],
      useFactory: (
        prisma?: GrantListingDb,
        grants?: GiteaGrantService | null,
        mcp?: McpClientGrants | null,
        audit?: AuditSink,
      ) =>
        new ConnectionsService({
          listing: prisma && grants ? new GiteaGrantListingRepository(prisma) : null,
          grants: grants ?? null,
          mcp: mcp ?? null,
          // Revocations go into the audit chain (global AuditModule), as policy changes do.
          audit: audit ?? null,
        }),
    },
  ],
})
export class GrantsModule {}
