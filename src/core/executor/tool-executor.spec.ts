import { TransportError, type CallIdentity, type GiteaRequest, type GiteaResponse } from '../ports';
import type { ToolSettings } from './tool-settings';
import { testToolService } from '../testing/tool-service-fixture';
import { GlobalPolicyProvider } from '../policy/global-policy';
import { passThroughScrubber } from './pass-through-scrubber';
import { UnknownToolError, type ResultScrubber } from './tool-service';

const TOKEN = 'a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2';
const identity: CallIdentity = {
  login: 'alice',
  mode: 'oauth',
  sudo: null,
  token: TOKEN,
  isSiteAdmin: false,
  subject: 'oauth:1',
};

type Reply = Partial<GiteaResponse> & { json?: unknown; text?: string };

function setup(
  opts: {
    tools?: Partial<ToolSettings>;
    reply?: (req: GiteaRequest) => Reply | Promise<Reply>;
    orgDisabled?: Record<string, string[]>;
    scrubber?: ResultScrubber;
  } = {},
) {
  const base = new GlobalPolicyProvider({ disabledTools: [], detectionMode: 'mask' });
  const t = testToolService({
    tools: { maxBinaryBytes: 1000, ...opts.tools },
    options: { exactSecrets: ['svc-bearer-secret'] },
    reply: opts.reply,
    deps: {
      policy: {
        forOrg: async (org) => ({
          ...(await base.forOrg(org)),
          disabledTools: (org && opts.orgDisabled?.[org]) || [],
        }),
      },
      scrubber: opts.scrubber ?? passThroughScrubber,
    },
  });
  const call = (name: string, args: unknown) => t.callAs(identity, name, args);
  return { service: t.service, sent: t.sent, audits: t.audits, call };
}

// Built at run time so that no key-shaped literal sits in the source tree.
const FAKE_AWS_KEY = 'AKIA' + 'X'.repeat(16);

