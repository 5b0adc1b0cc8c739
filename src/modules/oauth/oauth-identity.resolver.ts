// Identity mode "oauth" on /mcp: the bearer is an access token this server issued. It must exist
// (looked up by hash), be unexpired and unrevoked, belong to a live grant and client, and be bound
// to this server's resource (RFC 8707 audience). Verified tokens are cached; revocations reach the
// cache through tombstones read at most TOMBSTONE_POLL_MS after they are written, in every replica.
import { parseBearerHeader } from '../../core/oauth/bearer-header';
import { bearerChallenge } from '../../core/oauth/challenge';
import { GiteaAuthRequiredError, type GiteaGrantStore } from '../../core/oauth/gitea-seam';
import { scopesForAccess, SUPPORTED_SCOPES, DEFAULT_SCOPE } from '../../core/oauth/scopes';
import { hashToken, tokenKind } from '../../core/oauth/tokens';
import type { CallIdentity } from '../../core/ports';
import type { OAuthStore } from '../../infra/oauth/oauth-store';
import type { AuthFailure, AuthResult, IdentityResolver } from '../auth/identity-resolver';

/** A revocation is seen by every replica's cache within this time. */
export const TOMBSTONE_POLL_MS = 1_000;
const TOUCH_EVERY_MS = 60_000;
const CACHE_LIMIT = 10_000;

type Verified = {
  hash: string;
  grantId: string;
  clientId: string;
  clientName: string;
  personId: string;
  login: string;
  giteaGrantId: string;
  scopes: string[];
  expiresAt: number;
};

export type OAuthResolverOptions = {
  store: OAuthStore;
  grants: GiteaGrantStore;
  resource: string;
  resourceMetadataUrl: string;
  now?: () => number;
  warn?: (message: string) => void;
};

const BEARER = /^Bearer[ ]+([\x21-\x7e]{1,4096})[ ]*$/i;

export class OAuthIdentityResolver implements IdentityResolver {
  private readonly cache = new Map<string, Verified>();
  private readonly touched = new Map<string, number>();
  private lastSeq: bigint | null = null;
  private lastPoll = Number.NEGATIVE_INFINITY;
  private polling: Promise<void> | null = null;
  private readonly now: () => number;

  constructor(private readonly o: OAuthResolverOptions) {
    this.now = o.now ?? Date.now;
  }

  /** True when the header carries one of this server's access tokens (the composite routes on it). */
  static claims(authorization: string | undefined): boolean {
    const m = authorization ? BEARER.exec(authorization) : null;
    return m !== null && tokenKind(m[1] as string) === 'access';
  }

  async authenticate(authorization: string | undefined): Promise<AuthResult> {
    const presented = parseBearerHeader(authorization);
    if (presented.kind === 'none' || presented.kind === 'other_scheme')
      return { ok: false, status: 401, error: null, message: 'Authorization: Bearer <token> is required' };
    if (presented.kind === 'malformed')
      return { ok: false, status: 400, error: 'invalid_request', message: 'Malformed Authorization header' };
    const token = presented.token;
    await this.syncTombstones();
    const hash = hashToken(token);
    let v = this.cache.get(hash);
    if (!v) {
      const loaded = await this.load(hash);
      if (!loaded.ok) return loaded;
      v = loaded.verified;
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(hash, v);
    }
    if (v.expiresAt <= this.now()) {
      this.cache.delete(hash);
      return invalid('The access token has expired');
    }
    this.touch(v.grantId);
    let gitea: { token: string; login: string; isSiteAdmin: boolean } | null = null;
    let authRequired: string | undefined;
    try {
      gitea = await this.o.grants.accessToken(v.giteaGrantId);
    } catch (error) {
      if (!(error instanceof GiteaAuthRequiredError)) throw error;
      authRequired = error.message;
    }
    const identity: CallIdentity = {
      login: v.login,
      mode: 'oauth',
      sudo: null,
      token: gitea?.token ?? '',
      // Sudo stays a service-token feature: an OAuth identity is never treated as a site admin for it.
      isSiteAdmin: false,
      subject: `oauth:${v.grantId}`,
      scopes: v.scopes,
      oauthClient: { id: v.clientId, name: v.clientName },
      ...(authRequired !== undefined ? { authRequired } : {}),
    };
    return { ok: true, identity };
  }

