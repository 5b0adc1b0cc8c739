// The simulator's OAuth2 provider and sign-in pages against what Gitea 1.27 does
// (routers/web/auth/oauth2_provider.go, services/oauth2_provider, models/auth/access_token_scope.go,
// templates/user/auth/signin_inner.tmpl and grant.tmpl): the browser flow with the sign-in form
// and the grant page, the token endpoint's client authentication and errors, PKCE, granular
// scopes enforced on API calls, refresh rotation, userinfo, introspection, discovery, and users
// that are suspended, deactivated or deleted.
import { createHash, randomBytes } from 'node:crypto';
import { startGiteaSimulator, type GiteaSimulator } from '../../simulator';
import { SCOPE_CATEGORIES } from '../../simulator/oauth';

const REDIRECT = 'http://127.0.0.1:1/cb';
type Json = Record<string, any>;

describe('simulator OAuth2 provider (Gitea 1.27)', () => {
  let sim: GiteaSimulator;
  beforeAll(async () => {
    sim = await startGiteaSimulator({ seed: 'test' });
  });
  afterAll(() => sim.close());
  afterEach(() => {
    sim.oauth.invalidateRefreshTokens = false;
    sim.oauth.autoApproveAs = null;
  });

  const pkce = (): { verifier: string; challenge: string } => {
    const verifier = randomBytes(32).toString('base64url');
    return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
  };
  const tokenForm = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${sim.url}/login/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form),
    });
  const basic = (id: string, secret: string): string =>
    `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const api = (path: string, token: string, init: RequestInit = {}) =>
    fetch(`${sim.apiUrl}${path}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(init.headers ?? {}),
      },
    });

  /** Code + token exchange for `login` with the given scope (grant approved without a browser). */
  async function tokensFor(
    app: { clientId: string; clientSecret: string },
    login: string,
    scope: string,
  ): Promise<Json> {
    const code = sim.oauth.approve({ clientId: app.clientId, redirectUri: REDIRECT, login, scope });
    const res = await tokenForm({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Json;
  }

  describe('browser flow', () => {
    class Jar {
      cookie = '';
      async go(url: string, init: RequestInit = {}): Promise<Response> {
        const res = await fetch(url, {
          ...init,
          redirect: 'manual',
          headers: { ...(this.cookie ? { cookie: this.cookie } : {}), ...(init.headers ?? {}) },
        });
        const set = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
        if (set.length) this.cookie = set.join('; ');
        return res;
      }
      post(url: string, form: Record<string, string>): Promise<Response> {
        return this.go(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(form),
        });
      }
    }
    const hidden = (html: string, name: string): string =>
      new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!;

    it('sends a signed-out browser to the sign-in form, then shows the grant page, then redirects with code and state', async () => {
      const app = sim.oauth.registerApp({ name: 'Widget Bot', redirectUris: [REDIRECT] });
      const { verifier, challenge } = pkce();
      const q = new URLSearchParams({
        client_id: app.clientId,
        redirect_uri: REDIRECT,
        response_type: 'code',
        state: 'st-1',
        scope: 'read:repository read:user',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const jar = new Jar();
      const first = await jar.go(`${sim.url}/login/oauth/authorize?${q}`);
      expect(first.status).toBe(303);
      const loginUrl = new URL(first.headers.get('location')!);
      expect(loginUrl.pathname).toBe('/user/login');
      const page = await (await jar.go(loginUrl.toString())).text();
      expect(page).toMatch(/<input[^>]*name="user_name"/);
      expect(page).toMatch(/<input[^>]*name="password"[^>]*type="password"/);
      expect(page).toMatch(/<input[^>]*name="remember"[^>]*type="checkbox"/);
      expect(page).toMatch(/<button[^>]*>Sign In<\/button>/);
      const action = /<form[^>]*action="([^"]+)"/.exec(page)![1]!.replace(/&amp;/g, '&');

      // wrong password: the form again with Gitea's message; no CSRF token: refused
      const wrong = await jar.post(`${sim.url}${action}`, {
        _csrf: hidden(page, '_csrf'),
        user_name: 'alice',
        password: 'nope',
      });
      expect(wrong.status).toBe(200);
      expect(await wrong.text()).toContain('Username or password is incorrect.');
      expect(
        (await jar.post(`${sim.url}${action}`, { user_name: 'alice', password: sim.passwords.alice! }))
          .status,
      ).toBe(400);

      const signedIn = await jar.post(`${sim.url}${action}`, {
        _csrf: hidden(page, '_csrf'),
        user_name: 'alice',
        password: sim.passwords.alice!,
        remember: 'on',
      });
      expect(signedIn.status).toBe(303);
      const grantRes = await jar.go(signedIn.headers.get('location')!);
      expect(grantRes.status).toBe(200);
      const grant = await grantRes.text();
      expect(grant).toContain('Authorize "Widget Bot" to access your account?');
      expect(grant).toMatch(/<form method="post" action="\/login\/oauth\/grant">/);
      expect(grant).toMatch(/<button[^>]*name="granted" value="true"[^>]*>Authorize Application<\/button>/);
      expect(grant).toMatch(/<button[^>]*name="granted" value="false"[^>]*>Cancel<\/button>/);
      expect(grant).toContain(REDIRECT);

      const fields = ['_csrf', 'client_id', 'state', 'scope', 'nonce', 'redirect_uri'];
      const form = Object.fromEntries(fields.map((f) => [f, hidden(grant, f)]));
      // a changed redirect_uri or state is a bad request
      expect(
        (await jar.post(`${sim.url}/login/oauth/grant`, { ...form, state: 'other', granted: 'true' })).status,
      ).toBe(400);
      const approved = await jar.post(`${sim.url}/login/oauth/grant`, { ...form, granted: 'true' });
      expect(approved.status).toBe(303);
      const back = new URL(approved.headers.get('location')!);
      expect(back.origin + back.pathname).toBe(REDIRECT);
      expect(back.searchParams.get('state')).toBe('st-1');
      expect([...back.searchParams.keys()].sort()).toEqual(['code', 'state']);
      const token = await tokenForm({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        client_id: app.clientId,
        client_secret: app.clientSecret,
      });
      expect(token.status).toBe(200);

      // a confidential app that already holds a grant: no page the second time, scope replaced
      q.set('scope', 'read:issue read:user');
      const again = await jar.go(`${sim.url}/login/oauth/authorize?${q}`);
      expect(again.status).toBe(303);
      expect(new URL(again.headers.get('location')!).searchParams.get('code')).toBeTruthy();
      const alice = sim.state.users.find((u) => u.login === 'alice')!;
      expect(sim.state.oauthGrants.find((g) => g.appId === app.id && g.userId === alice.id)!.scope).toBe(
        'read:issue read:user',
      );
    });

    it('Cancel redirects with access_denied; a public client always sees the page; prohibited users cannot sign in', async () => {
      const app = sim.oauth.registerApp({ name: 'Public', redirectUris: [REDIRECT], confidential: false });
      const { challenge } = pkce();
      const jar = new Jar();
      const page = await (await jar.go(`${sim.url}/user/login`)).text();
      expect(
        (
          await jar.post(`${sim.url}/user/login`, {
            _csrf: hidden(page, '_csrf'),
            user_name: 'bob',
            password: sim.passwords.bob!,
          })
        ).status,
      ).toBe(303);
      const q = new URLSearchParams({
        client_id: app.clientId,
        redirect_uri: REDIRECT,
        response_type: 'code',
        state: 's',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      for (const decision of ['true', 'false']) {
        const res = await jar.go(`${sim.url}/login/oauth/authorize?${q}`);
        expect(res.status).toBe(200); // public client: the grant page every time
        const grant = await res.text();
        const fields = ['_csrf', 'client_id', 'state', 'scope', 'nonce', 'redirect_uri'];
        const posted = await jar.post(`${sim.url}/login/oauth/grant`, {
          ...Object.fromEntries(fields.map((f) => [f, hidden(grant, f)])),
          granted: decision,
        });
        const back = new URL(posted.headers.get('location')!);
        if (decision === 'false') {
          expect(back.searchParams.get('error')).toBe('access_denied');
          expect(back.searchParams.get('error_description')).toBe('the request is denied');
          expect(back.searchParams.get('state')).toBe('s');
        } else expect(back.searchParams.get('code')).toBeTruthy();
      }

      const carol = sim.state.users.find((u) => u.login === 'carol')!;
      carol.prohibitLogin = true;
      try {
        const fresh = new Jar();
        const form = await (await fresh.go(`${sim.url}/user/login`)).text();
        const res = await fresh.post(`${sim.url}/user/login`, {
          _csrf: hidden(form, '_csrf'),
          user_name: 'carol',
          password: sim.passwords.carol!,
        });
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('prohibited from signing in');
      } finally {
        carol.prohibitLogin = false;
      }
    });
  });

  describe('authorize errors and PKCE', () => {
    it('answers bad authorize requests like Gitea', async () => {
      const pub = sim.oauth.registerApp({ name: 'p', redirectUris: [REDIRECT], confidential: false });
      sim.oauth.autoApproveAs = 'alice';
      const go = async (params: Record<string, string>) =>
        fetch(`${sim.url}/login/oauth/authorize?${new URLSearchParams(params)}`, { redirect: 'manual' });
      expect((await go({ client_id: 'nope', redirect_uri: REDIRECT, response_type: 'code' })).status).toBe(
        400,
      );
      expect(
        (await go({ client_id: pub.clientId, redirect_uri: 'http://evil/cb', response_type: 'code' })).status,
      ).toBe(400);
      const errorOf = async (params: Record<string, string>): Promise<[string | null, string | null]> => {
        const u = new URL((await go(params)).headers.get('location')!);
        return [u.searchParams.get('error'), u.searchParams.get('error_description')];
      };
      const base = { client_id: pub.clientId, redirect_uri: REDIRECT, state: 'x' };
      expect(await errorOf({ ...base, response_type: 'token' })).toEqual([
        'unsupported_response_type',
        'Only code response type is supported.',
      ]);
      expect(await errorOf({ ...base, response_type: 'code' })).toEqual([
        'invalid_request',
        'PKCE is required for public clients',
      ]);
      expect(
        await errorOf({
          ...base,
          response_type: 'code',
          code_challenge: 'abc',
          code_challenge_method: 'S512',
        }),
      ).toEqual(['invalid_request', 'unsupported code challenge method']);
    });

    it('checks the verifier (S256 and plain), the redirect URI and single use at the token endpoint', async () => {
      const app = sim.oauth.registerApp({ name: 'c', redirectUris: [REDIRECT, 'http://127.0.0.1:1/other'] });
      const pub = sim.oauth.registerApp({ name: 'p2', redirectUris: [REDIRECT], confidential: false });
      const { verifier, challenge } = pkce();
      const exchange = (code: string, extra: Record<string, string>, who = app) =>
        tokenForm({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
          client_id: who.clientId,
          ...extra,
        });
      const secret = { client_secret: app.clientSecret };

      let code = sim.oauth.approve({
        clientId: app.clientId,
        redirectUri: REDIRECT,
        login: 'bob',
        codeChallenge: challenge,
      });
      let res = await exchange(code, { ...secret, code_verifier: 'w'.repeat(43) });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: 'unauthorized_client',
        error_description: 'failed PKCE code challenge',
      });
      res = await exchange(code, secret); // no verifier at all
      expect(((await res.json()) as Json).error_description).toBe('failed PKCE code challenge');
      res = await exchange(code, { ...secret, code_verifier: verifier });
      expect(res.status).toBe(200);
      res = await exchange(code, { ...secret, code_verifier: verifier });
      expect(res.status).toBe(400); // spent

      code = sim.oauth.approve({
        clientId: pub.clientId,
        redirectUri: REDIRECT,
        login: 'bob',
        codeChallenge: 'plain-verifier-'.padEnd(43, 'p'),
        codeChallengeMethod: 'plain',
      });
      expect((await exchange(code, { code_verifier: 'plain-verifier-'.padEnd(43, 'p') }, pub)).status).toBe(
        200,
      );

      code = sim.oauth.approve({ clientId: app.clientId, redirectUri: REDIRECT, login: 'bob' });
      res = await tokenForm({
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'http://127.0.0.1:1/other',
        client_id: app.clientId,
        ...secret,
      });
      expect(await res.json()).toEqual({
        error: 'invalid_grant',
        error_description: 'redirect_uri differs from the original authorization request',
      });
      res = await exchange('made-up', secret);
      expect(await res.json()).toEqual({
        error: 'unauthorized_client',
        error_description: 'client is not authorized',
      });
      res = await exchange(code, { client_secret: 'wrong' });
      expect(await res.json()).toEqual({
        error: 'unauthorized_client',
        error_description: 'invalid client secret',
      });
    });
  });

  describe('token endpoint', () => {
    it('accepts form or JSON, client credentials in the body or HTTP Basic; answers {access_token, token_type, expires_in, refresh_token}', async () => {
      const app = sim.oauth.registerApp({ name: 't', redirectUris: [REDIRECT] });
      const viaBasic = await tokenForm(
        {
          grant_type: 'authorization_code',
          code: sim.oauth.approve({ clientId: app.clientId, redirectUri: REDIRECT, login: 'alice' }),
          redirect_uri: REDIRECT,
        },
        { authorization: basic(app.clientId, app.clientSecret) },
      );
      expect(viaBasic.status).toBe(200);
      const body = (await viaBasic.json()) as Json;
      expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
      expect(body).toMatchObject({ token_type: 'bearer', expires_in: 3600 });

      const viaJson = await fetch(`${sim.url}/login/oauth/access_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'refresh_token',
          refresh_token: body.refresh_token,
          client_id: app.clientId,
          client_secret: app.clientSecret,
        }),
      });
      expect(viaJson.status).toBe(200);

      const mismatch = await tokenForm(
        { grant_type: 'refresh_token', refresh_token: body.refresh_token, client_id: 'someone-else' },
        { authorization: basic(app.clientId, app.clientSecret) },
      );
      expect(await mismatch.json()).toEqual({
        error: 'invalid_request',
        error_description: 'client_id in request body inconsistent with Authorization header',
      });
      const unsupported = await tokenForm({
        grant_type: 'password',
        client_id: app.clientId,
        client_secret: app.clientSecret,
      });
      expect(unsupported.status).toBe(400);
      expect(((await unsupported.json()) as Json).error).toBe('unsupported_grant_type');
      const noSecret = await tokenForm({
        grant_type: 'refresh_token',
        refresh_token: body.refresh_token,
        client_id: app.clientId,
      });
      expect(await noSecret.json()).toEqual({
        error: 'invalid_client',
        error_description: 'invalid empty client secret',
      });
    });

    it('rotates refresh tokens: old ones stay valid by default, refused with INVALIDATE_REFRESH_TOKENS', async () => {
      const app = sim.oauth.registerApp({ name: 'r', redirectUris: [REDIRECT] });
      const refresh = (token: string) =>
        tokenForm({
          grant_type: 'refresh_token',
          refresh_token: token,
          client_id: app.clientId,
          client_secret: app.clientSecret,
        });
      const t1 = await tokensFor(app, 'bob', 'read:user');
      sim.advanceTime(1000);
      const t2 = (await (await refresh(t1.refresh_token)).json()) as Json;
      expect(t2.refresh_token).not.toBe(t1.refresh_token);
      expect((await refresh(t1.refresh_token)).status).toBe(200); // Gitea's default keeps it valid

      sim.oauth.invalidateRefreshTokens = true;
      const t3 = await tokensFor(app, 'bob', 'read:user');
      sim.advanceTime(1000);
      const t4 = (await (await refresh(t3.refresh_token)).json()) as Json;
      const reused = await refresh(t3.refresh_token);
      expect(await reused.json()).toEqual({
        error: 'unauthorized_client',
        error_description: 'token was already used',
      });
      expect((await refresh(t4.refresh_token)).status).toBe(200);
      expect(await (await refresh('not-a-token')).json()).toEqual({
        error: 'unauthorized_client',
        error_description: 'unable to parse refresh token',
      });
    });
  });

  describe('scopes on API calls made with OAuth tokens', () => {
    it('a read-only token reads but is refused on writes; write implies read; OIDC-only or invalid scopes mean all', async () => {
      const app = sim.oauth.registerApp({ name: 's', redirectUris: [REDIRECT] });
      const read = await tokensFor(app, 'alice', 'read:repository read:issue read:user');
      expect((await api('/repos/acme/widgets', read.access_token)).status).toBe(200);
      expect((await api('/repos/acme/widgets/issues', read.access_token)).status).toBe(200);
      const refused = await api('/repos/acme/widgets/issues', read.access_token, {
        method: 'POST',
        body: JSON.stringify({ title: 'x' }),
      });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as Json).message).toMatch(/required=\[write:issue\]/);
      expect((await api('/orgs/acme', read.access_token)).status).toBe(403); // no organization scope

      const write = await tokensFor(app, 'alice', 'write:issue read:user');
      expect((await api('/repos/acme/widgets/issues', write.access_token)).status).toBe(200); // implied read
      expect(
        (
          await api('/repos/acme/widgets/issues', write.access_token, {
            method: 'POST',
            body: JSON.stringify({ title: 'w' }),
          })
        ).status,
      ).toBe(201);
      // the scope lives on the grant: the earlier token of the same grant now has write:issue too
      expect(
        (
          await api('/repos/acme/widgets/issues', read.access_token, {
            method: 'POST',
            body: JSON.stringify({ title: 'v' }),
          })
        ).status,
      ).toBe(201);

      for (const scope of ['openid profile email', '', 'read:repository frobnicate']) {
        const all = await tokensFor(app, 'alice', scope);
        expect(
          (
            await api('/repos/acme/widgets/labels', all.access_token, {
              method: 'POST',
              body: JSON.stringify({ name: `l-${randomBytes(3).toString('hex')}`, color: '#00aabb' }),
            })
          ).status,
        ).toBe(201);
      }
    });

    it('public-only hides private repositories', async () => {
      const app = sim.oauth.registerApp({ name: 'po', redirectUris: [REDIRECT] });
      const t = await tokensFor(app, 'alice', 'public-only read:repository');
      expect((await api('/repos/acme/widgets', t.access_token)).status).toBe(200);
      const hidden = await api('/repos/acme/internal', t.access_token);
      expect(hidden.status).toBe(403);
      expect(((await hidden.json()) as Json).message).toBe('token scope is limited to public repos');
    });

    it('knows every Gitea scope category', () => {
      expect([...SCOPE_CATEGORIES].sort()).toEqual(
        [
          'activitypub',
          'admin',
          'issue',
          'misc',
          'notification',
          'organization',
          'package',
          'repository',
          'user',
        ].sort(),
      );
    });
  });

  describe('userinfo, introspection, discovery', () => {
    it('userinfo needs an OAuth token with read:user', async () => {
      const app = sim.oauth.registerApp({ name: 'u', redirectUris: [REDIRECT] });
      const none = await fetch(`${sim.url}/login/oauth/userinfo`);
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const pat = await fetch(`${sim.url}/login/oauth/userinfo`, {
        headers: { Authorization: `Bearer ${sim.tokens.alice}` },
      });
      expect(pat.status).toBe(401); // personal access tokens are not OAuth
      const noUser = await tokensFor(app, 'bob', 'read:repository');
      expect(
        (
          await fetch(`${sim.url}/login/oauth/userinfo`, {
            headers: { Authorization: `Bearer ${noUser.access_token}` },
          })
        ).status,
      ).toBe(403);
      const ok = await tokensFor(app, 'bob', 'read:user');
      const info = (await (
        await fetch(`${sim.url}/login/oauth/userinfo`, {
          headers: { Authorization: `Bearer ${ok.access_token}` },
        })
      ).json()) as Json;
      expect(Object.keys(info).sort()).toEqual([
        'email',
        'groups',
        'name',
        'picture',
        'preferred_username',
        'sub',
      ]);
      expect(info).toMatchObject({
        preferred_username: 'bob',
        groups: expect.arrayContaining(['acme', 'acme:developers']),
      });
    });

    it('introspection needs the client’s Basic credentials', async () => {
      const app = sim.oauth.registerApp({ name: 'i', redirectUris: [REDIRECT] });
      const t = await tokensFor(app, 'alice', 'read:user read:issue');
      const introspect = (token: string, auth?: string) =>
        fetch(`${sim.url}/login/oauth/introspect`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            ...(auth ? { authorization: auth } : {}),
          },
          body: new URLSearchParams({ token }),
        });
      expect((await introspect(t.access_token)).status).toBe(401);
      expect((await introspect(t.access_token, basic(app.clientId, 'wrong'))).status).toBe(401);
      const active = (await (
        await introspect(t.access_token, basic(app.clientId, app.clientSecret))
      ).json()) as Json;
      expect(active).toMatchObject({
        active: true,
        scope: 'read:user read:issue',
        username: 'alice',
        sub: expect.any(String),
      });
      expect(await (await introspect('garbage', basic(app.clientId, app.clientSecret))).json()).toEqual({
        active: false,
      });
    });

    it('serves the discovery document', async () => {
      const doc = (await (await fetch(`${sim.url}/.well-known/openid-configuration`)).json()) as Json;
      expect(doc).toMatchObject({
        issuer: `${sim.url}/`,
        authorization_endpoint: `${sim.url}/login/oauth/authorize`,
        token_endpoint: `${sim.url}/login/oauth/access_token`,
        userinfo_endpoint: `${sim.url}/login/oauth/userinfo`,
        introspection_endpoint: `${sim.url}/login/oauth/introspect`,
        code_challenge_methods_supported: ['plain', 'S256'],
      });
    });
  });

  describe('user lifecycle', () => {
    const admin = (path: string, method: string, body?: unknown) =>
      fetch(`${sim.apiUrl}${path}`, {
        method,
        headers: { Authorization: `token ${sim.tokens.admin}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    it('a suspended (prohibit_login) or deactivated user’s tokens are refused with 403; a deleted user’s with 401 and no refresh', async () => {
      const app = sim.oauth.registerApp({ name: 'l', redirectUris: [REDIRECT] });
      for (const login of ['hal', 'ivy', 'jo']) {
        expect(
          (
            await admin('/admin/users', 'POST', {
              username: login,
              email: `${login}@x.example`,
              password: 'pw-123456',
              must_change_password: false,
            })
          ).status,
        ).toBe(201);
      }
      const tokens: Record<string, Json> = {};
      for (const login of ['hal', 'ivy', 'jo']) tokens[login] = await tokensFor(app, login, 'read:user');

      const suspended = (await (
        await admin('/admin/users/hal', 'PATCH', { login_name: 'hal', prohibit_login: true })
      ).json()) as Json;
      expect(suspended.prohibit_login).toBe(true);
      const refused = await api('/user', tokens.hal!.access_token);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as Json).message).toBe(
        'This account is prohibited from signing in, please contact your site administrator.',
      );
      expect(
        (
          (await (
            await admin('/admin/users/ivy', 'PATCH', { login_name: 'ivy', active: false })
          ).json()) as Json
        ).active,
      ).toBe(false);
      expect((await api('/user', tokens.ivy!.access_token)).status).toBe(403);

      expect((await admin('/admin/users/jo', 'DELETE')).status).toBe(204);
      expect((await api('/user', tokens.jo!.access_token)).status).toBe(401);
      const refresh = await tokenForm({
        grant_type: 'refresh_token',
        refresh_token: tokens.jo!.refresh_token,
        client_id: app.clientId,
        client_secret: app.clientSecret,
      });
      expect(await refresh.json()).toEqual({
        error: 'invalid_grant',
        error_description: 'grant does not exist',
      });
    });
  });
});
