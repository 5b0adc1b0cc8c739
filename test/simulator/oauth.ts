// Gitea 1.27 as an OAuth2 provider (routers/web/auth/oauth2_provider.go, services/oauth2_provider,
// models/auth/access_token_scope.go) and its browser sign-in (templates/user/auth/signin_inner.tmpl,
// grant.tmpl): the sign-in form at /user/login, the grant page posting to /login/oauth/grant,
// authorization codes with PKCE (S256 or plain; required for public clients), the token endpoint
// (form or JSON, client credentials in the body or HTTP Basic), refresh tokens (a new one each
// time; old ones stay valid unless INVALIDATE_REFRESH_TOKENS), granular scopes stored on the
// grant (one grant per application and user; re-authorizing replaces its scope) and enforced on
// API calls, userinfo, introspection and the discovery document. Tokens are HS256 JWTs holding
// the grant id, kind and counter, like Gitea's. Tests can approve without a browser.
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
  skipSecondaryAuthorization?: boolean;
  login?: string;
};

// models/auth/access_token_scope.go
export const SCOPE_CATEGORIES = [
  'activitypub',
  'admin',
  'misc',
  'notification',
  'organization',
  'package',
  'issue',
  'repository',
  'user',
] as const;
const OIDC_SCOPES = ['openid', 'profile', 'email', 'groups'];

/**
 * Gitea's AccessTokenScope.Normalize for an OAuth grant (GrantAdditionalScopes): OIDC scopes are
 * dropped; what remains must all be known scopes, else (or when nothing remains) the grant gets
 * "all". write:X implies read:X. Returns the effective scope list.
 */
export function grantAccessScopes(grantScope: string): string[] {
  const rest = grantScope
    .split(/[\s,]+/)
    .filter(Boolean)
    .filter((s) => !OIDC_SCOPES.includes(s));
  const known = (s: string): boolean =>
    s === 'all' ||
    s === 'public-only' ||
    SCOPE_CATEGORIES.some((c) => s === `read:${c}` || s === `write:${c}`);
  if (rest.length === 0 || !rest.every(known)) return ['all'];
  return normalizeScopes(rest);
}

/** Expands write:X to read:X too, and all to every read/write scope (keeps public-only). */
export function normalizeScopes(scopes: string[]): string[] {
  const out = new Set<string>();
  for (const s of scopes) {
    if (s === 'all') {
      out.add('all');
      for (const c of SCOPE_CATEGORIES) out.add(`write:${c}`).add(`read:${c}`);
    } else if (s.startsWith('write:')) out.add(s).add(`read:${s.slice(6)}`);
    else out.add(s);
  }
  return [...out];
}

type Session = {
  id: string;
  csrf: string;
  userId: number | null;
  pending: {
    clientId: string;
    redirectUri: string;
    state: string;
    scope: string;
    nonce: string;
    challenge: string;
    method: string;
  } | null;
};

const SESSION_COOKIE = 'i_like_gitea';
const PROHIBITED_MESSAGE =
  'This account is prohibited from signing in, please contact your site administrator.';

