// The stack the console's browser tests run against: the Gitea simulator (its OAuth2 provider,
// sign-in form and grant page), the whole service in-process (createApp, PGlite in memory) with
// per-user OAuth on, and Debian's chromium through playwright-core. People sign in the way a
// person does: "Sign in with Gitea", Gitea's form, "Authorize Application".
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import pino from 'pino';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { parseConfig } from '../../../../src/config/env.schema';
import { createApp } from '../../../../src/main';
import { startGiteaSimulator, type GiteaSimulator } from '../../../simulator';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { Browserless, personAuthorizes, type OAuthStack } from '../../oauth/helpers/oauth-stack';
import { TestOAuthProvider } from '../../oauth/helpers/sdk-provider';

export const ROOT = join(__dirname, '..', '..', '..', '..');
export const SHOTS = join(ROOT, 'docs', 'console');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const BEARER = 'console-e2e-mcp-bearer-0123456789abcdef';
export const WIDTHS = [
  { name: '1280', width: 1280, height: 800 },
  { name: '390', width: 390, height: 844 },
] as const;
export const COOKIE = '__Host-aegis_console';
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: unknown[] };

/** axe-core in the page (evaluated over CDP, so the page's CSP need not allow inline scripts). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE);
  const violations = (await page.evaluate('axe.run(document).then((r) => r.violations)')) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** web/dist built when missing or older than a source (a no-op otherwise). */
export function ensureConsoleBuilt(): void {
  execFileSync('node', [join(ROOT, 'scripts', 'console-build.mjs')], { stdio: 'inherit' });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export type ConsoleStack = {
  sim: GiteaSimulator;
  app: INestApplication;
  base: string;
  browser: Browser;
  /** A browser context signed in through Gitea as this seeded person; page on the console. */
  signIn(login: string, viewport?: { width: number; height: number }): Promise<SignedIn>;
  close(): Promise<void>;
};

export type SignedIn = {
  context: BrowserContext;
  page: Page;
  /** The session cookie's value and the CSRF token, for calls made outside the page. */
  cookie: string;
  csrf: string;
};

export async function startConsoleStack(
  env: Record<string, string> = {},
  gitea: { swaggerText?: string } = {},
): Promise<ConsoleStack> {
  ensureConsoleBuilt();
  const sim = await startGiteaSimulator({ seed: 'test', ...gitea });
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const registered = sim.oauth.registerApp({
    name: 'AegisGitea-MCP',
    // The console's sign-in and the MCP authorization server's (both through Gitea).
    redirectUris: [`${base}/auth/gitea/callback`, `${base}/oauth/gitea/callback`],
  });
  const parsed = parseConfig({
    GITEA_URL: sim.url,
    GITEA_TOKEN: sim.tokens.admin!,
    MCP_BEARER_TOKEN: BEARER,
    DATA_DIR: 'memory://',
    PUBLIC_URL: base,
    GITEA_OAUTH_CLIENT_ID: registered.clientId,
    GITEA_OAUTH_CLIENT_SECRET: registered.clientSecret,
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    AUDIT_FLUSH_INTERVAL_MS: '20',
    RATE_LIMIT_PER_MINUTE: '0',
    ...env,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const app = await createApp(parsed.config, { logger: pino({ level: 'silent' }) });
  await app.listen(port, '127.0.0.1');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });

  const signIn = async (login: string, viewport = { width: 1280, height: 800 }): Promise<SignedIn> => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(`${base}/admin/`);
    await page.getByRole('link', { name: 'Sign in with Gitea' }).click();
    await page.waitForURL((url) => url.origin === sim.url);
    await page.locator('input[name="user_name"]').fill(login);
    await page.locator('input[name="password"]').fill(sim.passwords[login]!);
    await page.getByRole('button', { name: 'Sign In' }).click();
    // Gitea shows its grant page the first time only; later sign-ins come straight back.
    const authorize = page.getByRole('button', { name: 'Authorize Application' });
    const back = page.waitForURL(`${base}/admin/**`);
    await Promise.race([authorize.waitFor().then(() => authorize.click()), back]);
    await back;
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const value = (await context.cookies(base)).find((c) => c.name === COOKIE)!.value;
    const cookie = `${COOKIE}=${value}`;
    const session = (await (await fetch(`${base}/admin/auth/session`, { headers: { cookie } })).json()) as {
      csrfToken: string;
    };
    return { context, page, cookie, csrf: session.csrfToken };
  };

  return {
    sim,
    app,
    base,
    browser,
    signIn,
    close: async () => {
      await browser?.close();
      await app?.close();
      await sim?.close();
    },
  };
}

/** /api/admin as the browser's session (cookie; the CSRF token only when given). */
export async function asSession(
  base: string,
  method: string,
  path: string,
  session: { cookie: string; csrf?: string },
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      cookie: session.cookie,
      ...(session.csrf ? { 'x-csrf-token': session.csrf } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // export streams are not JSON
  }
  return { status: response.status, body: parsed };
}

/**
 * Waits until a browser-side expression is truthy. Polled from Node through `page.evaluate`
 * (a DevTools evaluation, outside the page's CSP): Playwright's `waitForFunction` with a string
 * re-evaluates it with `eval` inside the page, which the console's `script-src 'self'` refuses.
 */
export async function waitForExpression(page: Page, expression: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await page.evaluate(expression)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** No page-wide horizontal scrolling (checked at a phone's 390 px). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
}

/**
 * An MCP client (the official SDK 2.x) authorised by `login` through this service's OAuth
 * authorization server: consent page, Gitea sign-in, back with a code. Returns the connected
 * client and its access token.
 */
export async function authorizedMcpClient(
  stack: ConsoleStack,
  login: string,
  clientName: string,
): Promise<{ client: Client; accessToken: string }> {
  const provider = new TestOAuthProvider(clientName, 'http://127.0.0.1:43117/callback');
  const url = new URL(`${stack.base}/mcp`);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(new Client({ name: clientName, version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  const view = { base: stack.base, gitea: { url: stack.sim.url, sim: stack.sim } } as unknown as OAuthStack;
  const back = await personAuthorizes(view, new Browserless(), provider.authorizationUrl!.toString(), login);
  await first.finishAuth(back.searchParams);
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return { client, accessToken: provider.tokens()!.access_token };
}
