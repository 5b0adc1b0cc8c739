// An operator's mistake shows at start, not as failing agents later: the real entry point
// refuses to start with one line per problem naming the variable and the fix; a busy port is
// one readable line; /readyz is not ready while Gitea is down (naming GITEA_URL and the error)
// or refuses the service token, and one probe a second serves every caller.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import request from 'supertest';
import type { INestApplication } from '@nestjs/common';
import pino from 'pino';
import { loadConfig } from '../../../src/config/env.schema';
import { createApp } from '../../../src/main';
import { MAIN_FROM_SOURCES, runChild } from './run-child';

const BEARER = 'fail-fast-bearer-token-0123456789abcdef';

const runMain = (env: Record<string, string>, untilStdout?: RegExp) =>
  runChild(
    MAIN_FROM_SOURCES,
    { DATA_DIR: 'memory://', HOST: '127.0.0.1', ...env },
    { ...(untilStdout ? { untilStdout } : {}), killAfterMs: 170_000 },
  );

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('the entry point refuses a configuration that cannot work', () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    [
      'no way to authenticate agents',
      { GITEA_TOKEN: 'token' },
      /MCP_BEARER_TOKEN is not set and per-user OAuth is off/,
    ],
    [
      'a 1-character bearer',
      { GITEA_TOKEN: 'token', MCP_BEARER_TOKEN: 'x' },
      /MCP_BEARER_TOKEN is 1 characters long; it must have at least 32/,
    ],
    [
      'a bearer with a space',
      { GITEA_TOKEN: 'token', MCP_BEARER_TOKEN: 'with a space inside 0123456789abcdef' },
      /MCP_BEARER_TOKEN must be printable ASCII without spaces/,
    ],
    [
      'OAuth without ENCRYPTION_KEY',
      { GITEA_OAUTH_CLIENT_ID: 'id', GITEA_OAUTH_CLIENT_SECRET: 'oauth-secret' },
      /ENCRYPTION_KEY is required when per-user OAuth is on/,
    ],
    [
      'a DISABLED_TOOLS pattern that matches nothing',
      { GITEA_TOKEN: 'token', MCP_BEARER_TOKEN: BEARER, DISABLED_TOOLS: 'repoDelete,admin_*' },
      /DISABLED_TOOLS pattern "admin_\*" matches no tool \(did you mean admin\*\?\)/,
    ],
    [
      'GITEA_URL ending in /api/v1',
      { GITEA_TOKEN: 'token', MCP_BEARER_TOKEN: BEARER, GITEA_URL: 'https://gitea.example.com/api/v1' },
      /GITEA_URL must be Gitea's base URL without \/api\/v1: use https:\/\/gitea\.example\.com/,
    ],
    [
      'SPEC_SOURCE=live over plain http to a host that is not loopback',
      {
        GITEA_TOKEN: 'token',
        MCP_BEARER_TOKEN: BEARER,
        SPEC_SOURCE: 'live',
        GITEA_URL: 'http://gitea.example.com',
      },
      /^ {2}- SPEC_SOURCE is live, which would read the API description \(it decides the tools and their routes\) over plain http from gitea\.example\.com: use an https:\/\/ GITEA_URL, or SPEC_SOURCE=bundled or a reviewed file$/m,
    ],
    [
      'the OAuth authorization server on an http PUBLIC_URL that is not loopback',
      {
        GITEA_OAUTH_CLIENT_ID: 'id',
        GITEA_OAUTH_CLIENT_SECRET: 'oauth-secret',
        ENCRYPTION_KEY: 'a'.repeat(64),
        PUBLIC_URL: 'http://mcp.example.com',
      },
      /^ {2}- PUBLIC_URL is http:\/\/mcp\.example\.com, but the OAuth authorization server \(AUTH_MODES oauth\) must be reached over https: set PUBLIC_URL to the https:\/\/ URL .*$/m,
    ],
  ];

  it.each(cases)(
    '%s: exit 1, one line naming the variable and the fix',
    async (_name, env, line) => {
      const result = await runMain(env);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(line);
      expect(result.stdout).not.toContain('listening');
      for (const value of Object.values(env).filter((v) => v.length > 5 && v !== 'token')) {
        if (!/^https?:/.test(value)) expect(result.stderr).not.toContain(value);
      }
    },
    60_000,
  );

  it('a busy PORT is one readable line, no stack trace, exit 1', async () => {
    const busy = createServer();
    const port = await listen(busy);
    try {
      const result = await runMain({
        GITEA_TOKEN: 'token',
        MCP_BEARER_TOKEN: BEARER,
        PORT: String(port),
        METRICS_PORT: '0',
      });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        `cannot listen on 127.0.0.1:${port}: PORT ${port} is already in use (is another AegisGitea-MCP or demo still running?): stop it, or choose another PORT`,
      ]);
      expect(result.stdout).not.toContain('"stack"');
    } finally {
      await close(busy);
    }
  }, 180_000);

  it('warns at start about http:// to a host that is not loopback', async () => {
    const result = await runMain(
      { GITEA_TOKEN: 'token', MCP_BEARER_TOKEN: BEARER, PORT: '0', GITEA_URL: 'http://gitea.invalid:3000' },
      /"msg":"listening"/,
    );
    expect(result.stdout).toMatch(/"level":"warn".*GITEA_URL uses http:\/\/ to gitea\.invalid:3000/);
  }, 180_000);
});

