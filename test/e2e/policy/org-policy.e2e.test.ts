// Issue 14, Show, end to end: two service processes (replicas A and B) on one PostgreSQL and one
// Redis, against the Gitea simulator, driven through /api/admin and /mcp (official SDK client and
// raw HTTP). Orgs: acme (owner alice, plain member bob, seeded), beta* (owner bob) and quota*
// (owner alice), created for this run. Calls through /mcp run as the service account (admin).
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { secretFileContent } from '../../simulator/seed';
import { createScratchPostgres, TEST_DATABASE_URL } from '../../integration/database/database-targets';
import { startGitea, type TestGitea } from '../mcp/helpers/gitea';
import { BEARER, startMcpApp, testConfig, type McpApp } from '../mcp/helpers/mcp-app';
import { connect, envelope, type McpClient } from '../mcp/helpers/clients';
import { adminCall, giteaCall, rawSession } from './helpers/policy-clients';

jest.setTimeout(120_000);

const REDIS_URL = process.env.TEST_REDIS_URL?.trim() || null;
const ENTRY = `${__dirname}/helpers/policy-app-process.ts`;
const ADMIN_TOKEN = `admin-${randomBytes(16).toString('hex')}`;
const suffix = randomBytes(3).toString('hex');
const BETA = `beta${suffix}`;
const QORG = `quota${suffix}`;

const describeTwoReplicas = TEST_DATABASE_URL && REDIS_URL ? describe : describe.skip;
if (!TEST_DATABASE_URL || !REDIS_URL)
  process.stderr.write(
    'SKIPPED org policy across two replicas: TEST_DATABASE_URL and TEST_REDIS_URL must be set\n',
  );

const errorOf = (result: { content: Array<{ type: string; text?: string }> }) => envelope(result).error;

async function seedOrgs(gitea: TestGitea): Promise<void> {
  const { alice, bob } = gitea.tokens;
  await giteaCall(gitea.url, bob, 'POST', '/orgs', { username: BETA });
  for (const name of ['app', 'other'])
    await giteaCall(gitea.url, bob, 'POST', `/orgs/${BETA}/repos`, { name, auto_init: true });
  await giteaCall(gitea.url, bob, 'POST', `/repos/${BETA}/app/contents/config/.env`, {
    content: Buffer.from(secretFileContent()).toString('base64'),
    message: 'add settings',
  });
  await giteaCall(gitea.url, alice, 'POST', '/orgs', { username: QORG });
  await giteaCall(gitea.url, alice, 'POST', `/orgs/${QORG}/repos`, { name: 'r', auto_init: true });
}

