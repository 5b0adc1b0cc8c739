// Sign-in through Gitea with passport-oauth2: the service's one Gitea OAuth2 application
// (GITEA_OAUTH_CLIENT_ID/_SECRET), PKCE S256, explicit granular scopes for the access asked for,
// a single-use state kept in the database and bound to the browser by a cookie. The outcome is
// the signed-in person (Gitea user id, login, site-admin flag) with their Gitea tokens stored
// encrypted. Callers (the MCP authorization server, later the console) start a sign-in with a
// `purpose` and get the person back in the handler they registered for that purpose.
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { Passport } from 'passport';
import { Strategy as OAuth2Strategy, type VerifyCallback } from 'passport-oauth2';
import type { GiteaAccount, GiteaGrantService } from '../../core/gitea-oauth/grant-service';
import { giteaScopesFor, type GiteaAccess } from '../../core/gitea-oauth/gitea-scopes';
import type { GiteaOAuthEndpoint } from '../../core/gitea-oauth/grant-service';
import type { GiteaSignIn, SignedInPerson as SeamPerson } from '../../core/oauth/gitea-seam';
import {
  EXTERNAL_BINDING,
  SIGN_IN_STATE_TTL_MS,
  sha256Hex,
  type PendingSignIn,
  type PrismaSignInStateStore,
} from '../../infra/gitea-oauth/sign-in-state.store';

export type SignedInPerson = {
  personId: string;
  giteaUserId: number;
  login: string;
  isSiteAdmin: boolean;
  giteaGrantId: string;
  access: GiteaAccess;
};

// Internal: the person held write before and this sign-in asked only for read.
type Verified = SignedInPerson & { narrowed?: boolean };
const WIDENED = '__aegis_widened';
const SCOPES_KEY = '__aegis_scopes';
const EXTERNAL_PURPOSE = '__external';

/** The seam's result, with what the Gitea grant now allows. */
export type GiteaSignInSeam = {
  start: GiteaSignIn['start'];
  finish(
    input: Parameters<GiteaSignIn['finish']>[0],
  ): Promise<SeamPerson & { access: GiteaAccess; narrowedFrom?: 'write' }>;
};

export type SignInStart = {
  /** Names the handler that receives the person (see onSignedIn). */
  purpose: string;
  access: GiteaAccess;
  /** Small opaque strings handed back to the handler (e.g. a pending authorization id). */
  context?: Record<string, string>;
};

export type SignedInHandler = (
  person: SignedInPerson,
  context: Record<string, string>,
  req: Request,
  res: Response,
) => Promise<void> | void;

export type GiteaSignInOptions = {
  giteaUrl: string;
  publicUrl: string;
  clientId: string;
  clientSecret: string;
  includeAdminScopes: boolean;
  grants: GiteaGrantService;
  /** With exchangeCode (the one Gitea HTTP client), passport's code exchange goes through it too. */
  endpoint: GiteaOAuthEndpoint & {
    exchangeCode?(code: string, params: Record<string, string>): Promise<{ status: number; text: string }>;
  };
  states: PrismaSignInStateStore;
};

export const CALLBACK_PATH = '/auth/gitea/callback';
export const CONNECT_PATH = '/auth/gitea/connect';
const STRATEGY = 'gitea';
const MAX_CONTEXT_BYTES = 2048;

export class SignInRefused extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'SignInRefused';
  }
}

type ReqWithBinding = Request & { signInBrowserHash?: string | null };

export class GiteaBrowserSignIn {
  private readonly passport = new Passport();
  private readonly strategy: OAuth2Strategy;
  private readonly handlers = new Map<string, SignedInHandler>();
  private readonly cookieName: string;
  private readonly secureCookie: boolean;

