// Sign-in to the console through Gitea, in Debian's chromium (playwright-core): the whole
// service in-process (PGlite) with the simulator as Gitea and its OAuth2 application. The person
// presses "Sign in with Gitea", signs in on Gitea's form, authorizes the application, and lands
// back in the console with a session: the site admin sees every page, a plain person only
// Connections. Sign-out ends it.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import pino from 'pino';
import { chromium, type Browser } from 'playwright-core';
import { parseConfig } from '../../../src/config/env.schema';
import { createApp } from '../../../src/main';
import { startGiteaSimulator, type GiteaSimulator } from '../../simulator';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('console sign-in through Gitea in chromium', () => {
  let sim: GiteaSimulator;
  let app: INestApplication;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    sim = await startGiteaSimulator({ seed: 'test' });
    const port = await freePort();
    base = `http://localhost:${port}`;
    const registered = sim.oauth.registerApp({
      name: 'AegisGitea-MCP',
      redirectUris: [`${base}/auth/gitea/callback`],
    });
    const parsed = parseConfig({
      GITEA_URL: sim.url,
      GITEA_TOKEN: sim.tokens.admin,
      MCP_BEARER_TOKEN: 'test-mcp-bearer-token-0123456789',
      DATA_DIR: 'memory://',
      PUBLIC_URL: base,
      GITEA_OAUTH_CLIENT_ID: registered.clientId,
      GITEA_OAUTH_CLIENT_SECRET: registered.clientSecret,
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    app = await createApp(parsed.config, { logger: pino({ level: 'silent' }) });
    await app.listen(port, '127.0.0.1');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await sim?.close();
  });

  const CASES = [
    {
      login: 'admin',
      role: 'site admin',
      nav: ['Overview', 'Organisations', 'Audit', 'Connections', 'Catalogue', 'Settings'],
    },
    { login: 'bob', role: 'person', nav: ['Connections'] },
  ] as const;

  for (const { login, role, nav } of CASES) {
    it(`${login} (${role}) signs in with Gitea and gets ${nav.join(', ')}`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${base}/admin/`);
      await page.getByRole('link', { name: 'Sign in with Gitea' }).click();
      // Gitea's own sign-in form, then its grant page.
      await page.waitForURL((url) => url.origin === sim.url);
      await page.locator('input[name="user_name"]').fill(login);
      await page.locator('input[name="password"]').fill(sim.passwords[login]!);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByRole('button', { name: 'Authorize Application' }).click();
      // Back in the console, signed in.
      await page.waitForURL(`${base}/admin/**`);
      const links = page.getByRole('navigation', { name: 'Console' }).getByRole('link');
      await links.first().waitFor();
      expect(await links.allTextContents()).toEqual(nav);
      await page.getByText(`${login} (${role})`).waitFor();
      const cookies = await context.cookies(base);
      const session = cookies.find((c) => c.name === '__Host-aegis_console');
      expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
      expect(await page.evaluate('document.cookie')).not.toContain('aegis_console');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByText('You are signed out.').waitFor();
      const after = await fetch(`${base}/admin/auth/session`, {
        headers: { cookie: `__Host-aegis_console=${session!.value}` },
      });
      expect(after.status).toBe(401);
      await context.close();
    }, 90_000);
  }
});
