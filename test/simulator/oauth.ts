// Gitea as an OAuth2 provider (routers/web/auth/oauth2_provider.go): authorize with PKCE,
// code exchange, refresh tokens that rotate (INVALIDATE_REFRESH_TOKENS on), access tokens that
// expire (ACCESS_TOKEN_EXPIRATION_TIME 3600 s), userinfo. Tokens are HS256 JWTs holding the
// grant id, type and refresh counter, like Gitea's. Tests approve without a browser.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { findUser, type World } from './context';
import type { Reply } from './http.util';
import { sha256, type OAuthApp, type OAuthGrant, type SimState, type User, nowIso } from './state';

type TokenClaims = { gnt: number; tt: 0 | 1; cnt?: number; exp: number; iat: number; nbf: number };

const b64url = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

export type RegisterAppInput = {
  name: string;
  redirectUris: string[];
  confidential?: boolean;
  login?: string;
};

export class OAuthProvider {
  /** When set, GET /login/oauth/authorize approves at once as this login (a stand-in for the consent click). */
  autoApproveAs: string | null = null;
  accessTokenTtlSeconds = 3600;
  refreshTokenTtlSeconds = 730 * 3600;
  private readonly secret = randomBytes(32);

  constructor(private readonly world: World) {}

  private get state(): SimState {
    return this.world.state;
  }
  private now(): number {
    return Math.floor((Date.now() + this.state.clockOffsetMs) / 1000);
  }

  /** Registers an OAuth2 application owned by `login` (default admin); returns its credentials. */
  registerApp(input: RegisterAppInput): { id: number; clientId: string; clientSecret: string } {
    const owner = findUser(this.state, input.login ?? 'admin');
    if (!owner) throw new Error(`no such user ${input.login}`);
    const created = createApp(this.state, owner, input.name, input.redirectUris, input.confidential ?? true);
    return { id: created.app.id, clientId: created.app.clientId, clientSecret: created.secret };
  }

  /** Approves an authorization as `login` without a browser; returns the authorization code. */
  approve(input: {
    clientId: string;
    redirectUri: string;
    codeChallenge?: string;
    codeChallengeMethod?: string;
    login: string;
    state?: string;
  }): string {
    const app = this.state.oauthApps.find((a) => a.clientId === input.clientId);
    if (!app) throw new Error('unknown client_id');
    if (!app.redirectUris.includes(input.redirectUri)) throw new Error('redirect_uri not registered');
    const user = findUser(this.state, input.login);
    if (!user) throw new Error(`no such user ${input.login}`);
    return this.issueCode(
      app,
      user,
      input.redirectUri,
      input.codeChallenge ?? '',
      input.codeChallengeMethod ?? (input.codeChallenge ? 'S256' : ''),
    );
  }

  private issueCode(
    app: OAuthApp,
    user: User,
    redirectUri: string,
    challenge: string,
    method: string,
  ): string {
    const code = randomBytes(24).toString('base64url');
    this.state.oauthCodes.set(code, {
      code,
      appId: app.id,
      userId: user.id,
      redirectUri,
      challenge,
      challengeMethod: method,
      expiresAt: this.now() + 600,
      used: false,
    });
    return code;
  }

  private sign(claims: TokenClaims): string {
    const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const body = b64url(JSON.stringify(claims));
    const sig = createHmac('sha256', this.secret).update(`${head}.${body}`).digest('base64url');
    return `${head}.${body}.${sig}`;
  }

  private verify(token: string): TokenClaims | null {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const expect = createHmac('sha256', this.secret).update(`${parts[0]}.${parts[1]}`).digest();
    const got = Buffer.from(parts[2]!, 'base64url');
    if (got.length !== expect.length || !timingSafeEqual(got, expect)) return null;
    try {
      return JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as TokenClaims;
    } catch {
      return null;
    }
  }

  /** The user an OAuth access token acts for, or null if it is not a valid, unexpired one. */
  userForAccessToken(token: string): User | null {
    const c = this.verify(token);
    if (!c || c.tt !== 0 || c.exp <= this.now()) return null;
    const grant = this.state.oauthGrants.find((g) => g.id === c.gnt);
    return grant ? (this.state.users.find((u) => u.id === grant.userId) ?? null) : null;
  }

