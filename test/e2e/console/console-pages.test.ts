// The console's pages with data, in Debian's chromium, signed in through Gitea as each seeded role
// (admin: site admin; alice: owner of acme; bob: a plain member of acme), cross-checked through
// /mcp with the official MCP SDK client:
// - an org owner edits their org's policy (tool picker, diff before saving, history, simulator);
//   the next MCP call of the disabled tool is refused;
// - a validation error is shown in words and changes nothing;
// - an org owner cannot open another org, by link or by API; a member is refused on their own org
//   (the console session as an /api/admin credential, issue 14);
// - a change without the session's CSRF token is refused;
// - the site admin's Overview, Organisations, Audit (filter, detail, export, chain status),
//   Catalogue and Settings render with data, axe-clean, at 1280 and 390 px (screenshots).
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { GiteaGrantService } from '../../../src/core/gitea-oauth/grant-service';
import { GITEA_GRANT_SERVICE } from '../../../src/modules/gitea-oauth/gitea-oauth.tokens';
import { PRISMA } from '../../../src/modules/tokens';
import { connect, type McpClient } from '../mcp/helpers/clients';
import {
  asSession,
  authorizedMcpClient,
  BEARER,
  horizontalOverflow,
  waitForExpression,
  seriousViolations,
  SHOTS,
  startConsoleStack,
  WIDTHS,
  type ConsoleStack,
} from './helpers/console-stack';

const OTHER_ORG = 'globex';

