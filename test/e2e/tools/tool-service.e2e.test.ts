// End to end: the ToolService with the real undici transport and secrets scrubber against the
// Gitea simulator (the MCP HTTP layer is tested elsewhere).
import type { AppConfig } from '../../../src/config/app-config';
import type { AuditEntry } from '../../../src/core/ports';
import { loadBundledSpec } from '../../../src/infra/gitea/spec-source';
import { buildCatalogue } from '../../../src/core/catalogue/tool-catalogue';
import { simulatedToolService, useSimulatedGitea } from './simulated-tool-service';

const catalogue = buildCatalogue(loadBundledSpec(), { maxBinaryBytes: 4096 });

describe('ToolService against the Gitea simulator', () => {
  const gitea = useSimulatedGitea();
  const audits: AuditEntry[] = [];

  const service = (tools: Partial<AppConfig['tools']> = {}, timeoutMs = 5000) =>
    simulatedToolService({
      catalogue,
      transport: gitea.transport,
      audits,
      tools,
      timeoutMs,
      // One key for every service built here, as replicas sharing ENCRYPTION_KEY have.
      cursorSecret: 'e2e-cursor-key',
    });
  const call = async (
    name: string,
    args: unknown,
    tools: Partial<AppConfig['tools']> = {},
    timeoutMs = 5000,
  ) => {
    const r = await service(tools, timeoutMs).callTool(name, args, gitea.alice);
    return { isError: r.isError, text: r.content[0]!.text, json: JSON.parse(r.content[0]!.text) as any };
  };

  beforeEach(() => gitea.sim.faults.clear());

  it('wildcard file path and a branch with "/"', async () => {
    const file = await call('repoGetContents', {
      owner: 'acme',
      repo: 'widgets',
      filepath: 'src/feature-x.ts',
      ref: 'feature/x',
    });
    expect(file.isError).toBe(false);
    expect(file.json.request).toEqual({
      method: 'GET',
      path: '/repos/acme/widgets/contents/src/feature-x.ts',
    });
    expect(Buffer.from(file.json.data.content, 'base64').toString()).toContain('export const x = 42');
    const branch = await call('repoGetBranch', { owner: 'acme', repo: 'widgets', branch: 'feature/x' });
    expect(branch.json.request.path).toBe('/repos/acme/widgets/branches/feature/x');
    expect(branch.json.data.name).toBe('feature/x');
  });

  it('release tag rel/1.0 is sent as %2F', async () => {
    const r = await call('repoGetReleaseByTag', { owner: 'acme', repo: 'widgets', tag: 'rel/1.0' });
    expect(r.isError).toBe(false);
    expect(r.json.request.path).toBe('/repos/acme/widgets/releases/tags/rel%2F1.0');
    expect(r.json.data.tag_name).toBe('rel/1.0');
  });

  it('paginated list: envelope pagination from Link and X-Total-Count', async () => {
    const r = await call('repoListBranches', { owner: 'acme', repo: 'widgets', page: 1, limit: 1 });
    expect(r.json.data).toHaveLength(1);
    expect(r.json.pagination).toEqual({
      page: 1,
      limit: 1,
      total_count: 3,
      next_page: 2,
      last_page: 3,
      next_cursor: expect.any(String),
    });
    // The cursor alone walks the rest of the list against the simulator (issue 17).
    const names = [r.json.data[0].name];
    let next = r.json.pagination.next_cursor as string | undefined;
    while (next) {
      const page = await call('repoListBranches', { cursor: next });
      names.push(...page.json.data.map((b: { name: string }) => b.name));
      next = page.json.pagination.next_cursor;
    }
    expect(names).toHaveLength(3);
    expect(new Set(names).size).toBe(3);
  });

  it('404 and 422 become error kinds with Gitea messages', async () => {
    const nf = await call('repoGet', { owner: 'acme', repo: 'does-not-exist' });
    expect(nf.isError).toBe(true);
    expect(nf.json.error).toMatchObject({ status: 404, kind: 'not_found' });
    const invalid = await call('issueCreateIssue', { owner: 'acme', repo: 'widgets', body: { title: '' } });
    expect(invalid.json.error).toMatchObject({ status: 422, kind: 'validation_failed' });
    expect(invalid.json.error.message).toMatch(/Title/);
    expect(invalid.text).not.toContain(gitea.sim.tokens.alice);
  });

  it('binary raw file as base64, and one over MAX_BINARY_BYTES refused', async () => {
    const small = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 255]);
    const big = Buffer.alloc(5000, 0);
    for (const [path, data] of [
      ['assets/logo.png', small],
      ['assets/big.bin', big],
    ] as const) {
      const created = await call('repoCreateFile', {
        owner: 'acme',
        repo: 'widgets',
        filepath: path,
        body: { content: data.toString('base64'), message: `add ${path}` },
      });
      expect(created.isError).toBe(false);
    }
    const r = await call('repoGetRawFile', { owner: 'acme', repo: 'widgets', filepath: 'assets/logo.png' });
    expect(r.json.data_format).toBe('binary');
    expect(r.json.data.size).toBe(small.length);
    expect(Buffer.from(r.json.data.content_base64, 'base64').equals(small)).toBe(true);
    const tooBig = await call('repoGetRawFile', {
      owner: 'acme',
      repo: 'widgets',
      filepath: 'assets/big.bin',
    });
    expect(tooBig.json.error.kind).toBe('payload_too_large');
    expect(tooBig.json.error.message).toMatch(/MAX_BINARY_BYTES/);
  });

  it('deep JSON is returned as text', async () => {
    gitea.sim.faults.set({ deepJsonLevels: 150, pathPrefix: '/api/v1/repos/acme/widgets', times: 1 });
    const r = await call('repoGet', { owner: 'acme', repo: 'widgets' });
    expect(r.isError).toBe(false);
    expect(r.json.data_format).toBe('json_as_text');
    expect(typeof r.json.data).toBe('string');
  });

  it('an oversize list is trimmed by both bounds, as valid JSON that says so', async () => {
    const full = await call(
      'issueListIssues',
      { owner: 'acme', repo: 'widgets', state: 'all' },
      { maxResponseItems: 3 },
    );
    expect(full.json.truncated.items[0]).toMatchObject({ path: '/', returned: 3 });
    expect(full.json.truncated.items[0].total).toBeGreaterThanOrEqual(4);
    const maxChars = full.text.length - 300;
    const both = await call(
      'issueListIssues',
      { owner: 'acme', repo: 'widgets', state: 'all' },
      { maxResponseItems: 3, maxResponseChars: maxChars },
    );
    expect(both.text.length).toBeLessThanOrEqual(maxChars);
    expect(both.json.data.length).toBeLessThan(3);
    expect(both.json.truncated.items[0].returned).toBe(3);
    expect(both.json.truncated.chars).toMatchObject({ limit: maxChars, total_items: 3 });
    expect(both.json.truncated.hint).toMatch(/limit=/);
  });

  it('the runner registration token arrives from its response header', async () => {
    const r = await call('repoCreateRunnerRegistrationToken', { owner: 'acme', repo: 'widgets' });
    expect(r.isError).toBe(false);
    const expected = [...gitea.sim.state.runnerTokens.values()];
    expect(expected).toContain(r.json.headers.token);
  });

  it('a slow Gitea becomes a timeout', async () => {
    gitea.sim.faults.set({ latencyMs: 1500, pathPrefix: '/api/v1/repos/acme/widgets', times: 1 });
    const started = Date.now();
    const r = await call('repoGet', { owner: 'acme', repo: 'widgets' }, {}, 300);
    expect(r.json.error.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1400);
  });

  it('the raw tool refuses %2F, .. and URLs, and reaches wildcard routes', async () => {
    for (const path of [
      '/repos/acme/widgets/releases/tags/rel%2F1.0',
      '/repos/acme/widgets/contents/../../admin/users',
      `${gitea.sim.url}/api/v1/user`,
      'http://example.com/x',
    ]) {
      const r = await call('gitea_api_request', { method: 'GET', path });
      expect(r.json.error.kind).toBe('invalid_arguments');
    }
    const ok = await call('gitea_api_request', {
      method: 'GET',
      path: '/repos/acme/widgets/branches/feature/x',
    });
    expect(ok.json.data.name).toBe('feature/x');
    expect(audits.at(-1)).toMatchObject({
      tool: 'gitea_api_request',
      operationId: 'repoGetBranch',
      status: 200,
      org: 'acme',
    });
  });

  it('full mode lists, describes (schema) and calls every tool directly', async () => {
    const s = service();
    const tools = s.listTools();
    expect(tools).toHaveLength(486);
    expect(tools.find((t) => t.name === 'userGetCurrent')!.inputSchema.type).toBe('object');
    const me = await call('userGetCurrent', {});
    expect(me.json.data.login).toBe('alice');
    expect(me.text).not.toContain(gitea.sim.tokens.alice);
  });

  it('discovery mode lists meta-tools, searches, describes and calls through the same path', async () => {
    const s = service({ mode: 'discovery' });
    expect(s.listTools().map((t) => t.name)).toEqual([
      'gitea_search_tools',
      'gitea_describe_tool',
      'gitea_call_tool',
      'gitea_api_request',
    ]);
    const found = await call(
      'gitea_search_tools',
      { query: 'which user am I', limit: 3 },
      { mode: 'discovery' },
    );
    expect(found.json.results.map((h: { name: string }) => h.name)).toContain('userGetCurrent');
    const described = await call('gitea_describe_tool', { name: 'repoGetBranch' }, { mode: 'discovery' });
    expect(described.json.inputSchema.required).toEqual(['owner', 'repo', 'branch']);
    const before = audits.length;
    const called = await call(
      'gitea_call_tool',
      { name: 'repoGetBranch', arguments: { owner: 'acme', repo: 'widgets', branch: 'feature/x' } },
      { mode: 'discovery' },
    );
    expect(called.json.data.name).toBe('feature/x');
    expect(audits.slice(before)).toHaveLength(1);
    expect(audits.at(-1)).toMatchObject({ tool: 'repoGetBranch', status: 200 });
    const invalid = await call(
      'gitea_call_tool',
      { name: 'repoGetBranch', arguments: { owner: 'acme' } },
      { mode: 'discovery' },
    );
    expect(invalid.json.error.kind).toBe('invalid_arguments');
  });
});
