// What people granted, through the admin API: a person's own connections (their Gitea grant held
// by this service, and the MCP clients they authorised once this service's OAuth authorization
// server is on) with revoke one / revoke all, and for site admins every grant with filters.
// Revoking the Gitea grant goes through the grant service, whose listeners revoke the person's
// MCP grants and end their console sessions. Every revocation attempt through the admin API leaves
// one audit record (tool admin.grant.revoke) in the same hash chain as tool calls and policy
// changes, refusals included.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AuditSink } from '../../core/ports';
import type { GiteaGrantService } from '../../core/gitea-oauth/grant-service';
import type { GiteaGrantListing, GiteaGrantListingRepository } from '../../infra/grants/gitea-grant-listing';
import type { AdminPrincipal } from '../policy/admin-auth';
import { AdminApiError } from '../policy/admin-policy.service';
import type * as S from './grants.schemas';

/** An MCP client's grant (this service's OAuth authorization server); see /work/notes/seams.md. */
export type McpClientGrant = {
  id: string;
  personId: string;
  login: string;
  clientName: string;
  scope: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  firstUsedAt: Date | null;
  revokedAt: Date | null;
  revokedReason: string | null;
};

/** The authorization server's grants, as this page needs them (provided when it is enabled). */
export interface McpClientGrants {
  list(personId: string | null): Promise<McpClientGrant[]>;
  find(id: string): Promise<{ id: string; personId: string; login: string } | null>;
  revoke(where: { id: string } | { personId: string }, reason: string): Promise<number>;
}

type Connection = z.infer<typeof S.Connection>;
/** The shape of a connection id (grants.schemas.ts ConnectionId): only such ids are looked up. */
const G_ID = /^(gitea|mcp):[A-Za-z0-9_-]{1,100}$/;
const LIST_LIMIT = 500;
const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

const NO_MCP_SERVER =
  "MCP client grants are not listed: this service's OAuth authorization server is not enabled here";

function giteaConnection(g: GiteaGrantListing): Connection {
  return {
    id: `gitea:${g.grantId}`,
    kind: 'gitea',
    client_name: 'AegisGitea-MCP (Gitea sign-in)',
    scope: g.scopes,
    access: g.access === 'write' ? 'write' : 'read',
    status: g.status === 'active' ? 'active' : 'revoked',
    created_at: g.createdAt.toISOString(),
    first_used_at: iso(g.firstUsedAt),
    last_used_at: iso(g.lastUsedAt),
    revoked_at: iso(g.revokedAt),
    revoked_reason: g.revokedReason,
  };
}

function mcpConnection(g: McpClientGrant): Connection {
  return {
    id: `mcp:${g.id}`,
    kind: 'mcp_client',
    client_name: g.clientName,
    scope: g.scope.split(' ').filter(Boolean),
    access: g.scope.includes('write') ? 'write' : g.scope.includes('read') ? 'read' : null,
    status: g.revokedAt ? 'revoked' : 'active',
    created_at: g.createdAt.toISOString(),
    first_used_at: iso(g.firstUsedAt),
    last_used_at: iso(g.lastUsedAt),
    revoked_at: iso(g.revokedAt),
    revoked_reason: g.revokedReason,
  };
}

export type ConnectionsDeps = {
  listing: GiteaGrantListingRepository | null;
  grants: Pick<GiteaGrantService, 'revokeAllFor'> | null;
  mcp: McpClientGrants | null;
  audit?: AuditSink | null;
  now?: () => number;
};

/** The audit record's tool for every revocation through the admin API. */
export const REVOKE_AUDIT_TOOL = 'admin.grant.revoke';

/** A revocation attempt as the audit keeps it: which route, which connection (or all of one's own). */
export type RevokeAttempt = {
  path: string;
  /** The connection id as given (bounded); null for revoke-all. */
  id: string | null;
  started: number;
};

export class ConnectionsService {
  constructor(private readonly deps: ConnectionsDeps) {}

