// Sign-in through Gitea end to end: the whole service (child process) against the simulator,
// driven like a browser with cookies: /auth/gitea/connect → Gitea's sign-in form (user_name,
// password) → Gitea's grant page ("Authorize Application") → the callback, which stores the
// person and their encrypted Gitea grant. Negative paths: Cancel, a replayed or foreign state,
// a code without the browser cookie. Runs on PostgreSQL when TEST_DATABASE_URL is set, so the
// rows can be read back and searched for plaintext tokens.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { giteaScopesFor } from '../../../src/core/gitea-oauth/gitea-scopes';
import { createScratchPostgres, TEST_DATABASE_URL } from '../../integration/database/database-targets';
import { startGiteaSimulator, type GiteaSimulator } from '../../simulator';
import { startMcpApp, testConfig, type McpApp } from '../mcp/helpers/mcp-app';

const PUBLIC_URL = 'http://127.0.0.1:1';
const CALLBACK = `${PUBLIC_URL}/auth/gitea/callback`;

/** A tiny cookie-keeping browser that never follows redirects by itself. */
class Browser {
  private readonly jar = new Map<string, string>();
  constructor(private readonly appBase: string) {}

  async go(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    // The service's PUBLIC_URL is not where the test process reaches it: rewrite its origin.
    const target = url.startsWith(PUBLIC_URL) ? this.appBase + url.slice(PUBLIC_URL.length) : url;
    const origin = new URL(target).origin;
    const cookie = [...this.jar.entries()]
      .filter(([k]) => k.startsWith(`${origin} `))
      .map(([k, v]) => `${k.split(' ')[1]}=${v}`)
      .join('; ');
    const response = await fetch(target, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.jar.set(`${origin} ${pair!.slice(0, eq).trim()}`, pair!.slice(eq + 1).trim());
    }
    return response;
  }

  forget(name: string): void {
    for (const key of [...this.jar.keys()]) if (key.endsWith(` ${name}`)) this.jar.delete(key);
  }
}

const hidden = (html: string, name: string): string => {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!m) throw new Error(`no hidden input ${name}`);
  return m[1]!.replace(/&amp;/g, '&').replace(/&#34;/g, '"').replace(/&#39;/g, "'");
};

