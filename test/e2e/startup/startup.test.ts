// The service as a whole: a bad environment stops start-up naming every bad variable (and no
// secret value); a good one boots on embedded defaults (PGlite in memory, in-process queue),
// serves /healthz, /readyz and /metrics, and shuts down cleanly on SIGTERM.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { INestApplication } from '@nestjs/common';
import { loadConfig } from '../../../src/config/env.schema';
import { createLogger } from '../../../src/infra/logging/logger';
import { createApp } from '../../../src/main';
import { MAIN_FROM_SOURCES, runChild, type ChildOptions } from './run-child';

// The entry point transpiled from sources takes a while under load: 170 s, as in fail-fast.
const runMain = (env: Record<string, string>, options: ChildOptions = {}) =>
  runChild(MAIN_FROM_SOURCES, env, { killAfterMs: 170_000, ...options });

function fakeGitea(): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url === '/api/v1/version') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ version: '1.27.1' }));
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('start-up with a bad configuration', () => {
  it('exits non-zero and names every bad variable without echoing secrets', async () => {
    const result = await runMain({
      MAX_BINARY_BYTES: 'abc',
      SECRET_DETECTION_MODE: 'loud',
      PORT: '99999',
      ENCRYPTION_KEY: 'super-secret-value-that-is-wrong',
      DATABASE_URL: 'mysql://user:hunter2@db/x',
    });
    expect(result.code).toBe(1);
    for (const name of [
      'MAX_BINARY_BYTES',
      'SECRET_DETECTION_MODE',
      'PORT',
      'ENCRYPTION_KEY',
      'DATABASE_URL',
    ]) {
      expect(result.stderr).toContain(name);
    }
    expect(result.stderr).toContain('5 problems');
    expect(result.stderr).not.toContain('super-secret-value');
    expect(result.stderr).not.toContain('hunter2');
    expect(result.stderr).not.toContain('loud');
  }, 180_000);
});

describe('a running service on embedded defaults', () => {
  let gitea: Server;
  let app: INestApplication;

  beforeAll(async () => {
    gitea = await fakeGitea();
    const config = loadConfig({
      PORT: '0',
      DATA_DIR: 'memory://',
      GITEA_URL: `http://127.0.0.1:${(gitea.address() as AddressInfo).port}`,
      GITEA_TIMEOUT_MS: '2000',
    });
    app = await createApp(config, { logger: createLogger({ level: 'silent' }) });
    await app.init();
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    if (gitea.listening) await close(gitea);
  });

  it('answers /healthz', async () => {
    const res = await request(app.getHttpServer()).get('/healthz').expect(200);
    expect(res.body).toMatchObject({ status: 'ok', info: { process: { status: 'up' } } });
  });

  it('reports the database and Gitea ready on /readyz (no Redis configured)', async () => {
    const res = await request(app.getHttpServer()).get('/readyz').expect(200);
    expect(res.body.info).toMatchObject({
      database: { status: 'up', kind: 'pglite' },
      gitea: { status: 'up', version: '1.27.1' },
    });
    expect(res.body.info.redis).toBeUndefined();
  });

  it('does not serve metrics on the MCP port without METRICS_TOKEN (they live on METRICS_PORT)', async () => {
    // test/e2e/startup/metrics-port.test.ts covers the metrics listener itself.
    await request(app.getHttpServer()).get('/metrics').expect(404);
  });

  it('turns /readyz to 503 when Gitea stops answering', async () => {
    await close(gitea);
    // Readiness results are reused for a second (test/e2e/startup/fail-fast.test.ts).
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const res = await request(app.getHttpServer()).get('/readyz').expect(503);
    expect(res.body.error.gitea.status).toBe('down');
    expect(res.body.info.database.status).toBe('up');
  });
});

describe('the real entry point', () => {
  it('binds to HOST:PORT, migrates the embedded database, and exits 0 on SIGTERM', async () => {
    const result = await runMain(
      {
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: 'memory://',
        LOG_LEVEL: 'info',
        SHUTDOWN_TIMEOUT_MS: '10000',
        GITEA_TOKEN: 'gitea-service-token',
        MCP_BEARER_TOKEN: 'entry-point-bearer-token-0123456789',
      },
      { untilStdout: /"msg":"listening"/ },
    );
    const lines = result.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const listening = lines.find((line) => line.msg === 'listening');
    expect(listening?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines.some((line) => line.msg === 'applied migration 20260101000000_audit_records')).toBe(true);
    expect(lines.some((line) => line.msg === 'shutting down')).toBe(true);
    expect(result.stderr).toBe('');
    expect(result.code === 0 || result.signal === 'SIGTERM').toBe(true);
  }, 180_000);
});
