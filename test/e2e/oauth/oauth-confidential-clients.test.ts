// Confidential MCP clients (checklist B1: OAuth 2.1 for confidential and public clients) against
// the running service and the Gitea simulator: the metadata advertises client_secret_basic and
// client_secret_post beside "none"; a registration asking for one gets its secret once, and the
// database keeps only its hash; the token and revocation endpoints authenticate the client exactly
// the way it registered (wrong, missing or differently sent secret: 401 invalid_client with a Basic
// challenge); the official TypeScript SDK 2.x client registers as a confidential client and works
// end to end; public clients keep working as before.
import { createHash, randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { Client as PgClient } from 'pg';
import {
  Browserless,
  consentForm,
  giteaSignIn,
  personAuthorizes,
  startOAuthStack,
  type OAuthStack,
} from './helpers/oauth-stack';
import { TestOAuthProvider } from './helpers/sdk-provider';
import { postInitialize } from '../helpers/mcp-http';

jest.setTimeout(300_000);

const REDIRECT = 'https://app.example/cb';
const SDK_REDIRECT = 'http://127.0.0.1:43118/callback';
const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** The SDK's provider, registering as a confidential client (DCR with client_secret_basic). */
class ConfidentialProvider extends TestOAuthProvider {
  override get clientMetadata() {
    return {
      ...super.clientMetadata,
      token_endpoint_auth_method: 'client_secret_basic',
    } as OAuthClientProvider['clientMetadata'];
  }
}

describe('confidential MCP clients (client_secret_basic, client_secret_post)', () => {
  let stack: OAuthStack;

  const register = async (body: Record<string, unknown>) => {
    const res = await fetch(`${stack.base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Confidential', redirect_uris: [REDIRECT], ...body }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  const token = async (form: Record<string, string>, authorization?: string) => {
    const res = await fetch(`${stack.base}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(authorization ? { authorization } : {}),
      },
      body: new URLSearchParams(form).toString(),
    });
    return {
      status: res.status,
      challenge: res.headers.get('www-authenticate'),
      body: (await res.json()) as Record<string, string>,
    };
  };

  /** A full authorization of `clientId` as alice: the code and its verifier. */
  const codeFor = async (clientId: string) => {
    const p = pkce();
    const url = new URL(`${stack.base}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: p.challenge,
      code_challenge_method: 'S256',
      state: 'st',
      resource: stack.mcpUrl,
    }))
      url.searchParams.set(k, v);
    const browser = new Browserless();
    const form = consentForm(await (await browser.get(url.toString())).text());
    const done = await browser.followSigningIn(
      await browser.post(`${stack.base}/oauth/consent`, { ...form, decision: 'allow' }),
      (u) => u.startsWith(REDIRECT),
      giteaSignIn(stack, 'alice'),
    );
    return { code: new URL(done.url!).searchParams.get('code')!, verifier: p.verifier };
  };

  const mcpStatus = async (accessToken: string) => {
    const res = await postInitialize(stack.mcpUrl, `Bearer ${accessToken}`, { client: 'c' });
    await res.text();
    return res.status;
  };

  beforeAll(async () => {
    stack = await startOAuthStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('advertises none, client_secret_basic and client_secret_post (RFC 8414)', async () => {
    const meta = (await (
      await fetch(`${stack.base}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, string[]>;
    for (const field of [
      'token_endpoint_auth_methods_supported',
      'revocation_endpoint_auth_methods_supported',
    ])
      expect([...meta[field]!].sort()).toEqual(['client_secret_basic', 'client_secret_post', 'none']);
  });

  it('returns the secret once at registration and keeps only its hash', async () => {
    const reg = await register({
      application_type: 'web',
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(reg.status).toBe(201);
    expect(reg.body).toMatchObject({
      token_endpoint_auth_method: 'client_secret_basic',
      client_secret: expect.stringMatching(/^aegis_cs_[A-Za-z0-9_-]{43}$/),
      client_secret_expires_at: 0,
    });
    const publicReg = await register({ application_type: 'web' });
    expect(publicReg.body.token_endpoint_auth_method).toBe('none');
    expect(publicReg.body).not.toHaveProperty('client_secret');
    expect((await register({ token_endpoint_auth_method: 'private_key_jwt' })).body.error).toBe(
      'invalid_client_metadata',
    );
    if (stack.databaseUrl) {
      const pg = new PgClient({ connectionString: stack.databaseUrl });
      await pg.connect();
      try {
        const rows = await pg.query('select * from oauth_clients where id = $1', [reg.body.client_id]);
        expect(rows.rows[0]).toMatchObject({
          token_endpoint_auth_method: 'client_secret_basic',
          secret_hash: createHash('sha256').update(reg.body.client_secret).digest('hex'),
        });
        const dump = JSON.stringify((await pg.query('select * from oauth_clients')).rows);
        expect(dump).not.toContain(reg.body.client_secret);
      } finally {
        await pg.end();
      }
    }
  });

  it('client_secret_basic: the token endpoint wants that secret, in Basic, and nothing else', async () => {
    const reg = await register({
      application_type: 'web',
      token_endpoint_auth_method: 'client_secret_basic',
    });
    const id = reg.body.client_id as string;
    const secret = reg.body.client_secret as string;
    const { code, verifier } = await codeFor(id);
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier };
    for (const [auth, extra] of [
      [basic(id, `${secret}x`), {}], // wrong secret
      [undefined, { client_id: id }], // none
      [undefined, { client_id: id, client_secret: secret }], // the right secret, the wrong way
      [basic(id, secret.slice(0, -1)), {}],
      [`Basic ${Buffer.from(id).toString('base64')}`, {}], // no colon
    ] as Array<[string | undefined, Record<string, string>]>) {
      const refused = await token({ ...form, ...extra }, auth);
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('invalid_client');
      expect(refused.challenge).toMatch(/^Basic /);
    }
    // The refusals consumed nothing: the code still works with the right credentials.
    const ok = await token(form, basic(id, secret));
    expect(ok.status).toBe(200);
    expect(await mcpStatus(ok.body.access_token!)).toBe(200);
    // Refresh: the same rule.
    const refreshForm = { grant_type: 'refresh_token', refresh_token: ok.body.refresh_token! };
    expect((await token(refreshForm, basic(id, 'nope'))).status).toBe(401);
    expect((await token({ ...refreshForm, client_id: id })).status).toBe(401);
    const refreshed = await token(refreshForm, basic(id, secret));
    expect(refreshed.status).toBe(200);
    // Revocation of its tokens: only by this client, authenticated.
    const revoke = (form2: Record<string, string>, authorization?: string) =>
      fetch(`${stack.base}/oauth/revoke`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(authorization ? { authorization } : {}),
        },
        body: new URLSearchParams(form2).toString(),
      });
    expect((await revoke({ token: refreshed.body.refresh_token! }, basic(id, 'nope'))).status).toBe(401);
    expect((await revoke({ token: refreshed.body.refresh_token!, client_id: id })).status).toBe(401);
    expect((await revoke({ token: refreshed.body.refresh_token! })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await mcpStatus(refreshed.body.access_token!)).toBe(200); // unauthenticated: no effect
    expect((await revoke({ token: refreshed.body.refresh_token! }, basic(id, secret))).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await mcpStatus(refreshed.body.access_token!)).toBe(401);
  });

  it('client_secret_post: the secret in the form; Basic or a wrong secret is refused', async () => {
    const reg = await register({ application_type: 'web', token_endpoint_auth_method: 'client_secret_post' });
    const id = reg.body.client_id as string;
    const secret = reg.body.client_secret as string;
    const { code, verifier } = await codeFor(id);
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: id,
    };
    expect(await token({ ...form, client_secret: 'wrong' })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    expect((await token(form, basic(id, secret))).status).toBe(401);
    expect((await token(form)).status).toBe(401);
    expect((await token({ ...form, client_secret: secret }, basic(id, secret))).body.error).toBe(
      'invalid_request',
    );
    const ok = await token({ ...form, client_secret: secret });
    expect(ok.status).toBe(200);
    expect(await mcpStatus(ok.body.access_token!)).toBe(200);
  });

  it('public clients keep working, and may not send a secret', async () => {
    const reg = await register({ application_type: 'web' });
    const id = reg.body.client_id as string;
    const { code, verifier } = await codeFor(id);
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier };
    expect((await token({ ...form, client_id: id, client_secret: 'made-up' })).status).toBe(401);
    const ok = await token({ ...form, client_id: id });
    expect(ok.status).toBe(200);
    expect(await mcpStatus(ok.body.access_token!)).toBe(200);
  });

  it('the official TypeScript SDK client registers as a confidential client and calls tools as the person', async () => {
    const provider = new ConfidentialProvider('SDK confidential client', SDK_REDIRECT);
    const transport = new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: provider });
    await expect(new Client({ name: 'sdk', version: '1' }).connect(transport)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const info = provider.clientInformation() as Record<string, unknown>;
    expect(info).toMatchObject({
      token_endpoint_auth_method: 'client_secret_basic',
      client_secret: expect.stringMatching(/^aegis_cs_/),
    });
    const back = await personAuthorizes(
      stack,
      new Browserless(),
      provider.authorizationUrl!.toString(),
      'alice',
    );
    await transport.finishAuth(back.searchParams); // the token request, authenticated with Basic
    const client = new Client({ name: 'sdk', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: provider }),
    );
    try {
      const me = await client.callTool({ name: 'userGetCurrent', arguments: {} });
      const text = (me.content as Array<{ text: string }>)[0]!.text;
      expect(JSON.parse(text)).toMatchObject({ identity: { login: 'alice', mode: 'oauth' } });
    } finally {
      await client.close().catch(() => undefined);
    }
    // Without its secret the same client gets no tokens.
    const refused = await token({
      grant_type: 'refresh_token',
      refresh_token: provider.tokens()!.refresh_token!,
      client_id: info.client_id as string,
    });
    expect(refused).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });
});
