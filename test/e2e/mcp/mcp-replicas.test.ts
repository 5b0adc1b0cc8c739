// Two service instances behind a round-robin proxy: a session-based client (2025-11-25, SDK 1.x) and
// a 2026-07-28 client (SDK 2.x) keep working while consecutive requests land on different replicas.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startGitea, type TestGitea } from './helpers/gitea';
import { BEARER, startMcpApp, testConfig, type McpApp } from './helpers/mcp-app';
import { connect, envelope } from './helpers/clients';

// Several services boot at once here: under load each boot may take most of the start limit.
jest.setTimeout(240_000);

function roundRobin(targets: string[]): Promise<{ url: string; hits: number[]; close(): Promise<void> }> {
  const hits = targets.map(() => 0);
  let next = 0;
  const server: Server = createServer((req, res) => {
    const index = next;
    next = (next + 1) % targets.length;
    hits[index] = (hits[index] ?? 0) + 1;
    const target = new URL(targets[index] as string);
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: req.method,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${port}/mcp`,
        hits,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    }),
  );
}

describe('two replicas behind a round-robin proxy', () => {
  let gitea: TestGitea;
  let replicas: McpApp[];
  let proxy: Awaited<ReturnType<typeof roundRobin>>;

  beforeAll(async () => {
    gitea = await startGitea();
    const config = testConfig(gitea.url, gitea.tokens.admin, { ALLOW_SUDO: 'true' });
    replicas = await Promise.all([startMcpApp(config), startMcpApp(config)]);
    proxy = await roundRobin(replicas.map((r) => r.url));
  });

  afterAll(async () => {
    await proxy?.close();
    await Promise.all((replicas ?? []).map((r) => r.close()));
    await gitea?.close();
  });

  it('serves a session-based client and a 2026-07-28 client without errors', async () => {
    const auth = { Authorization: `Bearer ${BEARER}` };
    const legacy = await connect(proxy.url, 'sdk1', '2025-11-25', auth);
    const modern = await connect(proxy.url, 'sdk2', '2026-07-28', auth);
    try {
      expect(legacy.sessionId).toBeTruthy();
      for (let i = 0; i < 6; i += 1) {
        const [a, b] = await Promise.all([
          legacy.callTool('userGetCurrent', {}),
          modern.callTool('userGetCurrent', {}),
        ]);
        expect(envelope(a).data.login).toBe('admin');
        expect(envelope(b).data.login).toBe('admin');
      }
      expect((await legacy.listTools()).length).toBeGreaterThan(300);
      expect((await modern.listTools()).length).toBeGreaterThan(300);
    } finally {
      await legacy.close();
      await modern.close();
    }
    expect(proxy.hits[0]).toBeGreaterThan(5);
    expect(proxy.hits[1]).toBeGreaterThan(5);
  });
});
