// The authentication seam of /api/admin (issue 14). An AdminAuthenticator turns one request into a
// resolved admin principal, or says it is not its kind of credential (null), or refuses it. The
// registry tries them in order: the bootstrap ADMIN_TOKEN here; a person's OAuth access token and
// the console's session register themselves from their own modules (see /work/notes/seams.md).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { GiteaHttpClient } from '../../infra/gitea/gitea-http-client';

/** Ask Gitea something as the principal (their own grant); path relative to /api/v1. */
export type GiteaAsPerson = (path: string) => Promise<{ status: number; body: unknown }>;

export type AdminPrincipal = {
  login: string;
  isSiteAdmin: boolean;
  /** How the request was authenticated, for audit records (admin_token, oauth, session, ...). */
  via: string;
  /** Gitea as this person, for the org-owner check; null for credentials without a Gitea identity. */
  gitea: GiteaAsPerson | null;
  /** The person (people.id) when the credential knows it (console session); else found by login. */
  personId?: string | null;
};

export type AdminRequestView = {
  method: string;
  /** The request path (e.g. /api/admin/policy/simulate), when known. */
  path?: string;
  /** Header names lower-cased. */
  headers: Record<string, string | undefined>;
};

export type AdminAuthOutcome =
  { ok: true; principal: AdminPrincipal } | { ok: false; status: 401 | 403 | 503; message: string };

export interface AdminAuthenticator {
  /**
   * null: this request does not carry this authenticator's kind of credential (try the next one).
   * An authenticator of an ambient credential (a cookie) must itself refuse a change (any method
   * but GET/HEAD) without a valid CSRF token.
   */
  authenticate(request: AdminRequestView): Promise<AdminAuthOutcome | null>;
}

export class AdminAuthRegistry {
  private readonly authenticators: Array<{ name: string; authenticator: AdminAuthenticator }> = [];

  register(name: string, authenticator: AdminAuthenticator): void {
    this.authenticators.push({ name, authenticator });
  }

  names(): string[] {
    return this.authenticators.map((a) => a.name);
  }

  async authenticate(request: AdminRequestView): Promise<AdminAuthOutcome> {
    for (const { authenticator } of this.authenticators) {
      const outcome = await authenticator.authenticate(request);
      if (outcome) return outcome;
    }
    return {
      ok: false,
      status: 401,
      message:
        'authentication required: send Authorization: Bearer <ADMIN_TOKEN or an access token of this service>',
    };
  }
}

export function bearerOf(request: AdminRequestView): string | null {
  const value = request.headers.authorization;
  if (!value) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match ? (match[1] as string) : null;
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** The bootstrap site-admin credential from the environment; when ADMIN_TOKEN is unset it does not exist. */
export class AdminTokenAuthenticator implements AdminAuthenticator {
  static readonly LOGIN = 'admin-token';
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = digest(token);
  }

  authenticate(request: AdminRequestView): Promise<AdminAuthOutcome | null> {
    const presented = bearerOf(request);
    if (presented === null || !timingSafeEqual(digest(presented), this.expected))
      return Promise.resolve(null);
    return Promise.resolve({
      ok: true,
      principal: { login: AdminTokenAuthenticator.LOGIN, isSiteAdmin: true, via: 'admin_token', gitea: null },
    });
  }
}

/**
 * Gitea as the holder of `token`, through the one Gitea HTTP client (so only to GITEA_URL, never
 * across a redirect; never logged). `scheme`: `token` for an access token, `Bearer` for a person's
 * Gitea OAuth token (CVE-2026-28699: sent any other way, Gitea before 1.26.2 ignored its scopes).
 */
export function giteaAsToken(
  gitea: GiteaHttpClient,
  token: string,
  timeoutMs: number,
  scheme: 'token' | 'Bearer' = 'token',
): GiteaAsPerson {
  return async (path) => {
    const response = await gitea.request(`/api/v1${path}`, {
      headers: { authorization: `${scheme} ${token}`, accept: 'application/json' },
      timeoutMs,
    });
    const body = response.json();
    return { status: response.status, body: body ?? response.text };
  };
}

/**
 * Who may manage an org's policy: site admins every org; a person their org when they are in its
 * Owners team (Gitea's `is_owner`), asked with their own grant and remembered for `ttlMs`.
 */
