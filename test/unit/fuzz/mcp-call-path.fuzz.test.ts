// Property-based fuzzing of the call path (issue 11) with fast-check: JSON-RPC frames, tool names,
// tool arguments generated from the tools' own input schemas (valid and invalid) and raw-tool paths,
// through the SDK's modern handler, the real executor, the real secrets scrubber and the call exit.
// The Gitea stand-in echoes the request and the caller's token back, as a hostile or careless
// server could. For every case: no crash, no 5xx, a well-formed JSON-RPC answer, exactly one audit
// record per tools/call, and no configured secret in the answer, the audit records, the log lines
// or the metrics.
//
// `npm test` runs FUZZ_RUNS=300 cases with a fixed seed; `npm run fuzz` runs 100,000 (FUZZ_SEED to
// replay a failure).
import fc from 'fast-check';
import pino from 'pino';
import { Registry } from 'prom-client';
import { Writable } from 'node:stream';
import { CallExit } from '../../../src/core/call/call-exit';
import { buildCatalogue, RAW_TOOL_NAME } from '../../../src/core/catalogue/tool-catalogue';
import { createToolService } from '../../../src/core/executor/tool-executor';
import type { AuditEntry, CallIdentity, GiteaRequest, GiteaTransport } from '../../../src/core/ports';
import { GlobalPolicyProvider } from '../../../src/core/policy/global-policy';
import { loadBundledSpec } from '../../../src/infra/gitea/spec-source';
import type { IdentityResolver } from '../../../src/modules/auth/identity-resolver';
import { McpMetrics } from '../../../src/modules/mcp/mcp-metrics';
import { McpProtocol, toAuthInfo, type ExchangeContext } from '../../../src/modules/mcp/mcp-protocol';
import { McpCallObserver } from '../../../src/modules/mcp/tool-call-observer';
import { resolveResultScrubber } from '../../../src/modules/tools/result-scrubber.provider';
import { testToolSettings } from '../../../src/core/testing/tool-service-fixture';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261201;
const MODERN = '2026-07-28';
// The per-request envelope a 2026-07-28 request carries; frames without it are refused before any call.
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

// Configured secrets (built at run time so that no key-shaped literal sits in the source tree).
const CALLER_TOKEN = 'gtk' + 'q7w8e9r0t1y2u3i4o5p6'.repeat(2);
const SERVICE_SECRETS = ['mcp-bearer-' + 'z'.repeat(24), 'oauth-client-secret-' + 'k'.repeat(16)];
const SECRETS = [CALLER_TOKEN, ...SERVICE_SECRETS];

const identity: CallIdentity = {
  login: 'alice',
  mode: 'oauth',
  sudo: null,
  token: CALLER_TOKEN,
  isSiteAdmin: false,
  subject: 'oauth:1',
};

const catalogue = buildCatalogue(loadBundledSpec(), { maxBinaryBytes: 4096 });
const toolNames = catalogue.operations.map((op) => op.operationId);

// The Gitea stand-in: answers by the shape of the request, echoing it and the secrets it knows.
let replyKind = 0;
const transport: GiteaTransport = {
  async send(req: GiteaRequest, who: CallIdentity) {
    const echo = {
      path: req.path,
      query: req.query,
      token: who.token,
      note: `Authorization: Bearer ${who.token}`,
    };
    const kind = replyKind++ % 5;
    if (kind === 0) return json(200, [echo, { ...echo, svc: SERVICE_SECRETS[0] }]);
    if (kind === 1) return json(200, { total_count: 3, data: [echo], workflow_runs: [echo] });
    if (kind === 2) return json(404, { message: `not found for token ${who.token}` });
    if (kind === 3) return json(500, { message: `crash ${SERVICE_SECRETS[1]}` });
    return {
      status: 200,
      headers: { 'content-type': 'text/plain' },
      body: Buffer.from(`raw ${who.token}\n`),
    };
  },
};
function json(status: number, value: unknown) {
  return {
    status,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(value)),
  };
}

const audits: AuditEntry[] = [];
const logLines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _enc, done) {
    logLines.push(chunk.toString());
    if (logLines.length > 2000) logLines.splice(0, 1000);
    done();
  },
});
const registry = new Registry();
const metrics = new McpMetrics(registry);
const logger = pino({ level: 'info' }, logStream);
const base = new GlobalPolicyProvider({ disabledTools: [], detectionMode: 'mask' });
const toolService = createToolService(
  catalogue,
  {
    tools: testToolSettings({ maxResponseItems: 20, maxResponseChars: 8000, maxBinaryBytes: 4096 }),
    secrets: { detectionMode: 'mask' },
    exactSecrets: SERVICE_SECRETS,
    timeoutMs: 1000,
  },
  {
    transport,
    policy: { forOrg: (org) => base.forOrg(org) },
    audit: { record: () => undefined },
    clock: { now: () => Date.now() },
    scrubber: resolveResultScrubber(),
  },
);
const protocol = new McpProtocol({
  serverName: 'fuzz',
  serverVersion: '0',
  allowSudo: false,
  maxBodyBytes: 1 << 20,
  toolService,
  identityResolver: { upstreamUnauthorized: () => undefined } as unknown as IdentityResolver,
  metrics,
  logger,
  exit: new CallExit({
    audit: { record: (e) => void audits.push(e) },
    observers: [new McpCallObserver(metrics, logger)],
  }),
});

