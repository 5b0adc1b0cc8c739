// Issue 14: every change attempt on /api/admin leaves an audit record, refusals included (a 400
// for bad input, a 403 for someone who does not own the org), and the audit query compares the
// org case-insensitively like the stats (Gitea org names are case-insensitive). One service
// process on the embedded default (PGlite, in-process queue) against the Gitea simulator.
import { randomBytes } from 'node:crypto';
import { startGitea, type TestGitea } from '../mcp/helpers/gitea';
import { BEARER, startMcpApp, testConfig, type McpApp } from '../mcp/helpers/mcp-app';
import { connect, type McpClient } from '../mcp/helpers/clients';
import { adminCall } from './helpers/policy-clients';

jest.setTimeout(120_000);

const ENTRY = `${__dirname}/helpers/policy-app-process.ts`;
const ADMIN_TOKEN = `admin-${randomBytes(16).toString('hex')}`;

type Rec = {
  tool: string;
  login: string;
  org: string | null;
  status: number;
  kind: string | null;
  arguments: any;
};

describe('audit of /api/admin changes and the audit query (PGlite)', () => {
  let gitea: TestGitea;
  let app: McpApp;
  let client: McpClient;
  const person = (login: 'alice' | 'bob') => `person.${gitea.tokens[login]}`;

  /** The admin.policy.update records, once `count` of them are written (the queue flushes often). */
  async function changeRecords(count: number, org = 'acme'): Promise<Rec[]> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const page = await adminCall(
        app.base,
        'GET',
        `/api/admin/audit?org=${org}&tool=admin.policy.update&order=asc`,
        ADMIN_TOKEN,
      );
      expect(page.status).toBe(200);
      const items = page.body.items as Rec[];
      if (items.length >= count || Date.now() > deadline) return items;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    gitea = await startGitea();
    app = await startMcpApp(
      testConfig(gitea.url, gitea.tokens.admin, { ADMIN_TOKEN, AUDIT_FLUSH_INTERVAL_MS: '20' }),
      { full: true, entry: ENTRY },
    );
    client = await connect(app.url, 'sdk2', '2025-11-25', { Authorization: `Bearer ${BEARER}` });
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
    await gitea?.close();
  });

  it('audits refused changes (400 bad input, 403 not an owner) as well as applied ones', async () => {
    const put = (bearer: string, body: unknown) =>
      adminCall(app.base, 'PUT', '/api/admin/orgs/acme/policy', bearer, body);
    expect((await put(ADMIN_TOKEN, { read_only: true, colour: 'red' })).status).toBe(400);
    expect((await put(ADMIN_TOKEN, { disabled_tools: ['noSuchTool*'] })).status).toBe(400);
    expect((await put(person('bob'), { read_only: true })).status).toBe(403); // a plain member of acme
    expect((await put(person('alice'), { disabled_tools: ['repoDelete'] })).status).toBe(200); // the owner

    const records = await changeRecords(4);
    expect(records.map((r) => [r.login, r.status, r.kind])).toEqual([
      ['admin-token', 400, 'bad_request'],
      ['admin-token', 400, 'bad_request'],
      ['bob', 403, 'forbidden'],
      ['alice', 200, null],
    ]);
    expect(records.every((r) => r.org === 'acme')).toBe(true);
    expect(records[0]!.arguments).toEqual({
      refused: { status: 400, message: expect.stringContaining('colour') },
      attempted: { read_only: true, unknown_fields: ['colour'] },
    });
    expect(records[1]!.arguments.refused.message).toContain('noSuchTool*');
    expect(records[1]!.arguments.attempted).toEqual({ disabled_tools: ['noSuchTool*'] });
    expect(records[2]!.arguments.attempted).toEqual({ read_only: true });
    expect(records[3]!.arguments.after.disabled_tools).toEqual(['repoDelete']);
    // the refused changes left the policy as the owner set it
    const view = await adminCall(app.base, 'GET', '/api/admin/orgs/acme/policy', ADMIN_TOKEN);
    expect(view.body.policy).toMatchObject({ read_only: false, disabled_tools: ['repoDelete'] });
  });

  it('finds a call that named the org in other letters, as the stats count it', async () => {
    expect((await client.callTool('repoGet', { owner: 'ACME', repo: 'widgets' })).isError).toBeFalsy();
    const deadline = Date.now() + 20_000;
    let found: Rec[] = [];
    while (Date.now() < deadline) {
      const page = await adminCall(app.base, 'GET', '/api/admin/audit?org=acme&tool=repoGet', ADMIN_TOKEN);
      found = page.body.items as Rec[];
      if (found.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(found.map((r) => r.org)).toEqual(['ACME']);
    const upper = await adminCall(
      app.base,
      'GET',
      '/api/admin/audit?org=Acme&tool=admin.policy.update',
      ADMIN_TOKEN,
    );
    expect(upper.body.items).toHaveLength(4);
    const stats = await adminCall(app.base, 'GET', '/api/admin/audit/stats?org=acme', ADMIN_TOKEN);
    const query = await adminCall(app.base, 'GET', '/api/admin/audit?org=acme&limit=200', ADMIN_TOKEN);
    expect(query.body.items).toHaveLength(stats.body.total);
  });
});