  private tokenResponse(grant: OAuthGrant): Reply {
    const now = this.now();
    grant.counter += 1;
    const access = this.sign({
      gnt: grant.id,
      tt: 0,
      exp: now + this.accessTokenTtlSeconds,
      iat: now,
      nbf: now,
    });
    const refresh = this.sign({
      gnt: grant.id,
      tt: 1,
      cnt: grant.counter,
      exp: now + this.refreshTokenTtlSeconds,
      iat: now,
      nbf: now,
    });
    return {
      status: 200,
      json: {
        access_token: access,
        token_type: 'Bearer',
        expires_in: this.accessTokenTtlSeconds,
        refresh_token: refresh,
      },
      headers: { 'Cache-Control': 'no-store' },
    };
  }

  private error(code: string, description: string, status = 400): Reply {
    return { status, json: { error: code, error_description: description } };
  }

  /** GET /login/oauth/authorize */
  authorize(req: IncomingMessage, query: URLSearchParams): Reply {
    const app = this.state.oauthApps.find((a) => a.clientId === query.get('client_id'));
    if (!app) return this.page(400, 'Client ID not registered');
    const redirectUri = query.get('redirect_uri') ?? '';
    if (!app.redirectUris.includes(redirectUri)) return this.page(400, 'Unregistered Redirect URI');
    const state = query.get('state');
    const fail = (code: string, description: string): Reply => {
      const u = new URL(redirectUri);
      u.searchParams.set('error', code);
      u.searchParams.set('error_description', description);
      if (state) u.searchParams.set('state', state);
      return { status: 302, headers: { Location: u.toString() } };
    };
    if (query.get('response_type') !== 'code')
      return fail('unsupported_response_type', 'Only code response type is supported.');
    const challenge = query.get('code_challenge') ?? '';
    const method = query.get('code_challenge_method') ?? (challenge ? 'plain' : '');
    if (challenge && method !== 'S256' && method !== 'plain')
      return fail('invalid_request', 'unsupported code challenge method');
    if (!app.confidential && !challenge)
      return fail('invalid_request', 'PKCE is required for public clients');
    const user =
      basicUser(this.state, req) ??
      (this.autoApproveAs ? findUser(this.state, this.autoApproveAs) : undefined);
    if (!user) {
      const back = `/login/oauth/authorize?${query.toString()}`;
      return {
        status: 303,
        headers: { Location: `${this.world.baseUrl}/user/login?redirect_to=${encodeURIComponent(back)}` },
      };
    }
    const code = this.issueCode(app, user, redirectUri, challenge, method);
    const u = new URL(redirectUri);
    u.searchParams.set('code', code);
    if (state) u.searchParams.set('state', state);
    return { status: 302, headers: { Location: u.toString() } };
  }

  private page(status: number, message: string): Reply {
    return {
      status,
      raw: Buffer.from(`<!DOCTYPE html><html><body><p>${message}</p></body></html>`),
      contentType: 'text/html; charset=utf-8',
    };
  }

