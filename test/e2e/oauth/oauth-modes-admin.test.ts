// AUTH_MODES=oauth with MCP_BEARER_TOKEN still configured: /mcp and /api/admin refuse the static
// bearer token, and take only this service's OAuth access tokens. The same tokens are the admin
// API credential of people (issue 14): an org owner reads and changes their org's policy, a member
// is refused 403, and a read-only token may read but not change (403 insufficient_scope).
import { createHash, randomBytes } from 'node:crypto';
import {
  BEARER,
  Browserless,
  consentForm,
  giteaSignIn,
  startOAuthStack,
  type OAuthStack,
} from './helpers/oauth-stack';
import { postInitialize } from '../helpers/mcp-http';

jest.setTimeout(300_000);

const REDIRECT = 'http://127.0.0.1:43998/cb';
const READ = 'gitea:read';
const WRITE = 'gitea:read gitea:write';

describe('AUTH_MODES=oauth, and OAuth access tokens on the admin API', () => {
  let stack: OAuthStack;
  let clientId: string;

  /** A person's whole authorization over HTTP (consent, Gitea sign-in form and grant page, token). */
  const accessToken = async (login: string, scope: string): Promise<string> => {
    const verifier = randomBytes(32).toString('base64url');
    const url = new URL(`${stack.base}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'st',
      scope,
      resource: stack.mcpUrl,
    }))
      url.searchParams.set(k, v);
    const browser = new Browserless();
    const form = consentForm(await (await browser.get(url.toString())).text());
    const done = await browser.followSigningIn(
      await browser.post(`${stack.base}/oauth/consent`, { ...form, decision: 'allow' }),
      (u) => u.startsWith(REDIRECT),
      giteaSignIn(stack, login),
    );
    const code = new URL(done.url!).searchParams.get('code')!;
    const res = await fetch(`${stack.base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      }).toString(),
    });
    const body = (await res.json()) as { access_token: string; scope: string };
    expect(res.status).toBe(200);
    expect(body.scope).toBe(scope);
    return body.access_token;
  };

  const mcpCall = async (token: string) => {
    const res = await postInitialize(stack.mcpUrl, `Bearer ${token}`, { client: 'modes' });
    const text = await res.text();
    return { status: res.status, challenge: res.headers.get('www-authenticate'), text };
  };

  const admin = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${stack.base}/api/admin${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
  };

  beforeAll(async () => {
    // MCP_BEARER_TOKEN stays set (testConfig sets it): AUTH_MODES alone must turn it off.
    stack = await startOAuthStack({ AUTH_MODES: 'oauth' }, { postgres: false });
    expect(stack.app.config.mcp.bearerToken).toBe(BEARER);
    expect(stack.app.config.oauth.modes).toEqual(['oauth']);
    const res = await fetch(`${stack.base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Modes', redirect_uris: [REDIRECT], application_type: 'native' }),
    });
    expect(res.status).toBe(201);
    clientId = ((await res.json()) as { client_id: string }).client_id;
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('refuses MCP_BEARER_TOKEN on /mcp with 401 and the OAuth challenge, and serves an OAuth token', async () => {
    const refused = await mcpCall(BEARER);
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain(
      `resource_metadata="${stack.base}/.well-known/oauth-protected-resource/mcp"`,
    );
    const alice = await accessToken('alice', READ);
    const served = await mcpCall(alice);
    expect(served.status).toBe(200);
    expect(served.text).toContain('"protocolVersion"');
  });

  it('refuses MCP_BEARER_TOKEN on the admin API', async () => {
    expect((await admin('GET', '/me', BEARER)).status).toBe(401);
  });

  it("lets an org owner's access token read and change their org's policy, and refuses a member's", async () => {
    const alice = await accessToken('alice', WRITE);
    expect(await admin('GET', '/me', alice)).toMatchObject({ status: 200, body: { login: 'alice' } });
    expect((await admin('GET', '/orgs/acme/policy', alice)).status).toBe(200);
    const changed = await admin('PUT', '/orgs/acme/policy', alice, { disabled_tools: ['repoDelete*'] });
    expect(changed.status).toBe(200);
    expect((await admin('GET', '/orgs/acme/policy', alice)).body).toMatchObject({
      role: 'org_owner',
      policy: { disabled_tools: ['repoDelete*'], updated_by: 'alice' },
    });

    // bob is a member of acme, not an owner: his own read-write token is refused for acme.
    const bob = await accessToken('bob', WRITE);
    expect((await admin('GET', '/orgs/acme/policy', bob)).status).toBe(403);
    expect((await admin('PUT', '/orgs/acme/policy', bob, { read_only: true })).status).toBe(403);
    expect((await admin('GET', '/orgs/acme/policy', alice)).body).toMatchObject({
      policy: { read_only: false },
    });
  });

  it('refuses a change with an access token that has only gitea:read (403 insufficient_scope)', async () => {
    const reader = await accessToken('alice', READ);
    expect((await admin('GET', '/orgs/acme/policy', reader)).status).toBe(200);
    const refused = await admin('PUT', '/orgs/acme/policy', reader, { read_only: true });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toMatch(/insufficient_scope/);
    // a simulation changes nothing, so a read-only token may ask for one
    const simulated = await admin('POST', '/policy/simulate', reader, {
      login: 'alice',
      org: 'acme',
      tool: 'repoGet',
    });
    expect(simulated.status).toBe(200);
    expect((await admin('GET', '/orgs/acme/policy', reader)).body).toMatchObject({
      policy: { read_only: false },
    });
  });
});
