// The console in a real browser (playwright-core driving Debian's chromium at /usr/bin/chromium)
// against the whole service (createApp, PGlite in memory): the built web/ under /admin with
// anti-framing headers; the sign-in page by keyboard at 1280 px and 390 px; a console session
// per role (site admin, person) in its httpOnly __Host- cookie, the navigation each role gets,
// sign-out with and without the CSRF token; axe-core without serious or critical violations on
// every page shown; the screenshots in docs/console/ come from this run.
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import pino from 'pino';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { parseConfig } from '../../../src/config/env.schema';
import type { ConsoleSessionStore } from '../../../src/infra/console/console-session.store';
import { createApp } from '../../../src/main';
import { CONSOLE_SESSIONS } from '../../../src/infra/console/console.tokens';

const ROOT = join(__dirname, '..', '..', '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = join(ROOT, 'docs', 'console');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const WIDTHS = [
  { name: '1280', width: 1280, height: 800 },
  { name: '390', width: 390, height: 844 },
] as const;

type AxeViolation = { id: string; impact: string | null; help: string; nodes: unknown[] };

/** axe-core in the page (evaluated over CDP, so the page's CSP need not allow inline scripts). */
async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE);
  // Browser-side code as strings: this project's tsconfig has no DOM library.
  const violations = (await page.evaluate('axe.run(document).then((r) => r.violations)')) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