  /** POST /login/oauth/access_token (form or JSON; client_secret_basic or client_secret_post). */
  accessToken(req: IncomingMessage, form: Record<string, string>): Reply {
    let clientId = form.client_id ?? '';
    let clientSecret = form.client_secret ?? '';
    const auth = req.headers.authorization ?? '';
    if (/^basic /i.test(auth)) {
      const [id, secret] = Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':');
      clientId = decodeURIComponent(id ?? '');
      clientSecret = decodeURIComponent(secret ?? '');
    }
    const app = this.state.oauthApps.find((a) => a.clientId === clientId);
    if (!app) return this.error('invalid_client', `cannot load client with client id: '${clientId}'`);
    if (app.confidential || clientSecret) {
      if (!clientSecret || sha256(clientSecret) !== app.clientSecretHash)
        return this.error('unauthorized_client', 'invalid client secret');
    }
    if (form.grant_type === 'authorization_code') {
      const code = this.state.oauthCodes.get(form.code ?? '');
      if (!code || code.appId !== app.id || code.used || code.expiresAt <= this.now())
        return this.error('invalid_grant', 'client is not authorized');
      if (code.redirectUri !== (form.redirect_uri ?? ''))
        return this.error('unauthorized_client', 'unexpected redirect URI');
      if (code.challenge) {
        const verifier = form.code_verifier ?? '';
        const computed =
          code.challengeMethod === 'S256'
            ? createHash('sha256').update(verifier).digest('base64url')
            : verifier;
        if (!verifier || computed !== code.challenge)
          return this.error('unauthorized_client', 'failed PKCE code challenge');
      } else if (!app.confidential) {
        return this.error('unauthorized_client', 'PKCE is required for public clients');
      }
      code.used = true;
      this.state.oauthCodes.delete(code.code);
      let grant = this.state.oauthGrants.find((g) => g.appId === app.id && g.userId === code.userId);
      if (!grant) {
        grant = {
          id: this.state.nextId(),
          appId: app.id,
          userId: code.userId,
          counter: 0,
          scope: form.scope ?? '',
          created: nowIso(this.state),
        };
        this.state.oauthGrants.push(grant);
      }
      return this.tokenResponse(grant);
    }
    if (form.grant_type === 'refresh_token') {
      const c = this.verify(form.refresh_token ?? '');
      if (!c || c.tt !== 1 || c.exp <= this.now())
        return this.error('unauthorized_client', 'unable to parse refresh token');
      const grant = this.state.oauthGrants.find((g) => g.id === c.gnt);
      if (!grant || grant.appId !== app.id) return this.error('invalid_grant', 'grant does not exist');
      // Rotation: only the newest refresh token of a grant is accepted.
      if (c.cnt !== grant.counter) return this.error('unauthorized_client', 'token was already used');
      return this.tokenResponse(grant);
    }
    return this.error(
      'unsupported_grant_type',
      'Only refresh_token or authorization_code grant type is supported',
    );
  }

  /** GET/POST /login/oauth/userinfo */
  userinfo(req: IncomingMessage): Reply {
    const m = /^bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const user = m ? this.userForAccessToken(m[1]!.trim()) : null;
    if (!user) {
      return {
        status: 401,
        headers: { 'WWW-Authenticate': 'Bearer realm=""' },
        json: { error: 'invalid_token', error_description: 'invalid or expired access token' },
      };
    }
    return {
      status: 200,
      json: {
        sub: String(user.id),
        name: user.fullName || user.login,
        preferred_username: user.login,
        email: user.email,
        email_verified: true,
        picture: `${this.world.baseUrl}/avatars/${user.id}`,
        groups: this.state.teams
          .filter((t) => t.members.has(user.id))
          .flatMap((t) => {
            const org = this.state.users.find((u) => u.id === t.orgId)!.login;
            return [org, `${org}:${t.name}`];
          })
          .filter((g, i, all) => all.indexOf(g) === i),
      },
    };
  }

  openidConfiguration(): Reply {
    const b = this.world.baseUrl;
    return {
      status: 200,
      json: {
        issuer: `${b}/`,
        authorization_endpoint: `${b}/login/oauth/authorize`,
        token_endpoint: `${b}/login/oauth/access_token`,
        userinfo_endpoint: `${b}/login/oauth/userinfo`,
        introspection_endpoint: `${b}/login/oauth/introspect`,
        jwks_uri: `${b}/login/oauth/keys`,
        response_types_supported: ['code', 'id_token'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        scopes_supported: ['openid', 'profile', 'email', 'groups'],
        code_challenge_methods_supported: ['plain', 'S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      },
    };
  }
}

export function createApp(
  state: SimState,
  owner: User,
  name: string,
  redirectUris: string[],
  confidential: boolean,
): { app: OAuthApp; secret: string } {
  const secret = 'gto_' + randomBytes(26).toString('hex').slice(0, 52);
  const app: OAuthApp = {
    id: state.nextId(),
    userId: owner.id,
    name,
    clientId: [randomBytes(4), randomBytes(2), randomBytes(2), randomBytes(2), randomBytes(6)]
      .map((b) => b.toString('hex'))
      .join('-'),
    clientSecretHash: sha256(secret),
    redirectUris,
    confidential,
    skipSecondaryAuthorization: false,
    created: nowIso(state),
  };
  state.oauthApps.push(app);
  return { app, secret };
}

/** A user authenticated by `Authorization: Basic` with login and password. */
export function basicUser(state: SimState, req: IncomingMessage): User | undefined {
  const auth = req.headers.authorization ?? '';
  if (!/^basic /i.test(auth)) return undefined;
  const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  const user = findUser(state, decoded.slice(0, i));
  return user && !user.isOrg && user.password === decoded.slice(i + 1) ? user : undefined;
}