describeTwoReplicas('org policy across two replicas (PostgreSQL + Redis)', () => {
  let gitea: TestGitea;
  let scratch: { url: string; drop(): Promise<void> };
  let a: McpApp;
  let b: McpApp;
  let onB: McpClient;
  const person = (login: 'alice' | 'bob' | 'admin') => `person.${gitea.tokens[login]}`;

  beforeAll(async () => {
    gitea = await startGitea();
    await seedOrgs(gitea);
    scratch = await createScratchPostgres(TEST_DATABASE_URL!);
    const config = testConfig(gitea.url, gitea.tokens.admin, {
      DATABASE_URL: scratch.url,
      REDIS_URL: REDIS_URL!,
      ADMIN_TOKEN,
      AUDIT_FLUSH_INTERVAL_MS: '20',
      // Long: only the Redis message can carry a change to the other replica within a second.
      POLICY_CACHE_TTL_MS: '60000',
      RATE_LIMIT_PER_MINUTE: '0',
    });
    a = await startMcpApp(config, { full: true, entry: ENTRY, startTimeoutMs: 120_000 });
    b = await startMcpApp(config, { full: true, entry: ENTRY, startTimeoutMs: 120_000 });
    onB = await connect(b.url, 'sdk2', '2026-07-28', { Authorization: `Bearer ${BEARER}` });
  });

  afterAll(async () => {
    await onB?.close();
    await Promise.all([a?.close(), b?.close()]);
    await gitea?.close();
    await scratch?.drop();
  });

  const put = (app: McpApp, org: string, body: unknown, bearer: string | null = ADMIN_TOKEN) =>
    adminCall(app.base, 'PUT', `/api/admin/orgs/${org}/policy`, bearer, body);

  it('lets an org owner manage their own org only; a plain member is refused on theirs (403)', async () => {
    const own = await put(a, 'acme', { quotas: { write_calls_per_hour: 1000 } }, person('alice'));
    expect(own.status).toBe(200);
    expect(own.body.role).toBe('org_owner');

    const other = await adminCall(a.base, 'GET', `/api/admin/orgs/${BETA}/policy`, person('alice'));
    expect(other.status).toBe(403);
    expect(other.body.error.message).toContain(`not an owner of organization ${BETA}`);
    expect((await put(a, BETA, { read_only: true }, person('alice'))).status).toBe(403);

    // bob is a member of acme (team developers), not in its Owners team
    expect((await put(b, 'acme', { read_only: true }, person('bob'))).status).toBe(403);
    expect((await adminCall(b.base, 'GET', '/api/admin/orgs/acme/policy', person('bob'))).status).toBe(403);
    expect((await put(b, BETA, { allowed_repos: ['app'] }, person('bob'))).status).toBe(200);

    // the site admin (a person) and ADMIN_TOKEN manage every org
    expect(
      (await adminCall(a.base, 'GET', `/api/admin/orgs/${BETA}/policy`, person('admin'))).body.role,
    ).toBe('site_admin');
    expect((await adminCall(a.base, 'GET', '/api/admin/orgs/acme/policy', ADMIN_TOKEN)).body.role).toBe(
      'site_admin',
    );

    expect((await adminCall(a.base, 'GET', '/api/admin/orgs/acme/policy', null)).status).toBe(401);
    expect((await adminCall(a.base, 'GET', '/api/admin/orgs/acme/policy', 'wrong-token')).status).toBe(401);

    const aliceOrgs = await adminCall(a.base, 'GET', '/api/admin/orgs', person('alice'));
    expect(aliceOrgs.body.orgs.map((o: { org: string }) => o.org).sort()).toEqual(['acme', QORG].sort());
    const allOrgs = await adminCall(a.base, 'GET', '/api/admin/orgs', ADMIN_TOKEN);
    expect(allOrgs.body.orgs.map((o: { org: string }) => o.org)).toEqual(
      expect.arrayContaining(['acme', BETA, QORG]),
    );
    expect((await adminCall(a.base, 'GET', '/api/admin/me', person('bob'))).body).toEqual({
      login: 'bob',
      is_site_admin: false,
      via: 'test_person',
    });
  });

  it('refuses bad input with a 400 that names it, and keeps the policy as it was', async () => {
    const unknownField = await put(a, 'acme', { disabled_tools: [], color: 'red' });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error.message).toContain('color');
    const unknownQuota = await put(a, 'acme', { quotas: { per_day: 5 } });
    expect(unknownQuota.body.error.message).toContain('per_day');
    const unknownTool = await put(a, 'acme', { disabled_tools: ['repoDelete', 'noSuchTool*'] });
    expect(unknownTool.status).toBe(400);
    expect(unknownTool.body.error.message).toContain('"noSuchTool*"');
    expect((await put(a, 'acme', { secret_detection_mode: 'loud' })).status).toBe(400);
    expect((await put(a, 'acme', '{not json')).status).toBe(400);
    const view = await adminCall(a.base, 'GET', '/api/admin/orgs/acme/policy', ADMIN_TOKEN);
    expect(view.body.policy.disabled_tools).toEqual([]);
  });

  it('enforces two orgs with different policies through /mcp, block mode for one org only', async () => {
    await put(a, 'acme', {
      disabled_tools: ['issueCreateIssue', 'repoDelete*'],
      secret_detection_mode: 'block',
    });
    await put(a, BETA, { read_only: true, allowed_repos: ['app'] });
    const newIssue = { title: 'from an agent' };

    const acmeCreate = await onB.callTool('issueCreateIssue', {
      owner: 'acme',
      repo: 'widgets',
      body: newIssue,
    });
    expect(errorOf(acmeCreate)).toMatchObject({ kind: 'tool_disabled' });
    expect(errorOf(acmeCreate).message).toContain('organization acme');
    const rawCreate = await onB.callTool('gitea_api_request', {
      method: 'POST',
      path: '/repos/acme/widgets/issues',
      body: newIssue,
    });
    expect(errorOf(rawCreate).kind).toBe('tool_disabled');
    const betaCreate = await onB.callTool('issueCreateIssue', { owner: BETA, repo: 'app', body: newIssue });
    expect(errorOf(betaCreate)).toMatchObject({ kind: 'read_only' });
    expect(errorOf(betaCreate).message).toContain(`organization ${BETA}`);
    const betaOther = await onB.callTool('repoGet', { owner: BETA, repo: 'other' });
    expect(errorOf(betaOther)).toMatchObject({ kind: 'repo_not_allowed' });
    expect((await onB.callTool('repoGet', { owner: BETA, repo: 'app' })).isError).toBeFalsy();
    expect((await onB.callTool('issueListIssues', { owner: 'acme', repo: 'widgets' })).isError).toBeFalsy();
    // a user-owned repository: global policy only
    expect(
      (await onB.callTool('issueCreateIssue', { owner: 'bob', repo: 'sandbox', body: newIssue })).isError,
    ).toBeFalsy();

    // the same kind of file: withheld in acme (block), masked in beta (the global mask)
    const acmeFile = await onB.callTool('repoGetContents', {
      owner: 'acme',
      repo: 'widgets',
      filepath: 'config/.env',
    });
    expect(errorOf(acmeFile).kind).toBe('secret_blocked');
    const betaFile = await onB.callTool('repoGetContents', {
      owner: BETA,
      repo: 'app',
      filepath: 'config/.env',
    });
    expect(betaFile.isError).toBeFalsy();
    const text = Buffer.from(envelope(betaFile).data.content as string, 'base64').toString('utf8');
    expect(text).toContain('AWS_ACCESS_KEY_ID=');
    expect(text).not.toContain(secretFileContent().split('\n')[1]!.split('=')[1]);

    // discovery: search flags the tool for acme, describe says why
    const search = envelope(
      await onB.callTool('gitea_search_tools', { query: 'create an issue', org: 'acme' }),
    );
    const hit = search.results.find((r: { name: string }) => r.name === 'issueCreateIssue');
    expect(hit.disabled_for_org.kind).toBe('tool_disabled');
    const describe = envelope(
      await onB.callTool('gitea_describe_tool', { name: 'issueCreateIssue', org: BETA }),
    );
    expect(describe.policy).toMatchObject({ allowed: false, kind: 'read_only' });

    // the catalogue view says where each tool is disabled
    const catalogue = await adminCall(a.base, 'GET', '/api/admin/catalogue', ADMIN_TOKEN);
    const entry = catalogue.body.tools.find((t: { name: string }) => t.name === 'issueCreateIssue');
    expect(entry.disabled_in.map((d: { org: string; kind: string }) => [d.org, d.kind]).sort()).toEqual(
      [
        ['acme', 'tool_disabled'],
        [BETA, 'read_only'],
      ].sort(),
    );
    expect(catalogue.body.counts.total).toBeGreaterThan(400);
  });

  it('applies a change made through replica A to the next call in replica B within a second', async () => {
    const delays: number[] = [];
    const tags = { owner: 'acme', repo: 'widgets' };
    for (let i = 0; i < 6; i += 1) {
      const disable = i % 2 === 0;
      await put(a, 'acme', {
        disabled_tools: disable ? ['issueCreateIssue', 'repoListTags'] : ['issueCreateIssue'],
      });
      const changed = performance.now();
      for (;;) {
        const result = await onB.callTool('repoListTags', tags);
        const refused = result.isError === true && errorOf(result).kind === 'tool_disabled';
        if (refused === disable) break;
        if (performance.now() - changed > 1000)
          throw new Error(`replica B did not apply change ${i} within 1 s`);
      }
      delays.push(performance.now() - changed);
    }
    delays.sort((x, y) => x - y);
    process.stdout.write(
      `policy change A -> next call on B: median ${delays[3]!.toFixed(1)} ms, max ${delays[5]!.toFixed(1)} ms (6 changes, a call takes part of it)\n`,
    );
    expect(delays[5]).toBeLessThan(1000);

    const history = await adminCall(
      b.base,
      'GET',
      '/api/admin/orgs/acme/policy/history?limit=3',
      ADMIN_TOKEN,
    );
    expect(history.body.changes).toHaveLength(3);
    expect(history.body.changes[0].changed_by).toBe('admin-token');
    expect(history.body.changes[0].before.version).toBe(history.body.changes[0].after.version - 1);
    expect(history.body.next_before).not.toBeNull();
  });

  it('holds a quota across both replicas (429 with Retry-After naming the quota), and simulate agrees', async () => {
    await put(a, QORG, { quotas: { tool_calls_per_minute: 4 } });
    // Stay inside one minute window: wait out the end of the current one when it is close.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
    const session = await rawSession(a.url, BEARER);
    const args = { owner: QORG, repo: 'r' };
    const simulate = () =>
      adminCall(b.base, 'POST', '/api/admin/policy/simulate', person('alice'), {
        login: 'admin',
        org: QORG,
        tool: 'repoGet',
        repo: 'r',
      });
    expect((await simulate()).body).toMatchObject({
      decision: 'allowed',
      quotas: [{ quota: 'tool_calls_per_minute', used: 0, limit: 4 }],
    });
    for (let i = 0; i < 4; i += 1) {
      const answer = await session.call(i % 2 ? b.url : a.url, 'repoGet', args);
      expect([i, answer.status, answer.isError]).toEqual([i, 200, false]);
    }
    const predicted = await simulate();
    expect(predicted.body).toMatchObject({ decision: 'refused', kind: 'rate_limited' });
    for (const url of [b.url, a.url]) {
      const refused = await session.call(url, 'repoGet', args);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.retryAfter);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.json.error.message).toContain(`quota tool_calls_per_minute of organization ${QORG}`);
      expect(refused.json.error.message).toMatch(/resets at \d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z/);
      expect(refused.json.error.data).toMatchObject({
        kind: 'rate_limited',
        quota: 'tool_calls_per_minute',
        limit: 4,
      });
    }
    // the SDK client on the 2026-07-28 path meets the same 429
    await expect(onB.callTool('repoGet', args)).rejects.toThrow(/429|Too Many Requests/);
    // another person is not affected (quotas are per person within the org)
    const asAlice = await adminCall(b.base, 'POST', '/api/admin/policy/simulate', person('alice'), {
      login: 'alice',
      org: QORG,
      tool: 'repoGet',
    });
    expect(asAlice.body.decision).toBe('allowed');

    // exactly one audit record per refused call, in the same chain as the policy changes
    const db = new Client({ connectionString: scratch.url });
    await db.connect();
    try {
      let rows: Array<{ kind: string | null; n: string }> = [];
      for (let tries = 0; tries < 50; tries += 1) {
        rows = (
          await db.query(
            `SELECT kind, count(*)::text AS n FROM audit_records WHERE org = $1 AND tool = 'repoGet' GROUP BY kind`,
            [QORG],
          )
        ).rows;
        if (rows.find((r) => r.kind === 'rate_limited')?.n === '3') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(Object.fromEntries(rows.map((r) => [String(r.kind), Number(r.n)]))).toEqual({
        null: 4,
        rate_limited: 3,
      });
      const changes = await db.query(
        `SELECT login, org, arguments FROM audit_records WHERE tool = 'admin.policy.update' AND org = $1`,
        [QORG],
      );
      expect(changes.rows).toHaveLength(1);
      expect(changes.rows[0].arguments.after.quotas.tool_calls_per_minute).toBe(4);
    } finally {
      await db.end();
    }
  });

  it('serves the audit trail to the console: query, export, stats, verify, scoped to what the caller owns', async () => {
    const page = await adminCall(
      a.base,
      'GET',
      `/api/admin/audit?org=${QORG}&kind=rate_limited&limit=2`,
      person('alice'),
    );
    expect(page.status).toBe(200);
    expect(page.body.items).toHaveLength(2);
    expect(
      page.body.items.every(
        (r: { org: string; kind: string }) => r.org === QORG && r.kind === 'rate_limited',
      ),
    ).toBe(true);
    const next = await adminCall(
      a.base,
      'GET',
      `/api/admin/audit?org=${QORG}&kind=rate_limited&limit=2&cursor=${page.body.next_cursor}`,
      person('alice'),
    );
    expect(next.body.items).toHaveLength(1);
    expect(next.body.next_cursor).toBeNull();
    expect((await adminCall(a.base, 'GET', `/api/admin/audit?org=${QORG}`, person('bob'))).status).toBe(403);
    expect((await adminCall(a.base, 'GET', '/api/admin/audit', person('alice'))).status).toBe(403);
    expect((await adminCall(a.base, 'GET', '/api/admin/audit?colour=red', ADMIN_TOKEN)).status).toBe(400);

    const stats = await adminCall(b.base, 'GET', `/api/admin/audit/stats?org=${QORG}`, person('alice'));
    expect(stats.body.total).toBeGreaterThanOrEqual(8);
    expect(stats.body.by_kind).toEqual(
      expect.arrayContaining([
        { kind: 'rate_limited', count: 3 },
        { kind: 'ok', count: 5 },
      ]),
    );
    expect(stats.body.by_tool).toEqual(expect.arrayContaining([{ tool: 'repoGet', count: 7 }]));

    const verify = await adminCall(b.base, 'GET', '/api/admin/audit/verify', ADMIN_TOKEN);
    expect(verify.body).toMatchObject({ ok: true, first_break: null });
    expect(verify.body.checked).toBeGreaterThan(10);
    expect((await adminCall(b.base, 'GET', '/api/admin/audit/verify', person('alice'))).status).toBe(403);

    const csv = await fetch(`${a.base}/api/admin/audit/export?format=csv&org=${QORG}&kind=rate_limited`, {
      headers: { authorization: `Bearer ${person('alice')}` },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toMatch(/^seq,event_id,created_at/);
    expect(lines).toHaveLength(4);
  });

  it('simulate agrees with what /mcp then does for the same inputs', async () => {
    await put(a, 'acme', {
      disabled_tools: ['issueCreateIssue', 'repoDelete*'],
      read_only: false,
      allowed_repos: ['widgets'],
    });
    await put(a, BETA, { read_only: true, allowed_repos: ['app'] });
    const cases: Array<{ org: string; tool: string; repo: string | null; args: Record<string, unknown> }> = [
      {
        org: 'acme',
        tool: 'issueCreateIssue',
        repo: 'widgets',
        args: { owner: 'acme', repo: 'widgets', body: { title: 't' } },
      },
      { org: 'acme', tool: 'issueListIssues', repo: 'widgets', args: { owner: 'acme', repo: 'widgets' } },
      { org: 'acme', tool: 'repoGet', repo: 'internal', args: { owner: 'acme', repo: 'internal' } },
      { org: 'acme', tool: 'orgListMembers', repo: null, args: { org: 'acme' } },
      {
        org: BETA,
        tool: 'issueCreateIssue',
        repo: 'app',
        args: { owner: BETA, repo: 'app', body: { title: 't' } },
      },
      { org: BETA, tool: 'repoGet', repo: 'other', args: { owner: BETA, repo: 'other' } },
      { org: BETA, tool: 'repoGet', repo: 'app', args: { owner: BETA, repo: 'app' } },
    ];
    const POLICY_KINDS = ['tool_disabled', 'read_only', 'repo_not_allowed', 'rate_limited'];
    const seen: string[] = [];
    for (const c of cases) {
      const sim = await adminCall(a.base, 'POST', '/api/admin/policy/simulate', ADMIN_TOKEN, {
        login: 'admin',
        org: c.org,
        tool: c.tool,
        repo: c.repo,
      });
      const result = await onB.callTool(c.tool, c.args);
      const kind = result.isError ? errorOf(result).kind : null;
      const policyKind = kind && POLICY_KINDS.includes(kind) ? kind : null;
      expect([c.org, c.tool, c.repo, sim.body.kind]).toEqual([c.org, c.tool, c.repo, policyKind]);
      expect(sim.body.decision).toBe(policyKind ? 'refused' : 'allowed');
      if (policyKind) expect(errorOf(result).message).toBe(sim.body.message);
      seen.push(sim.body.kind ?? 'allowed');
    }
    expect(new Set(seen)).toEqual(new Set(['tool_disabled', 'allowed', 'repo_not_allowed', 'read_only']));
  });

  it('shows the global settings to site admins only, secrets never', async () => {
    const settings = await adminCall(a.base, 'GET', '/api/admin/settings', ADMIN_TOKEN);
    expect(settings.status).toBe(200);
    expect(settings.body.floor).toEqual({
      disabled_tools: [],
      toolsets: [],
      read_only: false,
      secret_detection_mode: 'mask',
    });
    const text = JSON.stringify(settings.body);
    for (const secret of [ADMIN_TOKEN, BEARER, gitea.tokens.admin, scratch.url, 'aegis_test:aegis_test'])
      expect(text).not.toContain(secret);
    const byName = Object.fromEntries(settings.body.settings.map((s: { name: string }) => [s.name, s]));
    expect(byName.ADMIN_TOKEN.value).toEqual({ set: true });
    expect(byName.POLICY_CACHE_TTL_MS).toMatchObject({ value: 60000, is_default: false });
    expect(byName.TOOL_MODE).toMatchObject({ value: 'full', is_default: true });
    expect(byName.DATABASE_URL.value).toEqual({ set: true });
    expect(settings.body.settings.map((s: { name: string }) => s.name)).toContain('SECRET_DETECTION_MODE');
    expect((await adminCall(a.base, 'GET', '/api/admin/settings', person('alice'))).status).toBe(403);
  });

  it('serves its OpenAPI document', async () => {
    const doc = (await (await fetch(`${a.base}/api/admin/openapi.json`)).json()) as { paths: object };
    expect(Object.keys(doc.paths)).toContain('/api/admin/orgs/{org}/policy');
  });
});

