// The OAuth e2e stack: the Gitea simulator with the service's OAuth2 application registered, and
// the whole service (database included: PostgreSQL when TEST_DATABASE_URL is set, else PGlite) in
// a child process on a fixed free port, so that PUBLIC_URL (the issuer) is the URL clients use.
// `Browserless` walks the consent page and the Gitea sign-in the way a person's browser would,
// keeping cookies per origin; the Chromium test does the same with a real browser.
import { createServer } from 'node:net';
import { startGitea, type TestGitea } from '../../mcp/helpers/gitea';
import { BEARER, startMcpApp, testConfig, type McpApp } from '../../mcp/helpers/mcp-app';
import { createScratchPostgres } from '../../../integration/database/database-targets';

export const ENCRYPTION_KEY = 'a'.repeat(64);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

export type OAuthStack = {
  gitea: TestGitea;
  app: McpApp;
  base: string;
  mcpUrl: string;
  databaseUrl: string | null;
  giteaClient: { clientId: string; clientSecret: string };
  close(): Promise<void>;
};

export async function startOAuthStack(
  env: Record<string, string> = {},
  options: { postgres?: boolean } = {},
): Promise<OAuthStack> {
  const gitea = await startGitea();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const giteaClient = gitea.sim.oauth.registerApp({
    name: 'AegisGitea-MCP',
    redirectUris: [`${base}/oauth/gitea/callback`, `${base}/auth/gitea/callback`],
    confidential: true,
  });
  const pgBase = process.env.TEST_DATABASE_URL?.trim();
  const scratch = options.postgres !== false && pgBase ? await createScratchPostgres(pgBase) : null;
  const config = testConfig(gitea.url, gitea.tokens.admin, {
    PUBLIC_URL: base,
    PORT: String(port),
    GITEA_OAUTH_CLIENT_ID: giteaClient.clientId,
    GITEA_OAUTH_CLIENT_SECRET: giteaClient.clientSecret,
    ENCRYPTION_KEY,
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...env,
  });
  const app = await startMcpApp(config, { full: true, port, startTimeoutMs: 240_000 });
  return {
    gitea,
    app,
    base,
    mcpUrl: `${base}/mcp`,
    databaseUrl: scratch?.url ?? null,
    giteaClient,
    async close() {
      await app.close();
      await gitea.close();
      await scratch?.drop();
    },
  };
}

export { BEARER };

/** A cookie jar per origin and a manual redirect walker: what a browser does, without one. */
export class Browserless {
  private readonly jars = new Map<string, Map<string, string>>();
  readonly visited: string[] = [];

  async get(url: string, init: RequestInit = {}): Promise<Response> {
    const origin = new URL(url).origin;
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    this.jars.set(origin, jar);
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0/i.test(line) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    this.visited.push(url);
    return res;
  }

  post(url: string, form: Record<string, string>): Promise<Response> {
    return this.get(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  }

  /**
   * Like `follow`, and signs in at the simulated Gitea as a person would: its sign-in form
   * (`user_name`, `password`, hidden `_csrf`, posted to the form's action) and its grant page
   * ("Authorize Application", `granted=true`). Gitea skips both when the browser already has a
   * session and the application a grant, as the real one does.
   */
  async followSigningIn(
    res: Response,
    stopAt: (url: string) => boolean,
    gitea: { url: string; login: string; password: string; grant?: 'authorize' | 'cancel' },
  ): Promise<{ url: string | null; page: Response | null }> {
    let step = await this.follow(res, stopAt);
    for (let pages = 0; pages < 4 && step.page; pages++) {
      const here = this.visited.at(-1)!;
      if (!here.startsWith(gitea.url) || step.page.status !== 200) return step;
      const html = await step.page.text();
      const hidden = (name: string): string =>
        unescapeHtml(new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '');
      const action = unescapeHtml(/<form[^>]*action="([^"]+)"/.exec(html)?.[1] ?? '');
      if (/name="user_name"/.test(html)) {
        step = await this.follow(
          await this.post(new URL(action, here).toString(), {
            _csrf: hidden('_csrf'),
            user_name: gitea.login,
            password: gitea.password,
          }),
          stopAt,
        );
      } else if (/Authorize Application/.test(html)) {
        const form: Record<string, string> = {};
        for (const name of ['_csrf', 'client_id', 'state', 'scope', 'nonce', 'redirect_uri'])
          form[name] = hidden(name);
        form.granted = gitea.grant === 'cancel' ? 'false' : 'true';
        step = await this.follow(await this.post(new URL(action, here).toString(), form), stopAt);
      } else {
        throw new Error(`unexpected Gitea page: ${html.slice(0, 300)}`);
      }
    }
    return step;
  }

  /** Follows redirects until one leaves for `stopAt`'s origin+path prefix or a page is shown. */
  async follow(
    res: Response,
    stopAt: (url: string) => boolean,
  ): Promise<{ url: string | null; page: Response | null }> {
    let current = res;
    for (let hops = 0; hops < 10; hops++) {
      if (current.status < 300 || current.status >= 400) return { url: null, page: current };
      const location = new URL(current.headers.get('location')!, this.visited.at(-1)).toString();
      await current.text();
      if (stopAt(location)) return { url: location, page: null };
      current = await this.get(location);
    }
    throw new Error('too many redirects');
  }

  cookies(origin: string): Map<string, string> {
    return this.jars.get(origin) ?? new Map();
  }
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The simulated Gitea's sign-in details of a seeded person. */
export function giteaSignIn(
  stack: OAuthStack,
  login: string,
): { url: string; login: string; password: string } {
  const password = stack.gitea.sim.passwords[login];
  if (!password) throw new Error(`no seeded person ${login}`);
  return { url: stack.gitea.url, login, password };
}

export function consentForm(html: string): { interaction: string; csrf: string } {
  const interaction = /name="interaction" value="([^"]+)"/.exec(html)?.[1];
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!interaction || !csrf) throw new Error(`not a consent page: ${html.slice(0, 300)}`);
  return { interaction, csrf };
}

/**
 * The person's part of an authorization: open the URL, press Allow or Deny on the consent page,
 * sign in at Gitea as `login` through its sign-in form and grant page, and return the URL the browser is finally sent to (the client's redirect URI with code/state/iss).
 */
export async function personAuthorizes(
  stack: OAuthStack,
  browser: Browserless,
  authorizationUrl: string,
  login: string,
  decision: 'allow' | 'deny' = 'allow',
): Promise<URL> {
  const gitea = giteaSignIn(stack, login);
  const leaves = (url: string): boolean => !url.startsWith(stack.base) && !url.startsWith(stack.gitea.url);
  const first = await browser.follow(await browser.get(authorizationUrl), leaves);
  if (first.url) return new URL(first.url);
  const html = await first.page!.text();
  if (first.page!.status !== 200)
    throw new Error(`authorize answered ${first.page!.status}: ${html.slice(0, 300)}`);
  const form = consentForm(html);
  const after = await browser.followSigningIn(
    await browser.post(`${stack.base}/oauth/consent`, { ...form, decision }),
    leaves,
    gitea,
  );
  if (!after.url)
    throw new Error(`no redirect back to the client: ${after.page?.status} ${await after.page?.text()}`);
  return new URL(after.url);
}
