// Metrics on a port of their own (METRICS_PORT): the MCP port, which faces agents and the
// ingress, serves none unless METRICS_TOKEN is set, and then only to that bearer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configFromEnv } from '../../../src/config/env.schema';
import { createLogger } from '../../../src/infra/logging/logger';
import { startApp, type StartedApp } from '../../../src/main';

const env = { PORT: '0', DATA_DIR: 'memory://', GITEA_URL: 'http://127.0.0.1:9', LOG_LEVEL: 'silent' };
const start = (extra: Record<string, string> = {}) =>
  startApp(configFromEnv({ ...env, ...extra }), { logger: createLogger({ level: 'silent' }) });

describe('METRICS_PORT', () => {
  let started: StartedApp | undefined;
  afterEach(async () => {
    await started?.app.close();
    started = undefined;
  });

  it('serves /metrics on its own port and not on the MCP port', async () => {
    started = await start();
    const metricsPort = new URL(started.metricsUrl).port;
    expect(metricsPort).not.toBe(new URL(started.url).port);
    const res = await fetch(started.metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_heap_size_total_bytes');
    expect((await fetch(`${started.url}/metrics`)).status).toBe(404);
    // The metrics port serves nothing else (no MCP, no health).
    expect((await fetch(`http://127.0.0.1:${metricsPort}/mcp`)).status).toBe(404);
  }, 180_000);

  it('with METRICS_TOKEN, answers only to that bearer, on both ports', async () => {
    const token = 'metrics-token-0123456789abcdef0123';
    started = await start({ METRICS_TOKEN: token });
    expect((await fetch(started.metricsUrl)).status).toBe(401);
    const wrong = { authorization: 'Bearer not-the-token' };
    expect((await fetch(started.metricsUrl, { headers: wrong })).status).toBe(401);
    expect((await fetch(`${started.url}/metrics`, { headers: wrong })).status).toBe(401);
    const right = { authorization: `Bearer ${token}` };
    expect((await fetch(started.metricsUrl, { headers: right })).status).toBe(200);
    const onMcpPort = await fetch(`${started.url}/metrics`, { headers: right });
    expect(onMcpPort.status).toBe(200);
    expect(await onMcpPort.text()).toContain('process_cpu_user_seconds_total');
  }, 180_000);

  it('fails start-up when the metrics port is taken, and closes the MCP port again', async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    try {
      await expect(start({ METRICS_PORT: String(port) })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await new Promise<void>((resolve) => busy.close(() => resolve()));
    }
  }, 180_000);
});
