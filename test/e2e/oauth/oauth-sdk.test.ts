// Per-user OAuth end to end with the official TypeScript SDK 2.x client's own OAuth support: a 401
// from /mcp leads it to the protected resource metadata, the authorization server metadata,
// registration (DCR, or a Client ID Metadata Document), the consent page and the Gitea sign-in
// (walked without a browser here; the Chromium test uses a real one), the token, tool calls as
// the person, refresh, revocation and the scope step-up. Two people share one client; at the end
// a dump of the database must not contain any token the run minted or received.
import { execFileSync } from 'node:child_process';
import { Client as PgClient } from 'pg';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { startDocServer, type DocServer } from './helpers/doc-server';
import {
  BEARER,
  Browserless,
  giteaSignIn,
  personAuthorizes,
  startOAuthStack,
  type OAuthStack,
} from './helpers/oauth-stack';
import { TestOAuthProvider } from './helpers/sdk-provider';
import { postInitialize } from '../helpers/mcp-http';

jest.setTimeout(300_000);

type TextResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };
const envelope = (r: TextResult) => JSON.parse(r.content[0]!.text!) as Record<string, any>;
const REDIRECT = 'http://127.0.0.1:43117/callback';

/** Every token the run saw, for the database-dump check at the end. */
const minted = new Set<string>();

function remember(provider: TestOAuthProvider): void {
  const t = provider.tokens();
  if (t?.access_token) minted.add(t.access_token);
  if (t?.refresh_token) minted.add(t.refresh_token);
}

async function authorizeWith(
  stack: OAuthStack,
  provider: TestOAuthProvider,
  login: string,
  browser = new Browserless(),
): Promise<URL> {
  const transport = new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: provider });
  const client = new Client({ name: 'sdk-e2e', version: '1.0.0' });
  await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.authorizationUrl).not.toBeNull();
  const back = await personAuthorizes(stack, browser, provider.authorizationUrl!.toString(), login);
  expect(back.searchParams.get('iss')).toBe(stack.base);
  expect(back.searchParams.get('state')).toBe(provider.expectedState);
  if (back.searchParams.get('code')) minted.add(back.searchParams.get('code')!);
  await transport.finishAuth(back.searchParams);
  remember(provider);
  await client.close().catch(() => undefined);
  return back;
}