describe('console in chromium', () => {
  let app: INestApplication;
  let base: string;
  let browser: Browser;
  let sessions: ConsoleSessionStore;

  /** A browser context signed in as this person (the cookie a finished Gitea sign-in sets). */
  async function signedIn(
    person: { login: string; isSiteAdmin: boolean },
    viewport = { width: 1280, height: 800 },
  ): Promise<{ context: BrowserContext; id: string }> {
    const { id } = await sessions.create({ personId: null, ...person });
    const context = await browser.newContext({ viewport });
    await context.addCookies([
      {
        name: '__Host-aegis_console',
        value: id,
        domain: 'localhost',
        path: '/',
        httpOnly: true,
        secure: true,
        sameSite: 'Strict',
      },
    ]);
    return { context, id };
  }

  beforeAll(async () => {
    // Builds web/dist when it is missing or older than a source (a no-op otherwise).
    execFileSync('node', [join(ROOT, 'scripts', 'console-build.mjs')], { stdio: 'inherit' });
    mkdirSync(SHOTS, { recursive: true });
    const parsed = parseConfig({
      GITEA_URL: 'http://127.0.0.1:9',
      GITEA_TOKEN: 'unused-service-token-0123456789',
      MCP_BEARER_TOKEN: 'test-mcp-bearer-token-0123456789',
      DATA_DIR: 'memory://',
      PUBLIC_URL: 'http://localhost:1',
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    app = await createApp(parsed.config, { logger: pino({ level: 'silent' }) });
    await app.listen(0, '127.0.0.1');
    base = `http://localhost:${(app.getHttpServer().address() as AddressInfo).port}`;
    sessions = app.get<ConsoleSessionStore>(CONSOLE_SESSIONS);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('serves the single page under /admin with anti-framing headers, assets, and no path escape', async () => {
    const page = await fetch(`${base}/admin/orgs/acme`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    const script = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${base}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${base}/admin/assets/missing.js`)).status).toBe(404);
    // An escape attempt is not an asset: it gets the page, never a file outside web/dist.
    const escape = await (await fetch(`${base}/admin/assets/..%2f..%2f..%2fpackage.json`)).text();
    expect(escape).toContain('<div id="root">');
    expect(escape).not.toContain('aegis-gitea-mcp');
    const unknown = await fetch(`${base}/admin/auth/nothing`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/json');
  });

  for (const size of WIDTHS) {
    it(`sign-in page at ${size.width} px: Sign in with Gitea by keyboard, visible focus, axe clean`, async () => {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on(
        'console',
        (m) =>
          m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()),
      );
      await page.goto(`${base}/admin/`);
      const button = page.getByRole('link', { name: 'Sign in with Gitea' });
      await button.waitFor();
      expect(await button.getAttribute('href')).toBe('/admin/auth/sign-in');
      // The first Tab lands on the button, and its focus ring is drawn.
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate("document.activeElement?.getAttribute('href') === '/admin/auth/sign-in'"),
      ).toBe(true);
      const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
      expect(outline).not.toBe('none');
      // No page-wide horizontal scrolling at a phone's width.
      const overflow = (await page.evaluate(
        'document.documentElement.scrollWidth - window.innerWidth',
      )) as number;
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, `sign-in-${size.name}.png`), fullPage: true });
      expect(errors).toEqual([]);
      await context.close();
    }, 60_000);
  }

  it('answers the session endpoint only with a live session, and never with the session id', async () => {
    expect((await fetch(`${base}/admin/auth/session`)).status).toBe(401);
    const { id } = await sessions.create({ personId: null, login: 'root', isSiteAdmin: true });
    const cookie = `__Host-aegis_console=${id}`;
    const answer = await fetch(`${base}/admin/auth/session`, { headers: { cookie } });
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(text).not.toContain(id);
    expect(JSON.parse(text)).toMatchObject({ login: 'root', isSiteAdmin: true });
    const { csrfToken } = JSON.parse(text) as { csrfToken: string };
    // Sign-out is a change: without the CSRF token (or with another one) it is refused.
    const bare = await fetch(`${base}/admin/auth/sign-out`, { method: 'POST', headers: { cookie } });
    expect(bare.status).toBe(403);
    expect(((await bare.json()) as { error: { message: string } }).error.message).toContain('x-csrf-token');
    const wrong = await fetch(`${base}/admin/auth/sign-out`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrfToken.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) },
    });
    expect(wrong.status).toBe(403);
    expect((await fetch(`${base}/admin/auth/session`, { headers: { cookie } })).status).toBe(200);
    const out = await fetch(`${base}/admin/auth/sign-out`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrfToken },
    });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(
      /^__Host-aegis_console=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0; Secure$/,
    );
    expect((await fetch(`${base}/admin/auth/session`, { headers: { cookie } })).status).toBe(401);
  });

  it('says plainly that sign-in through Gitea is not available when the service has none', async () => {
    const answer = await fetch(`${base}/admin/auth/sign-in`, { redirect: 'manual' });
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toContain('Gitea');
  });

  const ROLES = [
    {
      role: 'site admin',
      person: { login: 'root', isSiteAdmin: true },
      nav: ['Overview', 'Organisations', 'Audit', 'Connections', 'Catalogue', 'Settings'],
    },
    { role: 'person', person: { login: 'carol', isSiteAdmin: false }, nav: ['Connections'] },
  ] as const;

  for (const { role, person, nav } of ROLES) {
    it(`signed in as a ${role}: the navigation has exactly ${nav.join(', ')}; sign-out ends the session`, async () => {
      const { context } = await signedIn(person);
      const page = await context.newPage();
      await page.goto(`${base}/admin/`);
      const links = page.getByRole('navigation', { name: 'Console' }).getByRole('link');
      await links.first().waitFor();
      expect(await links.allTextContents()).toEqual(nav);
      await page.getByText(person.login, { exact: false }).first().waitFor();
      // The cookie is httpOnly: the page's scripts cannot read it.
      expect(await page.evaluate('document.cookie')).toBe('');
      if (role === 'person') {
        // A page this role may not use, opened by link: a clear refusal, not an empty page.
        await page.goto(`${base}/admin/settings`);
        await page.getByRole('alert').filter({ hasText: 'may not use Settings' }).waitFor();
      }
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('link', { name: 'Sign in with Gitea' }).waitFor();
      await page.getByText('You are signed out.').waitFor();
      await page.reload();
      await page.getByRole('link', { name: 'Sign in with Gitea' }).waitFor();
      await context.close();
    }, 60_000);
  }

  for (const size of WIDTHS) {
    it(`Connections page at ${size.width} px: keyboard, states, axe clean`, async () => {
      const { context } = await signedIn({ login: 'carol', isSiteAdmin: false }, size);
      const page = await context.newPage();
      await page.goto(`${base}/admin/`);
      await page.getByRole('heading', { name: 'Connections', level: 1 }).waitFor();
      // Loading ends in an answer (data, empty or a refusal in words), never a blank page.
      await page.locator('.empty, .refusal, table').first().waitFor();
      await page.keyboard.press('Tab');
      expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
      const overflow = (await page.evaluate(
        'document.documentElement.scrollWidth - window.innerWidth',
      )) as number;
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    }, 60_000);
  }

  it('refuses to be framed by another origin', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.setContent(`<iframe id="f" src="${base}/admin/"></iframe>`);
    await page.waitForTimeout(1500);
    const frame = page.frames().find((f) => f.url().startsWith(base));
    const framedText = frame
      ? await frame.evaluate<string>("document.body?.innerText ?? ''").catch(() => '')
      : '';
    expect(framedText).not.toContain('Sign in with Gitea');
    await context.close();
  }, 30_000);
});