// ---- Generators ---------------------------------------------------------------------------------

type Schema = { type?: unknown; enum?: unknown[]; properties?: Record<string, Schema>; items?: Schema };

/** Values for a JSON schema: mostly of its type (the valid side), sometimes any JSON (the invalid side). */
function valueFor(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const anyJson = fc.jsonValue({ maxDepth: 2 });
  if (!schema || depth > 3) return anyJson;
  let typed: fc.Arbitrary<unknown>;
  if (Array.isArray(schema.enum) && schema.enum.length) typed = fc.constantFrom(...schema.enum);
  else if (schema.type === 'integer')
    typed = fc.oneof(fc.integer({ min: -5, max: 100 }), fc.maxSafeInteger());
  else if (schema.type === 'number') typed = fc.double({ noNaN: true });
  else if (schema.type === 'boolean') typed = fc.boolean();
  else if (schema.type === 'array') typed = fc.array(valueFor(schema.items, depth + 1), { maxLength: 3 });
  else if (schema.type === 'object' && schema.properties) typed = argsFor(schema, depth + 1);
  else
    typed = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom('o', 'r', 'main', 'a/b', '../x', '%2F', CALLER_TOKEN),
    );
  return fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: anyJson });
}

function argsFor(schema: Schema, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const props = schema.properties ?? {};
  const names = Object.keys(props);
  if (!names.length)
    return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 });
  return fc.record(Object.fromEntries(names.map((n) => [n, valueFor(props[n], depth)])), {
    requiredKeys: [],
  });
}

const segment = fc.oneof(
  fc.constantFrom(
    'repos',
    'o',
    'r',
    'issues',
    'users',
    'orgs',
    '..',
    '.',
    '',
    '%2F',
    'a b',
    'ü',
    '1',
    'api',
    'v1',
  ),
  fc.string({ maxLength: 12 }),
);
const rawPath = fc.oneof(
  fc.array(segment, { minLength: 0, maxLength: 6 }).map((s) => '/' + s.join('/')),
  fc.string({ maxLength: 60 }),
  fc.constantFrom('//evil.example/x', 'http://x/y', '/repos/o/r?x=1', '/api/v1/version', '/version'),
);
const rawArgs = fc.record(
  {
    method: fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'), fc.string({ maxLength: 6 })),
    path: rawPath,
    query: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
    body: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: [] },
);

const byName = new Map(catalogue.operations.map((op) => [op.operationId, op]));
const knownCall = fc
  .constantFrom(...toolNames)
  .chain((name) => fc.tuple(fc.constant(name), argsFor(byName.get(name)!.tool.inputSchema as Schema)));
