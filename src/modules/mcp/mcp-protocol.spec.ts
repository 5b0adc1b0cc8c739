import { testOutcome, tokenCaller } from '../../core/testing/tool-service-fixture';
// The legacy fast path must answer exactly like the SDK server it bypasses.
import pino from 'pino';
import { Registry } from 'prom-client';
import { CallExit } from '../../core/call/call-exit';
import { resultOf } from '../../core/call/tool-call-outcome';
import { UnknownToolError, type ToolService } from '../../core/executor/tool-service';
import type { IdentityResolver } from '../auth/identity-resolver';
import { McpMetrics } from './mcp-metrics';
import { McpProtocol, resultResponseJson, toAuthInfo, type ExchangeContext } from './mcp-protocol';

const identity = tokenCaller({ login: 'svc', token: 'gitea-token-never-shown' });

const outcome = (name: string, text: string, known: boolean) => testOutcome(identity, name, { known, text });
const toolService: ToolService = {
  listTools: () => [{ name: 'repoGet', description: 'Get a repository', inputSchema: { type: 'object' } }],
  execute: async (name, args) => outcome(name, JSON.stringify({ args }), name === 'repoGet'),
  refuse: (name) => outcome(name, '{}', name === 'repoGet'),
  callTool: async (name, args) => {
    if (name !== 'repoGet') throw new UnknownToolError(name);
    return resultOf(outcome(name, JSON.stringify({ args }), true));
  },
};

const resolver = { upstreamUnauthorized: () => undefined } as unknown as IdentityResolver;

describe('McpProtocol.serveLegacyFast', () => {
  let protocol: McpProtocol;
  const context = (): ExchangeContext => ({
    identity,
    sudoHeader: undefined,
    client: null,
    protocolVersion: '2025-06-18',
    deadline: Date.now() + 5000,
  });

  beforeAll(async () => {
    protocol = new McpProtocol({
      serverName: 'test',
      serverVersion: '0',
      allowSudo: false,
      maxBodyBytes: 1 << 20,
      toolService,
      identityResolver: resolver,
      metrics: new McpMetrics(new Registry()),
      logger: pino({ level: 'silent' }),
      exit: new CallExit({ audit: { record: () => undefined } }),
    });
    await protocol.start();
    await protocol.legacyTransport.request(
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      toAuthInfo(context()),
    );
  });
  afterAll(() => protocol.close());

  const viaSdk = (message: Record<string, unknown> & { id: number | string }) =>
    protocol.legacyTransport.request({ jsonrpc: '2.0', ...message }, toAuthInfo(context()));

  it.each([
    ['a call', { id: 7, method: 'tools/call', params: { name: 'repoGet', arguments: { owner: 'o' } } }],
    ['a call without arguments', { id: 'x', method: 'tools/call', params: { name: 'repoGet' } }],
    ['an unknown tool', { id: 8, method: 'tools/call', params: { name: 'nope', arguments: {} } }],
    ['the tool list', { id: 9, method: 'tools/list' }],
    ['the tool list with a cursor', { id: 10, method: 'tools/list', params: { cursor: 'c' } }],
  ])('answers %s like the SDK server', async (_label, message) => {
    const fast = await protocol.serveLegacyFast(message, context());
    expect(fast).not.toBeNull();
    expect(JSON.parse(fast as string)).toEqual(await viaSdk(message));
  });

  it.each([
    ['a name that is not a string', { name: 3 }],
    ['arguments that are an array', { name: 'repoGet', arguments: [] }],
    ['an unknown params key', { name: 'repoGet', task: {} }],
    ['a bad progress token', { name: 'repoGet', _meta: { progressToken: {} } }],
  ])('leaves %s to the SDK server', async (_label, params) => {
    expect(await protocol.serveLegacyFast({ id: 1, method: 'tools/call', params }, context())).toBeNull();
  });
});

describe('resultResponseJson', () => {
  it('writes the same response as stringifying the whole envelope', () => {
    const result = { content: [{ type: 'text' as const, text: '{"a":"q\\"uote\\n\u2028"}' }], isError: true };
    for (const id of [7, 'x"y'])
      expect(JSON.parse(resultResponseJson(result, id))).toEqual({ result, jsonrpc: '2.0', id });
  });
});