describe('console pages with data, cross-checked through /mcp', () => {
  let stack: ConsoleStack;
  let mcp: McpClient;

  beforeAll(async () => {
    stack = await startConsoleStack();
    // A second org that alice does not own (the site admin creates it on Gitea).
    const created = await fetch(`${stack.sim.url}/api/v1/orgs`, {
      method: 'POST',
      headers: { authorization: `token ${stack.sim.tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ username: OTHER_ORG }),
    });
    expect(created.status).toBe(201);
    mcp = await connect(`${stack.base}/mcp`, 'sdk2', '2026-07-28', { Authorization: `Bearer ${BEARER}` });
  }, 180_000);

  afterAll(async () => {
    await mcp?.close();
    await stack?.close();
  });

  const repoGet = () => mcp.callTool('repoGet', { owner: 'acme', repo: 'widgets' });

  it('an org owner disables a tool in the console (picker, diff, save, history); the next /mcp call is refused', async () => {
    expect((await repoGet()).isError).toBeFalsy();

    const alice = await stack.signIn('alice');
    const { page } = alice;
    const links = page.getByRole('navigation', { name: 'Console' }).getByRole('link');
    expect(await links.allTextContents()).toEqual(['Organisations', 'Audit', 'Connections', 'Catalogue']);
    await page.getByText('alice (org owner)').waitFor();

    await page.getByRole('link', { name: 'Organisations' }).click();
    const orgLinks = page.locator('ul.cards a');
    await orgLinks.first().waitFor();
    expect(await orgLinks.allTextContents()).toEqual(['acme']);
    await page.getByRole('link', { name: 'acme' }).click();
    await page.getByRole('heading', { name: 'Organisation acme' }).waitFor();

    // The picker searches the catalogue; the diff shows the change before saving.
    await page.getByLabel('Find a tool').fill('repoGet');
    await page.getByRole('button', { name: 'Disable repoGet', exact: true }).click();
    const diff = page.getByRole('table', { name: 'Change before saving' });
    await diff.waitFor();
    expect(await diff.locator('tbody tr th').allTextContents()).toEqual(['disabled_tools']);
    expect(await diff.locator('ins').textContent()).toBe('["repoGet"]');
    await page.getByRole('button', { name: 'Save policy' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await page.locator('ol.history li').filter({ hasText: 'alice (org_owner)' }).first().waitFor();
    expect(await page.locator('ol.history li').first().textContent()).toMatch(
      /^v1 · .* · alice \(org_owner\)$/,
    );

    // Through /mcp (official SDK client): refused, naming the org.
    const refused = await repoGet();
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toContain('tool_disabled');
    expect(refused.content[0]!.text).toContain('acme');

    // The simulator agrees.
    const simulator = page.getByRole('form', { name: 'Policy simulator' });
    await simulator.getByLabel('Person').fill('bob');
    await simulator.getByLabel('Tool').fill('repoGet');
    await simulator.getByRole('button', { name: 'Simulate' }).click();
    await simulator
      .getByRole('status')
      .filter({ hasText: /^refused: / })
      .waitFor();
    await alice.context.close();
  }, 120_000);

  it('shows a validation error in words and saves nothing', async () => {
    const alice = await stack.signIn('alice');
    const { page } = alice;
    await page.goto(`${stack.base}/admin/orgs/acme`);
    await page.getByRole('heading', { name: 'Organisation acme' }).waitFor();
    await page.locator('ul.chips code').filter({ hasText: 'repoGet' }).waitFor();
    await page.getByRole('textbox', { name: 'Glob', exact: true }).fill('noSuchTool*');
    await page.getByText('matches 0 tools').waitFor();
    await page.getByRole('button', { name: 'Add glob' }).click();
    await page.getByRole('button', { name: 'Save policy' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('"noSuchTool*"');
    const policy = await asSession(stack.base, 'GET', '/api/admin/orgs/acme/policy', alice);
    expect(policy.body.policy.disabled_tools).toEqual(['repoGet']);
    await alice.context.close();
  }, 120_000);

  it('an org owner cannot open another org by link or by API; a change without the CSRF token is refused', async () => {
    const alice = await stack.signIn('alice');
    const { page } = alice;
    await page.goto(`${stack.base}/admin/orgs/${OTHER_ORG}`);
    const alert = page.getByRole('alert').first();
    await alert.waitFor();
    expect(await alert.textContent()).toContain(`alice is not an owner of organization ${OTHER_ORG}`);

    expect((await asSession(stack.base, 'GET', `/api/admin/orgs/${OTHER_ORG}/policy`, alice)).status).toBe(
      403,
    );
    const put = await asSession(stack.base, 'PUT', `/api/admin/orgs/${OTHER_ORG}/policy`, alice, {
      read_only: true,
    });
    expect(put.status).toBe(403);
    expect(put.body.error.message).toContain('not an owner');

    // The same session changing its own org: without the CSRF token refused, with it accepted.
    const bare = await asSession(
      stack.base,
      'PUT',
      '/api/admin/orgs/acme/policy',
      { cookie: alice.cookie },
      { read_only: true },
    );
    expect(bare.status).toBe(403);
    expect(bare.body.error.message).toContain('x-csrf-token');
    expect(
      (await asSession(stack.base, 'GET', '/api/admin/orgs/acme/policy', alice)).body.policy.read_only,
    ).toBe(false);
    const good = await asSession(stack.base, 'PUT', '/api/admin/orgs/acme/policy', alice, {
      read_only: false,
    });
    expect(good.status).toBe(200);
    await alice.context.close();
  }, 120_000);

  it('a plain member sees only Connections and is refused (403) on their own org by the admin API', async () => {
    const bob = await stack.signIn('bob');
    const { page } = bob;
    const links = page.getByRole('navigation', { name: 'Console' }).getByRole('link');
    expect(await links.allTextContents()).toEqual(['Connections']);
    await page.goto(`${stack.base}/admin/orgs/acme`);
    await page.getByRole('alert').filter({ hasText: 'may not use Organisations' }).waitFor();
    const read = await asSession(stack.base, 'GET', '/api/admin/orgs/acme/policy', bob);
    expect(read.status).toBe(403);
    expect(read.body.error.message).toContain('bob is not an owner of organization acme');
    const change = await asSession(stack.base, 'PUT', '/api/admin/orgs/acme/policy', bob, {
      disabled_tools: [],
    });
    expect(change.status).toBe(403);
    await bob.context.close();
  }, 120_000);

  async function check(page: Page, shot: string, width: string): Promise<void> {
    if (width === '390') {
      const overflow = await horizontalOverflow(page);
      // What sticks out past the viewport, named in the failure (only looked for when it does).
      const wide =
        overflow > 0
          ? await page.evaluate(
              "[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 5).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))",
            )
          : [];
      expect({ shot, overflow, wide }).toEqual({ shot, overflow: expect.any(Number), wide: [] });
      expect(overflow).toBeLessThanOrEqual(0);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, `${shot}-${width}.png`), fullPage: true });
  }

  for (const size of WIDTHS) {
    it(`the site admin's pages render with data at ${size.width} px, axe clean`, async () => {
      const admin = await stack.signIn('admin', size);
      const { page } = admin;
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));

      // Overview: charts from the audit store (the MCP calls above).
      await page.goto(`${stack.base}/admin/overview`);
      await page.getByText('tool calls recorded').waitFor();
      await page.locator('figure.chart svg.recharts-surface').first().waitFor();
      expect(await page.locator('figure.chart figcaption').allTextContents()).toEqual([
        'Calls per minute',
        'Masked and blocked results',
        'Top people',
        'Outcomes by kind',
        'Top tools',
        'Calls by organisation',
        'Calls by day',
      ]);
      await page.getByText(/results with secrets masked: \d+, withheld \(blocked\): \d+/).waitFor();
      const topPeople = page.locator('figure.chart').filter({ hasText: 'Top people' });
      expect(await topPeople.locator('.recharts-cartesian-axis-tick-value').allTextContents()).toEqual(
        expect.arrayContaining(['alice']),
      );
      await check(page, 'overview', size.name);

      await page.goto(`${stack.base}/admin/orgs`);
      await page.locator('ul.cards a').first().waitFor();
      expect(await page.locator('ul.cards a').allTextContents()).toEqual(
        expect.arrayContaining(['acme', OTHER_ORG]),
      );
      await check(page, 'organisations', size.name);

      await page.goto(`${stack.base}/admin/orgs/acme`);
      await page.locator('ul.chips code').filter({ hasText: 'repoGet' }).waitFor();
      await page.locator('ol.history li').first().waitFor();
      await check(page, 'org-policy', size.name);

      // Audit: the chain's status, records, a filter, a record's detail.
      await page.goto(`${stack.base}/admin/audit`);
      await page.getByRole('status').filter({ hasText: 'Hash chain: intact' }).waitFor();
      await page.locator('table tbody tr').first().waitFor();
      if (size.name === '1280') {
        // More records than one page (25): the cursor pages go older and back.
        for (let i = 0; i < 26; i += 1)
          await mcp.callTool('issueListIssues', { owner: 'acme', repo: 'widgets' });
        await page.reload();
        await page.getByRole('status').filter({ hasText: 'Hash chain: intact' }).waitFor();
        const rows = page.locator('table tbody tr');
        await waitForExpression(page, "document.querySelectorAll('table tbody tr').length === 25");
        const first = await rows.first().textContent();
        await page.getByRole('button', { name: 'Older' }).click();
        // The table is empty while the older page loads: wait for rows that are not the first page's.
        await waitForExpression(
          page,
          `(document.querySelector('table tbody tr')?.textContent ?? ${JSON.stringify(first)}) !== ${JSON.stringify(first)}`,
        );
        expect(await rows.count()).toBeGreaterThan(0);
        await page.getByRole('button', { name: 'Newer' }).click();
        await waitForExpression(
          page,
          `document.querySelector('table tbody tr')?.textContent === ${JSON.stringify(first)}`,
        );
      }
      await page.getByLabel('tool', { exact: true }).fill('repoGet');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      // The table is empty while the filtered page loads, and every() of no rows is true: wait for
      // rows, all of them repoGet.
      await waitForExpression(
        page,
        "((cells) => cells.length > 0 && cells.every((c) => c.textContent === 'repoGet'))([...document.querySelectorAll('table tbody tr td:nth-child(3)')])",
      );
      const outcomes = await page.locator('table tbody tr td:nth-child(5)').allTextContents();
      expect(outcomes).toEqual(expect.arrayContaining(['ok', 'tool_disabled']));
      await page
        .getByRole('button', { name: /^Detail/ })
        .first()
        .click();
      const detail = await page.getByLabel('Record detail').textContent();
      expect(detail).toContain('"tool": "repoGet"');
      expect(detail).not.toContain(BEARER);
      await check(page, 'audit', size.name);
      const href = await page.getByRole('link', { name: 'JSON Lines' }).getAttribute('href');
      expect(href).toContain('tool=repoGet');
      const exported = await asSession(stack.base, 'GET', href!, admin);
      expect(exported.status).toBe(200);
      const lines = String(exported.body)
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { tool: string });
      expect(lines.length).toBeGreaterThanOrEqual(2);
      expect(lines.every((l) => l.tool === 'repoGet')).toBe(true);

      await page.goto(`${stack.base}/admin/catalogue`);
      await page.getByText(/^\d+ tools from Gitea API 1\.27\.1 \(SPEC_SOURCE=bundled\)/).waitFor();
      await page.getByLabel('Search').fill('repoGet');
      const row = page
        .locator('table tbody tr')
        .filter({ has: page.locator('code', { hasText: /^repoGet$/ }) });
      await row.waitFor();
      expect(await row.locator('td').nth(2).textContent()).toBe('in acme (tool_disabled)');
      await check(page, 'catalogue', size.name);

      await page.goto(`${stack.base}/admin/settings`);
      await page.locator('table tbody tr').first().waitFor();
      const settingsText = (await page.locator('main').textContent()) ?? '';
      expect(settingsText).toContain('set (hidden)');
      for (const secret of [BEARER, stack.sim.tokens.admin!]) expect(settingsText).not.toContain(secret);
      await check(page, 'settings', size.name);

      // Connections: the admin's own Gitea grant, and every grant (each person signed in above).
      await page.goto(`${stack.base}/admin/connections`);
      const tables = page.locator('section table');
      await tables.nth(1).locator('tbody tr').first().waitFor();
      expect(await tables.nth(0).locator('tbody tr td:nth-child(2)').allTextContents()).toEqual([
        'Gitea grant',
      ]);
      const people = await tables.nth(1).locator('tbody tr td:nth-child(2)').allTextContents();
      expect(people.sort()).toEqual(['admin', 'alice', 'bob']);
      await check(page, 'connections', size.name);

      expect(errors).toEqual([]);
      await admin.context.close();
    }, 180_000);
  }

  it("a person revokes their own grant (CSRF needed) and is signed out; a site admin revokes another person's", async () => {
    const grants = stack.app.get<GiteaGrantService>(GITEA_GRANT_SERVICE);
    const bob = await stack.signIn('bob');
    const mine = await asSession(stack.base, 'GET', '/api/admin/connections', bob);
    expect(mine.status).toBe(200);
    expect(mine.body.connections).toEqual([
      expect.objectContaining({ kind: 'gitea', access: 'read', status: 'active' }),
    ]);
    const id = mine.body.connections[0].id as string;

    // An MCP client bob authorises through this service's OAuth server: listed, revoked in the
    // console, and its next call at /mcp refused.
    const { client, accessToken } = await authorizedMcpClient(stack, 'bob', 'Console e2e client');
    const called = await client.callTool({
      name: 'issueListIssues',
      arguments: { owner: 'acme', repo: 'widgets' },
    });
    expect(called.isError).toBeFalsy();
    // Its first use is recorded once (beside the last use) for the MCP client's grant and for the
    // Gitea grant the call ran on; both are listed by the admin API and shown on the page.
    let used: Array<Record<string, any>> = [];
    for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
      used = (await asSession(stack.base, 'GET', '/api/admin/connections', bob)).body.connections;
      if (used.length === 2 && used.every((c) => c.first_used_at && c.last_used_at)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const mcpGrant = used.find((c) => c.kind === 'mcp_client')!;
    expect(mcpGrant).toMatchObject({ client_name: 'Console e2e client', first_used_at: expect.any(String) });
    expect(used.find((c) => c.kind === 'gitea')!.first_used_at).toEqual(expect.any(String));
    expect(Date.parse(mcpGrant.first_used_at)).toBeGreaterThanOrEqual(Date.parse(mcpGrant.created_at));
    expect(Date.parse(mcpGrant.first_used_at)).toBeLessThanOrEqual(Date.parse(mcpGrant.last_used_at));
    await bob.page.goto(`${stack.base}/admin/connections`);
    const clientRow = bob.page.locator('tbody tr').filter({ hasText: 'Console e2e client' });
    await clientRow.waitFor();
    expect(await clientRow.locator('td').nth(1).textContent()).toBe('MCP client');
    const headers = await bob.page.locator('section table').first().locator('thead th').allTextContents();
    expect(headers.slice(3, 6)).toEqual(['Granted', 'First used', 'Last used']);
    const firstUsedCell = (await clientRow.locator('td').nth(4).textContent()) ?? '';
    expect(firstUsedCell).toBe(
      await bob.page.evaluate((iso) => new Date(iso).toLocaleString(), mcpGrant.first_used_at as string),
    );
    await clientRow.getByRole('button', { name: /^Revoke/ }).click();
    await bob.page.getByRole('status').filter({ hasText: 'Console e2e client: revoked.' }).waitFor();
    // Verified tokens are cached; a revocation reaches the cache within TOMBSTONE_POLL_MS (1 s).
    const deadline = Date.now() + 1_000 + 2_000;
    let status = 0;
    do {
      if (status) await new Promise((r) => setTimeout(r, 200));
      status = (
        await fetch(`${stack.base}/mcp`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${accessToken}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-06-18',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-06-18',
              capabilities: {},
              clientInfo: { name: 'x', version: '1' },
            },
          }),
        })
      ).status;
    } while (status !== 401 && Date.now() < deadline);
    expect(status).toBe(401);
    await client.close().catch(() => undefined);
    // A person may not list every grant, nor revoke another person's.
    expect((await asSession(stack.base, 'GET', '/api/admin/grants', bob)).status).toBe(403);
    const adminsGrant = (await stack.signIn('admin')).cookie;
    const adminConnections = await asSession(stack.base, 'GET', '/api/admin/connections', {
      cookie: adminsGrant,
    });
    const foreign = adminConnections.body.connections[0].id as string;
    expect(
      (
        await asSession(
          stack.base,
          'POST',
          `/api/admin/connections/${encodeURIComponent(foreign)}/revoke`,
          bob,
          {},
        )
      ).status,
    ).toBe(404);
    // Without the CSRF token: refused, nothing revoked.
    const bare = await asSession(
      stack.base,
      'POST',
      `/api/admin/connections/${encodeURIComponent(id)}/revoke`,
      { cookie: bob.cookie },
      {},
    );
    expect(bare.status).toBe(403);
    const bobId = await personOf(stack, 'bob');
    expect((await grants.findGrant(bobId))?.status).toBe('active');

    // In the console: Revoke. The grant ends, and so does the console session.
    const { page } = bob;
    await page.goto(`${stack.base}/admin/connections`);
    await page.getByRole('button', { name: /^Revoke AegisGitea-MCP/ }).click();
    await page.getByRole('link', { name: 'Sign in with Gitea' }).waitFor();
    expect(
      (await fetch(`${stack.base}/admin/auth/session`, { headers: { cookie: bob.cookie } })).status,
    ).toBe(401);
    await expect(grants.credentialFor(bobId)).rejects.toMatchObject({ kind: 'auth_required' });
    await bob.context.close();

    // The site admin revokes alice's grant from "Every grant".
    const alice = await stack.signIn('alice');
    const admin = await stack.signIn('admin');
    await admin.page.goto(`${stack.base}/admin/connections`);
    await admin.page.getByLabel('Person').fill('alice');
    const every = admin.page.locator('section table').nth(1);
    await waitForExpression(
      admin.page,
      "(() => { const t = document.querySelectorAll('section table')[1]; return t && [...t.querySelectorAll('tbody tr td:nth-child(2)')].every((c) => c.textContent === 'alice'); })()",
    );
    await every.getByRole('button', { name: /^Revoke .* of alice$/ }).click();
    await admin.page
      .getByRole('status')
      .filter({ hasText: "alice's AegisGitea-MCP (Gitea sign-in): revoked." })
      .waitFor();
    expect(
      (await fetch(`${stack.base}/admin/auth/session`, { headers: { cookie: alice.cookie } })).status,
    ).toBe(401);
    const listed = await asSession(stack.base, 'GET', '/api/admin/grants?login=alice&status=all', admin);
    expect(listed.body.grants).toEqual([
      expect.objectContaining({ login: 'alice', status: 'revoked', revoked_reason: 'revoked_by_admin' }),
    ]);
    await alice.context.close();
    await admin.context.close();
  }, 180_000);
});

async function personOf(stack: ConsoleStack, login: string): Promise<string> {
  const prisma = stack.app.get<{ person: { findFirst(q: unknown): Promise<{ id: string } | null> } }>(PRISMA);
  return (await prisma.person.findFirst({ where: { login } }))!.id;
}