describe('ToolExecutor', () => {
  it('builds the envelope with identity, request, status, pagination and banner', async () => {
    const t = setup({
      reply: () => ({
        json: [{ id: 1 }, { id: 2 }],
        headers: {
          'x-total-count': '120',
          link: '<http://g/api/v1/repos/o/r/issues?page=3&limit=2>; rel="next",<http://g/api/v1/repos/o/r/issues?page=60&limit=2>; rel="last"',
        },
      }),
    });
    const r = await t.call('issueListIssues', { owner: 'o', repo: 'r', page: 2, limit: 2, labels: 'bug' });
    expect(r.isError).toBe(false);
    expect(Object.keys(r.json)).toEqual([
      'identity',
      'request',
      'status',
      'pagination',
      'untrusted_content',
      'data',
    ]);
    expect(r.json.identity).toEqual({ login: 'alice', mode: 'oauth', sudo: null });
    expect(r.json.request).toEqual({ method: 'GET', path: '/repos/o/r/issues' });
    expect(r.json.pagination).toEqual({
      page: 2,
      limit: 2,
      total_count: 120,
      next_page: 3,
      last_page: 60,
      next_cursor: expect.stringMatching(/^[\w-]+\.[\w-]+$/),
    });
    expect(r.json.untrusted_content).toMatch(/untrusted/);
    expect(t.sent[0]!.query).toEqual([
      ['labels', 'bug'],
      ['page', '2'],
      ['limit', '2'],
    ]);
    expect(t.audits).toHaveLength(1);
    expect(t.audits[0]).toMatchObject({
      tool: 'issueListIssues',
      org: 'o',
      repo: 'r',
      status: 200,
      kind: null,
      method: 'GET',
    });
  });

  it('names the MCP client a person authorised in the identity, and only then', async () => {
    const t = setup();
    const viaClient = await t.service.callTool(
      'userGetCurrent',
      {},
      {
        ...identity,
        oauthClient: { id: 'https://app.example/client.json', name: 'Example Agent' },
      },
    );
    expect(JSON.parse(viaClient.content[0]!.text).identity).toEqual({
      login: 'alice',
      mode: 'oauth',
      sudo: null,
      client: { id: 'https://app.example/client.json', name: 'Example Agent' },
    });
    expect((await t.call('userGetCurrent', {})).json.identity).not.toHaveProperty('client');
  });

  it('sends repeated query parameters for multi arrays', async () => {
    const t = setup({ reply: () => ({ json: [] }) });
    await t.call('notifyGetList', { 'status-types': ['unread', 'pinned'] });
    expect(t.sent[0]!.query).toEqual([
      ['status-types', 'unread'],
      ['status-types', 'pinned'],
    ]);
  });

  it('passes declared response headers (runner registration token)', async () => {
    const t = setup({
      reply: () => ({
        status: 200,
        headers: { token: 'REGTOKEN123', 'x-other': 'no' },
        body: new Uint8Array(),
      }),
    });
    const r = await t.call('repoCreateRunnerRegistrationToken', { owner: 'o', repo: 'r' });
    expect(r.json.headers).toEqual({ token: 'REGTOKEN123' });
  });

  it('throws UnknownToolError for unknown names and audits it', async () => {
    const t = setup();
    await expect(t.service.callTool('noSuchTool', {}, identity)).rejects.toBeInstanceOf(UnknownToolError);
    expect(t.audits).toHaveLength(1);
    expect(t.audits[0]!.kind).toBe('unknown_tool');
  });

  it('names the JSON-schema path on invalid arguments', async () => {
    const t = setup();
    const r = await t.call('issueCreateIssue', { owner: 'o', repo: 'r', body: { title: 5 } });
    expect(r.isError).toBe(true);
    expect(r.json.error.kind).toBe('invalid_arguments');
    expect(r.json.error.message).toContain('/body/title');
    expect(r.json.error.message).toContain('#/properties/body/properties/title/type');
    expect(t.sent).toHaveLength(0);
    expect(t.audits[0]!.kind).toBe('invalid_arguments');
  });

  it('refuses globally disabled, toolset-filtered, read-only and org-disabled tools', async () => {
    const disabled = setup({ tools: { disabledTools: ['admin*', 'repoDelete'] } });
    expect(
      disabled.service.listTools().some((t) => t.name.startsWith('admin') || t.name === 'repoDelete'),
    ).toBe(false);
    expect((await disabled.call('repoDelete', { owner: 'o', repo: 'r' })).json.error.kind).toBe(
      'tool_disabled',
    );
    expect((await disabled.call('adminCreateUser', { body: {} })).json.error.kind).toBe('tool_disabled');
    // The raw tool cannot reach a disabled operation.
    const raw = await disabled.call('gitea_api_request', { method: 'DELETE', path: '/repos/o/r' });
    expect(raw.json.error.kind).toBe('tool_disabled');
    expect(disabled.sent).toHaveLength(0);
    expect(disabled.audits.map((a) => a.kind)).toEqual(['tool_disabled', 'tool_disabled', 'tool_disabled']);

    const ro = setup({ tools: { readOnly: true } });
    expect(
      ro.service
        .listTools()
        .filter((t) => t.name !== 'gitea_api_request')
        .every((t) => t.annotations?.readOnlyHint),
    ).toBe(true);
    expect(
      (await ro.call('issueCreateIssue', { owner: 'o', repo: 'r', body: { title: 'x' } })).json.error.kind,
    ).toBe('read_only');

    const sets = setup({ tools: { toolsets: ['issue'] } });
    expect(sets.service.listTools().length).toBe(73);
    expect((await sets.call('repoGet', { owner: 'o', repo: 'r' })).json.error.kind).toBe('tool_disabled');

    const org = setup({ orgDisabled: { acme: ['issue*'] } });
    const refused = await org.call('issueListIssues', { owner: 'acme', repo: 'r' });
    expect(refused.json.error).toMatchObject({ kind: 'tool_disabled' });
    expect(refused.json.error.message).toContain('acme');
    expect((await org.call('issueListIssues', { owner: 'other', repo: 'r' })).isError).toBe(false);
  });

  it('maps Gitea errors to kinds and strips tokens and Authorization from messages', async () => {
    const t = setup({
      reply: (req) => ({
        status: req.path.includes('x404') ? 404 : 422,
        json: {
          message: `bad token ${TOKEN} Authorization: token ${TOKEN} svc-bearer-secret ${'z'.repeat(900)}`,
        },
      }),
    });
    const nf = await t.call('repoGet', { owner: 'o', repo: 'x404' });
    expect(nf.json.error.status).toBe(404);
    expect(nf.json.error.kind).toBe('not_found');
    expect(nf.content[0]!.text).not.toContain(TOKEN);
    expect(nf.content[0]!.text).not.toContain('svc-bearer-secret');
    expect(nf.json.error.message.length).toBeLessThan(600);
    expect((await t.call('repoGet', { owner: 'o', repo: 'r' })).json.error.kind).toBe('validation_failed');
  });

  it('maps timeouts and network errors, and never leaks a stack trace', async () => {
    const timeout = setup({
      reply: () => {
        throw new TransportError('timeout', 'no answer within 1000 ms');
      },
    });
    expect((await timeout.call('repoGet', { owner: 'o', repo: 'r' })).json.error.kind).toBe('timeout');
    const boom = setup({
      reply: () => {
        throw new Error('secret internal detail at foo.ts:1');
      },
    });
    const r = await boom.call('repoGet', { owner: 'o', repo: 'r' });
    expect(r.json.error.kind).toBe('internal_error');
    expect(r.content[0]!.text).not.toMatch(/foo\.ts|at /);
  });

  it('returns binary bodies as base64 up to MAX_BINARY_BYTES, payload_too_large above', async () => {
    const small = setup({
      reply: () => ({ headers: { 'content-type': 'image/png' }, body: new Uint8Array([1, 2, 3, 0]) }),
    });
    const r = await small.call('repoGetRawFile', { owner: 'o', repo: 'r', filepath: 'a/b.png' });
    expect(r.json.data).toEqual({ content_base64: 'AQIDAA==', content_type: 'image/png', size: 4 });
    expect(r.json.request.path).toBe('/repos/o/r/raw/a/b.png');
    const big = setup({
      reply: () => ({ headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(1001) }),
    });
    expect(
      (await big.call('repoGetRawFile', { owner: 'o', repo: 'r', filepath: 'big.bin' })).json.error.kind,
    ).toBe('payload_too_large');
  });

  it('returns JSON deeper than 100 levels as text', async () => {
    const deep = '['.repeat(150) + ']'.repeat(150);
    const t = setup({ reply: () => ({ body: Buffer.from(deep) }) });
    const r = await t.call('repoGet', { owner: 'o', repo: 'r' });
    expect(r.json.data).toBe(deep);
    expect(r.json.data_format).toBe('json_as_text');
  });

  it('refuses an oversize base64 upload before decoding it', async () => {
    const t = setup();
    const content = 'A'.repeat(2000);
    const r = await t.call('repoCreateReleaseAttachment', {
      owner: 'o',
      repo: 'r',
      id: 1,
      attachment: { content_base64: content, filename: 'x.bin' },
    });
    expect(r.json.error.kind).toBe('payload_too_large');
    expect(t.sent).toHaveLength(0);
    expect(JSON.stringify(t.audits[0]!.arguments)).not.toContain(content);
    const ok = await t.call('repoCreateReleaseAttachment', {
      owner: 'o',
      repo: 'r',
      id: 1,
      attachment: { content_base64: 'aGVsbG8=', filename: 'h.txt' },
    });
    expect(ok.isError).toBe(false);
    const body = t.sent[0]!.body as Extract<GiteaRequest['body'], { kind: 'multipart' }>;
    expect(Buffer.from(body.files[0]!.data).toString()).toBe('hello');
  });

  it('bounds results by items then chars, valid JSON, saying what was cut', async () => {
    const items = Array.from({ length: 80 }, (_, i) => ({ id: i, body: 'x'.repeat(400) }));
    const t = setup({
      tools: { maxResponseItems: 30, maxResponseChars: 5000 },
      reply: () => ({ json: items, headers: { 'x-total-count': '80' } }),
    });
    const r = await t.call('issueListIssues', { owner: 'o', repo: 'r', page: 1, limit: 80 });
    expect(r.content[0]!.text.length).toBeLessThanOrEqual(5000);
    expect(r.json.data.length).toBeGreaterThan(0);
    expect(r.json.data.length).toBeLessThan(30);
    expect(r.json.truncated.items[0]).toEqual({ path: '/', returned: 30, total: 80 });
    expect(r.json.truncated.chars.total_items).toBe(30);
    expect(r.json.truncated.hint).toMatch(/limit=/);
    const obj = setup({
      tools: { maxResponseChars: 3000 },
      reply: () => ({ json: { description: 'y'.repeat(10000) } }),
    });
    const o = await obj.call('repoGet', { owner: 'o', repo: 'r' });
    expect(o.content[0]!.text.length).toBeLessThanOrEqual(3000);
    expect(o.json.data_format).toBe('truncated_text');
    expect(o.json.truncated.chars.original_chars).toBeGreaterThan(10000);
  });

  it('redacts the caller token in results and in audited arguments', async () => {
    const t = setup({ reply: () => ({ json: { echoed: TOKEN, [TOKEN]: 1 } }) });
    const r = await t.call('repoGet', { owner: 'o', repo: TOKEN });
    expect(r.content[0]!.text).not.toContain(TOKEN);
    expect(JSON.stringify(t.audits[0]!.arguments)).not.toContain(TOKEN);
    expect(t.audits[0]!.redactions).toBeGreaterThanOrEqual(2);
  });

  it('redacts body secret fields of any length and the caller token in audited arguments, whatever the scrubber', async () => {
    // The pass-through scrubber collects no body secrets: the audit must not depend on it.
    const t = setup({ reply: () => ({ status: 201, json: { id: 9 } }) });
    await t.call('adminCreateUser', {
      body: { username: 'eve', email: 'eve@example.com', password: 'pw1', full_name: `x ${TOKEN}` },
    });
    // A failed validation is audited with the same redaction.
    await t.call('adminCreateUser', { body: { username: 'eve', password: 'hunter2-long-enough' } });
    await t.call('gitea_api_request', {
      method: 'POST',
      path: '/admin/users',
      body: { username: 'eve', email: 'e@x.io', password: 'pw2', nested: { deep: [{ token: 'tk' }] } },
    });
    expect(t.audits).toHaveLength(3);
    const stored = JSON.stringify(t.audits.map((a) => a.arguments));
    for (const secret of ['pw1', 'hunter2-long-enough', 'pw2', '"tk"', TOKEN])
      expect(stored).not.toContain(secret);
    expect(t.audits[0]!.arguments).toMatchObject({ body: { username: 'eve', password: '[REDACTED]' } });
    expect(t.audits[1]!.kind).toBe('invalid_arguments');
    expect(t.audits[2]).toMatchObject({ tool: 'gitea_api_request', operationId: 'adminCreateUser' });
    expect(t.audits[2]!.arguments).toMatchObject({ body: { nested: { deep: [{ token: '[REDACTED]' }] } } });
  });

  it('applies the scrubber: masked write-back refused, block mode withholds, credential ops skip patterns', async () => {
    const calls: Array<{ skipPatterns: boolean; mode: string }> = [];
    const scrubber: ResultScrubber = {
      ...passThroughScrubber,
      findMaskMarker: (body) => (JSON.stringify(body).includes('[[aegis-masked:') ? '/content' : null),
      scrubResult: (value, ctx) => {
        calls.push({ skipPatterns: ctx.skipPatterns, mode: ctx.mode });
        const blocked =
          JSON.stringify(value).includes('AKIA') && !ctx.skipPatterns ? { kinds: ['aws_access_key'] } : null;
        return { value, redactions: 0, masks: 0, blocked };
      },
    };
    const t = setup({ scrubber, reply: () => ({ json: { key: FAKE_AWS_KEY } }) });
    const w = await t.call('repoUpdateFile', {
      owner: 'o',
      repo: 'r',
      filepath: 'a',
      body: { content: '[[aegis-masked:x]]', sha: 'abc' },
    });
    expect(w.json.error.kind).toBe('masked_content_write');
    expect(t.sent).toHaveLength(0);
    const b = await t.call('repoGet', { owner: 'o', repo: 'r' });
    expect(b.json.error.kind).toBe('secret_blocked');
    expect(b.content[0]!.text).not.toContain('AKIA');
    expect(t.audits.at(-1)!.blocked).toBe(true);
    const c = await t.call('userCreateToken', { username: 'alice', body: { name: 't' } });
    expect(c.isError).toBe(false);
    const e = setup({
      scrubber,
      reply: () => ({ status: 400, json: { message: `bad key ${FAKE_AWS_KEY}` } }),
    });
    const blockedError = await e.call('repoGet', { owner: 'o', repo: 'r' });
    expect(blockedError.json.error.kind).toBe('secret_blocked');
    expect(blockedError.content[0]!.text).not.toContain('AKIA');
    expect(e.audits[0]).toMatchObject({ kind: 'secret_blocked', blocked: true });
  });

  it('raw tool: refuses %, .., URLs and relative paths; maps to the operation', async () => {
    const t = setup({ reply: () => ({ json: { name: 'feature/x' } }) });
    for (const path of [
      '/repos/o/r/releases/tags/rel%2F1.0',
      '/repos/o/r/contents/../secret',
      'http://evil/api',
      'repos/o/r',
      '//evil/x',
      '/repos/o/r/./x',
    ]) {
      const r = await t.call('gitea_api_request', { method: 'GET', path });
      expect(r.json.error.kind).toBe('invalid_arguments');
    }
    expect(t.sent).toHaveLength(0);
    const ok = await t.call('gitea_api_request', {
      method: 'GET',
      path: '/repos/o/r/branches/feature/x',
    });
    expect(ok.isError).toBe(false);
    expect(t.sent[0]).toMatchObject({ path: '/repos/o/r/branches/feature/x', query: [] });
    expect(t.audits.at(-1)).toMatchObject({
      tool: 'gitea_api_request',
      operationId: 'repoGetBranch',
      org: 'o',
    });
  });

  it('raw tool: query and body are validated against the matched operation, like its generated tool', async () => {
    const t = setup({ reply: () => ({ status: 201, json: { id: 1 } }) });
    const raw = (method: string, path: string, extra: Record<string, unknown> = {}) =>
      t.call('gitea_api_request', { method, path, ...extra });

    const bad = await raw('POST', '/repos/o/r/issues', { body: { title: 5 } });
    const generated = await t.call('issueCreateIssue', { owner: 'o', repo: 'r', body: { title: 5 } });
    expect(bad.isError).toBe(true);
    expect(bad.json.error.kind).toBe('invalid_arguments');
    expect(bad.json.error.message).toContain('gitea_api_request as issueCreateIssue');
    // Same instance path and JSON-schema path as the generated tool's refusal.
    for (const part of ['/body/title must be string', '#/properties/body/properties/title/type']) {
      expect(bad.json.error.message).toContain(part);
      expect(generated.json.error.message).toContain(part);
    }

    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['POST', '/repos/o/r/issues', { body: {} }, '/body is missing required property "title"'],
      ['POST', '/repos/o/r/contents/a.txt', {}, '/ is missing required property "body"'],
      ['GET', '/repos/o/r', { body: { x: 1 } }, '/ has unknown property "body"'],
      ['GET', '/repos/o/r/issues', { query: { a: [1, 2] } }, '/query has unknown property "a"'],
      ['GET', '/repos/o/r/issues', { query: { page: 'two' } }, '/query/page must be integer'],
      ['GET', '/repos/o/r/issues', { query: { state: 'bogus' } }, '/query/state must be one of'],
      ['GET', '/repos/o/r/issues/1', { query: { owner: 'x' } }, '/query has unknown property "owner"'],
      ['GET', '/repos/search', { query: { q: 'x', uid: 'me' } }, '/query/uid must be integer'],
    ];
    for (const [method, path, extra, expected] of cases) {
      const r = await raw(method, path, extra);
      expect([method, path, extra, r.json.error?.kind]).toEqual([method, path, extra, 'invalid_arguments']);
      expect(r.json.error.message).toContain(expected);
    }
    expect(t.sent).toHaveLength(0);
    expect(t.audits.at(-1)).toMatchObject({
      tool: 'gitea_api_request',
      operationId: 'repoSearch',
      kind: 'invalid_arguments',
    });

    // Valid calls go through unchanged.
    const created = await raw('POST', '/repos/o/r/issues', { body: { title: 'ok', labels: [1] } });
    expect(created.isError).toBe(false);
    const listed = await raw('GET', '/repos/o/r/issues', {
      query: { state: 'open', labels: 'bug', page: 2 },
    });
    expect(listed.isError).toBe(false);
    expect(t.sent.map((r) => [r.method, r.path, r.query])).toEqual([
      ['POST', '/repos/o/r/issues', []],
      [
        'GET',
        '/repos/o/r/issues',
        [
          ['state', 'open'],
          ['labels', 'bug'],
          ['page', '2'],
        ],
      ],
    ]);
    expect(t.sent[0]!.body).toEqual({ kind: 'json', value: { title: 'ok', labels: [1] } });

    // Policy still comes first: a disabled operation is tool_disabled, whatever its body.
    const off = setup({ tools: { disabledTools: ['issueCreateIssue'] } });
    const refused = await off.call('gitea_api_request', {
      method: 'POST',
      path: '/repos/o/r/issues',
      body: { title: 5 },
    });
    expect(refused.json.error.kind).toBe('tool_disabled');
  });

  it('discovery mode lists meta-tools and calls through the same path', async () => {
    const t = setup({
      tools: { mode: 'discovery', disabledTools: ['repoDeleteBranch'] },
      reply: () => ({ json: { login: 'alice' } }),
    });
    const names = t.service.listTools().map((x) => x.name);
    expect(names).toEqual([
      'gitea_search_tools',
      'gitea_describe_tool',
      'gitea_call_tool',
      'gitea_api_request',
    ]);
    const s = await t.call('gitea_search_tools', { query: 'which user am I' });
    expect(s.json.results.slice(0, 3).map((h: { name: string }) => h.name)).toContain('userGetCurrent');
    const removed = await t.call('gitea_search_tools', { query: 'remove that branch' });
    // A globally disabled tool is still found, flagged with the reason (issue 17).
    const flagged = removed.json.results.find((h: { name: string }) => h.name === 'repoDeleteBranch');
    expect(flagged.disabled).toMatchObject({ kind: 'tool_disabled' });
    expect(flagged.disabled.reason).toContain('repoDeleteBranch');
    expect(
      removed.json.results.find((h: { name: string }) => h.name !== 'repoDeleteBranch').disabled,
    ).toBeUndefined();
    const d = await t.call('gitea_describe_tool', { name: 'userGetCurrent' });
    expect(d.json).toMatchObject({ name: 'userGetCurrent', method: 'GET', path: '/user' });
    const c = await t.call('gitea_call_tool', { name: 'userGetCurrent', arguments: {} });
    expect(c.json.data).toEqual({ login: 'alice' });
    const refused = await t.call('gitea_call_tool', {
      name: 'repoDeleteBranch',
      arguments: { owner: 'o', repo: 'r', branch: 'b' },
    });
    expect(refused.json.error.kind).toBe('tool_disabled');
    // An unknown name through the call tool is an error result with describe's hint (issue 17).
    const unknown = await t.call('gitea_call_tool', { name: 'repoCreateIssue' });
    expect(unknown.isError).toBe(true);
    expect(unknown.json.error.kind).toBe('invalid_arguments');
    expect(unknown.json.error.message).toContain('use gitea_search_tools');
    expect(unknown.json.error.details.suggestions).toContain('issueCreateIssue');
    const described = await t.call('gitea_describe_tool', { name: 'repoCreateIssue' });
    expect(described.json.error.message.split(';')[0]).toBe(unknown.json.error.message.split(';')[0]);
    await expect(t.service.callTool('nope', {}, identity)).rejects.toBeInstanceOf(UnknownToolError);
    expect(t.audits.map((a) => a.tool)).toEqual([
      'gitea_search_tools',
      'gitea_search_tools',
      'gitea_describe_tool',
      'userGetCurrent',
      'repoDeleteBranch',
      'repoCreateIssue',
      'gitea_describe_tool',
      'nope',
    ]);
  });
});