describe('McpProtocol.serveModernFast (2026-07-28 without a per-request SDK server)', () => {
  let protocol: McpProtocol;
  const MODERN = '2026-07-28';
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const context = (): ExchangeContext => ({
    identity,
    sudoHeader: undefined,
    client: { name: 't', version: '1' },
    protocolVersion: MODERN,
    deadline: Date.now() + 5000,
  });

  beforeAll(() => {
    protocol = new McpProtocol({
      serverName: 'test',
      serverVersion: '0',
      allowSudo: false,
      maxBodyBytes: 1 << 20,
      toolService,
      identityResolver: resolver,
      metrics: new McpMetrics(new Registry()),
      logger: pino({ level: 'silent' }),
      exit: new CallExit({ audit: { record: () => undefined } }),
    });
  });
  afterAll(() => protocol.close());

  /** The SDK's modern handler, given the same request (what the endpoint falls back to). */
  async function viaSdk(message: { id: number | string; method: string; params: Record<string, unknown> }) {
    const body = { jsonrpc: '2.0', ...message };
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': message.method,
    };
    if (typeof message.params.name === 'string') headers['mcp-name'] = message.params.name;
    const request = new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    const response = await protocol.modern.fetch(request, {
      authInfo: toAuthInfo(context()),
      parsedBody: body,
    });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      text: await response.text(),
    };
  }

  it.each([
    [
      'a call',
      { id: 7, method: 'tools/call' as const, params: { name: 'repoGet', arguments: { owner: 'o' } } },
    ],
    ['a call without arguments', { id: 'x', method: 'tools/call' as const, params: { name: 'repoGet' } }],
    ['an unknown tool', { id: 8, method: 'tools/call' as const, params: { name: 'nope', arguments: {} } }],
    ['the tool list', { id: 9, method: 'tools/list' as const, params: {} }],
    ['the tool list with a cursor', { id: 10, method: 'tools/list' as const, params: { cursor: 'c' } }],
  ])('answers %s with the bytes the SDK handler sends', async (_label, message) => {
    const withMeta = { ...message, params: { ...message.params, _meta: meta } };
    const fast = await protocol.serveModernFast(withMeta, context());
    const sdk = await viaSdk(withMeta);
    expect(sdk.status).toBe(200);
    expect(sdk.type).toMatch(/^application\/json/);
    expect(fast).toBe(sdk.text);
  });

  it.each([
    ['a name that is not a string', 'tools/call' as const, { name: 3 }],
    ['arguments that are an array', 'tools/call' as const, { name: 'repoGet', arguments: [] }],
    ['an unknown params key', 'tools/call' as const, { name: 'repoGet', task: {} }],
    ['a list with an unknown params key', 'tools/list' as const, { filter: 'x' }],
  ])('leaves %s to the SDK handler, before anything runs', async (_label, method, params) => {
    let ran = 0;
    const counting = new McpProtocol({
      serverName: 'test',
      serverVersion: '0',
      allowSudo: false,
      maxBodyBytes: 1 << 20,
      toolService: { ...toolService, execute: async (...a) => (ran++, toolService.execute(...a)) },
      identityResolver: resolver,
      metrics: new McpMetrics(new Registry()),
      logger: pino({ level: 'silent' }),
      exit: new CallExit({ audit: { record: () => undefined } }),
    });
    expect(
      await counting.serveModernFast({ id: 1, method, params: { ...params, _meta: meta } }, context()),
    ).toBeNull();
    expect(ran).toBe(0);
    await counting.close();
  });
});

describe('resultResponseJson with the 2026-07-28 tail', () => {
  it('puts the tail members at the end of the result, on both writing paths', () => {
    const tail = ',"resultType":"complete","_meta":{"k":1}';
    const plain = { content: [{ type: 'text' as const, text: 'a' }], isError: false };
    const odd = { ...plain, structured: true } as unknown as typeof plain;
    for (const result of [plain, odd])
      expect(JSON.parse(resultResponseJson(result, 3, tail))).toEqual({
        result: { ...result, resultType: 'complete', _meta: { k: 1 } },
        jsonrpc: '2.0',
        id: 3,
      });
  });
});