export class OrgOwnership {
  private readonly cache = new Map<string, { owner: boolean; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async canManage(
    principal: AdminPrincipal,
    org: string,
  ): Promise<
    { ok: true; role: 'site_admin' | 'org_owner' } | { ok: false; status: 403 | 503; message: string }
  > {
    if (principal.isSiteAdmin) return { ok: true, role: 'site_admin' };
    const owner = await this.isOwner(principal, org);
    if (owner === null)
      return {
        ok: false,
        status: 503,
        message: `could not ask Gitea whether ${principal.login} owns ${org}; try again`,
      };
    if (!owner)
      return {
        ok: false,
        status: 403,
        message: `${principal.login} is not an owner of organization ${org} (only its Owners team and site admins manage its policy)`,
      };
    return { ok: true, role: 'org_owner' };
  }

  /** true/false from Gitea, null when Gitea could not answer. */
  async isOwner(principal: AdminPrincipal, org: string): Promise<boolean | null> {
    if (!principal.gitea) return false;
    const key = `${principal.via}\u0000${principal.login.toLowerCase()}\u0000${org.toLowerCase()}`;
    const cached = this.cache.get(key);
    const now = this.now();
    if (cached && cached.until > now) return cached.owner;
    let answer: { status: number; body: unknown };
    try {
      answer = await principal.gitea(
        `/users/${encodeURIComponent(principal.login)}/orgs/${encodeURIComponent(org)}/permissions`,
      );
    } catch {
      return null;
    }
    let owner: boolean;
    if (answer.status === 200) owner = (answer.body as { is_owner?: unknown } | null)?.is_owner === true;
    else if (answer.status === 403 || answer.status === 404) owner = false;
    else return null;
    if (this.cache.size >= 10_000) this.cache.clear();
    this.cache.set(key, { owner, until: now + this.ttlMs });
    return owner;
  }
}

/** What this authenticator needs of the /mcp identity resolver (src/modules/auth/identity-resolver.ts). */
export type BearerIdentityResolver = {
  authenticate(authorization: string | undefined): Promise<
    | {
        ok: true;
        identity: { login: string; isSiteAdmin: boolean; mode: string; token: string; scopes?: string[] };
      }
    | { ok: false; status: number; message: string }
  >;
};

/** The OAuth scope a person's access token needs to change anything through /api/admin. */
export const ADMIN_CHANGE_SCOPE = 'gitea:write';
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// POSTs that only compute an answer and change nothing.
const READ_POSTS = new Set(['/api/admin/policy/simulate']);
const isChange = (request: AdminRequestView): boolean =>
  !READ_METHODS.has(request.method.toUpperCase()) &&
  !(request.method.toUpperCase() === 'POST' && READ_POSTS.has(request.path ?? ''));

/**
 * A person's OAuth access token of this service (issue 13): resolved by the same resolver as /mcp,
 * accepted only for identities of mode "oauth" (the static MCP_BEARER_TOKEN is no admin
 * credential). Gitea is asked as the person with their own Gitea grant, never the service token.
 */
export class OAuthAdminAuthenticator implements AdminAuthenticator {
  constructor(
    private readonly resolver: BearerIdentityResolver,
    private readonly gitea: GiteaHttpClient,
    private readonly timeoutMs: number,
  ) {}

  async authenticate(request: AdminRequestView): Promise<AdminAuthOutcome | null> {
    if (bearerOf(request) === null) return null;
    const result = await this.resolver.authenticate(request.headers.authorization);
    if (!result.ok) {
      return result.status === 503 ? { ok: false, status: 503, message: result.message } : null;
    }
    const { identity } = result;
    if (identity.mode !== 'oauth') return null;
    // A read-only grant reads; a change (policy, revocation) needs the read-write scope.
    if (isChange(request) && !identity.scopes?.includes(ADMIN_CHANGE_SCOPE))
      return {
        ok: false,
        status: 403,
        message: `insufficient_scope: changes through the admin API need an access token with ${ADMIN_CHANGE_SCOPE}`,
      };
    return {
      ok: true,
      principal: {
        login: identity.login,
        isSiteAdmin: identity.isSiteAdmin,
        via: 'oauth',
        // The person's Gitea OAuth token: Bearer only.
        gitea: identity.token ? giteaAsToken(this.gitea, identity.token, this.timeoutMs, 'Bearer') : null,
      },
    };
  }
}
