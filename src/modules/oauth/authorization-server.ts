// The MCP authorization server (RFC 8414 metadata, /oauth/authorize, consent, the Gitea callback,
// /oauth/token, /oauth/revoke, /oauth/register, the self-service grants page). Framework-free
// apart from the types it is handed: the Nest controller only turns HTTP into these calls and
// the answers (`HttpAnswer`) back into HTTP. See docs/adr/0011-oauth-authorization-server.md.
import { hkdfSync, randomUUID } from 'node:crypto';
import {
  authorizationResponseUrl,
  checkAuthorizeRequest,
  resolveResource,
} from '../../core/oauth/authorize-request';
import {
  cacheSeconds,
  cimdUrlProblem,
  looksLikeCimdClientId,
  validateCimdDocument,
} from '../../core/oauth/cimd';
import { authenticateClient, CLIENT_AUTH_METHODS, presentedCredentials } from '../../core/oauth/client-auth';
import { validateRegistration } from '../../core/oauth/dcr';
import {
  GiteaAuthRequiredError,
  type GiteaGrantStore,
  type GiteaSignIn,
  type McpGrantRevoker,
} from '../../core/oauth/gitea-seam';
import { verifyPkce } from '../../core/oauth/pkce';
import { redirectHosts } from '../../core/oauth/redirect-uri';
import {
  canWrite,
  giteaScopesFor,
  normaliseScopes,
  parseScope,
  scopesCover,
  SUPPORTED_SCOPES,
} from '../../core/oauth/scopes';
import { hostCookie, parseCookies, signValue, verifySignedValue } from '../../core/oauth/signed-value';
import { hashToken, newToken, randomId } from '../../core/oauth/tokens';
import { WindowLimiter } from '../../core/oauth/window-limiter';
import type { AuditSink } from '../../core/ports';
import type { CimdFetcher } from '../../infra/oauth/cimd-fetcher';
import type { ClientRow, OAuthStore } from '../../infra/oauth/oauth-store';
import { consentPage, errorPage, grantsPage, pageHeaders } from './pages';

export type HttpAnswer = { status: number; headers: Record<string, string | string[]>; body: string };

export type AuthorizationServerOptions = {
  issuer: string;
  resource: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  dcrEnabled: boolean;
  dcrPerHour: number;
  cimdAllowHttpOrigins: string[];
  cimdCacheMaxSeconds: number;
  /** ENCRYPTION_KEY: the cookie-signing key is derived from it. */
  secret: string;
  store: OAuthStore;
  fetcher: CimdFetcher;
  signIn: GiteaSignIn;
  grants: GiteaGrantStore;
  /** Where scope elevations are recorded (AUDIT_SINK); none in tests that do not look. */
  audit?: AuditSink | null;
  now?: () => number;
  warn?: (message: string) => void;
};

/** `tool` and `kind` of the audit event of a scope elevation (checklist B12). */
export const ELEVATION_TOOL = 'oauth.elevate';
export const ELEVATION_KIND = 'scope_elevated';
/** How long after a step-up refusal an elevated grant still names it as its correlation id. */
const STEP_UP_WINDOW_MS = 10 * 60_000;

const INTERACTION_SECONDS = 600;
const CODE_SECONDS = 60;
const SESSION_SECONDS = 12 * 3600;
const COOKIE_INTERACTION = 'aegis-interaction';
const COOKIE_SESSION = 'aegis-session';

type Session = {
  personId: string;
  login: string;
  giteaGrantId: string;
  isSiteAdmin: boolean;
  scope: string;
  exp: number;
};

