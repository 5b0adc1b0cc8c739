// `npm run demo` prints its banner (URL, token, client config) only once the service listens,
// with the port it really got; a busy port ends it with the service's one-line reason and no
// banner (no fresh token printed for a demo that is not running). Runs scripts/start.mjs on the
// built service (built here first when dist/ is older than the sources).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { ROOT, runChild } from './run-child';

const runDemo = (env: Record<string, string>, untilStdout?: RegExp) =>
  runChild([join(ROOT, 'scripts/start.mjs'), '--demo'], env, {
    ...(untilStdout ? { untilStdout } : {}),
    killAfterMs: 200_000,
  });

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

beforeAll(() => {
  const main = join(ROOT, 'dist/src/main.js');
  const sources = Math.max(newestMtime(join(ROOT, 'src')), newestMtime(join(ROOT, 'test/simulator')));
  if (!existsSync(main) || statSync(main).mtimeMs < sources) {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  }
}, 300_000);

describe('npm run demo', () => {
  it('prints the banner after the service listens, with the real port (PORT=0)', async () => {
    const result = await runDemo({ PORT: '0' }, /Stop with Ctrl\+C/);
    const listening = result.stdout.indexOf('"msg":"listening"');
    const banner = result.stdout.indexOf('AegisGitea-MCP demo');
    expect(listening).toBeGreaterThanOrEqual(0);
    expect(banner).toBeGreaterThan(listening);
    const endpoint = /MCP endpoint {4}: http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(result.stdout);
    expect(endpoint).not.toBeNull();
    expect(Number(endpoint![1])).toBeGreaterThan(0);
    // PUBLIC_URL follows the real port too.
    expect(result.stdout).toContain(`"publicUrl":"http://127.0.0.1:${endpoint![1]}"`);
    expect(result.stdout).toMatch(/Metrics {9}: http:\/\/127\.0\.0\.1:\d+\/metrics/);
  }, 240_000);

  it('on a busy port: one line saying so, exit 1, and no banner or token', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    try {
      const result = await runDemo({ PORT: String(port) });
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(
        `cannot listen on 127.0.0.1:${port}: PORT ${port} is already in use (is another AegisGitea-MCP or demo still running?): stop it, or choose another PORT`,
      );
      expect(result.stdout).not.toContain('Bearer token');
      expect(result.stdout).not.toContain('"stack"');
    } finally {
      await new Promise<void>((resolve) => busy.close(() => resolve()));
    }
  }, 240_000);
});