type FakeGitea = { server: Server; url: string; requests: string[]; version: string; userStatus: number };

async function fakeGitea(): Promise<FakeGitea> {
  const fake: FakeGitea = {
    server: createServer(),
    url: '',
    requests: [],
    version: '1.27.1',
    userStatus: 200,
  };
  fake.server.on('request', (req: IncomingMessage, res) => {
    fake.requests.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    if (req.url === '/api/v1/version') {
      res.end(JSON.stringify({ version: fake.version }));
    } else if (req.url === '/api/v1/user') {
      res.statusCode = fake.userStatus;
      const ok = fake.userStatus === 200;
      res.end(JSON.stringify(ok ? { login: 'svc', is_admin: false } : { message: 'token is required' }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  fake.url = `http://127.0.0.1:${await listen(fake.server)}`;
  return fake;
}

describe('/readyz', () => {
  let gitea: FakeGitea;
  let app: INestApplication;
  const logs: string[] = [];

  beforeAll(async () => {
    gitea = await fakeGitea();
    const config = loadConfig({
      PORT: '0',
      DATA_DIR: 'memory://',
      GITEA_URL: gitea.url,
      GITEA_TOKEN: 'service-token',
      MCP_BEARER_TOKEN: BEARER,
      GITEA_TIMEOUT_MS: '2000',
    });
    const sink = new Writable({
      write: (chunk: Buffer, _enc, done) => (logs.push(chunk.toString()), done()),
    });
    app = await createApp(config, { logger: pino({ level: 'info' }, sink) });
    await app.init();
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    if (gitea.server.listening) await close(gitea.server);
  });
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('is ready when Gitea answers and accepts the service token', async () => {
    const res = await request(app.getHttpServer()).get('/readyz').expect(200);
    expect(res.body.info.gitea).toEqual({ status: 'up', version: '1.27.1', serviceToken: 'accepted' });
    expect(JSON.stringify(res.body)).not.toContain('service-token');
  });

  it('answers a burst from one probe (cached for about a second)', async () => {
    await pause(1_100);
    gitea.requests.length = 0;
    const server = app.getHttpServer();
    await Promise.all(Array.from({ length: 25 }, () => request(server).get('/readyz').expect(200)));
    expect(gitea.requests).toEqual(['/api/v1/version', '/api/v1/user']);
    await pause(1_100);
    await request(server).get('/readyz').expect(200);
    expect(gitea.requests).toHaveLength(4);
  });

  it('is not ready while Gitea refuses the service token, and says so', async () => {
    gitea.userStatus = 401;
    await pause(1_100);
    const res = await request(app.getHttpServer()).get('/readyz').expect(503);
    expect(res.body.error.gitea.status).toBe('down');
    expect(res.body.error.gitea.message).toMatch(
      /^Gitea refused the service token \(HTTP 401\): set GITEA_TOKEN/,
    );
    expect(res.body.info.database.status).toBe('up');
    expect(logs.join('')).toMatch(/"level":40.*not ready: Gitea refused the service token/);
    gitea.userStatus = 200;
    await pause(1_100);
    await request(app.getHttpServer()).get('/readyz').expect(200);
    expect(logs.join('')).toContain('Gitea is reachable again');
  });

  it('warns once when Gitea is older than 1.26.2', async () => {
    // The version is checked on the first probe that sees one: a fresh app against an old Gitea.
    const old = await fakeGitea();
    old.version = '1.25.3';
    const lines: string[] = [];
    const sink = new Writable({
      write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()),
    });
    const config = loadConfig({
      PORT: '0',
      DATA_DIR: 'memory://',
      GITEA_URL: old.url,
      GITEA_TIMEOUT_MS: '2000',
    });
    const oldApp = await createApp(config, { logger: pino({ level: 'info' }, sink) });
    try {
      await oldApp.init();
      await request(oldApp.getHttpServer()).get('/readyz').expect(200);
      await pause(1_100);
      await request(oldApp.getHttpServer()).get('/readyz').expect(200);
      const warnings = lines.filter((line) => line.includes('older than 1.26.2'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(
        'Gitea 1.25.3 is older than 1.26.2: before it, OAuth tokens sent as Basic auth bypassed their scopes',
      );
    } finally {
      await oldApp.close();
      await close(old.server);
    }
  }, 180_000);

  it('is not ready while Gitea is unreachable, naming GITEA_URL and the error', async () => {
    await close(gitea.server);
    await pause(1_100);
    const res = await request(app.getHttpServer()).get('/readyz').expect(503);
    expect(res.body.error.gitea.message).toBe(
      `Gitea at GITEA_URL ${gitea.url} is unreachable: connect ECONNREFUSED ${gitea.url.slice(7)}`,
    );
    expect(logs.join('')).toContain(`not ready: Gitea at GITEA_URL ${gitea.url} is unreachable`);
  });
});
