// Every protocol version with the official clients of both SDK lines: initialize, tools/list in
// full and discovery mode, tools/call as the service identity and with sudo.
import { startGitea, type TestGitea } from './helpers/gitea';
import { BEARER, startMcpApp, testConfig, type McpApp } from './helpers/mcp-app';
import { CLIENTS, connect, envelope } from './helpers/clients';

jest.setTimeout(120_000);

describe('MCP endpoint across protocol versions and SDK lines', () => {
  let sim: TestGitea;
  let full: McpApp;
  let discovery: McpApp;
  const auth = { Authorization: `Bearer ${BEARER}` };

  beforeAll(async () => {
    sim = await startGitea();
    full = await startMcpApp(testConfig(sim.url, sim.tokens.admin, { ALLOW_SUDO: 'true' }));
    discovery = await startMcpApp(testConfig(sim.url, sim.tokens.admin, { TOOL_MODE: 'discovery' }));
  });

  afterAll(async () => {
    await full?.close();
    await discovery?.close();
    await sim?.close();
  });

  describe.each(CLIENTS)('$line client at $version', ({ line, version }) => {
    it('initializes, lists every tool and calls one as the service identity', async () => {
      const client = await connect(full.url, line, version, auth);
      try {
        expect(client.version).toBe(version);
        if (version === '2026-07-28') expect(client.sessionId).toBeUndefined();
        else expect(client.sessionId).toEqual(expect.any(String));
        const tools = await client.listTools();
        expect(tools.length).toBeGreaterThan(300);
        expect(tools.map((t) => t.name)).toEqual(
          expect.arrayContaining(['userGetCurrent', 'repoGet', 'gitea_api_request']),
        );

        const me = envelope(await client.callTool('userGetCurrent', {}));
        expect(me.identity).toEqual({ login: 'admin', mode: 'token', sudo: null });
        expect(me.status).toBe(200);
        expect(me.data.login).toBe('admin');
      } finally {
        await client.close();
      }
    });

    it('acts as another user with the X-Gitea-Sudo header and with _meta', async () => {
      const viaHeader = await connect(full.url, line, version, { ...auth, 'X-Gitea-Sudo': 'alice' });
      try {
        const asAlice = envelope(await viaHeader.callTool('userGetCurrent', {}));
        expect(asAlice.identity).toEqual({ login: 'admin', mode: 'token', sudo: 'alice' });
        expect(asAlice.data.login).toBe('alice');
      } finally {
        await viaHeader.close();
      }
      const client = await connect(full.url, line, version, auth);
      try {
        const asBob = envelope(await client.callTool('userGetCurrent', {}, { 'aegis/sudo': 'bob' }));
        expect(asBob.identity.sudo).toBe('bob');
        expect(asBob.data.login).toBe('bob');
      } finally {
        await client.close();
      }
    });

    it('answers an unknown tool with JSON-RPC invalid params', async () => {
      const client = await connect(full.url, line, version, auth);
      try {
        await expect(client.callTool('noSuchTool', {})).rejects.toMatchObject({ code: -32602 });
      } finally {
        await client.close();
      }
    });

    it('lists only the meta-tools in discovery mode and calls through them', async () => {
      const client = await connect(discovery.url, line, version, auth);
      try {
        const tools = await client.listTools();
        expect(tools.length).toBeGreaterThan(0);
        expect(tools.length).toBeLessThan(10);
        // The server's instructions tell the agent how the four tools fit together (issue 17).
        for (const name of ['gitea_search_tools', 'gitea_describe_tool', 'gitea_call_tool', 'next_cursor'])
          expect(client.instructions).toContain(name);
        const found = envelope(await client.callTool('gitea_search_tools', { query: 'which user am I' }));
        expect(JSON.stringify(found)).toContain('userGetCurrent');
      } finally {
        await client.close();
      }
    });
  });
});
