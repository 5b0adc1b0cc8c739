// Issue 11, one exit: every tools/call leaves exactly one audit record, whatever ends it: a sudo
// refusal, the rate limit (429), the concurrency limit (503), the deadline (504, and no second
// record when Gitea answers later), an unknown tool. Metrics and log lines carry only catalogue
// names, so a caller-chosen name cannot grow /metrics. Raw HTTP against the service's MCP path.
import { startGitea, type TestGitea } from './helpers/gitea';
import { BEARER, startMcpApp, testConfig, type McpApp } from './helpers/mcp-app';

// Several services boot at once here: under load each boot may take most of the start limit.
jest.setTimeout(240_000);

const MODERN = '2026-07-28';
const meta = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function call(
  app: McpApp,
  id: number,
  name: string,
  args: unknown = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any; retryAfter: string | null }> {
  const response = await fetch(app.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${BEARER}`,
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': name,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args, _meta: meta },
    }),
  });
  const text = await response.text();
  return {
    status: response.status,
    json: text ? JSON.parse(text) : null,
    retryAfter: response.headers.get('retry-after'),
  };
}

async function settle(app: McpApp, count: number): Promise<Array<Record<string, any>>> {
  const deadline = Date.now() + 10_000;
  while (app.audits().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return app.audits();
}

describe('one exit for every tools/call', () => {
  let gitea: TestGitea;
  let app: McpApp;
  let limited: McpApp;
  let noSudo: McpApp;

  beforeAll(async () => {
    gitea = await startGitea();
    [app, limited, noSudo] = await Promise.all([
      startMcpApp(
        testConfig(gitea.url, gitea.tokens.admin, {
          MAX_CONCURRENT_PER_IDENTITY: '1',
          REQUEST_TIMEOUT_MS: '800',
          RATE_LIMIT_PER_MINUTE: '0',
        }),
        { recordAudit: true },
      ),
      startMcpApp(testConfig(gitea.url, gitea.tokens.admin, { RATE_LIMIT_PER_MINUTE: '2' }), {
        recordAudit: true,
      }),
      startMcpApp(testConfig(gitea.url, gitea.tokens.alice, { ALLOW_SUDO: 'false' }), { recordAudit: true }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([app?.close(), limited?.close(), noSudo?.close()]);
    await gitea?.close();
  });

  it('audits a sudo refusal', async () => {
    const res = await call(noSudo, 1, 'userGetCurrent', {}, { 'x-gitea-sudo': 'bob' });
    expect(JSON.parse(res.json.result.content[0].text).error).toMatchObject({
      status: 403,
      kind: 'forbidden',
    });
    const audits = await settle(noSudo, 1);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      tool: 'userGetCurrent',
      kind: 'forbidden',
      status: 403,
      login: 'alice',
    });
  });

  it('audits calls refused by the rate limit (429)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await call(limited, i, 'userGetCurrent')).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    const audits = await settle(limited, 4);
    expect(audits.map((a) => a.kind)).toEqual([null, null, 'rate_limited', 'rate_limited']);
    expect(audits[2]).toMatchObject({ tool: 'userGetCurrent', operationId: 'userGetCurrent', status: 429 });
  });

  it('audits the deadline once (504), the concurrency refusal (503) and never the late Gitea answer', async () => {
    const stop = gitea.sim.faults.set({ pathPrefix: '/api/v1/repos/acme/widgets', latencyMs: 2_500 });
    try {
      const before = app.audits().length;
      // One slot: the first call holds it until its deadline, the second waits for it and then holds
      // it until its own deadline, the third waits longer than REQUEST_TIMEOUT_MS and is refused.
      const later = (ms: number, id: number) =>
        new Promise((r) => setTimeout(r, ms)).then(() =>
          call(app, id, 'repoGet', { owner: 'acme', repo: 'widgets' }),
        );
      const answers = await Promise.all([later(0, 1), later(100, 2), later(200, 3)]);
      const crowded = answers.filter((a) => a.status === 503);
      const slow = answers.filter((a) => a.status === 200);
      expect(crowded).toHaveLength(1);
      expect(crowded[0]!.retryAfter).toBe('1');
      for (const answer of slow)
        expect(JSON.parse(answer.json.result.content[0].text).error).toMatchObject({
          status: 504,
          kind: 'timeout',
        });
      // Gitea answers the slow call after 2.5 s: that answer must not become a second record.
      await new Promise((r) => setTimeout(r, 3_000));
      const audits = app.audits().slice(before);
      expect(audits.map((a) => [a.kind, a.status]).sort()).toEqual([
        ['concurrency_limited', 503],
        ['timeout', 504],
        ['timeout', 504],
      ]);
      expect(audits.every((a) => a.org === 'acme' && a.repo === 'widgets')).toBe(true);
    } finally {
      stop();
    }
  });

  it('audits an unknown tool and keeps caller-chosen names out of metrics and logs', async () => {
    const before = app.audits().length;
    const name = `x${'y'.repeat(8_000)}`;
    for (let i = 0; i < 2; i += 1) {
      const res = await call(app, 10 + i, `${name}${i}`);
      expect(res.json.error.code).toBe(-32602);
    }
    const audits = (await settle(app, before + 2)).slice(before);
    expect(audits).toHaveLength(2);
    expect(audits.every((a) => a.kind === 'unknown_tool' && a.tool.length <= 200)).toBe(true);
    // A refusal that comes before the catalogue lookup (sudo) must not label the name either.
    const refusedBefore = noSudo.audits().length;
    for (let i = 0; i < 2; i += 1) {
      const res = await call(noSudo, 20 + i, `${name}${i}`, {}, { 'x-gitea-sudo': 'bob' });
      expect(JSON.parse(res.json.result.content[0].text).error.kind).toBe('forbidden');
    }
    expect((await settle(noSudo, refusedBefore + 2)).slice(refusedBefore)).toHaveLength(2);
    for (const logs of [app.logs(), noSudo.logs()]) {
      const lines = logs.split('\n').filter((l) => l.includes('"event":"tool_call"'));
      expect(lines.some((l) => l.includes('yyyyyyyyyy'))).toBe(false);
      expect(lines.some((l) => l.includes('"tool":"(unknown)"'))).toBe(true);
    }
  });
});
