// `npm run demo` (scripts/start.mjs --demo) turns per-user OAuth on against the simulator: it
// prints one "sign in as <login> / <password> (<role>)" line per seeded person, and a person can
// sign in through the simulated Gitea's own sign-in form and grant page with those credentials.
// Uses the built service (dist/, built by .ci/run before the tests; start.mjs builds when missing).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

/** Newest modification time of the .ts files under `dir`. */
function newest(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((max, entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? max : Math.max(max, newest(path));
    return entry.name.endsWith('.ts') ? Math.max(max, statSync(path).mtimeMs) : max;
  }, 0);
}

/** start.mjs runs dist/: rebuild it when the sources are newer (a stale dist would test old code). */
function ensureFreshBuild(): void {
  const built = join(ROOT, 'dist/src/main.js');
  const sources = Math.max(newest(join(ROOT, 'src')), newest(join(ROOT, 'test/simulator')));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  if (result.status !== 0) throw new Error('npm run build failed');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('npm run demo with OAuth', () => {
  let child: ChildProcess;
  let out = '';
  let base = '';

  beforeAll(async () => {
    ensureFreshBuild();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs'), '--demo'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const deadline = Date.now() + 240_000;
    while (!/"msg":"listening"/.test(out)) {
      if (child.exitCode !== null) throw new Error(`demo exited: ${out}`);
      if (Date.now() > deadline) throw new Error(`demo did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 300_000);

  afterAll(async () => {
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  });

  it('serves the built console under /admin, with sign-in through the simulated Gitea', async () => {
    expect(out).toContain(`Admin console   : ${base}/admin/`);
    const page = await fetch(`${base}/admin/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    const script = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect((await fetch(`${base}${script}`)).status).toBe(200);
    const signIn = await fetch(`${base}/admin/auth/sign-in`, { redirect: 'manual' });
    expect([302, 303]).toContain(signIn.status);
    expect(signIn.headers.get('location')).toMatch(/\/login\/oauth\/authorize\?/);
  });

  it('prints one sign-in line per seeded person', () => {
    const lines = out
      .split('\n')
      .filter((l) => /sign in as /.test(l))
      .map((l) => l.trim());
    expect(lines).toEqual([
      'sign in as admin / admin-password (site admin)',
      'sign in as alice / alice-password (org owner of acme)',
      'sign in as bob / bob-password (plain user)',
    ]);
  });

  it('lets a printed person sign in through the simulated Gitea', async () => {
    const cookies = new Map<string, string>();
    const go = async (url: string, form?: Record<string, string>): Promise<Response> => {
      const origin = new URL(url).origin;
      const cookie = [...cookies]
        .filter(([k]) => k.startsWith(origin))
        .map(([k, v]) => `${k.split(' ')[1]}=${v}`);
      const res = await fetch(url, {
        method: form ? 'POST' : 'GET',
        redirect: 'manual',
        headers: {
          ...(cookie.length ? { cookie: cookie.join('; ') } : {}),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: form ? new URLSearchParams(form) : undefined,
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair!.indexOf('=');
        cookies.set(`${origin} ${pair!.slice(0, eq)}`, pair!.slice(eq + 1));
      }
      return res;
    };
    const hidden = (html: string, name: string): string =>
      new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!.replace(/&amp;/g, '&');
    const [, login, password] = /sign in as (alice) \/ (\S+)/.exec(out)!;

    const start = await go(`${base}/auth/gitea/connect?access=write`);
    expect(start.status).toBe(302);
    const toLogin = await go(start.headers.get('location')!);
    expect(toLogin.status).toBe(303);
    const gitea = new URL(toLogin.headers.get('location')!).origin;
    const form = await (await go(toLogin.headers.get('location')!)).text();
    const action = /<form[^>]*action="([^"]+)"/.exec(form)![1]!.replace(/&amp;/g, '&');
    const signedIn = await go(`${gitea}${action}`, {
      _csrf: hidden(form, '_csrf'),
      user_name: login!,
      password: password!,
    });
    expect(signedIn.status).toBe(303);
    const grant = await (await go(signedIn.headers.get('location')!)).text();
    expect(grant).toContain('Authorize "AegisGitea-MCP (demo)" to access your account?');
    const fields = ['_csrf', 'client_id', 'state', 'scope', 'nonce', 'redirect_uri'];
    const approved = await go(`${gitea}/login/oauth/grant`, {
      ...Object.fromEntries(fields.map((f) => [f, hidden(grant, f)])),
      granted: 'true',
    });
    expect(approved.status).toBe(303);
    const done = await go(approved.headers.get('location')!);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Signed in through Gitea as alice');
  });
});
