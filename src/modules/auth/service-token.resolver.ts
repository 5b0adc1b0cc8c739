// Identity mode "token": the caller presents MCP_BEARER_TOKEN and calls run as the service account
// behind GITEA_TOKEN. The account's login and admin flag come from Gitea at start and are re-checked
// when a call fails with 401 (the token may have been rotated or revoked).
import { hash, timingSafeEqual } from 'node:crypto';
import { parseBearerHeader } from '../../core/oauth/bearer-header';
import type { CallIdentity } from '../../core/ports';
import type { GiteaUser, GiteaUserLookup } from './gitea-user.client';
import type { AuthFailure, AuthResult, IdentityResolver } from './identity-resolver';

export type ServiceTokenOptions = {
  bearerToken: string | null;
  giteaToken: string | null;
  /** URL of the protected resource metadata document, once OAuth exists (RFC 9728). */
  resourceMetadataUrl: string | null;
  lookupUser: (token: string) => Promise<GiteaUserLookup>;
  now: () => number;
  warn: (message: string) => void;
  /** Least time between two lookups after a failure or a 401 from Gitea. */
  recheckIntervalMs?: number;
};

// One-shot SHA-256 (no Hash object per request): the bearer is hashed on every /mcp request.
const digest = (value: string): Buffer => hash('sha256', value, 'buffer');

/** Constant-time comparison: both sides are hashed first so the length does not leak either. */
export function bearerMatches(presented: string, expected: Buffer): boolean {
  return timingSafeEqual(digest(presented), expected);
}

export class ServiceTokenIdentityResolver implements IdentityResolver {
  private readonly expected: Buffer | null;
  private user: GiteaUser | null = null;
  private lastLookupMs = Number.NEGATIVE_INFINITY;
  private lookup: Promise<void> | null = null;
  private readonly recheckMs: number;

  constructor(private readonly options: ServiceTokenOptions) {
    this.expected = options.bearerToken ? digest(options.bearerToken) : null;
    this.recheckMs = options.recheckIntervalMs ?? 5_000;
  }

  /** Resolves the service account at start; failures are retried on demand. */
  async init(): Promise<void> {
    if (this.expected && this.options.giteaToken) await this.refresh(true);
  }

  get serviceUser(): GiteaUser | null {
    return this.user;
  }

  async authenticate(authorization: string | undefined): Promise<AuthResult> {
    const presented = parseBearerHeader(authorization);
    if (presented.kind === 'none' || presented.kind === 'other_scheme') {
      return { ok: false, status: 401, error: null, message: 'Authorization: Bearer <token> is required' };
    }
    if (presented.kind === 'malformed')
      return { ok: false, status: 400, error: 'invalid_request', message: 'Malformed Authorization header' };
    if (!this.expected || !bearerMatches(presented.token, this.expected)) {
      return { ok: false, status: 401, error: 'invalid_token', message: 'The bearer token is not valid' };
    }
    if (!this.options.giteaToken) {
      return {
        ok: false,
        status: 503,
        error: null,
        message: 'GITEA_TOKEN is not configured; the service identity is unavailable',
      };
    }
    if (!this.user) await this.refresh(false);
    const user = this.user as GiteaUser | null;
    if (!user)
      return {
        ok: false,
        status: 503,
        error: null,
        message: 'The Gitea service account could not be resolved',
      };
    const identity: CallIdentity = {
      login: user.login,
      mode: 'token',
      sudo: null,
      token: this.options.giteaToken,
      isSiteAdmin: user.isSiteAdmin,
      subject: `token:${user.login}`,
    };
    return { ok: true, identity };
  }

  upstreamUnauthorized(identity: CallIdentity): void {
    if (identity.mode !== 'token') return;
    void this.refresh(false);
  }

  challenge(failure: AuthFailure): string {
    const parts = ['Bearer realm="aegis-gitea-mcp"'];
    if (this.options.resourceMetadataUrl)
      parts.push(`resource_metadata="${this.options.resourceMetadataUrl}"`);
    if (failure.error) parts.push(`error="${failure.error}"`);
    return parts.join(', ');
  }

  // One lookup at a time, and not more often than recheckMs unless forced (at start).
  private refresh(force: boolean): Promise<void> {
    if (this.lookup) return this.lookup;
    const now = this.options.now();
    if (!force && now - this.lastLookupMs < this.recheckMs) return Promise.resolve();
    this.lastLookupMs = now;
    const token = this.options.giteaToken as string;
    this.lookup = this.options
      .lookupUser(token)
      .then((result) => {
        if (result.ok) {
          this.user = result.user;
        } else {
          // A refused token invalidates the cached account; a transient failure keeps the last known one.
          if (result.unauthorized) this.user = null;
          this.options.warn(`service identity lookup failed: ${result.message}`);
        }
      })
      .finally(() => {
        this.lookup = null;
      });
    return this.lookup;
  }
}