  private notes(): string[] {
    const notes: string[] = [];
    if (!this.deps.listing || !this.deps.grants)
      notes.push('Gitea grants are not listed: per-user OAuth (GITEA_OAUTH_*) is not configured');
    if (!this.deps.mcp) notes.push(NO_MCP_SERVER);
    return notes;
  }

  /** The person behind a credential: the session knows it; other credentials by login. */
  private async personOf(principal: AdminPrincipal): Promise<string | null> {
    if (principal.personId) return principal.personId;
    if (principal.via === 'admin_token' || !this.deps.listing) return null;
    return this.deps.listing.personIdOf(principal.login);
  }

  async mine(principal: AdminPrincipal): Promise<z.infer<typeof S.ConnectionList>> {
    const personId = await this.personOf(principal);
    const connections: Connection[] = [];
    if (personId && this.deps.listing)
      for (const g of await this.deps.listing.list({ personId, limit: LIST_LIMIT }))
        connections.push(giteaConnection(g));
    if (personId && this.deps.mcp)
      for (const g of await this.deps.mcp.list(personId)) connections.push(mcpConnection(g));
    const notes = this.notes();
    if (!personId) notes.push(`${principal.login} has never signed in to this service through Gitea`);
    return { login: principal.login, connections, notes };
  }

  async revokeMine(
    principal: AdminPrincipal,
    id: string,
    attempt: RevokeAttempt,
  ): Promise<z.infer<typeof S.RevokeResult>> {
    const personId = await this.personOf(principal);
    const owner = await this.ownerOf(id);
    // Another person's grant answers like a missing one: ids of others are not confirmed.
    if (!personId || !owner || owner.personId !== personId)
      throw new AdminApiError(404, `no connection ${id} of yours`);
    const result = await this.revokeById(id, 'revoked_by_person', 'revoked by the person');
    this.auditRevoke(principal, attempt, { owner: owner.login, by: 'person', result });
    return result;
  }

  async revokeAllMine(
    principal: AdminPrincipal,
    attempt: RevokeAttempt,
  ): Promise<z.infer<typeof S.RevokeResult>> {
    const personId = await this.personOf(principal);
    let result: z.infer<typeof S.RevokeResult> = { revoked: 0, signed_out: false };
    if (personId) {
      let revoked = 0;
      if (this.deps.mcp) revoked += await this.deps.mcp.revoke({ personId }, 'revoked by the person');
      const gitea = this.deps.grants
        ? await this.deps.grants.revokeAllFor(personId, 'revoked_by_person')
        : false;
      result = { revoked: revoked + (gitea ? 1 : 0), signed_out: gitea };
    }
    this.auditRevoke(principal, attempt, { owner: principal.login, by: 'person', result });
    return result;
  }

  async all(
    principal: AdminPrincipal,
    filters: z.infer<typeof S.GrantFilters>,
  ): Promise<z.infer<typeof S.GrantList>> {
    this.requireSiteAdmin(principal);
    const status = filters.status ?? 'active';
    const grants: Array<z.infer<typeof S.GrantEntry>> = [];
    if (this.deps.listing && filters.kind !== 'mcp_client')
      for (const g of await this.deps.listing.list({
        ...(filters.login ? { login: filters.login } : {}),
        ...(status !== 'all' ? { status } : {}),
        limit: LIST_LIMIT,
      }))
        grants.push({ ...giteaConnection(g), login: g.login });
    if (this.deps.mcp && filters.kind !== 'gitea')
      for (const g of await this.deps.mcp.list(null)) {
        const entry = { ...mcpConnection(g), login: g.login };
        if (filters.login && g.login.toLowerCase() !== filters.login.toLowerCase()) continue;
        if (status !== 'all' && entry.status !== status) continue;
        grants.push(entry);
      }
    return { grants, notes: this.notes() };
  }

