// A person in a real browser (Debian's Chromium driven by playwright-core): the TypeScript SDK
// client asks for authorization, the person reads the consent page (client name, redirect host,
// loopback warning, access), presses Allow, signs in at Gitea, and the client's loopback redirect
// receives code, state and iss; the page cannot be framed by another site; the person then sees
// the client on the self-service page and revokes it there.
import { createServer, type Server } from 'node:http';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { chromium, type Browser } from 'playwright-core';
import { startOAuthStack, type OAuthStack } from './helpers/oauth-stack';
import { TestOAuthProvider } from './helpers/sdk-provider';

jest.setTimeout(300_000);

const REDIRECT = 'http://127.0.0.1:43121/callback';

describe('consent and sign-in in Chromium', () => {
  let stack: OAuthStack;
  let browser: Browser;
  let framer: Server;
  let framerUrl = '';

  beforeAll(async () => {
    stack = await startOAuthStack({}, { postgres: false });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
    framer = createServer((req, res) => {
      const target = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><iframe id="f" src="${target.replace(/"/g, '&quot;')}"></iframe>`);
    });
    await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
    // Another site: "localhost" is a different origin from 127.0.0.1.
    framerUrl = `http://localhost:${(framer.address() as { port: number }).port}/`;
  });
  afterAll(async () => {
    await browser?.close();
    framer?.close();
    await stack?.close();
  });

  it('shows the consent page, signs in through Gitea, and hands the code to the client', async () => {
    const provider = new TestOAuthProvider('Chromium e2e client', REDIRECT);
    const transport = new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: provider });
    await expect(new Client({ name: 'c', version: '1' }).connect(transport)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );

    const context = await browser.newContext();
    const page = await context.newPage();
    let callback: string | null = null;
    await page.route(`${REDIRECT}**`, async (route) => {
      callback = route.request().url();
      await route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: '<p id="done">You can close this window.</p>',
      });
    });
    await page.goto(provider.authorizationUrl!.toString());
    expect(await page.locator('#client-name').textContent()).toBe('Chromium e2e client');
    expect(await page.locator('#redirect-host').textContent()).toBe('127.0.0.1:43121');
    expect(await page.locator('[role=alert]').textContent()).toMatch(/only redirects to .* on this computer/);
    expect(await page.locator('#access').textContent()).toMatch(/^read only/);
    const cookies = await context.cookies(stack.base);
    expect(cookies.map((c) => c.name)).toContain('__Host-aegis-interaction');

    await page.getByRole('button', { name: 'Allow' }).click();
    // Gitea's own sign-in form, then its grant page.
    await page.locator('input[name="user_name"]').fill('alice');
    await page.locator('input[name="password"]').fill(stack.gitea.sim.passwords.alice!);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('button', { name: 'Authorize Application' }).click();
    await page.locator('#done').waitFor();
    const back = new URL(callback!);
    expect(back.searchParams.get('iss')).toBe(stack.base);
    expect(back.searchParams.get('state')).toBe(provider.expectedState);
    await transport.finishAuth(back.searchParams);

    const client = new Client({ name: 'c', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: provider }),
    );
    const me = (await client.callTool({ name: 'userGetCurrent', arguments: {} })) as {
      content: Array<{ text: string }>;
    };
    expect(JSON.parse(me.content[0]!.text).identity).toMatchObject({ login: 'alice', mode: 'oauth' });

    // The same browser, signed in now: the self-service page lists the client and revokes it.
    await page.goto(`${stack.base}/oauth/grants`);
    const row = page.locator('tr', { hasText: 'Chromium e2e client' });
    await expect(row.count()).resolves.toBe(1);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL(`${stack.base}/oauth/grants`);
    await expect(page.locator('tr', { hasText: 'Chromium e2e client' }).count()).resolves.toBe(0);
    await new Promise((r) => setTimeout(r, 1100));
    await expect(client.callTool({ name: 'userGetCurrent', arguments: {} })).rejects.toThrow();
    await client.close().catch(() => undefined);
    await context.close();
  });

  it('cannot be framed by another site', async () => {
    const provider = new TestOAuthProvider('Framed client', REDIRECT);
    const transport = new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: provider });
    await expect(new Client({ name: 'c', version: '1' }).connect(transport)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const context = await browser.newContext();
    const page = await context.newPage();
    const blocked = new Promise<boolean>((resolve) => {
      page.on('console', (m) => {
        if (/frame-ancestors|Refused to (display|frame)/i.test(m.text())) resolve(true);
      });
      setTimeout(() => resolve(false), 10_000);
    });
    await page.goto(`${framerUrl}?src=${encodeURIComponent(provider.authorizationUrl!.toString())}`);
    expect(await blocked).toBe(true);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    const buttons = frame
      ? await frame
          .locator('button')
          .count()
          .catch(() => 0)
      : 0;
    expect(buttons).toBe(0);
    await context.close();
  });
});