  constructor(private readonly options: GiteaSignInOptions) {
    this.secureCookie = options.publicUrl.startsWith('https:');
    // __Host- needs Secure, which browsers only keep for https origins.
    this.cookieName = this.secureCookie ? '__Host-aegis-gitea-signin' : 'aegis-gitea-signin';
    const base = options.giteaUrl.replace(/\/+$/, '');
    const strategy = new OAuth2Strategy(
      {
        authorizationURL: `${base}/login/oauth/authorize`,
        tokenURL: `${base}/login/oauth/access_token`,
        clientID: options.clientId,
        clientSecret: options.clientSecret,
        callbackURL: `${options.publicUrl.replace(/\/+$/, '')}${CALLBACK_PATH}`,
        pkce: true, // S256 (passport-oauth2: true means S256)
        state: true,
        store: options.states as never,
        passReqToCallback: true,
      },
      (
        req: Request,
        accessToken: string,
        refreshToken: string,
        params: { expires_in?: unknown },
        profile: GiteaAccount,
        done: VerifyCallback,
      ) => {
        this.verified(req, accessToken, refreshToken, params, profile).then(
          (person) => done(null, person),
          (error: Error) => done(error),
        );
      },
    );
    // The profile comes from GET /api/v1/user with the new token as Bearer (userinfo lacks is_admin).
    strategy.userProfile = (accessToken: string, done: (err?: Error | null, profile?: unknown) => void) => {
      options.endpoint.currentUser(accessToken).then(
        (answer) =>
          answer.ok ? done(null, answer.account) : done(new Error(`Gitea /user answered: ${answer.message}`)),
        (error: Error) => done(error),
      );
    };
    const exchange = options.endpoint.exchangeCode?.bind(options.endpoint);
    if (exchange) useForCodeExchange(strategy, exchange);
    this.passport.use(STRATEGY, strategy);
    this.strategy = strategy;
  }

  /**
   * The same sign-in for a caller that owns the state and the browser (the MCP authorization
   * server): start() returns Gitea's authorize URL for the caller's state, finish() exchanges
   * the code. The PKCE verifier is stored here, keyed by the caller's state (hashed).
   */
  seam(): GiteaSignInSeam {
    return {
      start: async ({ state, scopes, redirectUri }) => {
        if (!/^[A-Za-z0-9_-]{16,128}$/.test(state))
          throw new Error('state must be 16-128 URL-safe characters');
        const access: GiteaAccess = scopes.some((s) => s.startsWith('write:')) ? 'write' : 'read';
        const pending: PendingSignIn = {
          purpose: EXTERNAL_PURPOSE,
          access,
          context: { [SCOPES_KEY]: scopes.join(' ') },
          browserHash: EXTERNAL_BINDING,
          externalState: state,
        };
        const outcome = await this.invoke({ query: {}, headers: {} } as Request, {
          scope: scopes,
          state: pending,
          callbackURL: redirectUri,
        });
        if (!outcome.redirect) throw new Error('the sign-in did not produce a Gitea URL');
        return { url: outcome.redirect };
      },
      finish: async ({ state, code, redirectUri }) => {
        const req = {
          query: { state, code },
          headers: {},
          signInBrowserHash: EXTERNAL_BINDING,
        } as unknown as Request;
        const outcome = await this.invoke(req, { callbackURL: redirectUri });
        const person = outcome.user as Verified | undefined;
        if (!person) throw new SignInRefused('Gitea sign-in failed.', 400);
        return {
          personId: person.personId,
          giteaUserId: person.giteaUserId,
          login: person.login,
          isSiteAdmin: person.isSiteAdmin,
          giteaGrantId: person.giteaGrantId,
          access: person.access,
          ...(person.narrowed ? { narrowedFrom: 'write' as const } : {}),
        };
      },
    };
  }

  /** Runs the strategy once with passport's action methods bound to a promise. */
  private invoke(
    req: Request,
    options: Record<string, unknown>,
  ): Promise<{ redirect?: string; user?: unknown; info?: unknown }> {
    return new Promise((resolve, reject) => {
      const run = Object.create(this.strategy) as OAuth2Strategy & {
        redirect(url: string): void;
        success(user: unknown, info: unknown): void;
        fail(challenge: unknown): void;
        error(err: Error): void;
        pass(): void;
      };
      run.redirect = (url) => resolve({ redirect: url });
      run.success = (user, info) => resolve({ user, info });
      run.fail = (challenge) =>
        reject(
          new SignInRefused(
            typeof challenge === 'object' && challenge && 'message' in challenge
              ? String((challenge as { message: unknown }).message)
              : 'The sign-in could not be completed.',
            400,
          ),
        );
      run.error = (err) => reject(err);
      run.pass = () => reject(new Error('unexpected pass'));
      run.authenticate(req, options);
    });
  }

  /** Registers who receives the person after a sign-in started with this purpose. */
  onSignedIn(purpose: string, handler: SignedInHandler): void {
    this.handlers.set(purpose, handler);
  }

  /** The Gitea scopes asked for an access level. */
  scopesFor(access: GiteaAccess): string[] {
    return giteaScopesFor(access, { includeAdmin: this.options.includeAdminScopes });
  }

  /** Where a person goes to connect (or reconnect) Gitea without an MCP client in between. */
  get connectUrl(): string {
    return `${this.options.publicUrl.replace(/\/+$/, '')}${CONNECT_PATH}`;
  }

