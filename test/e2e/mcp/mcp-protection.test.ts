// Transport-level protections and errors, driven with raw HTTP so the status codes and headers are
// visible: 401 + WWW-Authenticate, 403 Origin, 400 version problems, 413, 429 + Retry-After, JSON-RPC errors.
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

type Opts = { headers?: Record<string, string>; body?: unknown; raw?: string; method?: string };

async function post(url: string, opts: Opts): Promise<{ status: number; headers: Headers; json: any }> {
  const response = await fetch(url, {
    method: opts.method ?? 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${BEARER}`,
      ...opts.headers,
    },
    ...(opts.method === 'GET' || opts.method === 'DELETE'
      ? {}
      : { body: opts.raw ?? JSON.stringify(opts.body) }),
  });
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: response.status, headers: response.headers, json };
}

const modernCall = (id: number, name: string, args: unknown = {}) => ({
  body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: meta } },
  headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name },
});

async function legacySession(url: string, version: string): Promise<string> {
  const init = await post(url, {
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    },
  });
  expect(init.status).toBe(200);
  expect(init.json.result.protocolVersion).toBe(version);
  const session = init.headers.get('mcp-session-id');
  expect(session).toBeTruthy();
  return session as string;
}

describe('MCP endpoint protections', () => {
  let gitea: TestGitea;
  let app: McpApp;
  let limited: McpApp;
  let noSudo: McpApp;

  beforeAll(async () => {
    gitea = await startGitea();
    [app, limited, noSudo] = await Promise.all([
      startMcpApp(
        testConfig(gitea.url, gitea.tokens.admin, {
          ALLOW_SUDO: 'true',
          MCP_ALLOWED_ORIGINS: 'https://console.example.com',
          MCP_MAX_BODY_BYTES: '65536',
        }),
      ),
      startMcpApp(testConfig(gitea.url, gitea.tokens.admin, { RATE_LIMIT_PER_MINUTE: '3' })),
      startMcpApp(testConfig(gitea.url, gitea.tokens.alice, { ALLOW_SUDO: 'true' })),
    ]);
  }, 180_000); // three services start at once; under load that takes longer than the 60 s default

  afterAll(async () => {
    await Promise.all([app?.close(), limited?.close(), noSudo?.close()]);
    await gitea?.close();
  });

  it('refuses a missing or wrong bearer token with 401 and a Bearer challenge', async () => {
    for (const headers of [
      { authorization: '' },
      { authorization: 'Bearer wrong-token' },
      { authorization: `Basic ${BEARER}` },
    ]) {
      const res = await post(app.url, {
        ...modernCall(1, 'userGetCurrent'),
        headers: { ...modernCall(1, 'userGetCurrent').headers, ...headers },
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="aegis-gitea-mcp"/);
      expect(JSON.stringify(res.json)).not.toContain(BEARER);
    }
    const wrong = await post(app.url, {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('answers a malformed Bearer header with 400 invalid_request (checklist A5), other schemes with 401', async () => {
    for (const authorization of [
      'Bearer',
      'Bearer ',
      `Bearer ${BEARER} extra`,
      'Bearer \u00e9t\u00e9',
      'bearer\tx',
    ]) {
      const res = await post(app.url, {
        ...modernCall(1, 'userGetCurrent'),
        headers: { ...modernCall(1, 'userGetCurrent').headers, authorization },
      });
      expect({ authorization, status: res.status }).toEqual({ authorization, status: 400 });
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_request"');
      expect(JSON.stringify(res.json)).toContain('Malformed Authorization header');
      expect(JSON.stringify(res.json)).not.toContain(BEARER);
    }
    // No credentials of a scheme we know: 401 without an error code (RFC 6750 3.1).
    const basic = await post(app.url, {
      ...modernCall(1, 'userGetCurrent'),
      headers: { ...modernCall(1, 'userGetCurrent').headers, authorization: `Basic ${BEARER}` },
    });
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).not.toContain('error=');
  });

  it('answers server/discover on 2026-07-28 (checklist A11) with the versions and capabilities', async () => {
    const res = await post(app.url, {
      body: { jsonrpc: '2.0', id: 9, method: 'server/discover', params: { _meta: meta } },
      headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' },
    });
    expect(res.status).toBe(200);
    // DiscoverResult: the stateless revision served per request (the session-based ones are reached
    // through initialize), the capabilities, the identity in _meta and the caching hints.
    expect(res.json.result).toMatchObject({
      supportedVersions: [MODERN],
      capabilities: expect.objectContaining({ tools: expect.any(Object) }),
      resultType: 'complete',
      ttlMs: expect.any(Number),
      cacheScope: expect.stringMatching(/^(private|public)$/),
      _meta: {
        'io.modelcontextprotocol/serverInfo': { name: 'aegis-gitea-mcp', version: expect.any(String) },
      },
    });
    // Unauthenticated, it is refused like any other request.
    const anonymous = await post(app.url, {
      body: { jsonrpc: '2.0', id: 10, method: 'server/discover', params: { _meta: meta } },
      headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover', authorization: '' },
    });
    expect(anonymous.status).toBe(401);
  });

  it('never takes a session id as authentication', async () => {
    const session = await legacySession(app.url, '2025-11-25');
    const res = await post(app.url, {
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      headers: { authorization: '', 'mcp-session-id': session },
    });
    expect(res.status).toBe(401);
  });

  it('refuses a foreign Origin with 403 and accepts an allowed one', async () => {
    const bad = await post(app.url, {
      ...modernCall(1, 'userGetCurrent'),
      headers: { ...modernCall(1, 'userGetCurrent').headers, origin: 'http://evil.example' },
    });
    expect(bad.status).toBe(403);
    const good = await post(app.url, {
      ...modernCall(2, 'userGetCurrent'),
      headers: { ...modernCall(2, 'userGetCurrent').headers, origin: 'https://console.example.com' },
    });
    expect(good.status).toBe(200);
    expect(good.headers.get('access-control-allow-origin')).toBe('https://console.example.com');
  });

  it('answers 400 for a 2026-07-28 header/body version mismatch and for an unsupported version', async () => {
    const call = modernCall(3, 'userGetCurrent');
    const mismatch = await post(app.url, {
      body: call.body,
      headers: { ...call.headers, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.error.code).toBe(-32020);
    const future = {
      ...call.body,
      params: {
        ...call.body.params,
        _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
      },
    };
    const unsupported = await post(app.url, {
      body: future,
      headers: { ...call.headers, 'mcp-protocol-version': '2099-01-01' },
    });
    expect(unsupported.status).toBe(400);
    expect(unsupported.json.error.code).toBe(-32022);
    expect(unsupported.json.error.data.supported).toContain(MODERN);
  });

  it('answers 400 when a session request names another version than the session negotiated', async () => {
    const session = await legacySession(app.url, '2025-06-18');
    const ok = await post(app.url, {
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.result.tools.length).toBeGreaterThan(0);
    const mismatch = await post(app.url, {
      body: { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(mismatch.status).toBe(400);
    const unknown = await post(app.url, {
      body: { jsonrpc: '2.0', id: 4, method: 'tools/list' },
      headers: { 'mcp-session-id': session, 'mcp-protocol-version': '1999-01-01' },
    });
    expect(unknown.status).toBe(400);
  });

  it('handles sessions: 400 without one, 404 when forged or ended, DELETE ends it', async () => {
    const missing = await post(app.url, { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(missing.status).toBe(400);
    const forged = await post(app.url, {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { 'mcp-session-id': 'eyJ2IjoiMjAyNS0xMS0yNSJ9.AAAA' },
    });
    expect(forged.status).toBe(404);
    const session = await legacySession(app.url, '2025-11-25');
    const del = await post(app.url, { method: 'DELETE', headers: { 'mcp-session-id': session } });
    expect(del.status).toBe(200);
    const after = await post(app.url, {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { 'mcp-session-id': session },
    });
    expect(after.status).toBe(404);
    // The same session spelled another way (characters the base64url decoder skips) stays ended.
    for (const variant of [`${session}=`, `${session}!`, `${session}~`]) {
      const again = await post(app.url, {
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        headers: { 'mcp-session-id': variant },
      });
      expect([variant, again.status]).toEqual([variant, 404]);
    }
    const get = await post(app.url, { method: 'GET' });
    expect(get.status).toBe(405);
  });

  it('refuses an oversize body with 413', async () => {
    const call = modernCall(5, 'gitea_api_request', {
      method: 'POST',
      path: '/markdown',
      body: { Text: 'x'.repeat(100_000) },
    });
    const res = await post(app.url, call);
    expect(res.status).toBe(413);
  });

  it('answers malformed JSON-RPC with the right JSON-RPC errors', async () => {
    const parse = await post(app.url, {
      raw: '{"jsonrpc":"2.0",',
      headers: { 'mcp-protocol-version': MODERN },
    });
    expect(parse.status).toBe(400);
    expect(parse.json.error.code).toBe(-32700);
    const batch = await post(app.url, { body: [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }] });
    expect(batch.status).toBe(400);
    expect(batch.json.error.code).toBe(-32600);
    const session = await legacySession(app.url, '2025-11-25');
    const invalid = await post(app.url, {
      body: { jsonrpc: '1.0', id: 7, method: 'tools/list' },
      headers: { 'mcp-session-id': session },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.json.error.code).toBe(-32600);
    const unknownLegacy = await post(app.url, {
      body: { jsonrpc: '2.0', id: 8, method: 'no/such' },
      headers: { 'mcp-session-id': session },
    });
    expect(unknownLegacy.json.error.code).toBe(-32601);
    const unknownModern = await post(app.url, {
      body: { jsonrpc: '2.0', id: 9, method: 'no/such', params: { _meta: meta } },
      headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'no/such' },
    });
    expect(unknownModern.status).toBe(404);
    expect(unknownModern.json.error.code).toBe(-32601);
    const badType = await post(app.url, { raw: '{}', headers: { 'content-type': 'text/plain' } });
    expect(badType.status).toBe(415);
  });

  it('rate-limits tool calls per identity with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 5; i += 1) {
      const res = await post(limited.url, modernCall(i, 'userGetCurrent'));
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3)).toEqual([429, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // tools/list is not a tool call and stays available
    const list = await post(limited.url, {
      body: { jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: meta } },
      headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
    });
    expect(list.status).toBe(200);
  });

  it('refuses sudo with a forbidden result when the service account is not a site admin', async () => {
    const call = modernCall(1, 'userGetCurrent');
    const res = await post(noSudo.url, {
      body: call.body,
      headers: { ...call.headers, 'x-gitea-sudo': 'bob' },
    });
    expect(res.status).toBe(200);
    expect(res.json.result.isError).toBe(true);
    const env = JSON.parse(res.json.result.content[0].text);
    expect(env.error).toMatchObject({ status: 403, kind: 'forbidden' });
    expect(env.error.message).toContain('site administrator');
  });

  it('logs one line per call without secrets', () => {
    const lines = app
      .logs()
      .split('\n')
      .filter((line) => line.includes('"event":"tool_call"'));
    expect(lines.length).toBeGreaterThan(0);
    const first = JSON.parse(lines[0] as string);
    expect(first).toMatchObject({
      tool: 'userGetCurrent',
      login: 'admin',
      mode: 'token',
      kind: expect.any(String),
    });
    expect(app.logs()).not.toContain(BEARER);
    expect(app.logs()).not.toContain(gitea.tokens.admin);
  });
});
