// Issue 15, Connections: a revocation made through the admin API leaves one audit record in the
// same hash chain as tool calls and policy changes, refusals included. bob (a plain member of acme)
// tries to revoke alice's grant through the site admins' route (403) and through his own (404);
// the site admin revokes alice's grant in the console; bob revokes his own through the API; a
// policy change sits in the same chain. The chain verifies, and the site admin's Audit page
// filters the revocation records (record type) and shows their detail, in chromium.
import { join } from 'node:path';
import {
  asSession,
  horizontalOverflow,
  seriousViolations,
  SHOTS,
  startConsoleStack,
  waitForExpression,
  type ConsoleStack,
} from './helpers/console-stack';

type Rec = {
  seq: string;
  tool: string;
  login: string;
  org: string | null;
  method: string;
  path: string;
  status: number;
  kind: string | null;
  arguments: any;
};

describe('revocations through the admin API are audited in the chain', () => {
  let stack: ConsoleStack;

  beforeAll(async () => {
    stack = await startConsoleStack();
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('records refused and done revocations, shown on the Audit page', async () => {
    const alice = await stack.signIn('alice');
    const bob = await stack.signIn('bob');
    const admin = await stack.signIn('admin');
    const aliceGrant = (await asSession(stack.base, 'GET', '/api/admin/connections', alice)).body
      .connections[0].id as string;
    const bobGrant = (await asSession(stack.base, 'GET', '/api/admin/connections', bob)).body.connections[0]
      .id as string;
    expect(aliceGrant).toMatch(/^gitea:/);

    // A policy change first: the revocations go into the same chain after it.
    expect(
      (await asSession(stack.base, 'PUT', '/api/admin/orgs/acme/policy', admin, { read_only: false })).status,
    ).toBe(200);

    // bob, a plain member, tries to revoke alice's grant: the site admins' route says 403, his own 404.
    const asAdmin = await asSession(stack.base, 'POST', `/api/admin/grants/${aliceGrant}/revoke`, bob, {});
    expect(asAdmin.status).toBe(403);
    const asOwn = await asSession(stack.base, 'POST', `/api/admin/connections/${aliceGrant}/revoke`, bob, {});
    expect(asOwn.status).toBe(404);
    expect((await asSession(stack.base, 'GET', '/api/admin/connections', alice)).status).toBe(200);

    // The site admin revokes alice's grant in the console.
    await admin.page.goto(`${stack.base}/admin/connections`);
    await admin.page.getByLabel('Person').fill('alice');
    await waitForExpression(
      admin.page,
      "(() => { const t = document.querySelectorAll('section table')[1]; return t && [...t.querySelectorAll('tbody tr td:nth-child(2)')].every((c) => c.textContent === 'alice'); })()",
    );
    await admin.page
      .locator('section table')
      .nth(1)
      .getByRole('button', { name: /^Revoke .* of alice$/ })
      .click();
    await admin.page
      .getByRole('status')
      .filter({ hasText: "alice's AegisGitea-MCP (Gitea sign-in): revoked." })
      .waitFor();

    // bob revokes his own through the API (which signs him out).
    const own = await asSession(stack.base, 'POST', `/api/admin/connections/${bobGrant}/revoke`, bob, {});
    expect(own.body).toEqual({ revoked: 1, signed_out: true });
    // alice signs in again and revokes all of hers.
    const aliceAgain = await stack.signIn('alice');
    const everything = await asSession(
      stack.base,
      'POST',
      '/api/admin/connections/revoke-all',
      aliceAgain,
      {},
    );
    expect(everything.body).toEqual({ revoked: 1, signed_out: true });

    // The records, in order: two refusals, the admin's revocation, bob's own.
    let records: Rec[] = [];
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const page = await asSession(
        stack.base,
        'GET',
        '/api/admin/audit?tool=admin.grant.revoke&order=asc',
        admin,
      );
      expect(page.status).toBe(200);
      records = page.body.items;
      if (records.length >= 5) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(records.map((r) => [r.login, r.method, r.path, r.status, r.kind])).toEqual([
      ['bob', 'POST', `/api/admin/grants/${aliceGrant}/revoke`, 403, 'forbidden'],
      ['bob', 'POST', `/api/admin/connections/${aliceGrant}/revoke`, 404, 'not_found'],
      ['admin', 'POST', `/api/admin/grants/${aliceGrant}/revoke`, 200, null],
      ['bob', 'POST', `/api/admin/connections/${bobGrant}/revoke`, 200, null],
      ['alice', 'POST', '/api/admin/connections/revoke-all', 200, null],
    ]);
    expect(records[0]!.arguments).toEqual({
      connection: aliceGrant,
      scope: 'one',
      owner: 'alice',
      refused: { status: 403, message: 'only site admins revoke the grants of others' },
    });
    expect(records[1]!.arguments).toMatchObject({ owner: 'alice', refused: { status: 404 } });
    expect(records[2]!.arguments).toEqual({
      connection: aliceGrant,
      scope: 'one',
      owner: 'alice',
      by: 'site_admin',
      revoked: 1,
      signed_out: true,
    });
    expect(records[3]!.arguments).toMatchObject({ owner: 'bob', by: 'person', revoked: 1 });
    expect(records[4]!.arguments).toEqual({
      connection: null,
      scope: 'all',
      owner: 'alice',
      by: 'person',
      revoked: 1,
      signed_out: true,
    });

    // One chain: the policy change comes before them, and the whole chain verifies.
    const all = (await asSession(stack.base, 'GET', '/api/admin/audit?order=asc&limit=1000', admin)).body
      .items as Rec[];
    const policy = all.find((r) => r.tool === 'admin.policy.update')!;
    expect(BigInt(policy.seq)).toBeLessThan(BigInt(records[0]!.seq));
    const verify = await asSession(stack.base, 'GET', '/api/admin/audit/verify', admin);
    expect(verify.body).toMatchObject({ ok: true });
    expect(verify.body.checked).toBeGreaterThanOrEqual(6);

    // The Audit page: record type "Grant revocations", the rows and a record's detail.
    const { page } = admin;
    await page.goto(`${stack.base}/admin/audit`);
    await page.getByRole('status').filter({ hasText: 'Hash chain: intact' }).waitFor();
    await page.getByLabel('record type').selectOption({ label: 'Grant revocations' });
    expect(await page.locator('input[name="tool"]').inputValue()).toBe('admin.grant.revoke');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const rows = page.getByRole('region', { name: 'Audit records' }).locator('tbody tr');
    await waitForExpression(
      page,
      `document.querySelectorAll('[aria-label="Audit records"] tbody tr').length === 5 && [...document.querySelectorAll('[aria-label="Audit records"] tbody tr')].every((r) => r.textContent.includes('admin.grant.revoke'))`,
    );
    // newest first: alice's revoke-all, bob's own, the admin's, then the two refusals
    expect(await rows.locator('td:nth-child(2)').allTextContents()).toEqual([
      'alice',
      'bob',
      'admin',
      'bob',
      'bob',
    ]);
    expect(await rows.locator('td:nth-child(3)').allTextContents()).toEqual([
      'admin.grant.revoke (grant of alice)',
      'admin.grant.revoke (grant of bob)',
      'admin.grant.revoke (grant of alice)',
      'admin.grant.revoke (grant of alice)',
      'admin.grant.revoke (grant of alice)',
    ]);
    expect(await rows.locator('td:nth-child(5)').allTextContents()).toEqual([
      'ok',
      'ok',
      'ok',
      'not_found',
      'forbidden',
    ]);
    await rows
      .nth(4)
      .getByRole('button', { name: /^Detail/ })
      .click();
    const detail = await page.getByLabel('Record detail').textContent();
    expect(detail).toContain('"message": "only site admins revoke the grants of others"');
    expect(detail).toContain('"owner": "alice"');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'audit-revocations-1280.png'), fullPage: true });

    // At a phone's width: the same records, no page-wide horizontal scroll, axe clean.
    const phone = await stack.signIn('admin', { width: 390, height: 844 });
    await phone.page.goto(`${stack.base}/admin/audit`);
    await phone.page.getByLabel('record type').selectOption({ label: 'Grant revocations' });
    await phone.page.getByRole('button', { name: 'Apply filters' }).click();
    await waitForExpression(
      phone.page,
      `document.querySelectorAll('[aria-label="Audit records"] tbody tr').length === 5`,
    );
    expect(await horizontalOverflow(phone.page)).toBeLessThanOrEqual(0);
    expect(await seriousViolations(phone.page)).toEqual([]);
    await phone.page.screenshot({ path: join(SHOTS, 'audit-revocations-390.png'), fullPage: true });
    for (const c of [alice, bob, admin, aliceAgain, phone]) await c.context.close();
  }, 240_000);
});
