// The remembered era classification must give, for every request, the SDK's own verdict on it.
import { classifyInboundRequest } from '@modelcontextprotocol/server';
import { EraClassifier, type InboundRequest } from './era-classifier';

const MODERN = '2026-07-28';
const envelope = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'spec', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
  ...extra,
});
const call = (over: Record<string, unknown> = {}, meta: unknown = envelope()): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'repoGet', arguments: { owner: 'o', repo: 'r' }, _meta: meta },
  ...over,
});
const headers = (method = 'tools/call', name: string | undefined = 'repoGet', version = MODERN) => ({
  protocolVersionHeader: version,
  mcpMethodHeader: method,
  mcpNameHeader: name,
});

// Plain shapes (remembered) and their near misses, each sent twice so the second answer comes from
// the memory when the first one was kept.
const CASES: Array<[string, InboundRequest]> = [
  ['plain call', { ...headers(), body: call() }],
  [
    'another id, other arguments',
    {
      ...headers(),
      body: call({ id: 'abc', params: { name: 'repoGet', arguments: { x: 1 }, _meta: envelope() } }),
    },
  ],
  ['string id', { ...headers(), body: call({ id: 'x-1' }) }],
  ['fractional id', { ...headers(), body: call({ id: 1.5 }) }],
  ['unsafe integer id', { ...headers(), body: call({ id: 2 ** 60 }) }],
  [
    'no id (a notification)',
    { ...headers(), body: { jsonrpc: '2.0', method: 'tools/call', params: { _meta: envelope() } } },
  ],
  ['wrong jsonrpc', { ...headers(), body: call({ jsonrpc: '1.0' }) }],
  ['extra top-level key', { ...headers(), body: call({ extra: true }) }],
  ['a result posted', { ...headers(), body: { jsonrpc: '2.0', id: 1, result: {} } }],
  ['params not an object', { ...headers(), body: call({ params: [1] }) }],
  [
    'no params',
    { ...headers('tools/list', undefined), body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
  ],
  [
    'params without _meta',
    {
      ...headers('tools/list', undefined),
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    },
  ],
  ['_meta null', { ...headers(), body: call({}, null) }],
  ['_meta an array', { ...headers(), body: call({}, []) }],
  [
    'tools/list',
    {
      ...headers('tools/list', undefined),
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: envelope() } },
    },
  ],
  ['method header mismatch', { ...headers('tools/list'), body: call() }],
  ['version header mismatch', { ...headers('tools/call', 'repoGet', '2025-11-25'), body: call() }],
  [
    'no version header',
    {
      protocolVersionHeader: undefined,
      mcpMethodHeader: 'tools/call',
      mcpNameHeader: 'repoGet',
      body: call(),
    },
  ],
  ['header with spaces', { ...headers(' tools/call '), body: call() }],
  [
    'legacy claim in the body',
    {
      ...headers('tools/call', 'repoGet', '2025-11-25'),
      body: call({}, envelope({ 'io.modelcontextprotocol/protocolVersion': '2025-11-25' })),
    },
  ],
  [
    'envelope without clientInfo',
    {
      ...headers(),
      body: call(
        {},
        {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      ),
    },
  ],
  [
    'envelope with a bad clientInfo',
    { ...headers(), body: call({}, envelope({ 'io.modelcontextprotocol/clientInfo': { name: 3 } })) },
  ],
  ['progress token', { ...headers(), body: call({}, envelope({ progressToken: 'p' })) }],
  ['bad progress token', { ...headers(), body: call({}, envelope({ progressToken: { a: 1 } })) }],
  ['fractional progress token', { ...headers(), body: call({}, envelope({ progressToken: 0.5 })) }],
  [
    'overflowed number in _meta',
    { ...headers(), body: call({}, envelope({ progressToken: Number.POSITIVE_INFINITY })) },
  ],
  [
    'null in _meta where the overflow was',
    { ...headers(), body: call({}, envelope({ progressToken: null })) },
  ],
  ['extension key in _meta', { ...headers(), body: call({}, envelope({ 'aegis/sudo': 'alice' })) }],
  ['modern header without a claim', { ...headers(), body: call({}, {}) }],
  [
    'initialize with a modern envelope',
    {
      ...headers('initialize', undefined),
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', _meta: envelope() },
      },
    },
  ],
  [
    'initialize without one',
    {
      ...headers('initialize', undefined, '2025-11-25'),
      body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } },
    },
  ],
  [
    'an own __proto__ key',
    {
      ...headers(),
      body: JSON.parse(
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","__proto__":{"x":1},"params":{}}',
      ) as unknown,
    },
  ],
  ['a name header for another tool', { ...headers('tools/call', 'other'), body: call() }],
];

describe('EraClassifier', () => {
  it("gives the SDK classifier's verdict for every request, also when the verdict comes from memory", () => {
    const eras = new EraClassifier();
    for (const round of [1, 2, 3]) {
      for (const [name, request] of CASES) {
        const expected = classifyInboundRequest({ httpMethod: 'POST', ...request });
        const got = eras.classifyPost(request);
        // The message in a modern verdict is this request's own body, never a remembered one.
        expect([name, round, got]).toEqual([name, round, expected]);
        if (got.kind === 'modern') expect(got.message).toBe(request.body);
      }
    }
    expect(eras.size).toBeGreaterThan(0);
  });

  it('asks the SDK once per repeating shape and afresh for anything it does not remember', () => {
    let asked = 0;
    const eras = new EraClassifier((request) => {
      asked++;
      return classifyInboundRequest(request);
    });
    for (let i = 0; i < 50; i++)
      eras.classifyPost({
        ...headers(),
        body: call({ id: i, params: { name: 'repoGet', arguments: { i }, _meta: envelope() } }),
      });
    expect(asked).toBe(1);
    // A rejection (the method header names another method) is never remembered.
    for (let i = 0; i < 3; i++)
      expect(eras.classifyPost({ ...headers('tools/list'), body: call() }).kind).toBe('reject');
    expect(asked).toBe(4);
    // initialize reads params.protocolVersion: always asked.
    const init = {
      ...headers('initialize', undefined, '2025-11-25'),
      body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
    };
    eras.classifyPost(init);
    eras.classifyPost(init);
    expect(asked).toBe(6);
  });

  it('stays bounded however many distinct envelopes arrive', () => {
    const eras = new EraClassifier();
    for (let i = 0; i < 3000; i++)
      eras.classifyPost({
        ...headers(),
        body: call({}, envelope({ 'io.modelcontextprotocol/clientInfo': { name: `c${i}`, version: '1' } })),
      });
    expect(eras.size).toBeLessThanOrEqual(1024);
    // A large envelope is classified but not kept.
    const before = eras.size;
    eras.classifyPost({ ...headers(), body: call({}, envelope({ big: 'x'.repeat(5000) })) });
    expect(eras.size).toBe(before);
  });
});
