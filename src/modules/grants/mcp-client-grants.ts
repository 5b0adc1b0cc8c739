// The MCP authorization server's grants (OAuthStore, src/infra/oauth) as the Connections page needs
// them: a person's or everyone's active grants, one by id, revoke by id or by person (its tokens
// and a tombstone go with it, so the next /mcp call with any of its tokens is refused).
import type { OAuthStore } from '../../infra/oauth/oauth-store';
import type { McpClientGrants } from './connections.service';

export function mcpClientGrantsOf(
  store: Pick<OAuthStore, 'grantsOf' | 'grant' | 'revokeGrants'>,
): McpClientGrants {
  return {
    list: async (personId) =>
      (await store.grantsOf(personId)).map((g) => ({
        id: g.id,
        personId: g.personId,
        login: g.login,
        clientName: g.clientName,
        scope: g.scope,
        createdAt: g.createdAt,
        lastUsedAt: g.lastUsedAt,
        firstUsedAt: g.firstUsedAt,
        revokedAt: g.revokedAt,
        revokedReason: g.revokedReason,
      })),
    find: async (id) => {
      const grant = await store.grant(id);
      return grant ? { id: grant.id, personId: grant.personId, login: grant.login } : null;
    },
    revoke: (where, reason) => store.revokeGrants(where, reason),
  };
}