  async revokeAny(
    principal: AdminPrincipal,
    id: string,
    attempt: RevokeAttempt,
  ): Promise<z.infer<typeof S.RevokeResult>> {
    if (!principal.isSiteAdmin) throw new AdminApiError(403, 'only site admins revoke the grants of others');
    const owner = await this.ownerOf(id);
    if (!owner) throw new AdminApiError(404, `no grant ${id}`);
    const result = await this.revokeById(id, 'revoked_by_admin', `revoked by site admin ${principal.login}`);
    this.auditRevoke(principal, attempt, { owner: owner.login, by: 'site_admin', result });
    return result;
  }

  /**
   * A refused revocation (not a site admin 403, not one's own 404, bad input 400, ...): audited
   * with the status and reason, and whose grant it named when the id is one.
   */
  async auditRefusedRevoke(
    principal: AdminPrincipal,
    attempt: RevokeAttempt,
    refusal: { status: number; kind: string; message: string },
  ): Promise<void> {
    let owner: string | null = null;
    if (attempt.id && G_ID.test(attempt.id))
      owner = (await this.ownerOf(attempt.id).catch(() => null))?.login ?? null;
    this.record(principal, attempt, refusal.status, refusal.kind, {
      connection: attempt.id === null ? null : attempt.id.slice(0, 120),
      scope: attempt.id === null ? 'all' : 'one',
      owner,
      refused: { status: refusal.status, message: refusal.message.slice(0, 500) },
    });
  }

  private auditRevoke(
    principal: AdminPrincipal,
    attempt: RevokeAttempt,
    outcome: { owner: string | null; by: 'person' | 'site_admin'; result: z.infer<typeof S.RevokeResult> },
  ): void {
    this.record(principal, attempt, 200, null, {
      connection: attempt.id,
      scope: attempt.id === null ? 'all' : 'one',
      owner: outcome.owner,
      by: outcome.by,
      revoked: outcome.result.revoked,
      signed_out: outcome.result.signed_out,
    });
  }

  private record(
    principal: AdminPrincipal,
    attempt: RevokeAttempt,
    status: number,
    kind: string | null,
    args: Record<string, unknown>,
  ): void {
    this.deps.audit?.record({
      eventId: randomUUID(),
      time: new Date(attempt.started),
      login: principal.login,
      mode: principal.via === 'admin_token' ? 'token' : 'oauth',
      sudo: null,
      clientName: `admin-api:${principal.via}`,
      clientVersion: null,
      tool: REVOKE_AUDIT_TOOL,
      operationId: null,
      org: null,
      repo: null,
      method: 'POST',
      path: attempt.path.slice(0, 300),
      status,
      kind,
      durationMs: Math.max(0, (this.deps.now ?? Date.now)() - attempt.started),
      resultBytes: 0,
      redactions: 0,
      masks: 0,
      blocked: false,
      arguments: args,
    });
  }

  private requireSiteAdmin(principal: AdminPrincipal): void {
    if (!principal.isSiteAdmin) throw new AdminApiError(403, 'only site admins see every grant');
  }

  /** The person a connection id belongs to, or null when there is no such grant. */
  private async ownerOf(id: string): Promise<{ personId: string; login: string } | null> {
    const [kind, raw = ''] = id.split(':', 2) as [string, string?];
    if (kind === 'gitea' && this.deps.listing) return (await this.deps.listing.byId(raw)) ?? null;
    if (kind === 'mcp' && this.deps.mcp) return (await this.deps.mcp.find(raw)) ?? null;
    return null;
  }

  private async revokeById(
    id: string,
    giteaReason: 'revoked_by_person' | 'revoked_by_admin',
    mcpReason: string,
  ): Promise<z.infer<typeof S.RevokeResult>> {
    const [kind, raw = ''] = id.split(':', 2) as [string, string?];
    if (kind === 'mcp' && this.deps.mcp)
      return { revoked: await this.deps.mcp.revoke({ id: raw }, mcpReason), signed_out: false };
    const owner = await this.ownerOf(id);
    if (!owner || !this.deps.grants) throw new AdminApiError(404, `no grant ${id}`);
    const revoked = await this.deps.grants.revokeAllFor(owner.personId, giteaReason);
    return { revoked: revoked ? 1 : 0, signed_out: revoked };
  }
}