const toolName = fc.oneof(
  fc.constantFrom('gitea_search_tools', 'gitea_describe_tool', 'gitea_call_tool', RAW_TOOL_NAME),
  fc.string({ maxLength: 200 }),
  fc.fullUnicodeString({ maxLength: 50 }),
);
const bareParams = fc.oneof(
  { weight: 6, arbitrary: knownCall.map(([name, args]) => ({ name, arguments: args })) },
  { weight: 2, arbitrary: rawArgs.map((args) => ({ name: RAW_TOOL_NAME, arguments: args })) },
  {
    weight: 2,
    arbitrary: fc.record({
      name: toolName,
      arguments: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);
// Most frames carry the envelope; some do not (they must be refused without an audit record).
const callParams = fc.oneof(
  {
    weight: 9,
    arbitrary: bareParams.map((p) =>
      p && typeof p === 'object' && !Array.isArray(p) ? { ...p, _meta: META } : p,
    ),
  },
  { weight: 1, arbitrary: bareParams },
);
const id = fc.oneof(fc.integer(), fc.string({ maxLength: 10 }));
const frame = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      jsonrpc: fc.constant('2.0'),
      id,
      method: fc.constant('tools/call'),
      params: callParams,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        jsonrpc: fc.constant('2.0'),
        id,
        method: fc.constantFrom('tools/list', 'ping', 'initialize', 'nope'),
        params: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: ['jsonrpc', 'method'] },
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

// ---- The property -------------------------------------------------------------------------------

/** A well-formed tools/call request: the kind the exit must record exactly once. */
function isToolCall(f: unknown): boolean {
  const m = f as {
    jsonrpc?: unknown;
    id?: unknown;
    method?: unknown;
    params?: { name?: unknown; arguments?: unknown };
  };
  return (
    !!m &&
    typeof m === 'object' &&
    m.jsonrpc === '2.0' &&
    m.method === 'tools/call' &&
    (typeof m.id === 'string' || typeof m.id === 'number') &&
    !!m.params &&
    typeof m.params === 'object' &&
    !Array.isArray(m.params) &&
    (m.params as { _meta?: unknown })._meta === META &&
    typeof m.params.name === 'string' &&
    (m.params.arguments === undefined ||
      (typeof m.params.arguments === 'object' &&
        m.params.arguments !== null &&
        !Array.isArray(m.params.arguments)))
  );
}

function messagesOf(text: string, contentType: string): unknown[] {
  if (!text) return [];
  if (contentType.includes('text/event-stream'))
    return text
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => JSON.parse(l.slice(5)) as unknown);
  return [JSON.parse(text) as unknown];
}

function isJsonRpcAnswer(m: unknown): boolean {
  const r = m as { jsonrpc?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
  if (!r || typeof r !== 'object' || r.jsonrpc !== '2.0') return false;
  if ('result' in r) return !('error' in r);
  return !!r.error && Number.isInteger(r.error.code) && typeof r.error.message === 'string';
}

/** A name a client can put in the Mcp-Name header as it is (printable ASCII, no edge spaces). */
const sendable = (name: string) => /^[\x21-\x7e](?:[\x20-\x7e]{0,198}[\x21-\x7e])?$/.test(name);

const leaked = (text: string) => SECRETS.filter((s) => text.includes(s));

async function exchange(f: unknown): Promise<void> {
  const before = audits.length;
  const logsBefore = logLines.length;
  const context: ExchangeContext = {
    identity,
    sudoHeader: undefined,
    client: null,
    protocolVersion: MODERN,
    deadline: Date.now() + 5000,
  };
  const method = (f as { method?: unknown } | null)?.method;
  const name = ((f as { params?: { name?: unknown } } | null)?.params?.name as string | undefined) ?? '';
  const request = new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      ...(typeof method === 'string' && /^[\x21-\x7e]{1,64}$/.test(method) ? { 'mcp-method': method } : {}),
      ...(typeof name === 'string' && sendable(name) ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify(f),
  });
  const response = await protocol.modern.fetch(request, { authInfo: toAuthInfo(context), parsedBody: f });
  const text = await response.text();
  if (response.status >= 500) throw new Error(`HTTP ${response.status}: ${text.slice(0, 300)}`);
  const messages = messagesOf(text, response.headers.get('content-type') ?? '');
  for (const m of messages)
    if (!isJsonRpcAnswer(m)) throw new Error(`not a JSON-RPC answer: ${JSON.stringify(m).slice(0, 300)}`);
  const records = audits.length - before;
  const call = isToolCall(f) && sendable(name);
  if (call && records !== 1)
    throw new Error(
      `${records} audit records for one tools/call; answer ${response.status} ${text.slice(0, 400)}`,
    );
  if (!call && records > 1) throw new Error(`${records} audit records for one frame`);
  const channels = {
    answer: text,
    audit: JSON.stringify(audits.slice(before)),
    log: logLines.slice(logsBefore).join(''),
  };
  const seen = Object.entries(channels)
    .filter(([, t]) => leaked(t).length)
    .map(
      ([k, t]) =>
        `${k}: ${t.slice(Math.max(0, t.indexOf(leaked(t)[0]!) - 80), t.indexOf(leaked(t)[0]!) + 10)}`,
    );
  if (seen.length) throw new Error(`a configured secret left the service in ${seen.join(' | ')}`);
}

describe('fuzz: the call path (issue 11)', () => {
  beforeAll(() => protocol.start());
  afterAll(() => protocol.close());

  it(
    `holds for ${RUNS} generated frames (seed ${SEED})`,
    async () => {
      const started = Date.now();
      await fc.assert(fc.asyncProperty(frame, exchange), { numRuns: RUNS, seed: SEED, endOnFailure: true });
      const metricsText = await registry.metrics();
      expect(leaked(metricsText)).toEqual([]);
      // Caller-chosen names never become label values (only catalogue names or "(unknown)").
      const labels = [...metricsText.matchAll(/tool="([^"]*)"/g)].map((m) => m[1]!);
      expect(labels.filter((l) => l !== '(unknown)' && !byName.has(l) && !l.startsWith('gitea_'))).toEqual(
        [],
      );
      if (RUNS >= 10_000)
        process.stdout.write(
          `FUZZ ${RUNS} cases, seed ${SEED}, ${((Date.now() - started) / 1000).toFixed(1)} s, ${audits.length} audit records\n`,
        );
    },
    Math.max(60_000, RUNS * 20),
  );
});
