import { testOutcome, tokenCaller } from '../../core/testing/tool-service-fixture';
// The endpoint over a real HTTP server: every tools/call leaves exactly one audit record, and on
// the fast paths of all three revisions that record (with the metrics and the log line) is made
// once the answer has been handed to the socket, not before: the caller does not wait for it.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Registry } from 'prom-client';
import { CallExit } from '../../core/call/call-exit';
import { resultOf } from '../../core/call/tool-call-outcome';
import type { ToolService } from '../../core/executor/tool-service';
import type { AuditEntry } from '../../core/ports';
import { MemorySessionRevocations } from '../../infra/mcp/session-revocations';
import { HttpAdmission } from '../admission/http-admission';
import type { IdentityResolver } from '../auth/identity-resolver';
import { McpEndpoint } from './mcp-endpoint';
import { McpMetrics } from './mcp-metrics';
import { McpProtocol } from './mcp-protocol';

const BEARER = 'endpoint-spec-bearer';
const MODERN = '2026-07-28';
const identity = tokenCaller({ login: 'svc', token: 'gitea-token-never-shown' });

const outcome = (name: string, args: unknown) =>
  testOutcome(identity, name, { known: name === 'repoGet', text: JSON.stringify({ args }), arguments: args });
const toolService: ToolService = {
  listTools: () => [{ name: 'repoGet', description: 'Get a repository', inputSchema: { type: 'object' } }],
  execute: async (name, args) => outcome(name, args),
  refuse: (name, args) => outcome(name, args),
  callTool: async (name, args) => resultOf(outcome(name, args)),
};
const resolver: IdentityResolver = {
  authenticate: async (header) =>
    header === `Bearer ${BEARER}`
      ? { ok: true, identity }
      : { ok: false, status: 401, error: 'invalid_token', message: 'Unauthorized' },
  upstreamUnauthorized: () => undefined,
  challenge: () => 'Bearer realm="test"',
};