  /** Sends the browser to Gitea (302). */
  async start(req: Request, res: Response, start: SignInStart): Promise<void> {
    if (!this.handlers.has(start.purpose))
      throw new Error(`no sign-in handler for purpose "${start.purpose}"`);
    const context = start.context ?? {};
    if (Buffer.byteLength(JSON.stringify(context)) > MAX_CONTEXT_BYTES)
      throw new Error('sign-in context too large');
    const browserValue = this.browserValue(req) ?? randomBytes(32).toString('base64url');
    this.setBindingCookie(res, browserValue);
    const pending: PendingSignIn = {
      purpose: start.purpose,
      access: start.access,
      context,
      browserHash: sha256Hex(browserValue),
    };
    // passport-oauth2 treats any request carrying ?code= as a callback: hide the query from it.
    const startReq = Object.create(req, { query: { value: {} }, body: { value: undefined } }) as Request;
    await this.run(startReq, res, { scope: this.scopesFor(start.access), state: pending as never });
  }

  /**
   * Handles the callback: checks state (single use, this browser, ten minutes), exchanges the code
   * with the PKCE verifier, stores the grant, then calls the purpose's handler.
   */
  async finish(req: Request, res: Response): Promise<void> {
    const binding = req as ReqWithBinding;
    const browserValue = this.browserValue(req);
    binding.signInBrowserHash = browserValue ? sha256Hex(browserValue) : null;
    let person: SignedInPerson;
    let pending: PendingSignIn;
    try {
      ({ person, pending } = await this.callback(req, res));
    } catch (error) {
      const refused =
        error instanceof SignInRefused ? error : new SignInRefused('Gitea sign-in failed.', 502);
      renderError(res, refused.status, refused.message, this.connectUrl);
      return;
    }
    // Gitea keeps one grant per user and application and replaces its scope on every
    // authorization, so a read-only sign-in would narrow a person's write grant for every other
    // client. Ask again at once with write: for a confidential application that already holds a
    // grant Gitea answers without showing its page again.
    if ((person as Verified).narrowed && pending.context[WIDENED] !== '1') {
      await this.start(req, res, {
        purpose: pending.purpose,
        access: 'write',
        context: { ...pending.context, [WIDENED]: '1' },
      });
      return;
    }
    const context = { ...pending.context };
    delete context[WIDENED];
    const handler = this.handlers.get(pending.purpose);
    if (!handler) {
      renderError(res, 400, 'This sign-in has nowhere to continue.', this.connectUrl);
      return;
    }
    const { narrowed: _narrowed, ...signedIn } = person as Verified;
    void _narrowed;
    await handler(signedIn, context, req, res);
  }

  private callback(req: Request, res: Response): Promise<{ person: SignedInPerson; pending: PendingSignIn }> {
    const error = typeof req.query.error === 'string' ? req.query.error : null;
    if (error === 'access_denied')
      return Promise.reject(new SignInRefused('You cancelled the authorization on Gitea.', 400));
    if (error) return Promise.reject(new SignInRefused(`Gitea refused the authorization (${error}).`, 400));
    return new Promise((resolve, reject) => {
      const middleware = this.passport.authenticate(
        STRATEGY,
        { session: false },
        (err: Error | null, user: SignedInPerson | false, info: unknown) => {
          if (err) {
            const code = (err as { code?: string }).code;
            if (code === 'access_denied' || /denied/i.test(err.message))
              return reject(new SignInRefused('You cancelled the authorization on Gitea.', 400));
            return reject(new SignInRefused('Gitea did not complete the sign-in.', 502));
          }
          if (!user) {
            const message =
              typeof info === 'object' && info && 'message' in info && typeof info.message === 'string'
                ? info.message
                : 'The sign-in could not be completed.';
            return reject(new SignInRefused(message, 400));
          }
          const state = (info as { state?: PendingSignIn } | undefined)?.state;
          if (!state) return reject(new SignInRefused('The sign-in state is missing.', 400));
          resolve({ person: user, pending: state });
        },
      ) as (req: Request, res: Response, next: (err?: unknown) => void) => void;
      middleware(req, res, (err) => reject(err instanceof Error ? err : new Error('sign-in failed')));
    });
  }

