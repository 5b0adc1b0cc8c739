// The console in a real browser (playwright-core driving Debian's chromium at /usr/bin/chromium):
// the service serves the built web/ under /admin with anti-framing headers, the sign-in page
// works by keyboard at 1280 px and 390 px, axe-core finds no serious or critical violation, and
// the screenshots in docs/console/ come from this run.
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ConsoleModule } from '../../../src/modules/console/console.module';

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

/** web/dist is missing or older than a source of the console: the test builds it. */
function consoleOutdated(): boolean {
  const built = join(ROOT, 'web', 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const at = statSync(built).mtimeMs;
  const newer = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((e) =>
      e.isDirectory() ? newer(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs > at,
    );
  return newer(join(ROOT, 'web', 'src')) || statSync(join(ROOT, 'web', 'openapi', 'admin.json')).mtimeMs > at;
}

describe('console in chromium', () => {
  let app: INestApplication;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    if (consoleOutdated())
      execFileSync('node', [join(ROOT, 'scripts', 'console-build.mjs')], { stdio: 'inherit' });
    mkdirSync(SHOTS, { recursive: true });
    app = await NestFactory.create(ConsoleModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    base = `http://localhost:${(app.getHttpServer().address() as AddressInfo).port}`;
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
    const auth = await fetch(`${base}/admin/auth/session`);
    expect(auth.status).toBe(404);
    expect(auth.headers.get('content-type')).toContain('application/json');
  });

  for (const size of WIDTHS) {
    it(`sign-in page at ${size.width} px: Sign in with Gitea by keyboard, visible focus, axe clean`, async () => {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && !m.text().includes('404') && errors.push(m.text()));
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
