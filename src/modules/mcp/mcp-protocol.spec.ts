// The legacy fast path must answer exactly like the SDK server it bypasses.
import pino from 'pino';
import { Registry } from 'prom-client';
import { CallExit } from '../../core/call/call-exit';
import { NO_COUNTS, resultOf, type ToolCallOutcome } from '../../core/call/tool-call-outcome';
import { UnknownToolError, type ToolService } from '../../core/executor/tool-service';
import type { CallIdentity } from '../../core/ports';
import type { IdentityResolver } from '../auth/identity-resolver';
import { McpMetrics } from './mcp-metrics';
import { McpProtocol, resultResponseJson, toAuthInfo, type ExchangeContext } from './mcp-protocol';

const identity: CallIdentity = {
  login: 'svc',
  mode: 'token',
  sudo: null,
  token: 'gitea-token-never-shown',
  isSiteAdmin: false,
  subject: 'token:svc',
};

const outcome = (name: string, text: string, known: boolean): ToolCallOutcome => ({
  identity,
  tool: name,
  knownTool: known ? name : null,
  operationId: null,
  org: null,
  repo: null,
  method: null,
  path: null,
  status: null,
  kind: known ? 'ok' : 'unknown_tool',
  text,
  isError: false,
  reply: known ? { as: 'result' } : { as: 'unknown_tool', message: new UnknownToolError(name).message },
  startedAt: 0,
  durationMs: 0,
  counts: NO_COUNTS,
  arguments: {},
});
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
