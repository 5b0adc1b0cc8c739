// What the authorization and resource servers must refuse, over plain HTTP against the running
// service: PKCE missing, plain or wrong; codes reused; redirect URIs changed; interactions
// replayed; other resources; Gitea tokens and query-string tokens on /mcp; framing and CSRF on
// the consent page; metadata documents at private addresses, redirecting, oversize or slow; a
// registration flood. Every refusal that goes back to a client carries `iss` (RFC 9207).
import { createHash, randomBytes } from 'node:crypto';
import { startDocServer, type DocServer } from './helpers/doc-server';
import {
  Browserless,
  consentForm,
  giteaSignIn,
  startOAuthStack,
  type OAuthStack,
} from './helpers/oauth-stack';
import { postInitialize } from '../helpers/mcp-http';

jest.setTimeout(300_000);

const REDIRECT = 'http://127.0.0.1:43999/cb';
const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

describe('OAuth refusals', () => {
  let stack: OAuthStack;
  let docs: DocServer;
  let clientId: string;

  const register = async (body: unknown) =>
    fetch(`${stack.base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  const authorizeUrl = (params: Record<string, string | undefined>) => {
    const url = new URL(`${stack.base}/oauth/authorize`);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
    return url.toString();
  };

  const base = (challenge: string, extra: Record<string, string | undefined> = {}) => ({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    resource: stack.mcpUrl,
    ...extra,
  });

  /** Runs a full authorization as `login` and returns the code and its verifier. */
  const codeFor = async (login: string, extra: Record<string, string> = {}) => {
    const p = pkce();
    const browser = new Browserless();
    const page = await browser.get(authorizeUrl(base(p.challenge, extra)));
    const form = consentForm(await page.text());
    const done = await browser.followSigningIn(
      await browser.post(`${stack.base}/oauth/consent`, { ...form, decision: 'allow' }),
      (u) => u.startsWith(REDIRECT),
      giteaSignIn(stack, login),
    );
    return { code: new URL(done.url!).searchParams.get('code')!, verifier: p.verifier, browser };
  };

  const token = async (form: Record<string, string>) => {
    const res = await fetch(`${stack.base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  };

  const mcpStatus = async (authorization: string, url = stack.mcpUrl) => {
    const res = await postInitialize(url, authorization, { client: 'neg' });
    await res.text();
    return { status: res.status, challenge: res.headers.get('www-authenticate') };
  };

  const redirectOf = async (res: Response) => {
    expect(res.status).toBe(302);
    await res.text();
    return new URL(res.headers.get('location')!);
  };

  beforeAll(async () => {
    docs = await startDocServer(REDIRECT);
    process.env.NODE_EXTRA_CA_CERTS = docs.certFile;
    stack = await startOAuthStack(
      { OAUTH_CIMD_ALLOW_HTTP_ORIGINS: docs.origin, OAUTH_DCR_PER_HOUR: '8' },
      { postgres: false },
    );
    const res = await register({
      client_name: 'Negative',
      redirect_uris: [REDIRECT],
      application_type: 'native',
    });
    expect(res.status).toBe(201);
    clientId = ((await res.json()) as { client_id: string }).client_id;
  });
  afterAll(async () => {
    await stack?.close();
    await docs?.close();
  });

  it('refuses an authorization request without PKCE, with iss and state in the error redirect', async () => {
    const back = await redirectOf(
      await fetch(authorizeUrl(base('', { code_challenge: undefined })), { redirect: 'manual' }),
    );
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('iss')).toBe(stack.base);
    expect(back.searchParams.get('state')).toBe('st-1');
  });

  it('refuses plain PKCE', async () => {
    const back = await redirectOf(
      await fetch(authorizeUrl(base('a'.repeat(43), { code_challenge_method: 'plain' })), {
        redirect: 'manual',
      }),
    );
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toMatch(/S256/);
  });

  it('refuses a changed redirect URI at authorize with a page, never a redirect', async () => {
    const res = await fetch(
      authorizeUrl(base(pkce().challenge, { redirect_uri: 'https://evil.example/cb' })),
      {
        redirect: 'manual',
      },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('redirect_uri is not registered');
  });

  it('refuses an unknown client_id with a page', async () => {
    const res = await fetch(authorizeUrl(base(pkce().challenge, { client_id: 'dcr_nope' })), {
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    await res.text();
  });

  it('refuses a token for another resource (RFC 8707 invalid_target)', async () => {
    const back = await redirectOf(
      await fetch(authorizeUrl(base(pkce().challenge, { resource: 'https://other.example/mcp' })), {
        redirect: 'manual',
      }),
    );
    expect(back.searchParams.get('error')).toBe('invalid_target');
    expect(back.searchParams.get('iss')).toBe(stack.base);
  });

  it('refuses an unknown scope', async () => {
    const back = await redirectOf(
      await fetch(authorizeUrl(base(pkce().challenge, { scope: 'gitea:admin' })), { redirect: 'manual' }),
    );
    expect(back.searchParams.get('error')).toBe('invalid_scope');
  });

  it('sends access_denied with iss when the person presses Deny', async () => {
    const browser = new Browserless();
    const form = consentForm(await (await browser.get(authorizeUrl(base(pkce().challenge)))).text());
    const back = await redirectOf(
      await browser.post(`${stack.base}/oauth/consent`, { ...form, decision: 'deny' }),
    );
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('iss')).toBe(stack.base);
    expect(back.searchParams.get('state')).toBe('st-1');
  });

  it('refuses the consent form without its CSRF token, or from another browser', async () => {
    const browser = new Browserless();
    const form = consentForm(await (await browser.get(authorizeUrl(base(pkce().challenge)))).text());
    const noCsrf = await browser.post(`${stack.base}/oauth/consent`, {
      interaction: form.interaction,
      decision: 'allow',
    });
    expect(noCsrf.status).toBe(403);
    await noCsrf.text();
    const other = await new Browserless().post(`${stack.base}/oauth/consent`, { ...form, decision: 'allow' });
    expect(other.status).toBe(403);
    await other.text();
  });

  it('refuses a replayed consent (the interaction is single use)', async () => {
    const browser = new Browserless();
    const form = consentForm(await (await browser.get(authorizeUrl(base(pkce().challenge)))).text());
    const first = await browser.post(`${stack.base}/oauth/consent`, { ...form, decision: 'deny' });
    expect(first.status).toBe(302);
    await first.text();
    const again = await browser.post(`${stack.base}/oauth/consent`, { ...form, decision: 'allow' });
    expect(again.status).toBe(400);
    await again.text();
  });

  it('forbids framing the consent page and sets __Host- cookies', async () => {
    const res = await fetch(authorizeUrl(base(pkce().challenge)), { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const cookie = res.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/^__Host-aegis-interaction=/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Domain=/i);
    const html = await res.text();
    expect(html).toContain('Negative');
    expect(html).toContain('127.0.0.1:43999');
    expect(html).toMatch(/Warning:.*on this computer/);
    expect(html).toContain('>Allow<');
    expect(html).toContain('>Deny<');
  });

  it('refuses a wrong PKCE verifier', async () => {
    const { code } = await codeFor('alice');
    const r = await token({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: pkce().verifier,
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_grant');
  });

  it('refuses a changed redirect URI at the token endpoint', async () => {
    const { code, verifier } = await codeFor('alice');
    const r = await token({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:43999/other',
      code_verifier: verifier,
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_grant');
  });

  it('refuses a reused code and revokes what the first use produced', async () => {
    const { code, verifier } = await codeFor('alice');
    const form = {
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    };
    const first = await token(form);
    expect(first.status).toBe(200);
    expect((await mcpStatus(`Bearer ${first.body.access_token}`)).status).toBe(200);
    const second = await token(form);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    await new Promise((r) => setTimeout(r, 1100));
    expect((await mcpStatus(`Bearer ${first.body.access_token}`)).status).toBe(401);
  });

  it('refuses a token request for another resource', async () => {
    const { code, verifier } = await codeFor('alice');
    const r = await token({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      resource: 'https://other.example/mcp',
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_target');
  });

  it('refuses a code redeemed by another client', async () => {
    const other = await register({
      client_name: 'Other',
      redirect_uris: [REDIRECT],
      application_type: 'native',
    });
    const otherId = ((await other.json()) as { client_id: string }).client_id;
    const { code, verifier } = await codeFor('alice');
    const r = await token({
      grant_type: 'authorization_code',
      code,
      client_id: otherId,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_grant');
  });

  it('answers a Gitea token, an unknown token and a query-string token on /mcp with 401 and the challenge', async () => {
    for (const authorization of [`Bearer ${stack.gitea.tokens.alice}`, 'Bearer aegis_at_forged']) {
      const r = await mcpStatus(authorization);
      expect(r.status).toBe(401);
      expect(r.challenge).toContain(
        `resource_metadata="${stack.base}/.well-known/oauth-protected-resource/mcp"`,
      );
      expect(r.challenge).toContain('scope="gitea:read"');
    }
    const { code, verifier } = await codeFor('alice');
    const ok = await token({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    const inQuery = await mcpStatus('', `${stack.mcpUrl}?access_token=${ok.body.access_token}`);
    expect(inQuery.status).toBe(401);
  });

  it('refuses metadata documents at private addresses', async () => {
    for (const id of [
      'https://127.0.0.2:8443/client.json',
      'https://localhost:8443/client.json',
      'https://[::1]:8443/client.json',
    ]) {
      const res = await fetch(authorizeUrl(base(pkce().challenge, { client_id: id })), {
        redirect: 'manual',
      });
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/non-public address/);
    }
  });

  it('refuses a metadata document over plain http, one that redirects, one too large, and one naming another URL', async () => {
    const cases: Array<[string, RegExp]> = [
      ['http://cimd.example/client.json', /https/],
      [docs.url('/redirect.json'), /redirect/],
      [docs.url('/big.json'), /exceeds 5120 bytes/],
      [docs.url('/other.json'), /client_id does not equal its URL/],
    ];
    for (const [id, message] of cases) {
      const res = await fetch(authorizeUrl(base(pkce().challenge, { client_id: id })), {
        redirect: 'manual',
      });
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(message);
    }
  });

  it('gives up on a metadata document that takes longer than 10 seconds', async () => {
    const res = await fetch(authorizeUrl(base(pkce().challenge, { client_id: docs.url('/slow.json') })), {
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/longer than 10000 ms/);
  }, 30_000);

  it('refuses registrations with bad redirect URIs or application types', async () => {
    const bad = [
      { redirect_uris: ['http://evil.example/cb'], application_type: 'native' },
      { redirect_uris: [REDIRECT], application_type: 'web' },
      { redirect_uris: [REDIRECT], application_type: 'desktop' },
      { redirect_uris: ['https://app.example/cb#frag'] },
      { redirect_uris: [] },
    ];
    for (const body of bad) {
      const res = await register(body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(
        /^invalid_(redirect_uri|client_metadata)$/,
      );
    }
  });

  it('limits a registration flood per remote address (OAUTH_DCR_PER_HOUR) with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await register({
        client_name: `flood-${i}`,
        redirect_uris: [REDIRECT],
        application_type: 'native',
      });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      await res.text();
    }
    // Seven of the eight were used: beforeAll, the other-client test and the five refused registrations.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(4);
    expect(statuses.at(-1)).toBe(429);
  });
});