async function connected(stack: OAuthStack, provider: TestOAuthProvider): Promise<Client> {
  const client = new Client({ name: 'sdk-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: provider }));
  return client;
}

async function whoAmI(
  stack: OAuthStack,
  accessToken: string,
): Promise<{ status: number; login?: string; mode?: string }> {
  const res = await postInitialize(stack.mcpUrl, `Bearer ${accessToken}`, {
    headers: { 'mcp-protocol-version': '2025-11-25' },
  });
  if (res.status !== 200) {
    await res.text();
    return { status: res.status };
  }
  const session = res.headers.get('mcp-session-id')!;
  await res.text();
  const call = await fetch(stack.mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${accessToken}`,
      'mcp-protocol-version': '2025-11-25',
      'mcp-session-id': session,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'userGetCurrent', arguments: {} },
    }),
  });
  const body = (await call.json()) as { result: TextResult };
  const env = envelope(body.result);
  return { status: call.status, login: env.identity.login, mode: env.identity.mode };
}

async function tokenRequest(
  stack: OAuthStack,
  form: Record<string, string>,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${stack.base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const body = (await res.json()) as Record<string, string>;
  if (body.access_token) minted.add(body.access_token);
  if (body.refresh_token) minted.add(body.refresh_token);
  return { status: res.status, body };
}

describe('TypeScript SDK 2.x OAuth client against the service and the Gitea simulator', () => {
  let stack: OAuthStack;
  let docs: DocServer;
  const alice = new TestOAuthProvider('SDK e2e client', REDIRECT);
  const aliceBrowser = new Browserless();

  beforeAll(async () => {
    docs = await startDocServer(REDIRECT);
    process.env.NODE_EXTRA_CA_CERTS = docs.certFile; // inherited by the service's process
    stack = await startOAuthStack({ OAUTH_CIMD_ALLOW_HTTP_ORIGINS: docs.origin });
  });
  afterAll(async () => {
    await stack?.close();
    await docs?.close();
  });

  it('discovers from the 401, registers (DCR), consents, and calls tools as the person', async () => {
    await authorizeWith(stack, alice, 'alice', aliceBrowser);
    expect(alice.clientInformation()?.client_id).toMatch(/^dcr_/);
    expect(alice.tokens()?.access_token).toMatch(/^aegis_at_/);
    expect(alice.tokens()?.scope).toBe('gitea:read');

    const client = await connected(stack, alice);
    const tools = await client.listTools();
    expect(tools.tools.length).toBeGreaterThan(100);
    const me = (await client.callTool({ name: 'userGetCurrent', arguments: {} })) as TextResult;
    expect(me.isError).toBeFalsy();
    const body = envelope(me);
    expect(body.identity).toMatchObject({ login: 'alice', mode: 'oauth', sudo: null });
    // The envelope names the client acting for the person (issue 13 point 6).
    expect(body.identity.client).toEqual({
      id: alice.clientInformation()?.client_id,
      name: expect.any(String),
    });
    expect(body.data.login).toBe('alice');
    await client.close();

    // tools/list depends on the caller: 2026-07-28 caching hints say private.
    const res = await fetch(stack.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${alice.tokens()!.access_token}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    const text = await res.text();
    const listed = JSON.parse(text.startsWith('{') ? text : text.slice(text.indexOf('{'))) as {
      result: { cacheScope: string; ttlMs: number };
    };
    expect(listed.result).toMatchObject({ cacheScope: 'private', ttlMs: 60_000 });
  });

  it('remembers the consent per person and client: the second authorization skips the page', async () => {
    const again = new TestOAuthProvider('SDK e2e client', REDIRECT);
    again.saveClientInformation(alice.clientInformation()!);
    const transport = new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: again });
    await expect(new Client({ name: 'x', version: '1' }).connect(transport)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const res = await aliceBrowser.get(again.authorizationUrl!.toString());
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('code')).toMatch(/^aegis_ac_/);
    await transport.finishAuth(back.searchParams);
    remember(again);
    expect((await whoAmI(stack, again.tokens()!.access_token)).login).toBe('alice');
  });

  it('answers a write tool on a read-only grant with 403 insufficient_scope, and the SDK steps up', async () => {
    const res = await fetch(stack.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${alice.tokens()!.access_token}`,
        'mcp-protocol-version': '2026-07-28',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'repoCreateBranch',
          arguments: { owner: 'alice', repo: 'notes', body: { new_branch_name: 'x' } },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(res.status).toBe(403);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="gitea:read gitea:write"');
    expect(challenge).toContain(`resource_metadata="${stack.base}/.well-known/oauth-protected-resource/mcp"`);
    await res.text();

    // The SDK reacts to the challenge by asking for the union of scopes.
    const client = await connected(stack, alice);
    alice.authorizationUrl = null;
    await expect(
      client.callTool({
        name: 'repoCreateBranch',
        arguments: { owner: 'alice', repo: 'notes', body: { new_branch_name: 'x' } },
      }),
    ).rejects.toThrow();
    expect(alice.authorizationUrl).not.toBeNull();
    const asked = new URL(alice.authorizationUrl!.toString()).searchParams.get('scope')!.split(' ');
    expect(asked).toEqual(expect.arrayContaining(['gitea:read', 'gitea:write']));
    await client.close().catch(() => undefined);

    // The person consents to read and write (the page says so) and signs in at Gitea again.
    const page = await aliceBrowser.get(alice.authorizationUrl!.toString());
    const html = await page.text();
    expect(html).toContain('read and write');
    const form = {
      interaction: /name="interaction" value="([^"]+)"/.exec(html)![1]!,
      csrf: /name="csrf" value="([^"]+)"/.exec(html)![1]!,
    };
    const after = await aliceBrowser.followSigningIn(
      await aliceBrowser.post(`${stack.base}/oauth/consent`, { ...form, decision: 'allow' }),
      (u) => u.startsWith(REDIRECT),
      giteaSignIn(stack, 'alice'),
    );
    const back = new URL(after.url!);
    const transport = new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: alice });
    await transport.finishAuth(back.searchParams);
    remember(alice);
    expect(alice.tokens()?.scope).toBe('gitea:read gitea:write');
    const writer = await connected(stack, alice);
    const created = (await writer.callTool({
      name: 'repoCreateBranch',
      arguments: { owner: 'alice', repo: 'notes', body: { new_branch_name: 'from-oauth' } },
    })) as TextResult;
    expect(envelope(created).identity.login).toBe('alice');
    expect(envelope(created).request?.method ?? 'POST').toBe('POST');
    await writer.close();

    // Audit (checklist B12): each refused call left exactly one record (the refusal); the elevation
    // is its own event, recorded when the elevated grant was issued, naming the last refusal's
    // eventId as its correlation id.
    expect(stack.databaseUrl).toBeTruthy();
    const pg = new PgClient({ connectionString: stack.databaseUrl! });
    await pg.connect();
    try {
      type Row = { event_id: string; tool: string; kind: string | null; status: number; arguments: any };
      const rows = async () =>
        (
          await pg.query<Row>(
            "select event_id, tool, kind, status, arguments from audit_records where login = 'alice' and (tool = 'repoCreateBranch' or tool = 'oauth.elevate') order by seq",
          )
        ).rows;
      let seen: Row[] = [];
      for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
        seen = await rows();
        if (
          seen.filter((r) => r.tool === 'repoCreateBranch').length >= 3 &&
          seen.some((r) => r.tool === 'oauth.elevate')
        )
          break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const calls = seen.filter((r) => r.tool === 'repoCreateBranch');
      const refusals = calls.filter((r) => r.status === 403);
      expect(refusals).toHaveLength(2); // the raw call and the SDK's: one record each
      expect(refusals.every((r) => r.kind === 'forbidden')).toBe(true);
      expect(calls).toHaveLength(3); // and one for the call that succeeded after the step-up
      const elevations = seen.filter((r) => r.tool === 'oauth.elevate');
      expect(elevations).toHaveLength(1);
      expect(elevations[0]).toMatchObject({
        kind: 'scope_elevated',
        arguments: {
          client_id: alice.clientInformation()!.client_id,
          from_scope: 'gitea:read',
          to_scope: 'gitea:read gitea:write',
          refusal_event_id: refusals[1]!.event_id,
        },
      });
      expect(elevations[0]!.arguments.grant_id).not.toBe(elevations[0]!.arguments.previous_grant_id);
    } finally {
      await pg.end();
    }
  });

  it('rotates refresh tokens, and a reused refresh token revokes the whole family', async () => {
    const clientId = alice.clientInformation()!.client_id;
    const first = alice.tokens()!;
    const rotated = await tokenRequest(stack, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token!,
      client_id: clientId,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(first.refresh_token);
    expect((await whoAmI(stack, rotated.body.access_token)).login).toBe('alice');

    const reuse = await tokenRequest(stack, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token!,
      client_id: clientId,
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    // The family is gone: the newest access and refresh tokens stop working too.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await whoAmI(stack, rotated.body.access_token)).status).toBe(401);
    const after = await tokenRequest(stack, {
      grant_type: 'refresh_token',
      refresh_token: rotated.body.refresh_token,
      client_id: clientId,
    });
    expect(after.status).toBe(400);
  });

  it('registers through a Client ID Metadata Document and serves two people through one client', async () => {
    const url = docs.url('/client.json');
    const a = new TestOAuthProvider('CIMD e2e client', REDIRECT, url);
    const b = new TestOAuthProvider('CIMD e2e client', REDIRECT, url);
    await authorizeWith(stack, a, 'alice');
    await authorizeWith(stack, b, 'bob');
    expect(a.clientInformation()?.client_id).toBe(url);
    expect(b.clientInformation()?.client_id).toBe(url);
    const [ra, rb] = await Promise.all([
      whoAmI(stack, a.tokens()!.access_token),
      whoAmI(stack, b.tokens()!.access_token),
    ]);
    expect(ra).toMatchObject({ login: 'alice', mode: 'oauth' });
    expect(rb).toMatchObject({ login: 'bob', mode: 'oauth' });
  });

  it('revokes through /oauth/revoke, the self-service page and a site admin, each on the next call', async () => {
    // RFC 7009 by the client.
    const c1 = new TestOAuthProvider('Revoke me', REDIRECT);
    await authorizeWith(stack, c1, 'bob');
    const revoke = await fetch(`${stack.base}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: c1.tokens()!.refresh_token!,
        client_id: c1.clientInformation()!.client_id,
      }).toString(),
    });
    expect(revoke.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await whoAmI(stack, c1.tokens()!.access_token)).status).toBe(401);

    // The person on the self-service page: the client is listed, then revoked.
    const bobBrowser = new Browserless();
    const c2 = new TestOAuthProvider('Bob page client', REDIRECT);
    await authorizeWith(stack, c2, 'bob', bobBrowser);
    const list = await bobBrowser.get(`${stack.base}/oauth/grants`);
    const html = await list.text();
    expect(list.status).toBe(200);
    expect(list.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(html).toContain('Bob page client');
    const row = new RegExp(`data-grant="([^"]+)"><td>Bob page client`).exec(html)![1]!;
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
    const withoutCsrf = await bobBrowser.post(`${stack.base}/oauth/grants/revoke`, { grant: row });
    expect(withoutCsrf.status).toBe(403);
    await withoutCsrf.text();
    expect((await bobBrowser.post(`${stack.base}/oauth/grants/revoke`, { grant: row, csrf })).status).toBe(
      302,
    );
    await new Promise((r) => setTimeout(r, 1100));
    expect((await whoAmI(stack, c2.tokens()!.access_token)).status).toBe(401);

    // A site admin revokes someone else's grant from the all-grants view.
    const c3 = new TestOAuthProvider('Admin revokes this', REDIRECT);
    await authorizeWith(stack, c3, 'bob');
    const adminBrowser = new Browserless();
    await authorizeWith(stack, new TestOAuthProvider('Admin own client', REDIRECT), 'admin', adminBrowser);
    const all = await (await adminBrowser.get(`${stack.base}/oauth/grants?all=1`)).text();
    const target = new RegExp(`data-grant="([^"]+)"><td>Admin revokes this`).exec(all)![1]!;
    const adminCsrf = /name="csrf" value="([^"]+)"/.exec(all)![1]!;
    expect(
      (await adminBrowser.post(`${stack.base}/oauth/grants/revoke`, { grant: target, csrf: adminCsrf }))
        .status,
    ).toBe(302);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await whoAmI(stack, c3.tokens()!.access_token)).status).toBe(401);
  });

  it('keeps MCP_BEARER_TOKEN working beside OAuth (mode token)', async () => {
    expect(await whoAmI(stack, BEARER)).toMatchObject({ login: 'admin', mode: 'token' });
  });

  it('stores no token in plaintext: a database dump holds none of the tokens the run minted or received', async () => {
    if (!stack.databaseUrl) {
      process.stderr.write('SKIPPED database dump check: TEST_DATABASE_URL is not set\n');
      return;
    }
    const all = [...minted];
    expect(minted.size).toBeGreaterThan(10);
    const dump = execFileSync('pg_dump', ['--data-only', '--inserts', stack.databaseUrl], {
      maxBuffer: 64 * 1024 * 1024,
    }).toString();
    expect(dump).toContain('oauth_tokens');
    const found = all.filter((token) => dump.includes(token) || dump.includes(token.slice(9)));
    expect(found).toEqual([]);
    // The simulator's Gitea tokens are HS256 JWTs: none may be stored in plaintext either.
    const giteaJwtHeader = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
    expect(dump).toContain('gitea_grants');
    expect(dump.includes(giteaJwtHeader)).toBe(false);
  });
});