const json = (status: number, body: unknown, extra: Record<string, string> = {}): HttpAnswer => ({
  status,
  headers: { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache', ...extra },
  body: JSON.stringify(body),
});
const oauthError = (status: number, error: string, description: string): HttpAnswer =>
  json(status, { error, error_description: description });
const page = (status: number, html: string, cookies: string[] = []): HttpAnswer => ({
  status,
  headers: { ...pageHeaders(), ...(cookies.length ? { 'set-cookie': cookies } : {}) },
  body: html,
});
const redirect = (location: string, cookies: string[] = []): HttpAnswer => ({
  status: 302,
  headers: { location, 'cache-control': 'no-store', ...(cookies.length ? { 'set-cookie': cookies } : {}) },
  body: '',
});

export class AuthorizationServer implements McpGrantRevoker {
  private readonly key: Buffer;
  private readonly now: () => number;
  private readonly dcrLimiter: WindowLimiter;

  constructor(private readonly o: AuthorizationServerOptions) {
    this.key = Buffer.from(hkdfSync('sha256', o.secret, 'aegis-oauth', 'cookie-signing', 32));
    this.now = o.now ?? Date.now;
    // Per remote address and, as a ceiling against many addresses, for the whole server (x10).
    this.dcrLimiter = new WindowLimiter(o.dcrPerHour, o.dcrPerHour * 10, 3_600_000, this.now);
  }

  get callbackUrl(): string {
    return `${this.o.issuer}/oauth/gitea/callback`;
  }

  // --- metadata
  authorizationServerMetadata(): HttpAnswer {
    const i = this.o.issuer;
    return json(
      200,
      {
        issuer: i,
        authorization_endpoint: `${i}/oauth/authorize`,
        token_endpoint: `${i}/oauth/token`,
        revocation_endpoint: `${i}/oauth/revoke`,
        ...(this.o.dcrEnabled ? { registration_endpoint: `${i}/oauth/register` } : {}),
        scopes_supported: [...SUPPORTED_SCOPES],
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
        revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
        client_id_metadata_document_supported: true,
        service_documentation: `${i}/oauth/grants`,
      },
      { 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' },
    );
  }

  protectedResourceMetadata(): HttpAnswer {
    return json(
      200,
      {
        resource: this.o.resource,
        authorization_servers: [this.o.issuer],
        scopes_supported: [...SUPPORTED_SCOPES],
        bearer_methods_supported: ['header'],
        resource_name: 'AegisGitea-MCP',
      },
      { 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' },
    );
  }

  // --- clients
  /** The client for a client_id: a fresh or cached metadata document, or a registration. */
  private async resolveClient(
    clientId: string,
  ): Promise<{ client: ClientRow | null; problem: string | null }> {
    if (looksLikeCimdClientId(clientId)) {
      const problem = cimdUrlProblem(clientId, this.o.cimdAllowHttpOrigins);
      if (problem) return { client: null, problem };
      const cached = await this.o.store.client(clientId);
      if (cached?.revokedAt) return { client: null, problem: 'this client has been revoked' };
      if (cached && cached.expiresAt && cached.expiresAt.getTime() > this.now())
        return { client: cached, problem: null };
      const fetched = await this.o.fetcher.fetch(clientId);
      if (!fetched.ok) return { client: null, problem: fetched.message };
      const valid = validateCimdDocument(fetched.document, clientId);
      if (!valid.ok) return { client: null, problem: valid.message };
      const seconds = cacheSeconds(fetched.cacheControl, this.o.cimdCacheMaxSeconds);
      const saved = await this.o.store.saveCimdClient({
        id: clientId,
        name: valid.client.clientName,
        redirectUris: valid.client.redirectUris,
        clientUri: valid.client.clientUri,
        expiresAt: new Date(this.now() + seconds * 1000),
      });
      return { client: saved, problem: null };
    }
    const client = await this.o.store.client(clientId);
    if (!client || client.kind !== 'dcr') return { client: null, problem: 'unknown client_id' };
    if (client.revokedAt) return { client: null, problem: 'this client has been revoked' };
    return { client, problem: null };
  }

  async register(body: unknown, remote: string): Promise<HttpAnswer> {
    if (!this.o.dcrEnabled)
      return oauthError(404, 'not_found', 'dynamic client registration is switched off');
    const verdict = this.dcrLimiter.take(remote);
    if (!verdict.allowed)
      return json(
        429,
        { error: 'too_many_requests', error_description: 'too many client registrations; try later' },
        {
          'retry-after': String(verdict.retryAfterSeconds),
        },
      );
    const check = validateRegistration(body);
    if (!check.ok) return oauthError(400, check.error, check.message);
    const id = `dcr_${randomId()}`;
    const r = check.registration;
    // A confidential client gets its secret in this answer only; the server keeps its hash.
    const secret = r.tokenEndpointAuthMethod === 'none' ? null : newToken('client_secret');
    await this.o.store.createDcrClient({
      id,
      name: r.clientName,
      redirectUris: r.redirectUris,
      applicationType: r.applicationType,
      tokenEndpointAuthMethod: r.tokenEndpointAuthMethod,
      secretHash: secret ? hashToken(secret) : null,
    });
    return json(201, {
      client_id: id,
      client_id_issued_at: Math.floor(this.now() / 1000),
      ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
      client_name: r.clientName,
      redirect_uris: r.redirectUris,
      application_type: r.applicationType,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: r.tokenEndpointAuthMethod,
    });
  }

  /**
   * The client of a token or revocation request, authenticated as it registered: public clients
   * by client_id alone, confidential ones by their secret (Basic or form). Failures are RFC 6749
   * 5.2 `invalid_client`, 401, with a Basic challenge.
   */
  private async requestingClient(
    form: URLSearchParams,
    authorization: string | undefined,
  ): Promise<{ ok: true; clientId: string; authenticated: boolean } | { ok: false; answer: HttpAnswer }> {
    const presented = presentedCredentials(authorization, form);
    const clientId = presented.basic?.clientId ?? presented.formClientId;
    const client = clientId && !looksLikeCimdClientId(clientId) ? await this.o.store.client(clientId) : null;
    const verdict = authenticateClient(
      presented,
      client
        ? {
            method: client.tokenEndpointAuthMethod,
            secretHash: client.secretHash,
            revoked: client.revokedAt !== null,
          }
        : null,
    );
    if (verdict.ok) return verdict;
    const answer = oauthError(verdict.status, verdict.error, verdict.message);
    if (verdict.status === 401) answer.headers['www-authenticate'] = 'Basic realm="oauth", charset="UTF-8"';
    return { ok: false, answer };
  }

  // --- authorization
  async authorize(
    query: Record<string, string | undefined>,
    cookieHeader: string | undefined,
  ): Promise<HttpAnswer> {
    const clientId = query.client_id ?? '';
    const resolved = clientId
      ? await this.resolveClient(clientId)
      : { client: null, problem: 'client_id is required' };
    const check = checkAuthorizeRequest(query, resolved.client, this.o.resource);
    if (!check.ok && !check.redirect)
      return page(400, errorPage('Authorization request refused', resolved.problem ?? check.message));
    if (!check.ok && check.redirect)
      return redirect(
        authorizationResponseUrl(check.redirectUri, this.o.issuer, {
          error: check.error,
          error_description: check.description,
          state: check.state,
        }),
      );
    if (!check.ok) throw new Error('unreachable');
    const request = check.request;
    const client = resolved.client as ClientRow;
    const scope = request.scopes.join(' ');

    // A person signed in here before, who consented to this client and scope: no page again.
    const session = this.session(cookieHeader);
    if (session && scopesCover(session.scope.split(' '), request.scopes)) {
      const remembered = await this.o.store.consent(session.personId, client.id);
      if (
        remembered &&
        scopesCover(remembered.split(' '), request.scopes) &&
        (await this.giteaAlive(session.giteaGrantId))
      ) {
        const code = await this.issueCode(session, client.id, request);
        return redirect(
          authorizationResponseUrl(request.redirectUri, this.o.issuer, { code, state: request.state }),
        );
      }
    }

    const id = randomId();
    const csrf = randomId(24);
    await this.o.store.createInteraction({
      id,
      clientId: client.id,
      redirectUri: request.redirectUri,
      clientState: request.state,
      codeChallenge: request.codeChallenge,
      scope,
      resource: request.resource,
      csrfHash: hashToken(csrf),
      expiresAt: new Date(this.now() + INTERACTION_SECONDS * 1000),
    });
    const hosts = redirectHosts(client.redirectUris);
    const redirectHost = new URL(request.redirectUri).host;
    return page(
      200,
      consentPage({
        clientName: client.name,
        clientId: client.id,
        redirectHost,
        loopbackOnly: hosts.loopbackOnly,
        write: canWrite(request.scopes),
        interactionId: id,
        csrf,
        signedInAs: session?.login ?? null,
      }),
      [hostCookie(COOKIE_INTERACTION, signValue(id, this.key), INTERACTION_SECONDS)],
    );
  }

  /** POST /oauth/consent: Allow or Deny, with the CSRF token and the interaction cookie of this browser. */
  async consent(form: URLSearchParams, cookieHeader: string | undefined): Promise<HttpAnswer> {
    const id = form.get('interaction') ?? '';
    const cookieId = verifySignedValue(
      parseCookies(cookieHeader).get(`__Host-${COOKIE_INTERACTION}`),
      this.key,
    );
    const csrf = form.get('csrf') ?? '';
    if (!id || cookieId !== id || !csrf)
      return page(
        403,
        errorPage(
          'Request refused',
          'The form is missing its CSRF token or does not belong to this browser. Start again from your MCP client.',
        ),
      );
    const interaction = await this.o.store.interaction(id);
    if (!interaction || interaction.csrfHash !== hashToken(csrf))
      return page(
        403,
        errorPage('Request refused', 'The CSRF token is not valid. Start again from your MCP client.'),
      );
    if (interaction.consumedAt || interaction.stateHash || interaction.expiresAt.getTime() <= this.now())
      return page(
        400,
        errorPage(
          'Request expired',
          'This authorization request was already used or has expired. Start again from your MCP client.',
        ),
      );
    const decision = form.get('decision');
    if (decision !== 'allow') {
      await this.o.store.consumeInteraction(id, new Date(this.now()));
      return redirect(
        authorizationResponseUrl(interaction.redirectUri, this.o.issuer, {
          error: 'access_denied',
          error_description: 'the person denied the request',
          state: interaction.clientState,
        }),
      );
    }
    const scopes = interaction.scope.split(' ');
    const session = this.session(cookieHeader);
    if (
      session &&
      scopesCover(session.scope.split(' '), scopes) &&
      (await this.giteaAlive(session.giteaGrantId))
    ) {
      if (!(await this.o.store.consumeInteraction(id, new Date(this.now()))))
        return page(400, errorPage('Request expired', 'This authorization request was already used.'));
      await this.o.store.saveConsent(session.personId, interaction.clientId, interaction.scope);
      const code = await this.issueCode(session, interaction.clientId, {
        redirectUri: interaction.redirectUri,
        codeChallenge: interaction.codeChallenge,
        scopes,
        resource: interaction.resource,
      });
      return redirect(
        authorizationResponseUrl(interaction.redirectUri, this.o.issuer, {
          code,
          state: interaction.clientState,
        }),
      );
    }
    // Consent given: only now is the Gitea `state` created, just before the redirect to Gitea.
    const state = randomId(32);
    if (
      !(await this.o.store.setState(id, hashToken(state), new Date(this.now() + INTERACTION_SECONDS * 1000)))
    )
      return page(400, errorPage('Request expired', 'This authorization request was already used.'));
    const { url } = await this.o.signIn.start({
      state,
      scopes: giteaScopesFor(scopes),
      redirectUri: this.callbackUrl,
    });
    return redirect(url);
  }

  /** GET /oauth/gitea/callback: the person is back from Gitea. */
  async giteaCallback(
    query: Record<string, string | undefined>,
    cookieHeader: string | undefined,
  ): Promise<HttpAnswer> {
    const state = query.state ?? '';
    if (!state) return page(400, errorPage('Sign-in failed', 'The answer from Gitea has no state.'));
    const interaction = await this.o.store.takeByState(hashToken(state), new Date(this.now()));
    if (!interaction)
      return page(
        400,
        errorPage(
          'Sign-in failed',
          'This sign-in was already completed, has expired (10 minutes) or was not started here. Start again.',
        ),
      );
    const cookieId = verifySignedValue(
      parseCookies(cookieHeader).get(`__Host-${COOKIE_INTERACTION}`),
      this.key,
    );
    if (cookieId !== interaction.id)
      return page(403, errorPage('Sign-in failed', 'This sign-in was started in another browser.'));
    const signInOnly = interaction.clientId === '';
    if (query.error || !query.code) {
      if (signInOnly)
        return page(403, errorPage('Sign-in cancelled', 'Gitea did not authorize the sign-in.'));
      return redirect(
        authorizationResponseUrl(interaction.redirectUri, this.o.issuer, {
          error: 'access_denied',
          error_description: 'the sign-in at Gitea was cancelled',
          state: interaction.clientState,
        }),
      );
    }
    let person;
    try {
      person = await this.o.signIn.finish({ state, code: query.code, redirectUri: this.callbackUrl });
    } catch (error) {
      this.o.warn?.(`gitea sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
      return page(502, errorPage('Sign-in failed', 'Gitea did not complete the sign-in. Start again.'));
    }
    const session: Session = {
      personId: person.personId,
      login: person.login,
      giteaGrantId: person.giteaGrantId,
      isSiteAdmin: person.isSiteAdmin,
      scope: interaction.scope,
      exp: Math.floor(this.now() / 1000) + SESSION_SECONDS,
    };
    const cookies = [
      hostCookie(
        COOKIE_SESSION,
        signValue(Buffer.from(JSON.stringify(session)).toString('base64url'), this.key),
        SESSION_SECONDS,
      ),
      hostCookie(COOKIE_INTERACTION, '', 0),
    ];
    if (signInOnly) return redirect('/oauth/grants', cookies);
    await this.o.store.saveConsent(person.personId, interaction.clientId, interaction.scope);
    const code = await this.issueCode(session, interaction.clientId, {
      redirectUri: interaction.redirectUri,
      codeChallenge: interaction.codeChallenge,
      scopes: interaction.scope.split(' '),
      resource: interaction.resource,
    });
    return redirect(
      authorizationResponseUrl(interaction.redirectUri, this.o.issuer, {
        code,
        state: interaction.clientState,
      }),
      cookies,
    );
  }

  private async giteaAlive(giteaGrantId: string): Promise<boolean> {
    try {
      await this.o.grants.accessToken(giteaGrantId);
      return true;
    } catch (error) {
      if (error instanceof GiteaAuthRequiredError) return false;
      throw error;
    }
  }

  private session(cookieHeader: string | undefined): Session | null {
    const payload = verifySignedValue(parseCookies(cookieHeader).get(`__Host-${COOKIE_SESSION}`), this.key);
    if (!payload) return null;
    try {
      const s = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Session;
      return s.exp * 1000 > this.now() ? s : null;
    } catch {
      return null;
    }
  }

  /** A new grant (the token family) and its authorization code, bound to the redirect URI, PKCE challenge and resource. */
  private async issueCode(
    session: Session,
    clientId: string,
    request: { redirectUri: string; codeChallenge: string; scopes: string[]; resource: string },
  ): Promise<string> {
    const grantId = randomId();
    const scope = normaliseScopes(request.scopes).join(' ');
    const previous = await this.o.store.latestGrantOf(session.personId, clientId);
    await this.o.store.createGrant({
      id: grantId,
      personId: session.personId,
      login: session.login,
      giteaGrantId: session.giteaGrantId,
      clientId,
      scope,
      resource: request.resource,
      redirectUri: request.redirectUri,
    });
    const code = newToken('code');
    await this.o.store.insertToken({
      hash: hashToken(code),
      kind: 'code',
      grantId,
      scope,
      resource: request.resource,
      codeChallenge: request.codeChallenge,
      redirectUri: request.redirectUri,
      expiresAt: new Date(this.now() + CODE_SECONDS * 1000),
    });
    const before = previous?.scope.split(' ').filter(Boolean) ?? [];
    const after = scope.split(' ');
    if (previous && !scopesCover(before, after))
      await this.recordElevation(session, clientId, {
        from: previous.scope,
        to: scope,
        grantId,
        previousGrantId: previous.id,
      });
    return code;
  }

  /**
   * A person granted a client more than its previous grant had: its own audit event (not a tool
   * call, so "one record per tool call" stays true), naming the step-up refusal that led to it
   * when there was one in the last ten minutes (the refusal record's eventId: the correlation id).
   */
  private async recordElevation(
    session: Session,
    clientId: string,
    change: { from: string; to: string; grantId: string; previousGrantId: string },
  ): Promise<void> {
    if (!this.o.audit) return;
    try {
      const refusalEventId = await this.o.store.takeStepUp(
        session.personId,
        clientId,
        new Date(this.now() - STEP_UP_WINDOW_MS),
      );
      const client = await this.o.store.client(clientId);
      this.o.audit.record({
        eventId: randomUUID(),
        time: new Date(this.now()),
        login: session.login,
        mode: 'oauth',
        sudo: null,
        clientName: client?.name ?? null,
        clientVersion: null,
        tool: ELEVATION_TOOL,
        operationId: null,
        org: null,
        repo: null,
        method: null,
        path: null,
        status: 200,
        kind: ELEVATION_KIND,
        durationMs: 0,
        resultBytes: 0,
        redactions: 0,
        masks: 0,
        blocked: false,
        arguments: {
          client_id: clientId,
          from_scope: change.from,
          to_scope: change.to,
          grant_id: change.grantId,
          previous_grant_id: change.previousGrantId,
          refusal_event_id: refusalEventId,
        },
      });
    } catch (error) {
      this.o.warn?.(
        `could not audit a scope elevation: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  // --- token endpoint
  async token(form: URLSearchParams, authorization?: string): Promise<HttpAnswer> {
    // A malformed request is 400 invalid_request (RFC 6749 5.2): a parameter given twice, no grant_type.
    const repeated = [...new Set(form.keys())].find((key) => form.getAll(key).length > 1);
    if (repeated !== undefined)
      return oauthError(400, 'invalid_request', `${repeated.slice(0, 40)} is given more than once`);
    const grantType = form.get('grant_type');
    if (!grantType) return oauthError(400, 'invalid_request', 'grant_type is required');
    const requester = await this.requestingClient(form, authorization);
    if (!requester.ok) return requester.answer;
    const clientId = requester.clientId;
    if (grantType === 'authorization_code') return this.redeemCode(form, clientId);
    if (grantType === 'refresh_token') return this.refresh(form, clientId);
    return oauthError(
      400,
      'unsupported_grant_type',
      'grant_type must be authorization_code or refresh_token',
    );
  }

  private async redeemCode(form: URLSearchParams, clientId: string): Promise<HttpAnswer> {
    const code = form.get('code') ?? '';
    if (!code) return oauthError(400, 'invalid_request', 'code is required');
    const row = code ? await this.o.store.token(hashToken(code)) : null;
    if (!row || row.kind !== 'code')
      return oauthError(400, 'invalid_grant', 'the authorization code is not valid');
    const grant = await this.o.store.grant(row.grantId);
    if (!grant || grant.revokedAt || row.revokedAt)
      return oauthError(400, 'invalid_grant', 'the authorization code was revoked');
    if (!(await this.o.store.markUsed(row.hash, new Date(this.now())))) {
      // A code used twice: someone else may hold it, so everything it produced is revoked (RFC 6749 4.1.2).
      await this.o.store.revokeGrants({ id: grant.id }, 'authorization code reused');
      return oauthError(400, 'invalid_grant', 'the authorization code was already used');
    }
    if (row.expiresAt.getTime() <= this.now())
      return oauthError(400, 'invalid_grant', 'the authorization code has expired');
    if (grant.clientId !== clientId)
      return oauthError(400, 'invalid_grant', 'the code was issued to another client');
    if (form.get('redirect_uri') !== row.redirectUri)
      return oauthError(400, 'invalid_grant', 'redirect_uri differs from the authorization request');
    if (!verifyPkce(form.get('code_verifier'), row.codeChallenge ?? ''))
      return oauthError(400, 'invalid_grant', 'code_verifier does not match the code_challenge (PKCE S256)');
    const resource = form.get('resource');
    if (resource !== null && resolveResource(resource, this.o.resource) !== row.resource)
      return oauthError(400, 'invalid_target', `resource must be ${row.resource}`);
    return this.issueTokens(grant.id, row.scope, row.resource);
  }

  private async refresh(form: URLSearchParams, clientId: string): Promise<HttpAnswer> {
    const presented = form.get('refresh_token') ?? '';
    if (!presented) return oauthError(400, 'invalid_request', 'refresh_token is required');
    const row = presented ? await this.o.store.token(hashToken(presented)) : null;
    if (!row || row.kind !== 'refresh')
      return oauthError(400, 'invalid_grant', 'the refresh token is not valid');
    const grant = await this.o.store.grant(row.grantId);
    if (!grant || grant.revokedAt || row.revokedAt)
      return oauthError(400, 'invalid_grant', 'the refresh token was revoked');
    if (grant.clientId !== clientId)
      return oauthError(400, 'invalid_grant', 'the refresh token belongs to another client');
    if (!(await this.o.store.markUsed(row.hash, new Date(this.now())))) {
      // Reuse of a rotated refresh token: the family is compromised, revoke all of it.
      await this.o.store.revokeGrants({ id: grant.id }, 'refresh token reused');
      return oauthError(
        400,
        'invalid_grant',
        'the refresh token was already used; the grant has been revoked',
      );
    }
    if (row.expiresAt.getTime() <= this.now())
      return oauthError(400, 'invalid_grant', 'the refresh token has expired');
    let scope = row.scope;
    const asked = form.get('scope');
    if (asked) {
      const parsed = parseScope(asked);
      if (!parsed.ok || !scopesCover(row.scope.split(' '), parsed.scopes))
        return oauthError(400, 'invalid_scope', 'a refresh can only keep or narrow the granted scope');
      scope = parsed.scopes.join(' ');
    }
    const resource = form.get('resource');
    if (resource !== null && resolveResource(resource, this.o.resource) !== row.resource)
      return oauthError(400, 'invalid_target', `resource must be ${row.resource}`);
    return this.issueTokens(grant.id, scope, row.resource);
  }

  private async issueTokens(grantId: string, scope: string, resource: string): Promise<HttpAnswer> {
    const access = newToken('access');
    const refresh = newToken('refresh');
    const now = this.now();
    await this.o.store.insertToken({
      hash: hashToken(access),
      kind: 'access',
      grantId,
      scope,
      resource,
      codeChallenge: null,
      redirectUri: null,
      expiresAt: new Date(now + this.o.accessTokenTtlSeconds * 1000),
    });
    await this.o.store.insertToken({
      hash: hashToken(refresh),
      kind: 'refresh',
      grantId,
      scope,
      resource,
      codeChallenge: null,
      redirectUri: null,
      expiresAt: new Date(now + this.o.refreshTokenTtlSeconds * 1000),
    });
    return json(200, {
      access_token: access,
      token_type: 'Bearer',
      expires_in: this.o.accessTokenTtlSeconds,
      refresh_token: refresh,
      scope,
    });
  }

  /** RFC 7009: always 200 for a well-formed request; a refresh token takes its whole grant with it. */
  async revoke(form: URLSearchParams, authorization?: string): Promise<HttpAnswer> {
    const token = form.get('token');
    if (!token) return oauthError(400, 'invalid_request', 'token is required');
    // Credentials presented must be right (401 otherwise); a public client may also send none.
    const presented = presentedCredentials(authorization, form);
    const anonymous =
      !presented.basic &&
      !presented.basicMalformed &&
      presented.formClientId === null &&
      presented.formSecret === null;
    const requester = anonymous ? null : await this.requestingClient(form, authorization);
    if (requester && !requester.ok) return requester.answer;
    const clientId = requester?.clientId ?? null;
    const row = await this.o.store.token(hashToken(token));
    if (row && row.kind !== 'code') {
      const grant = await this.o.store.grant(row.grantId);
      const owner = grant ? await this.o.store.client(grant.clientId) : null;
      // A confidential client's tokens are revoked only by that client, authenticated (RFC 7009 2.1).
      const mayRevoke =
        owner && owner.tokenEndpointAuthMethod !== 'none'
          ? requester?.authenticated === true && clientId === owner.id
          : !clientId || grant?.clientId === clientId;
      // Only the client the token was issued to may revoke it; others get the same 200 and no effect.
      if (grant && mayRevoke) {
        if (row.kind === 'refresh')
          await this.o.store.revokeGrants({ id: grant.id }, 'revoked by the client');
        else await this.o.store.revokeToken(row.hash, 'revoked by the client');
      }
    }
    return { status: 200, headers: { 'cache-control': 'no-store' }, body: '' };
  }

  // --- self-service and admin
  async grantsList(
    query: Record<string, string | undefined>,
    cookieHeader: string | undefined,
  ): Promise<HttpAnswer> {
    const session = this.session(cookieHeader);
    if (!session) return this.startSignIn();
    const all = query.all === '1' && session.isSiteAdmin;
    const grants = await this.o.store.grantsOf(all ? null : session.personId);
    return page(
      200,
      grantsPage({
        login: session.login,
        grants,
        csrf: this.sessionCsrf(session),
        all,
        isSiteAdmin: session.isSiteAdmin,
      }),
    );
  }

  async grantsRevoke(form: URLSearchParams, cookieHeader: string | undefined): Promise<HttpAnswer> {
    const session = this.session(cookieHeader);
    if (!session) return page(401, errorPage('Not signed in', 'Sign in again to manage your grants.'));
    if (form.get('csrf') !== this.sessionCsrf(session))
      return page(403, errorPage('Request refused', 'The form is missing its CSRF token.'));
    const target = form.get('grant') ?? '';
    if (target === '*') {
      await this.o.store.revokeGrants({ personId: session.personId }, 'revoked by the person');
    } else {
      const grant = await this.o.store.grant(target);
      if (!grant || (grant.personId !== session.personId && !session.isSiteAdmin))
        return page(404, errorPage('Not found', 'No such grant.'));
      const reason =
        grant.personId === session.personId
          ? 'revoked by the person'
          : `revoked by site admin ${session.login}`;
      await this.o.store.revokeGrants({ id: grant.id }, reason);
    }
    return redirect('/oauth/grants');
  }

  private sessionCsrf(session: Session): string {
    return signValue(`csrf:${session.personId}:${session.exp}`, this.key).split('.').pop() as string;
  }

  /** A sign-in without a client (the grants page): straight to Gitea with a fresh state. */
  private async startSignIn(): Promise<HttpAnswer> {
    const id = randomId();
    const state = randomId(32);
    await this.o.store.createInteraction({
      id,
      clientId: '',
      redirectUri: '/oauth/grants',
      clientState: null,
      codeChallenge: '',
      scope: 'gitea:read',
      resource: this.o.resource,
      csrfHash: hashToken(randomId()),
      expiresAt: new Date(this.now() + INTERACTION_SECONDS * 1000),
    });
    await this.o.store.setState(id, hashToken(state), new Date(this.now() + INTERACTION_SECONDS * 1000));
    const { url } = await this.o.signIn.start({
      state,
      scopes: giteaScopesFor(['gitea:read']),
      redirectUri: this.callbackUrl,
    });
    return redirect(url, [hostCookie(COOKIE_INTERACTION, signValue(id, this.key), INTERACTION_SECONDS)]);
  }

  // --- McpGrantRevoker (lifecycle reconciliation on the Gitea side)
  revokePerson(personId: string, reason: string): Promise<number> {
    return this.o.store.revokeGrants({ personId }, reason);
  }

  revokeGiteaGrant(giteaGrantId: string, reason: string): Promise<number> {
    return this.o.store.revokeGrants({ giteaGrantId }, reason);
  }
}