describe('sign-in through Gitea (service + simulator)', () => {
  let sim: GiteaSimulator;
  let app: McpApp;
  let scratch: { url: string; drop(): Promise<void> } | null = null;

  beforeAll(async () => {
    sim = await startGiteaSimulator({ seed: 'test' });
    const registered = sim.oauth.registerApp({ name: 'AegisGitea-MCP', redirectUris: [CALLBACK] });
    scratch = TEST_DATABASE_URL ? await createScratchPostgres(TEST_DATABASE_URL) : null;
    app = await startMcpApp(
      testConfig(sim.url, sim.tokens.admin, {
        PUBLIC_URL,
        GITEA_OAUTH_CLIENT_ID: registered.clientId,
        GITEA_OAUTH_CLIENT_SECRET: registered.clientSecret,
        ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      }),
      { full: true },
    );
  }, 90_000);
  afterAll(async () => {
    await app?.close();
    await sim?.close();
    await scratch?.drop();
  });

  /** Walks the flow up to Gitea's redirect back to the callback; returns that URL. */
  async function throughGitea(
    browser: Browser,
    login: string,
    access: 'read' | 'write',
    decision: 'true' | 'false' = 'true',
  ): Promise<{ callback: string; authorizeUrl: URL; grantPage: string | null }> {
    const start = await browser.go(`${app.base}/auth/gitea/connect?access=${access}`);
    expect(start.status).toBe(302);
    const authorizeUrl = new URL(start.headers.get('location')!);
    let res = await browser.go(authorizeUrl.toString());
    if (res.status === 303 && res.headers.get('location')!.includes('/user/login')) {
      const loginPage = await browser.go(res.headers.get('location')!);
      const html = await loginPage.text();
      expect(html).toContain('name="user_name"');
      expect(html).toContain('name="password"');
      expect(html).toContain('name="remember"');
      expect(html).toMatch(/<button[^>]*>Sign In<\/button>/);
      const action = /<form[^>]*action="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
      const signedIn = await browser.go(`${sim.url}${action}`, {
        method: 'POST',
        form: {
          _csrf: hidden(html, '_csrf'),
          user_name: login,
          password: sim.passwords[login]!,
          remember: 'on',
        },
      });
      expect(signedIn.status).toBe(303);
      res = await browser.go(signedIn.headers.get('location')!);
    }
    let grantPage: string | null = null;
    if (res.status === 200) {
      grantPage = await res.text();
      const posted = await browser.go(`${sim.url}/login/oauth/grant`, {
        method: 'POST',
        form: {
          _csrf: hidden(grantPage, '_csrf'),
          client_id: hidden(grantPage, 'client_id'),
          state: hidden(grantPage, 'state'),
          scope: hidden(grantPage, 'scope'),
          nonce: hidden(grantPage, 'nonce'),
          redirect_uri: hidden(grantPage, 'redirect_uri'),
          granted: decision,
        },
      });
      expect(posted.status).toBe(303);
      return { callback: posted.headers.get('location')!, authorizeUrl, grantPage };
    }
    expect(res.status).toBe(303);
    return { callback: res.headers.get('location')!, authorizeUrl, grantPage };
  }

  it('signs a person in with PKCE and explicit granular scopes, showing Gitea’s own pages', async () => {
    const browser = new Browser(app.base);
    const { callback, authorizeUrl, grantPage } = await throughGitea(browser, 'alice', 'write');
    expect(authorizeUrl.origin).toBe(sim.url);
    expect(authorizeUrl.pathname).toBe('/login/oauth/authorize');
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizeUrl.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorizeUrl.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorizeUrl.searchParams.get('scope')!.split(' ')).toEqual(giteaScopesFor('write'));
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(grantPage).toContain('Authorize "AegisGitea-MCP" to access your account?');
    expect(grantPage).toMatch(/<button[^>]*name="granted" value="true"[^>]*>Authorize Application<\/button>/);
    expect(grantPage).toMatch(/<button[^>]*name="granted" value="false"[^>]*>Cancel<\/button>/);

    const done = await browser.go(callback);
    const page = await done.text();
    expect(done.status).toBe(200);
    expect(page).toContain('Signed in through Gitea as alice');
    expect(done.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // the Gitea grant now carries exactly the scopes asked for
    const grant = sim.state.oauthGrants.find(
      (g) => g.userId === sim.state.users.find((u) => u.login === 'alice')!.id,
    )!;
    expect(grant.scope).toBe(giteaScopesFor('write').join(' '));

    // the state is single-use
    const replay = await browser.go(callback);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toMatch(/unknown or was already used/);
  });

  it('refuses a callback from another browser (no binding cookie) and a cancelled authorization', async () => {
    const browser = new Browser(app.base);
    const { callback } = await throughGitea(browser, 'bob', 'read');
    const stranger = new Browser(app.base);
    const foreign = await stranger.go(callback);
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).toMatch(/another browser/);
    // and the state was spent by that attempt: the right browser cannot use it afterwards either
    expect((await browser.go(callback)).status).toBe(400);

    const cancelling = new Browser(app.base);
    const cancelled = await throughGitea(cancelling, 'carol', 'read', 'false');
    expect(new URL(cancelled.callback).searchParams.get('error')).toBe('access_denied');
    const answer = await cancelling.go(cancelled.callback);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toMatch(/cancelled/);
  });

  it('a later read-only sign-in does not narrow a write grant (asks Gitea again with write, no page shown)', async () => {
    const browser = new Browser(app.base);
    const first = await throughGitea(browser, 'bob', 'write');
    expect((await browser.go(first.callback)).status).toBe(200);
    const second = await throughGitea(browser, 'bob', 'read');
    expect(second.grantPage).toBeNull(); // confidential app with a grant: Gitea answers at once
    const widened = await browser.go(second.callback);
    expect(widened.status).toBe(302);
    const again = await browser.go(widened.headers.get('location')!);
    expect(again.status).toBe(303);
    const done = await browser.go(again.headers.get('location')!);
    expect(await done.text()).toContain('authorization (write) is active');
    const bob = sim.state.users.find((u) => u.login === 'bob')!;
    expect(sim.state.oauthGrants.find((g) => g.userId === bob.id)!.scope).toBe(
      giteaScopesFor('write').join(' '),
    );
  });

  (TEST_DATABASE_URL ? it : it.skip)(
    'stores people and grants with no plaintext token in any row',
    async () => {
      const client = new Client({ connectionString: scratch!.url });
      await client.connect();
      try {
        const people = await client.query<{ login: string }>('SELECT login FROM people ORDER BY login');
        expect(people.rows.map((r) => r.login)).toEqual(expect.arrayContaining(['alice', 'bob']));
        const dump = await client.query<{ row: string }>(
          `SELECT row_to_json(t)::text AS row FROM gitea_grants t
         UNION ALL SELECT row_to_json(t)::text FROM people t
         UNION ALL SELECT row_to_json(t)::text FROM gitea_signin_states t`,
        );
        const text = dump.rows.map((r) => r.row).join('\n');
        // Every token the simulator can still verify for these grants: signed JWTs start with the header.
        expect(text).not.toMatch(/eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9\./);
        expect(text).toContain('"access_token_enc":"v1.');
      } finally {
        await client.end();
      }
    },
  );
});