  private async load(hash: string): Promise<{ ok: true; verified: Verified } | AuthFailure> {
    const row = await this.o.store.token(hash);
    if (!row || row.kind !== 'access') return invalid('The access token is not valid');
    if (row.revokedAt) return invalid('The access token has been revoked');
    if (row.expiresAt.getTime() <= this.now()) return invalid('The access token has expired');
    if (row.resource !== this.o.resource)
      return invalid(`The access token was issued for another resource; this server is ${this.o.resource}`);
    const grant = await this.o.store.grant(row.grantId);
    if (!grant || grant.revokedAt) return invalid('The grant behind this access token has been revoked');
    const client = await this.o.store.client(grant.clientId);
    if (!client || client.revokedAt) return invalid('The client of this access token has been revoked');
    return {
      ok: true,
      verified: {
        hash,
        grantId: grant.id,
        clientId: client.id,
        clientName: client.name,
        personId: grant.personId,
        login: grant.login,
        giteaGrantId: grant.giteaGrantId,
        scopes: row.scope.split(' ').filter(Boolean),
        expiresAt: row.expiresAt.getTime(),
      },
    };
  }

  /** Applies revocations written since the last look (any replica), at most TOMBSTONE_POLL_MS late. */
  private syncTombstones(): Promise<void> {
    if (this.now() - this.lastPoll < TOMBSTONE_POLL_MS) return Promise.resolve();
    if (this.polling) return this.polling;
    this.polling = (async () => {
      try {
        if (this.lastSeq === null) {
          this.lastSeq = await this.o.store.latestTombstone();
          this.cache.clear();
        } else {
          const stones = await this.o.store.tombstonesAfter(this.lastSeq);
          for (const stone of stones) {
            this.evict(stone.subject);
            this.lastSeq = stone.seq;
          }
        }
        this.lastPoll = this.now();
      } finally {
        this.polling = null;
      }
    })();
    return this.polling;
  }

  private evict(subject: string): void {
    const colon = subject.indexOf(':');
    const kind = subject.slice(0, colon);
    const id = subject.slice(colon + 1);
    for (const [hash, v] of this.cache) {
      if (
        (kind === 'token' && hash === id) ||
        (kind === 'grant' && v.grantId === id) ||
        (kind === 'client' && v.clientId === id) ||
        (kind === 'person' && v.personId === id)
      )
        this.cache.delete(hash);
    }
  }

  private touch(grantId: string): void {
    const now = this.now();
    const last = this.touched.get(grantId) ?? 0;
    if (now - last < TOUCH_EVERY_MS) return;
    if (this.touched.size >= CACHE_LIMIT) this.touched.clear();
    this.touched.set(grantId, now);
    void this.o.store.touchGrant(grantId, new Date(now)).catch((error: unknown) => {
      this.o.warn?.(`could not record grant use: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  upstreamUnauthorized(identity: CallIdentity): void {
    if (identity.mode !== 'oauth') return;
    const grantId = identity.subject.slice('oauth:'.length);
    const v = [...this.cache.values()].find((c) => c.grantId === grantId);
    if (v) void this.o.grants.upstreamUnauthorized(v.giteaGrantId, identity.token).catch(() => undefined);
  }

  /** Remembers the refused call on the grant; the authorization server reads it on elevation. */
  stepUpRequested(identity: CallIdentity, refusalEventId: string | null): void {
    if (identity.mode !== 'oauth' || !identity.subject.startsWith('oauth:')) return;
    const grantId = identity.subject.slice('oauth:'.length);
    void this.o.store.recordStepUp(grantId, refusalEventId, new Date(this.now())).catch((error: unknown) => {
      this.o.warn?.(`could not record a step-up: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  challenge(failure: AuthFailure): string {
    return bearerChallenge({
      resourceMetadataUrl: this.o.resourceMetadataUrl,
      scope: [DEFAULT_SCOPE],
      error: failure.error,
      description: failure.error ? failure.message : undefined,
    });
  }

  /** 403 for a call the token's scopes do not cover, naming every scope the call needs. */
  insufficientScope(access: 'read' | 'write'): string {
    return bearerChallenge({
      resourceMetadataUrl: this.o.resourceMetadataUrl,
      scope: scopesForAccess(access),
      error: 'insufficient_scope',
      description: `this call needs ${scopesForAccess(access).join(' ')}`,
    });
  }
}

const invalid = (message: string): AuthFailure => ({
  ok: false,
  status: 401,
  error: 'invalid_token',
  message,
});

export { SUPPORTED_SCOPES };