describe('org policy in one process without Redis (PGlite)', () => {
  let gitea: TestGitea;
  let app: McpApp;
  let client: McpClient;

  beforeAll(async () => {
    gitea = await startGitea();
    app = await startMcpApp(
      testConfig(gitea.url, gitea.tokens.admin, { ADMIN_TOKEN, POLICY_CACHE_TTL_MS: '60000' }),
      // The whole service transpiled at start: about 35 s at a load of 16 (120 s of room).
      { full: true, entry: ENTRY, startTimeoutMs: 120_000 },
    );
    client = await connect(app.url, 'sdk2', '2026-07-28', { Authorization: `Bearer ${BEARER}` });
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
    await gitea?.close();
  });

  it('applies a change to the very next call, and quotas are counted in memory', async () => {
    const args = { owner: 'acme', repo: 'widgets' };
    expect((await client.callTool('repoListTags', args)).isError).toBeFalsy();
    await adminCall(app.base, 'PUT', '/api/admin/orgs/acme/policy', ADMIN_TOKEN, {
      disabled_tools: ['repoListTags'],
    });
    expect(errorOf(await client.callTool('repoListTags', args)).kind).toBe('tool_disabled');
    await adminCall(app.base, 'PUT', '/api/admin/orgs/acme/policy', ADMIN_TOKEN, {
      disabled_tools: [],
      quotas: { tool_calls_per_minute: 2 },
    });
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
    const session = await rawSession(app.url, BEARER);
    expect((await session.call(app.url, 'repoListTags', args)).status).toBe(200);
    expect((await session.call(app.url, 'repoListTags', args)).status).toBe(200);
    const refused = await session.call(app.url, 'repoListTags', args);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
  });
});