export class OAuthProvider {
  /** When set, GET /login/oauth/authorize approves at once as this login (a stand-in for the consent click). */
  autoApproveAs: string | null = null;
  /** [oauth2] ACCESS_TOKEN_EXPIRATION_TIME */
  accessTokenTtlSeconds = 3600;
  /** [oauth2] REFRESH_TOKEN_EXPIRATION_TIME (730 hours) */
  refreshTokenTtlSeconds = 730 * 3600;
  /** [oauth2] INVALIDATE_REFRESH_TOKENS (Gitea's default: false) */
  invalidateRefreshTokens = false;
  /** Count of successful token endpoint answers per grant type (tests). */
  readonly issued = { authorization_code: 0, refresh_token: 0 };
  private readonly secret = randomBytes(32);
  private readonly sessions = new Map<string, Session>();

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
    created.app.skipSecondaryAuthorization = input.skipSecondaryAuthorization ?? false;
    return { id: created.app.id, clientId: created.app.clientId, clientSecret: created.secret };
  }

  /** Approves an authorization as `login` without a browser (as if "Authorize Application" was clicked); returns the code. */
  approve(input: {
    clientId: string;
    redirectUri: string;
    codeChallenge?: string;
    codeChallengeMethod?: string;
    login: string;
    scope?: string;
    state?: string;
  }): string {
    const app = this.state.oauthApps.find((a) => a.clientId === input.clientId);
    if (!app) throw new Error('unknown client_id');
    if (!app.redirectUris.includes(input.redirectUri)) throw new Error('redirect_uri not registered');
    const user = findUser(this.state, input.login);
    if (!user) throw new Error(`no such user ${input.login}`);
    const grant = this.grantFor(app, user, input.scope ?? '');
    return this.issueCode(
      grant,
      input.redirectUri,
      input.codeChallenge ?? '',
      input.codeChallengeMethod ?? (input.codeChallenge ? 'S256' : ''),
    );
  }

  /** Revokes the user's grant for an application (Settings → Applications → Revoke). */
  revokeGrant(login: string, clientId: string): boolean {
    const user = findUser(this.state, login);
    const app = this.state.oauthApps.find((a) => a.clientId === clientId);
    const before = this.state.oauthGrants.length;
    this.state.oauthGrants = this.state.oauthGrants.filter(
      (g) => !(g.userId === user?.id && g.appId === app?.id),
    );
    return this.state.oauthGrants.length < before;
  }

  /** The grant of a user for an application, created or with its scope replaced (as Gitea does on re-authorization). */
  private grantFor(app: OAuthApp, user: User, scope: string): OAuthGrant {
    let grant = this.state.oauthGrants.find((g) => g.appId === app.id && g.userId === user.id);
    if (!grant) {
      grant = {
        id: this.state.nextId(),
        appId: app.id,
        userId: user.id,
        counter: 1,
        scope,
        created: nowIso(this.state),
      };
      this.state.oauthGrants.push(grant);
    } else if (grant.scope !== scope) grant.scope = scope;
    return grant;
  }

  private issueCode(grant: OAuthGrant, redirectUri: string, challenge: string, method: string): string {
    const code = randomBytes(24).toString('base64url');
    this.state.oauthCodes.set(code, {
      code,
      appId: grant.appId,
      userId: grant.userId,
      grantId: grant.id,
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

  /** The user and effective scopes of a valid, unexpired OAuth access token whose grant still exists. */
  accessFor(token: string): { user: User; scopes: string[]; grant: OAuthGrant } | null {
    const c = this.verify(token);
    if (!c || c.tt !== 0 || c.exp <= this.now()) return null;
    const grant = this.state.oauthGrants.find((g) => g.id === c.gnt);
    const user = grant && this.state.users.find((u) => u.id === grant.userId);
    return grant && user ? { user, scopes: grantAccessScopes(grant.scope), grant } : null;
  }

  /** The user an OAuth access token acts for, or null if it is not a valid, unexpired one. */
  userForAccessToken(token: string): User | null {
    return this.accessFor(token)?.user ?? null;
  }

  private tokenResponse(grant: OAuthGrant, kind: 'authorization_code' | 'refresh_token'): Reply {
    const now = this.now();
    if (this.invalidateRefreshTokens) grant.counter += 1;
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
    this.issued[kind] += 1;
    return {
      status: 200,
      json: {
        access_token: access,
        token_type: 'bearer',
        expires_in: this.accessTokenTtlSeconds,
        refresh_token: refresh,
      },
    };
  }

  private error(code: string, description: string, status = 400): Reply {
    return { status, json: { error: code, error_description: description } };
  }

  // ---- the browser side -------------------------------------------------------------------

  private session(req: IncomingMessage): { session: Session; setCookie?: string } {
    const cookie = req.headers.cookie ?? '';
    const m = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([A-Za-z0-9_-]+)`).exec(cookie);
    const existing = m ? this.sessions.get(m[1]!) : undefined;
    if (existing) return { session: existing };
    const session: Session = {
      id: randomBytes(16).toString('base64url'),
      csrf: randomBytes(16).toString('base64url'),
      userId: null,
      pending: null,
    };
    this.sessions.set(session.id, session);
    return { session, setCookie: `${SESSION_COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Lax` };
  }

  private sessionUser(session: Session): User | undefined {
    const user = session.userId === null ? undefined : this.state.users.find((u) => u.id === session.userId);
    return user && user.isActive && !user.prohibitLogin ? user : undefined;
  }

  private html(status: number, body: string, setCookie?: string): Reply {
    return {
      status,
      contentType: 'text/html; charset=utf-8',
      headers: { 'X-Frame-Options': 'SAMEORIGIN', ...(setCookie ? { 'Set-Cookie': setCookie } : {}) },
      raw: Buffer.from(
        `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Gitea</title></head><body>${body}</body></html>`,
      ),
    };
  }

  private redirect(location: string, setCookie?: string, status = 303): Reply {
    return { status, headers: { Location: location, ...(setCookie ? { 'Set-Cookie': setCookie } : {}) } };
  }

  /** GET /user/login: Gitea's sign-in form (signin_inner.tmpl). */
  loginPage(req: IncomingMessage, query: URLSearchParams, flash = ''): Reply {
    const { session, setCookie } = this.session(req);
    const redirectTo = query.get('redirect_to') ?? '';
    const action = `/user/login${redirectTo ? `?redirect_to=${encodeURIComponent(redirectTo)}` : ''}`;
    return this.html(
      200,
      `<div class="ui container"><h4>Sign In</h4>${flash ? `<div class="ui negative message flash-error"><p>${esc(flash)}</p></div>` : ''}` +
        `<form class="ui form" action="${esc(action)}" method="post">` +
        `<input type="hidden" name="_csrf" value="${session.csrf}">` +
        `<div class="required field"><label for="user_name">Username or Email Address</label>` +
        `<input id="user_name" type="text" name="user_name" value="" autofocus required></div>` +
        `<div class="required field"><label for="password">Password</label>` +
        `<input id="password" name="password" type="password" value="" autocomplete="current-password" required></div>` +
        `<div class="inline field"><div class="ui checkbox"><label>Remember This Device</label>` +
        `<input name="remember" type="checkbox"></div></div>` +
        `<div class="field"><button class="ui primary button">Sign In</button></div></form></div>`,
      setCookie,
    );
  }

  /** POST /user/login */
  login(req: IncomingMessage, query: URLSearchParams, form: Record<string, string>): Reply {
    const { session, setCookie } = this.session(req);
    if (form._csrf !== session.csrf) return this.html(400, '<p>Invalid CSRF token.</p>', setCookie);
    const name = form.user_name ?? '';
    const user =
      findUser(this.state, name) ??
      this.state.users.find((u) => u.email.toLowerCase() === name.toLowerCase());
    if (!user || user.isOrg || user.password !== (form.password ?? ''))
      return this.loginPage(req, query, 'Username or password is incorrect.');
    if (user.prohibitLogin)
      return this.html(
        200,
        '<h2>Sign In Prohibited</h2><p>Your account is prohibited from signing in, please contact your site administrator.</p>',
      );
    if (!user.isActive)
      return this.html(200, '<h2>Activate Your Account</h2><p>Your account is not activated yet.</p>');
    session.userId = user.id;
    session.csrf = randomBytes(16).toString('base64url');
    const to = query.get('redirect_to') ?? '';
    // Gitea redirects only within the site.
    const target =
      to.startsWith('/') && !to.startsWith('//') ? `${this.world.baseUrl}${to}` : `${this.world.baseUrl}/`;
    return this.redirect(target, setCookie);
  }

  /** GET /login/oauth/authorize */
  authorize(req: IncomingMessage, query: URLSearchParams): Reply {
    const app = this.state.oauthApps.find((a) => a.clientId === query.get('client_id'));
    const state = query.get('state') ?? '';
    if (!app) return this.html(400, '<p>Client ID not registered</p>');
    const redirectUri = query.get('redirect_uri') ?? '';
    if (!app.redirectUris.includes(redirectUri)) return this.html(400, '<p>Unregistered Redirect URI</p>');
    const fail = (code: string, description: string): Reply => {
      const u = new URL(redirectUri);
      u.searchParams.set('error', code);
      u.searchParams.set('error_description', description);
      u.searchParams.set('state', state);
      return this.redirect(u.toString());
    };
    if (query.get('response_type') !== 'code')
      return fail('unsupported_response_type', 'Only code response type is supported.');
    const challenge = query.get('code_challenge') ?? '';
    const method = query.get('code_challenge_method') ?? '';
    if (method === '' && !app.confidential)
      return fail('invalid_request', 'PKCE is required for public clients');
    if (method !== '' && method !== 'S256' && method !== 'plain')
      return fail('invalid_request', 'unsupported code challenge method');
    const scope = query.get('scope') ?? '';
    const { session, setCookie } = this.session(req);
    const approver =
      basicUser(this.state, req) ??
      (this.autoApproveAs ? findUser(this.state, this.autoApproveAs) : undefined);
    const user = this.sessionUser(session) ?? approver;
    if (!user) {
      const back = `/login/oauth/authorize?${query.toString()}`;
      return this.redirect(
        `${this.world.baseUrl}/user/login?redirect_to=${encodeURIComponent(back)}`,
        setCookie,
      );
    }
    const existing = this.state.oauthGrants.find((g) => g.appId === app.id && g.userId === user.id);
    // Test stand-ins (basic auth, autoApproveAs) approve as if the button had been clicked; so does
    // Gitea for confidential or trusted applications that already hold a grant (scope replaced).
    if (approver || ((app.confidential || app.skipSecondaryAuthorization) && existing)) {
      const grant = this.grantFor(app, user, scope);
      const code = this.issueCode(grant, redirectUri, challenge, method);
      const u = new URL(redirectUri);
      u.searchParams.set('code', code);
      u.searchParams.set('state', state);
      return this.redirect(u.toString(), setCookie);
    }
    session.pending = {
      clientId: app.clientId,
      redirectUri,
      state,
      scope,
      nonce: query.get('nonce') ?? '',
      challenge,
      method,
    };
    const owner = this.state.users.find((u) => u.id === app.userId);
    return this.html(
      200,
      `<div class="ui container"><h3 class="ui top attached header">Authorize "${esc(app.name)}" to access your account?</h3>` +
        `<div class="ui attached segment"><p>This application was created by <a href="/${esc(owner?.login ?? '')}">@${esc(owner?.login ?? '')}</a><br>` +
        `With scopes: <b>${esc(scope)}</b>.</p></div>` +
        `<div class="ui attached segment"><p>You will be redirected to <strong>${esc(redirectUri)}</strong> if you authorize this application.</p></div>` +
        `<div class="ui attached segment"><form method="post" action="/login/oauth/grant">` +
        `<input type="hidden" name="_csrf" value="${session.csrf}">` +
        `<input type="hidden" name="client_id" value="${esc(app.clientId)}">` +
        `<input type="hidden" name="state" value="${esc(state)}">` +
        `<input type="hidden" name="scope" value="${esc(scope)}">` +
        `<input type="hidden" name="nonce" value="${esc(session.pending.nonce)}">` +
        `<input type="hidden" name="redirect_uri" value="${esc(redirectUri)}">` +
        `<button type="submit" id="authorize-app" name="granted" value="true" class="ui red inline button">Authorize Application</button>` +
        `<button type="submit" name="granted" value="false" class="ui basic primary inline button">Cancel</button>` +
        `</form></div></div>`,
      setCookie,
    );
  }

  /** POST /login/oauth/grant */
  grant(req: IncomingMessage, form: Record<string, string>): Reply {
    const { session } = this.session(req);
    const user = this.sessionUser(session);
    if (!user) return this.redirect(`${this.world.baseUrl}/user/login`);
    if (form._csrf !== session.csrf) return this.html(400, '<p>Invalid CSRF token.</p>');
    const pending = session.pending;
    if (
      !pending ||
      pending.clientId !== form.client_id ||
      pending.state !== (form.state ?? '') ||
      pending.redirectUri !== form.redirect_uri
    )
      return { status: 400, contentType: 'text/plain; charset=utf-8', raw: Buffer.from('Bad Request\n') };
    session.pending = null;
    const u = new URL(pending.redirectUri);
    if (form.granted !== 'true') {
      u.searchParams.set('error', 'access_denied');
      u.searchParams.set('error_description', 'the request is denied');
      u.searchParams.set('state', pending.state);
      return this.redirect(u.toString());
    }
    const app = this.state.oauthApps.find((a) => a.clientId === pending.clientId)!;
    const grant = this.grantFor(app, user, form.scope ?? '');
    const code = this.issueCode(grant, pending.redirectUri, pending.challenge, pending.method);
    u.searchParams.set('code', code);
    u.searchParams.set('state', pending.state);
    return this.redirect(u.toString());
  }

  // ---- the token endpoint and friends ------------------------------------------------------

  /** POST /login/oauth/access_token (form or JSON; client credentials in the body or HTTP Basic). */
  accessToken(req: IncomingMessage, form: Record<string, string>): Reply {
    let clientId = form.client_id ?? '';
    let clientSecret = form.client_secret ?? '';
    if (!clientId || !clientSecret) {
      const header = req.headers.authorization ?? '';
      if (header) {
        const basic = parseBasic(header);
        if (!basic) return this.error('invalid_request', 'cannot parse basic auth header');
        if (clientId && clientId !== basic.user)
          return this.error(
            'invalid_request',
            'client_id in request body inconsistent with Authorization header',
          );
        if (clientSecret && clientSecret !== basic.password)
          return this.error(
            'invalid_request',
            'client_secret in request body inconsistent with Authorization header',
          );
        clientId = basic.user;
        clientSecret = basic.password;
      }
    }
    const app = this.state.oauthApps.find((a) => a.clientId === clientId);
    const secretOk = (): boolean =>
      !!app && clientSecret !== '' && sha256(clientSecret) === app.clientSecretHash;
    const secretError = clientSecret === '' ? 'invalid empty client secret' : 'invalid client secret';
    if (form.grant_type === 'refresh_token') {
      if (!app) return this.error('invalid_client', `cannot load client with client id: "${clientId}"`);
      if (app.confidential && !secretOk()) return this.error('invalid_client', secretError);
      const c = this.verify(form.refresh_token ?? '');
      if (!c || c.tt !== 1 || c.exp <= this.now())
        return this.error('unauthorized_client', 'unable to parse refresh token');
      const grant = this.state.oauthGrants.find((g) => g.id === c.gnt);
      if (!grant) return this.error('invalid_grant', 'grant does not exist');
      if (grant.appId !== app.id)
        return this.error('invalid_grant', 'refresh token belongs to a different client');
      if (this.invalidateRefreshTokens && (grant.counter !== c.cnt || !c.cnt))
        return this.error('unauthorized_client', 'token was already used');
      return this.tokenResponse(grant, 'refresh_token');
    }
    if (form.grant_type === 'authorization_code') {
      if (!app) return this.error('invalid_client', `cannot load client with client id: '${clientId}'`);
      if (app.confidential && !secretOk()) return this.error('unauthorized_client', secretError);
      if (form.redirect_uri && !app.redirectUris.includes(form.redirect_uri))
        return this.error('unauthorized_client', 'unexpected redirect URI');
      const code = this.state.oauthCodes.get(form.code ?? '');
      if (!code) return this.error('unauthorized_client', 'client is not authorized');
      if (code.expiresAt <= this.now()) {
        this.state.oauthCodes.delete(code.code);
        return this.error('invalid_grant', 'authorization code expired');
      }
      if (!validateChallenge(code.challenge, code.challengeMethod, form.code_verifier ?? ''))
        return this.error('unauthorized_client', 'failed PKCE code challenge');
      if (code.redirectUri && form.redirect_uri !== code.redirectUri)
        return this.error('invalid_grant', 'redirect_uri differs from the original authorization request');
      const grant = this.state.oauthGrants.find((g) => g.id === code.grantId);
      if (!grant || grant.appId !== app.id) return this.error('invalid_grant', 'invalid grant');
      if (code.used) return this.error('invalid_grant', 'authorization code already used');
      code.used = true;
      this.state.oauthCodes.delete(code.code);
      return this.tokenResponse(grant, 'authorization_code');
    }
    return this.error(
      'unsupported_grant_type',
      'Only refresh_token or authorization_code grant type is supported',
    );
  }

  private bearerAccess(req: IncomingMessage): ReturnType<OAuthProvider['accessFor']> {
    const m = /^(?:bearer|token)\s+(.+)$/i.exec(req.headers.authorization ?? '');
    return m ? this.accessFor(m[1]!.trim()) : null;
  }

  /** GET/POST /login/oauth/userinfo: OAuth tokens only; 1.27 requires read:user. */
  userinfo(req: IncomingMessage): Reply {
    const access = this.bearerAccess(req);
    if (!access || !access.user.isActive || access.user.prohibitLogin) {
      return {
        status: 401,
        headers: { 'WWW-Authenticate': 'Bearer realm="Gitea OAuth2"' },
        contentType: 'text/plain; charset=utf-8',
        raw: Buffer.from('no valid authorization'),
      };
    }
    if (!access.scopes.includes('read:user') && !access.scopes.includes('all'))
      return {
        status: 403,
        contentType: 'text/plain; charset=utf-8',
        raw: Buffer.from('token does not have at least one of required scope(s): [read:user]'),
      };
    const user = access.user;
    const publicOnly = access.scopes.includes('public-only');
    return {
      status: 200,
      json: {
        sub: String(user.id),
        name: user.fullName || user.login,
        preferred_username: user.login,
        email: user.email,
        picture: `${this.world.baseUrl}/avatars/${user.id}`,
        groups: this.state.teams
          .filter((t) => t.members.has(user.id))
          .filter(
            (t) => !publicOnly || this.state.users.find((u) => u.id === t.orgId)!.visibility === 'public',
          )
          .flatMap((t) => {
            const org = this.state.users.find((u) => u.id === t.orgId)!.login;
            return [org, `${org}:${t.name.toLowerCase()}`];
          })
          .filter((g, i, all) => all.indexOf(g) === i),
      },
    };
  }

  /** POST /login/oauth/introspect (RFC 7662): the client authenticates with HTTP Basic. */
  introspect(req: IncomingMessage, form: Record<string, string>): Reply {
    const basic = parseBasic(req.headers.authorization ?? '');
    const app = basic && this.state.oauthApps.find((a) => a.clientId === basic.user);
    if (!basic || !app || sha256(basic.password) !== app.clientSecretHash)
      return {
        status: 401,
        headers: { 'WWW-Authenticate': 'Basic realm="Gitea OAuth2"' },
        contentType: 'text/plain; charset=utf-8',
        raw: Buffer.from('no valid authorization'),
      };
    const c = this.verify(form.token ?? '');
    const grant = c && c.exp > this.now() ? this.state.oauthGrants.find((g) => g.id === c.gnt) : undefined;
    const grantApp = grant && this.state.oauthApps.find((a) => a.id === grant.appId);
    if (!grant || !grantApp) return { status: 200, json: { active: false } };
    const user = this.state.users.find((u) => u.id === grant.userId);
    return {
      status: 200,
      json: {
        active: true,
        scope: grant.scope,
        ...(user ? { username: user.login } : {}),
        iss: `${this.world.baseUrl}/`,
        sub: String(grant.userId),
        aud: [grantApp.clientId],
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
        jwks_uri: `${b}/login/oauth/keys`,
        userinfo_endpoint: `${b}/login/oauth/userinfo`,
        introspection_endpoint: `${b}/login/oauth/introspect`,
        response_types_supported: ['code', 'id_token'],
        id_token_signing_alg_values_supported: ['HS256'],
        subject_types_supported: ['public'],
        scopes_supported: ['openid', 'profile', 'email', 'groups'],
        claims_supported: [
          'aud',
          'exp',
          'iat',
          'iss',
          'sub',
          'name',
          'preferred_username',
          'profile',
          'picture',
          'website',
          'locale',
          'updated_at',
          'email',
          'email_verified',
          'groups',
        ],
        code_challenge_methods_supported: ['plain', 'S256'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
      },
    };
  }

  /** Routes Gitea's web (non-API) paths this provider serves; null for any other path. */
  handleWeb(
    req: IncomingMessage,
    method: string,
    path: string,
    query: URLSearchParams,
    form: () => Record<string, string>,
  ): Reply | null {
    if (path === '/login/oauth/authorize' && method === 'GET') return this.authorize(req, query);
    if (path === '/login/oauth/grant' && method === 'POST') return this.grant(req, form());
    if (path === '/login/oauth/access_token' && method === 'POST') return this.accessToken(req, form());
    if (path === '/login/oauth/userinfo' && (method === 'GET' || method === 'POST'))
      return this.userinfo(req);
    if (path === '/login/oauth/introspect' && method === 'POST') return this.introspect(req, form());
    if (path === '/.well-known/openid-configuration' && method === 'GET') return this.openidConfiguration();
    if (path === '/user/login' && method === 'GET') return this.loginPage(req, query);
    if (path === '/user/login' && method === 'POST') return this.login(req, query, form());
    return null;
  }
}

/** Whether an API request by this user is refused because the account may not sign in (api.go). */
export function signInProhibited(user: User): string | null {
  return user.prohibitLogin || !user.isActive ? PROHIBITED_MESSAGE : null;
}

function validateChallenge(challenge: string, method: string, verifier: string): boolean {
  // models/auth/oauth2.go ValidateCodeChallenge: no challenge stored means no PKCE was used.
  if (!method && !challenge) return true;
  if (method === 'S256') return createHash('sha256').update(verifier).digest('base64url') === challenge;
  if (method === 'plain') return verifier === challenge;
  return !challenge;
}

function parseBasic(header: string): { user: string; password: string } | null {
  if (!/^basic\s/i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return null;
  return { user: decoded.slice(0, i), password: decoded.slice(i + 1) };
}

function esc(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' })[c]!,
  );
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
