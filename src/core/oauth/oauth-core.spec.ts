// The authorization server's pure decisions: PKCE, redirect URIs (RFC 8252 loopback ports),
// scopes and their hierarchy, metadata-document URLs, addresses and documents, registrations,
// challenges, signed cookies, authorization requests and the registration limiter.
import { authorizationResponseUrl, checkAuthorizeRequest, resolveResource } from './authorize-request';
import { bearerChallenge } from './challenge';
import { cacheSeconds, cimdUrlProblem, isForbiddenAddress, validateCimdDocument } from './cimd';
import { parseBearerHeader } from './bearer-header';
import { authenticateClient, presentedCredentials } from './client-auth';
import { validateRegistration } from './dcr';
import { pkceRequestProblem, s256, verifyPkce } from './pkce';
import { matchRedirectUri, redirectHosts, redirectUriProblem } from './redirect-uri';
import { giteaScopesFor, parseScope, scopesCover, scopesForAccess } from './scopes';
import { hostCookie, parseCookies, signValue, verifySignedValue } from './signed-value';
import { hashToken, newToken, tokenKind } from './tokens';
import { WindowLimiter } from './window-limiter';

const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';

describe('PKCE', () => {
  it('accepts the RFC 7636 example and refuses any other verifier', () => {
    expect(s256(VERIFIER)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(verifyPkce(VERIFIER, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
    expect(verifyPkce(VERIFIER.replace('d', 'e'), 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(false);
    expect(verifyPkce(undefined, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(false);
    expect(verifyPkce('short', s256('short'))).toBe(false);
  });
  it('requires S256', () => {
    expect(pkceRequestProblem(undefined, undefined)).toMatch(/required/);
    expect(pkceRequestProblem('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', undefined)).toMatch(/S256/);
    expect(pkceRequestProblem('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 'plain')).toMatch(/only/);
    expect(pkceRequestProblem('not-a-hash', 'S256')).toMatch(/base64url/);
    expect(pkceRequestProblem('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 'S256')).toBeNull();
  });
});

describe('redirect URIs', () => {
  it('registers https and loopback http only', () => {
    expect(redirectUriProblem('https://app.example/cb')).toBeNull();
    expect(redirectUriProblem('http://127.0.0.1:3000/cb')).toBeNull();
    expect(redirectUriProblem('http://[::1]/cb')).toBeNull();
    expect(redirectUriProblem('http://app.example/cb')).toMatch(/https/);
    expect(redirectUriProblem('https://app.example/cb#x')).toMatch(/fragment/);
    expect(redirectUriProblem('https://u:p@app.example/cb')).toMatch(/userinfo/);
    expect(redirectUriProblem('javascript:alert(1)')).not.toBeNull();
  });
  it('matches exactly, except the port of a loopback URI', () => {
    const registered = ['http://127.0.0.1/cb', 'https://app.example/cb'];
    expect(matchRedirectUri(registered, 'http://127.0.0.1:51234/cb')).toBe('http://127.0.0.1:51234/cb');
    expect(matchRedirectUri(registered, 'http://127.0.0.1:51234/other')).toBeNull();
    expect(matchRedirectUri(registered, 'http://localhost:51234/cb')).toBeNull();
    expect(matchRedirectUri(registered, 'https://app.example/cb')).toBe('https://app.example/cb');
    expect(matchRedirectUri(registered, 'https://app.example:8443/cb')).toBeNull();
    expect(matchRedirectUri(registered, 'https://app.example/cb?x=1')).toBeNull();
    expect(matchRedirectUri(registered, 'https://app.example/cb/')).toBeNull();
  });
  it('says when a client can only redirect to this computer', () => {
    expect(redirectHosts(['http://127.0.0.1:1/cb', 'http://localhost/cb']).loopbackOnly).toBe(true);
    expect(redirectHosts(['http://127.0.0.1:1/cb', 'https://app.example/cb'])).toEqual({
      hosts: ['127.0.0.1', 'app.example'],
      loopbackOnly: false,
    });
  });
});

describe('scopes', () => {
  it('defaults to read, knows that write includes read, refuses unknown scopes', () => {
    expect(parseScope(undefined)).toEqual({ ok: true, scopes: ['gitea:read'] });
    expect(parseScope('gitea:write')).toEqual({ ok: true, scopes: ['gitea:read', 'gitea:write'] });
    expect(parseScope('gitea:read offline_access')).toEqual({ ok: false, unknown: ['offline_access'] });
    expect(scopesCover(['gitea:write'], ['gitea:read'])).toBe(true);
    expect(scopesCover(['gitea:read'], ['gitea:write'])).toBe(false);
    expect(scopesForAccess('write')).toEqual(['gitea:read', 'gitea:write']);
  });
  it('maps to explicit Gitea granular scopes, never "all"', () => {
    expect(giteaScopesFor(['gitea:read'])).toContain('read:repository');
    expect(giteaScopesFor(['gitea:read', 'gitea:write'])).toContain('write:issue');
    expect(giteaScopesFor(['gitea:write'])).not.toContain('all');
  });
});

describe('client metadata documents', () => {
  it('takes only normalised https URLs with a path', () => {
    expect(cimdUrlProblem('https://app.example/client.json', [])).toBeNull();
    expect(cimdUrlProblem('http://app.example/client.json', [])).toMatch(/https/);
    expect(cimdUrlProblem('http://127.0.0.1:9/c.json', ['http://127.0.0.1:9'])).toBeNull();
    expect(cimdUrlProblem('https://app.example/', [])).toMatch(/path/);
    expect(cimdUrlProblem('https://app.example/a/../c.json', [])).toMatch(/normalised/);
    expect(cimdUrlProblem('https://u@app.example/c.json', [])).toMatch(/userinfo/);
    expect(cimdUrlProblem('https://app.example/c.json#f', [])).toMatch(/fragment/);
  });
  it('knows private, loopback, link-local and special addresses', () => {
    for (const a of [
      '10.1.2.3',
      '127.0.0.1',
      '169.254.169.254',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '224.0.0.1',
    ])
      expect([a, isForbiddenAddress(a)]).toEqual([a, true]);
    for (const a of ['93.184.216.34', '2606:4700::1111', '172.32.0.1'])
      expect([a, isForbiddenAddress(a)]).toEqual([a, false]);
  });
  it('validates the document: its own URL, a name, redirect URIs, no secrets', () => {
    const url = 'https://app.example/client.json';
    const good = { client_id: url, client_name: 'App', redirect_uris: ['http://127.0.0.1/cb'] };
    expect(validateCimdDocument(good, url).ok).toBe(true);
    expect(validateCimdDocument({ ...good, client_id: 'https://other.example/c.json' }, url)).toMatchObject({
      ok: false,
    });
    expect(validateCimdDocument({ ...good, client_name: '' }, url)).toMatchObject({ ok: false });
    expect(validateCimdDocument({ ...good, redirect_uris: ['http://evil.example/cb'] }, url)).toMatchObject({
      ok: false,
    });
    expect(validateCimdDocument({ ...good, client_secret: 'x' }, url)).toMatchObject({ ok: false });
    expect(
      validateCimdDocument({ ...good, token_endpoint_auth_method: 'client_secret_basic' }, url),
    ).toMatchObject({ ok: false });
    expect(validateCimdDocument([good], url)).toMatchObject({ ok: false });
  });
  it('caches per Cache-Control within the cap', () => {
    expect(cacheSeconds('max-age=60', 86400)).toBe(60);
    expect(cacheSeconds('max-age=999999', 86400)).toBe(86400);
    expect(cacheSeconds('no-store', 86400)).toBe(0);
    expect(cacheSeconds(null, 86400)).toBe(300);
  });
});

describe('dynamic client registration', () => {
  it('accepts native loopback and web https clients', () => {
    expect(
      validateRegistration({ redirect_uris: ['http://127.0.0.1/cb'], application_type: 'native' }),
    ).toMatchObject({ ok: true });
    expect(validateRegistration({ redirect_uris: ['https://app.example/cb'] })).toMatchObject({
      ok: true,
      registration: { applicationType: 'web', clientName: 'Unnamed client' },
    });
  });
  it('refuses what it cannot serve', () => {
    expect(validateRegistration({ redirect_uris: ['http://127.0.0.1/cb'] })).toMatchObject({
      ok: false,
      error: 'invalid_redirect_uri',
    });
    expect(
      validateRegistration({ redirect_uris: ['https://a.example/cb'], grant_types: ['client_credentials'] }),
    ).toMatchObject({ ok: false });
    expect(
      validateRegistration({ redirect_uris: ['https://a.example/cb'], response_types: ['token'] }),
    ).toMatchObject({ ok: false });
    expect(validateRegistration('x')).toMatchObject({ ok: false, error: 'invalid_client_metadata' });
  });
  it('takes the token endpoint auth method: none (also when omitted), client_secret_basic or _post', () => {
    const uris = { redirect_uris: ['https://app.example/cb'] };
    expect(validateRegistration(uris)).toMatchObject({
      ok: true,
      registration: { tokenEndpointAuthMethod: 'none' },
    });
    for (const method of ['none', 'client_secret_basic', 'client_secret_post'])
      expect(validateRegistration({ ...uris, token_endpoint_auth_method: method })).toMatchObject({
        ok: true,
        registration: { tokenEndpointAuthMethod: method },
      });
    for (const method of ['private_key_jwt', 'client_secret_jwt', 'tls_client_auth', 7])
      expect(validateRegistration({ ...uris, token_endpoint_auth_method: method })).toMatchObject({
        ok: false,
        error: 'invalid_client_metadata',
      });
  });
});

describe('the Authorization header at the resource server (RFC 6750 2.1)', () => {
  it('tells none, another scheme, a malformed Bearer header and a token apart', () => {
    expect(parseBearerHeader(undefined)).toEqual({ kind: 'none' });
    expect(parseBearerHeader('  ')).toEqual({ kind: 'none' });
    expect(parseBearerHeader('Basic abc')).toEqual({ kind: 'other_scheme' });
    expect(parseBearerHeader('Bearerish abc')).toEqual({ kind: 'other_scheme' });
    for (const bad of [
      'Bearer',
      'Bearer ',
      'Bearer a b',
      'Bearer \u00e9',
      `Bearer ${'x'.repeat(4097)}`,
      'Bearer\tx',
    ])
      expect(parseBearerHeader(bad)).toEqual({ kind: 'malformed' });
    expect(parseBearerHeader('bearer aegis_at_x ')).toEqual({ kind: 'token', token: 'aegis_at_x' });
  });
});

describe('client authentication at the token endpoint', () => {
  const secret = 'aegis_cs_s3cret+/ :%';
  const basic = (id: string, s: string) =>
    `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(s)}`).toString('base64')}`;
  const form = (o: Record<string, string>) => new URLSearchParams(o);
  type Registered = { method: string; secretHash: string | null; revoked: boolean };
  const confidential = (method: string): Registered => ({
    method,
    secretHash: hashToken(secret),
    revoked: false,
  });
  const judge = (auth: string | undefined, f: Record<string, string>, reg: Registered | null) =>
    authenticateClient(presentedCredentials(auth, form(f)), reg);

  it('decodes form-urlencoded Basic credentials (RFC 6749 2.3.1)', () => {
    expect(presentedCredentials(basic('dcr_a b', secret), form({})).basic).toEqual({
      clientId: 'dcr_a b',
      secret,
    });
    for (const bad of ['Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`, 'Basic %'])
      expect(presentedCredentials(bad, form({})).basicMalformed).toBe(true);
    expect(presentedCredentials('Bearer x', form({})).basicMalformed).toBe(false);
  });

  it('authenticates a confidential client only by the method it registered, with the right secret', () => {
    expect(judge(basic('c', secret), {}, confidential('client_secret_basic'))).toEqual({
      ok: true,
      clientId: 'c',
      authenticated: true,
    });
    expect(
      judge(undefined, { client_id: 'c', client_secret: secret }, confidential('client_secret_post')),
    ).toEqual({ ok: true, clientId: 'c', authenticated: true });
    const refused = [
      judge(basic('c', 'wrong'), {}, confidential('client_secret_basic')),
      judge(undefined, { client_id: 'c' }, confidential('client_secret_basic')),
      judge(undefined, { client_id: 'c', client_secret: secret }, confidential('client_secret_basic')),
      judge(basic('c', secret), {}, confidential('client_secret_post')),
      judge(undefined, { client_id: 'c', client_secret: 'x' }, confidential('client_secret_post')),
      judge(basic('c', secret), { client_id: 'other' }, confidential('client_secret_basic')),
      judge(basic('c', secret), {}, { ...confidential('client_secret_basic'), revoked: true }),
      judge('Basic !!!', { client_id: 'c' }, confidential('client_secret_basic')),
    ];
    for (const r of refused) expect(r).toMatchObject({ ok: false, status: 401, error: 'invalid_client' });
    expect(
      judge(basic('c', secret), { client_secret: secret }, confidential('client_secret_basic')),
    ).toMatchObject({
      ok: false,
      status: 400,
      error: 'invalid_request',
    });
  });

  it('keeps public clients as they were: client_id only, and no secret', () => {
    expect(judge(undefined, { client_id: 'p' }, null)).toEqual({
      ok: true,
      clientId: 'p',
      authenticated: false,
    });
    expect(
      judge(undefined, { client_id: 'p' }, { method: 'none', secretHash: null, revoked: false }),
    ).toMatchObject({
      ok: true,
    });
    expect(judge(undefined, {}, null)).toMatchObject({ ok: false, status: 401, error: 'invalid_client' });
    expect(judge(undefined, { client_id: 'p', client_secret: 'x' }, null)).toMatchObject({
      ok: false,
      error: 'invalid_client',
    });
  });
});

describe('authorization requests', () => {
  const client = { redirectUris: ['http://127.0.0.1/cb'] };
  const q = {
    client_id: 'dcr_x',
    redirect_uri: 'http://127.0.0.1:5000/cb',
    response_type: 'code',
    code_challenge: s256(VERIFIER),
    code_challenge_method: 'S256',
    state: 's',
  };
  it('takes a good request and applies the documented resource default', () => {
    expect(checkAuthorizeRequest(q, client, 'https://mcp.example/mcp')).toMatchObject({
      ok: true,
      request: {
        resource: 'https://mcp.example/mcp',
        scopes: ['gitea:read'],
        redirectUri: 'http://127.0.0.1:5000/cb',
      },
    });
    expect(resolveResource('https://mcp.example/mcp/', 'https://mcp.example/mcp')).toBe(
      'https://mcp.example/mcp',
    );
    expect(resolveResource('https://mcp.example', 'https://mcp.example/mcp')).toBeNull();
  });
  it('never redirects before the redirect URI is verified', () => {
    expect(
      checkAuthorizeRequest({ ...q, redirect_uri: 'https://evil.example/cb' }, client, 'x'),
    ).toMatchObject({ ok: false, redirect: false });
    expect(checkAuthorizeRequest(q, null, 'x')).toMatchObject({ ok: false, redirect: false });
    expect(checkAuthorizeRequest({ ...q, response_type: 'token' }, client, 'x')).toMatchObject({
      ok: false,
      redirect: true,
      error: 'unsupported_response_type',
    });
  });
  it('always puts iss in the response', () => {
    const url = new URL(
      authorizationResponseUrl('http://127.0.0.1/cb?x=1', 'https://mcp.example', { code: 'c', state: null }),
    );
    expect(url.searchParams.get('iss')).toBe('https://mcp.example');
    expect(url.searchParams.get('x')).toBe('1');
    expect(url.searchParams.has('state')).toBe(false);
  });
});

describe('challenges, cookies, tokens, limiter', () => {
  it('builds RFC 6750 / RFC 9728 challenges', () => {
    expect(
      bearerChallenge({
        resourceMetadataUrl: 'https://m/.well-known/oauth-protected-resource/mcp',
        scope: ['gitea:read', 'gitea:write'],
        error: 'insufficient_scope',
      }),
    ).toBe(
      'Bearer resource_metadata="https://m/.well-known/oauth-protected-resource/mcp", scope="gitea:read gitea:write", error="insufficient_scope"',
    );
  });
  it('signs cookie values and refuses tampered ones', () => {
    const key = Buffer.alloc(32, 7);
    const signed = signValue('abc', key);
    expect(verifySignedValue(signed, key)).toBe('abc');
    expect(verifySignedValue(signed.replace('abc', 'abd'), key)).toBeNull();
    expect(verifySignedValue(signed, Buffer.alloc(32, 8))).toBeNull();
    expect(parseCookies(`a=1; __Host-x=${encodeURIComponent(signed)}`).get('__Host-x')).toBe(signed);
    expect(hostCookie('x', 'v', 60)).toBe('__Host-x=v; Max-Age=60; Path=/; Secure; HttpOnly; SameSite=Lax');
  });
  it('mints prefixed random tokens and stores hashes', () => {
    const t = newToken('access');
    expect(tokenKind(t)).toBe('access');
    expect(t).not.toBe(newToken('access'));
    expect(hashToken(t)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(t)).not.toContain(t.slice(9));
  });
  it('limits per key and in total per window', () => {
    let now = 0;
    const limiter = new WindowLimiter(2, 3, 1000, () => now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')].map((d) => d.allowed)).toEqual([
      true,
      true,
      false,
    ]);
    expect(limiter.take('b').allowed).toBe(true);
    expect(limiter.take('c')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    now = 1000;
    expect(limiter.take('a').allowed).toBe(true);
  });
});
