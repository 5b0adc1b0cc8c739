// ADR 0006: with Redis, a session ended (DELETE) on one replica is refused by every other replica
// as soon as the DELETE is answered, although each replica answers from its own copy of the ended
// sessions; a replica started later loads the ends made before it.
import { startGitea, type TestGitea } from './helpers/gitea';
import { BEARER, startMcpApp, testConfig, type McpApp } from './helpers/mcp-app';

jest.setTimeout(240_000);

const REDIS_URL = process.env.TEST_REDIS_URL?.trim() || null;
if (!REDIS_URL)
  process.stderr.write('SKIPPED session end across replicas [redis]: TEST_REDIS_URL is not set\n');
const withRedis = (name: string, body: () => void): void => (REDIS_URL ? describe(name, body) : undefined);
if (!REDIS_URL) it('needs TEST_REDIS_URL', () => expect(REDIS_URL).toBeNull());

async function send(
  url: string,
  method: 'POST' | 'DELETE',
  session: string | null,
  body?: unknown,
): Promise<{ status: number; session: string | null }> {
  const response = await fetch(url, {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${BEARER}`,
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  await response.text();
  return { status: response.status, session: response.headers.get('mcp-session-id') };
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const call = {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'userGetCurrent', arguments: {} },
};

withRedis('ending a session across replicas sharing Redis', () => {
  let gitea: TestGitea;
  const replicas: McpApp[] = [];

  beforeAll(async () => {
    gitea = await startGitea();
  });

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    await gitea?.close();
  });

  it('refuses on every replica a session another replica ended, at once and later', async () => {
    const config = testConfig(gitea.url, gitea.tokens.admin, { REDIS_URL: REDIS_URL! });
    replicas.push(
      ...(await Promise.all([startMcpApp(config, { full: true }), startMcpApp(config, { full: true })])),
    );
    const [a, b] = replicas as [McpApp, McpApp];
    const ended: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { status, session } = await send(b.url, 'POST', null, initialize);
      expect(status).toBe(200);
      expect((await send(b.url, 'POST', session, call)).status).toBe(200);
      expect((await send(a.url, 'DELETE', session)).status).toBe(200);
      // The very next request, on the other replica: refused.
      expect([i, (await send(b.url, 'POST', session, call)).status]).toEqual([i, 404]);
      ended.push(session!);
    }
    // A replica that starts after the ends knows them before it answers from its copy.
    const c = await startMcpApp(config, { full: true });
    replicas.push(c);
    for (const session of ended) expect((await send(c.url, 'POST', session, call)).status).toBe(404);
    const live = (await send(c.url, 'POST', null, initialize)).session;
    expect((await send(a.url, 'POST', live, call)).status).toBe(200);
  });
});
