// Failed authentications on /mcp cannot flood the audit trail: per remote address, the first
// AUTH_FAILURES_PER_MINUTE failures are audited (401), the rest are answered 429 with Retry-After
// and reported as one summary record per window; a valid token from the same address still works.
import { startGitea, type TestGitea } from './helpers/gitea';
import { BEARER, startMcpApp, testConfig, type McpApp } from './helpers/mcp-app';
import { postInitialize } from '../helpers/mcp-http';

jest.setTimeout(120_000);

const post = (url: string, authorization: string): Promise<Response> =>
  postInitialize(url, authorization, { client: 'flood' });

describe('authentication failures per remote address', () => {
  let gitea: TestGitea;
  let app: McpApp;

  beforeAll(async () => {
    gitea = await startGitea();
    app = await startMcpApp(testConfig(gitea.url, gitea.tokens.admin, { AUTH_FAILURES_PER_MINUTE: '3' }), {
      recordAudit: true,
    });
  });
  afterAll(async () => {
    await app?.close();
    await gitea?.close();
  });

  it('audits the budget, answers 429 beyond it, and writes one summary for the rest', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await post(app.url, `Bearer wrong-token-${i}`);
      statuses.push(res.status);
      const body = (await res.json()) as { error: { message: string } };
      if (res.status === 401) expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
      if (res.status === 429) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(body.error.message).toMatch(/too many failed authentications/i);
      }
    }
    expect(statuses).toEqual([401, 401, 401, ...Array<number>(9).fill(429)]);

    // The limit is on failures: the right token from the same address is served.
    const ok = await post(app.url, `Bearer ${BEARER}`);
    expect(ok.status).toBe(200);
    await ok.text();

    await new Promise((resolve) => setTimeout(resolve, 300));
    const perRequest = app.audits().filter((a) => a.kind === 'mcp_unauthorized');
    expect(perRequest).toHaveLength(3);
    expect(app.audits().filter((a) => a.kind === 'mcp_unauthorized_suppressed')).toHaveLength(0);

    // The window is still open: its summary is written at the latest on shutdown.
    await app.close();
    const summaries = app.audits().filter((a) => a.kind === 'mcp_unauthorized_suppressed');
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({
      tool: 'mcp.authenticate',
      status: 429,
      login: null,
      arguments: { suppressed_failures: 9, remote: '127.0.0.1' },
    });
    expect(JSON.stringify(app.audits())).not.toContain('wrong-token');
  });
});
