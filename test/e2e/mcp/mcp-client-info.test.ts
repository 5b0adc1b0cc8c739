// The MCP client's name and version reach the audit record for every protocol revision: from
// `initialize` for the session-based ones and from the `_meta` envelope for 2026-07-28, which the
// SDK strips before the tool handler runs. Checked on what the AuditSink receives.
import { connect } from './helpers/clients';
import { startGitea, type TestGitea } from './helpers/gitea';
import { BEARER, startMcpApp, testConfig, type McpApp } from './helpers/mcp-app';

jest.setTimeout(120_000);

const MODERN = '2026-07-28';

type Audit = Record<string, unknown>;

async function auditOf(app: McpApp, match: (a: Audit) => boolean): Promise<Audit> {
  const until = Date.now() + 10_000;
  for (;;) {
    const found = app.audits().find(match);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no matching audit entry in ${JSON.stringify(app.audits())}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function rawModernCall(url: string, id: number, clientInfo: unknown): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${BEARER}`,
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'userGetCurrent',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'userGetCurrent',
        arguments: { marker: id },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': clientInfo,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  await response.text();
  return response.status;
}

describe('MCP client info in audit records', () => {
  let gitea: TestGitea;
  let app: McpApp;

  beforeAll(async () => {
    gitea = await startGitea();
    app = await startMcpApp(testConfig(gitea.url, gitea.tokens.admin), { recordAudit: true });
  });
  afterAll(async () => {
    await app?.close();
    await gitea?.close();
  });

  it.each([
    ['sdk2', MODERN],
    ['sdk1', '2025-11-25'],
    ['sdk2', '2025-06-18'],
  ] as const)('records the client of a %s %s call', async (line, version) => {
    const client = await connect(app.url, line, version, { authorization: `Bearer ${BEARER}` });
    try {
      const result = await client.callTool('repoGet', { owner: 'acme', repo: `${line}-${version}` });
      expect(result.isError).toBe(true); // not_found is fine: only the audit record matters here
    } finally {
      await client.close();
    }
    const entry = await auditOf(
      app,
      (a) => a.tool === 'repoGet' && (a.arguments as { repo?: string }).repo === `${line}-${version}`,
    );
    expect(entry).toMatchObject({ clientName: `e2e-${line}-${version}`, clientVersion: '1.0.0' });
  });

  it('validates the 2026-07-28 envelope client info: strings only, control characters dropped, bounded', async () => {
    const long = await rawModernCall(app.url, 1, {
      name: `agent\u001b[2J${'n'.repeat(400)}`,
      version: `9.9\n${'v'.repeat(400)}`,
    });
    expect(long).toBe(200);
    const entry = await auditOf(app, (a) => (a.arguments as { marker?: number }).marker === 1);
    expect(entry.clientName).toBe(`agent[2J${'n'.repeat(92)}`);
    expect(entry.clientVersion).toBe(`9.9${'v'.repeat(47)}`);

    // The SDK refuses an envelope whose clientInfo is not an Implementation; either way, nothing
    // that is not a string ever reaches the record.
    const typed = await rawModernCall(app.url, 2, { name: 42, version: { x: 1 } });
    if (typed === 200) {
      const typedEntry = await auditOf(app, (a) => (a.arguments as { marker?: number }).marker === 2);
      expect(typedEntry).toMatchObject({ clientName: null, clientVersion: null });
    } else {
      expect(typed).toBe(400);
      expect(app.audits().some((a) => (a.arguments as { marker?: number }).marker === 2)).toBe(false);
    }
  });
});