  private run(req: Request, res: Response, options: Record<string, unknown>): Promise<void> {
    return new Promise((resolve, reject) => {
      // passport answers with a redirect (res.redirect/end) or calls back with an error.
      res.once('finish', () => resolve());
      const middleware = this.passport.authenticate(
        STRATEGY,
        { session: false, ...options },
        (err: unknown) => reject(err instanceof Error ? err : new Error('sign-in could not start')),
      ) as (req: Request, res: Response, next: (err?: unknown) => void) => void;
      middleware(req, res, (err) =>
        reject(err instanceof Error ? err : new Error('sign-in could not start')),
      );
    });
  }

  private async verified(
    req: Request,
    accessToken: string,
    refreshToken: string,
    params: { expires_in?: unknown },
    account: GiteaAccount,
  ): Promise<Verified> {
    if (!refreshToken) throw new Error('Gitea issued no refresh token');
    const access = accessOf(req);
    const pendingScopes = (req as Request & { giteaPending?: PendingSignIn }).giteaPending?.context[
      SCOPES_KEY
    ];
    const before = await this.options.grants.activeAccessOf(account.id);
    const { person, grant } = await this.options.grants.saveSignIn({
      account,
      tokens: {
        accessToken,
        refreshToken,
        expiresInSeconds: typeof params.expires_in === 'number' ? params.expires_in : 3600,
      },
      access,
      scopes: pendingScopes ? pendingScopes.split(' ') : this.scopesFor(access),
    });
    return {
      personId: person.id,
      giteaUserId: person.giteaUserId,
      login: person.login,
      isSiteAdmin: person.isSiteAdmin,
      giteaGrantId: grant.id,
      access: grant.access,
      narrowed: before === 'write' && access === 'read',
    };
  }

  private browserValue(req: Request): string | null {
    const header = req.headers.cookie ?? '';
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq < 0) continue;
      if (part.slice(0, eq).trim() !== this.cookieName) continue;
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
    }
    return null;
  }

  private setBindingCookie(res: Response, value: string): void {
    const attributes = [
      `${this.cookieName}=${value}`,
      'Path=/',
      'HttpOnly',
      'SameSite=Lax',
      `Max-Age=${Math.floor(SIGN_IN_STATE_TTL_MS / 1000)}`,
    ];
    if (this.secureCookie) attributes.push('Secure');
    res.append('Set-Cookie', attributes.join('; '));
  }
}

/** passport-oauth2 verifies the state before the verify callback; the store put the pending sign-in here. */
function accessOf(req: Request): GiteaAccess {
  const pending = (req as Request & { giteaPending?: PendingSignIn }).giteaPending;
  return pending?.access === 'write' ? 'write' : 'read';
}

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A small HTML page that no one can frame; `message` is escaped here. */
export function renderPage(
  res: Response,
  status: number,
  title: string,
  message: string,
  link: { href: string; text: string },
): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
    })
    .send(
      `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>` +
        `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>` +
        `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p></body></html>`,
    );
}

export function renderError(res: Response, status: number, message: string, retryUrl: string): void {
  renderPage(res, status, 'Sign-in through Gitea did not complete', message, {
    href: retryUrl,
    text: 'Start again',
  });
}

type TokenCallback = (
  err: { statusCode: number; data?: string } | Error | null,
  accessToken?: string,
  refreshToken?: string,
  results?: Record<string, unknown>,
) => void;

/**
 * passport-oauth2 exchanges the code through node-oauth's own HTTP request; this hands that one
 * call to `exchange` (the one Gitea HTTP client) and answers passport the way node-oauth does:
 * the tokens and the parsed body, or `{statusCode, data}` for passport to turn into a TokenError.
 */
function useForCodeExchange(
  strategy: OAuth2Strategy,
  exchange: (code: string, params: Record<string, string>) => Promise<{ status: number; text: string }>,
): void {
  const oauth2 = (strategy as unknown as { _oauth2: { getOAuthAccessToken: unknown } })._oauth2;
  oauth2.getOAuthAccessToken = (code: string, params: Record<string, string>, callback: TokenCallback) => {
    exchange(code, params).then(
      ({ status, text }) => {
        if (status < 200 || status > 299) return callback({ statusCode: status, data: text });
        let results: Record<string, unknown>;
        try {
          results = JSON.parse(text) as Record<string, unknown>;
        } catch {
          results = Object.fromEntries(new URLSearchParams(text));
        }
        const accessToken = results.access_token;
        if (typeof accessToken !== 'string')
          return callback({ statusCode: 400, data: JSON.stringify(results) });
        const refreshToken = typeof results.refresh_token === 'string' ? results.refresh_token : undefined;
        delete results.refresh_token;
        callback(null, accessToken, refreshToken, results);
      },
      (error: Error) => callback(error),
    );
  };
}