describe('McpEndpoint: the call exit of the fast paths runs after the answer is written', () => {
  let server: http.Server;
  let url: string;
  let protocol: McpProtocol;
  let current: http.ServerResponse | null = null;
  /** Each record with whether its exchange's answer had already been written (res.end) by then. */
  const records: Array<{ entry: AuditEntry; answered: boolean }> = [];
  const ended = new MemorySessionRevocations();
  /** Revocation lookups made (with Redis, each is a round trip). */
  let lookups = 0;
  const revocations = {
    revoke: (nonce: string, ttl: number) => ended.revoke(nonce, ttl),
    isRevoked: (nonce: string) => {
      lookups += 1;
      return ended.isRevoked(nonce);
    },
    close: () => ended.close(),
  };

  beforeAll(async () => {
    const logger = pino({ level: 'silent' });
    const metrics = new McpMetrics(new Registry());
    protocol = new McpProtocol({
      serverName: 'test',
      serverVersion: '0',
      allowSudo: false,
      maxBodyBytes: 1 << 20,
      toolService,
      identityResolver: resolver,
      metrics,
      logger,
      exit: new CallExit({
        audit: { record: (entry) => records.push({ entry, answered: current?.writableEnded === true }) },
      }),
    });
    await protocol.start();
    const endpoint = new McpEndpoint({
      admission: new HttpAdmission({
        allowedOrigins: [],
        publicUrl: null,
        identityResolver: resolver,
        authFailuresPerMinute: 0,
        rateLimitPerMinute: 0,
        maxConcurrentPerIdentity: 8,
        maxConcurrentTotal: 8,
        queueWaitMs: 1000,
        audit: null,
        logger,
      }),
      maxBodyBytes: 1 << 20,
      requestTimeoutMs: 5000,
      sessionSecret: 'endpoint-spec-session-secret',
      sessionMaxAgeSeconds: 3600,
      protocol,
      revocations,
      metrics,
      logger,
    });
    server = http.createServer((req, res) => {
      current = res;
      void endpoint.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await protocol.close();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    records.length = 0;
  });

  const base = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${BEARER}`,
  };

  async function post(
    headers: Record<string, string>,
    body: unknown,
  ): Promise<{ status: number; json: any; session: string | null }> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...base, ...headers },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      json: text ? JSON.parse(text) : null,
      session: res.headers.get('mcp-session-id'),
    };
  }

  async function legacySession(version: string): Promise<Record<string, string>> {
    const init = await post(
      {},
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'spec', version: '1' } },
      },
    );
    expect(init.status).toBe(200);
    const headers = { 'mcp-session-id': init.session as string, 'mcp-protocol-version': version };
    await post(headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
    return headers;
  }

  const modernHeaders = (name: string) => ({
    'mcp-protocol-version': MODERN,
    'mcp-method': 'tools/call',
    'mcp-name': name,
  });
  const modernMeta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };

  it.each(['2025-06-18', '2025-11-25'])('%s: one record per call, made after the answer', async (version) => {
    const headers = await legacySession(version);
    for (const [id, name] of [
      [1, 'repoGet'],
      [2, 'nope'],
    ] as const) {
      const reply = await post(headers, {
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name, arguments: { owner: 'o' } },
      });
      expect(reply.status).toBe(200);
      expect(name === 'repoGet' ? reply.json.result : reply.json.error).toBeDefined();
    }
    expect(records.map((r) => [r.entry.tool, r.answered])).toEqual([
      ['repoGet', true],
      ['nope', true],
    ]);
  });

  it('answers with the exact byte length of a body with characters outside ASCII', async () => {
    const headers = await legacySession('2025-11-25');
    const owner = 'Øresund-仓库-😀';
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...base, ...headers },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'repoGet', arguments: { owner } },
      }),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    const json = JSON.parse(bytes.toString('utf8'));
    expect(JSON.parse(json.result.content[0].text)).toEqual({ args: { owner } });
    expect(records).toHaveLength(1);
  });

  it('2026-07-28: one record per call, made after the answer', async () => {
    for (const [id, name] of [
      [1, 'repoGet'],
      [2, 'nope'],
    ] as const) {
      const reply = await post(modernHeaders(name), {
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name, arguments: { owner: 'o' }, _meta: modernMeta },
      });
      expect(reply.status).toBe(200);
    }
    expect(records.map((r) => [r.entry.tool, r.answered])).toEqual([
      ['repoGet', true],
      ['nope', true],
    ]);
  });

  it('a call the SDK answers (not a plain shape) still leaves exactly one record', async () => {
    const headers = await legacySession('2025-11-25');
    const reply = await post(headers, {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      // A progress token sends the call through the SDK server instead of the fast path.
      params: { name: 'repoGet', arguments: {}, _meta: { progressToken: 'p1' } },
    });
    expect(reply.status).toBe(200);
    expect(reply.json.result).toBeDefined();
    expect(records.map((r) => r.entry.tool)).toEqual(['repoGet']);
  });

  it('looks a session up before its body has arrived, once per request, and still refuses an ended one', async () => {
    const headers = await legacySession('2025-11-25');
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'repoGet', arguments: { owner: 'o' } },
    });
    const before = lookups;
    const req = http.request(url, {
      method: 'POST',
      headers: { ...base, ...headers, 'content-length': String(Buffer.byteLength(body)) },
    });
    const reply = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
    });
    req.flushHeaders();
    // Only the headers are sent: the lookup overlaps the wait for the body.
    for (let i = 0; i < 200 && lookups === before; i++) await new Promise((r) => setTimeout(r, 5));
    const early = lookups - before;
    req.end(body);
    expect(early).toBe(1);
    expect(await reply).toBe(200);
    expect(lookups).toBe(before + 1);

    const del = await fetch(url, { method: 'DELETE', headers: { ...base, ...headers } });
    expect(del.status).toBe(200);
    const after = await post(headers, {
      jsonrpc: '2.0',
      id: 10,
      method: 'tools/call',
      params: { name: 'repoGet', arguments: {} },
    });
    expect(after.status).toBe(404);
    expect(lookups).toBe(before + 2);
  });
});
