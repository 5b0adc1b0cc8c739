// The Gitea behaviours the service depends on: routing and encoding, auth, paging, OAuth2,
// bodies and fault switches.
import { createHash, randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { startGiteaSimulator, type GiteaSimulator } from '../../simulator';

// Response bodies are checked field by field below; typed loosely on purpose.
const loose = (x: unknown): any => x;

describe('Gitea simulator behaviour', () => {
  let sim: GiteaSimulator;
  beforeAll(async () => {
    sim = await startGiteaSimulator({ seed: 'demo' });
  });
  afterAll(async () => {
    await sim.close();
  });
  afterEach(() => sim.faults.clear());

  const api = (path: string, init: RequestInit & { token?: string } = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    if (init.token !== undefined) headers.set('Authorization', `token ${init.token}`);
    if (init.body) headers.set('Content-Type', 'application/json');
    return fetch(`${sim.apiUrl}${path}`, { ...init, headers, redirect: 'manual' });
  };

  describe('routing and encoding', () => {
    it('serves a branch with a slash through the wildcard route', async () => {
      const res = await api('/repos/acme/widgets/branches/feature/x', { token: sim.tokens.alice });
      expect(res.status).toBe(200);
      expect((await res.json().then(loose)).name).toBe('feature/x');
    });

    it('resolves releases/tags/{tag} only with %2F', async () => {
      const ok = await api('/repos/acme/widgets/releases/tags/rel%2F1.0', { token: sim.tokens.alice });
      expect(ok.status).toBe(200);
      expect((await ok.json().then(loose)).tag_name).toBe('rel/1.0');
      const raw = await api('/repos/acme/widgets/releases/tags/rel/1.0', { token: sim.tokens.alice });
      expect(raw.status).toBe(404);
      expect(await raw.json().then(loose)).toEqual({ message: 'not found', url: `${sim.url}/api/swagger` });
    });

    it('resolves editorconfig/{filepath} only with %2F', async () => {
      expect((await api('/repos/acme/widgets/editorconfig/src%2Findex.ts')).status).toBe(200);
      expect((await api('/repos/acme/widgets/editorconfig/src/index.ts')).status).toBe(404);
    });

    it('serves nested file paths, tags with slashes and compare ranges with slashes', async () => {
      const file = await (
        await api('/repos/acme/widgets/contents/docs/guide/intro.md?ref=main')
      )
        .json()
        .then(loose);
      expect(Buffer.from(file.content, 'base64').toString()).toContain('Introduction');
      expect((await api('/repos/acme/widgets/tags/rel/1.0')).status).toBe(200);
      const cmp = await (await api('/repos/acme/widgets/compare/main...feature/x')).json().then(loose);
      expect(cmp.total_commits).toBe(1);
      expect((await api('/repos/acme/widgets/pulls/main/feature/x')).status).toBe(200);
    });

    it('answers 404 for unknown routes and 501 with a JSON body for unserved operations', async () => {
      expect((await api('/no/such/route')).status).toBe(404);
      const res = await api('/admin/cron', { token: sim.tokens.admin });
      expect(res.status).toBe(501);
      const body = await res.json().then(loose);
      expect(body.message).toContain('adminCronList');
      expect(typeof body.url).toBe('string');
    });

    it('serves the version and the bundled swagger', async () => {
      expect(await (await api('/version')).json().then(loose)).toEqual({ version: '1.27.1' });
      const spec = await (await fetch(`${sim.url}/swagger.v1.json`)).json().then(loose);
      expect(spec.info.version).toBe('1.27.1');
    });
  });

  describe('authentication', () => {
    it('accepts token, Bearer and basic credentials and refuses bad ones with 401', async () => {
      expect((await (await api('/user', { token: sim.tokens.bob })).json().then(loose)).login).toBe('bob');
      const bearer = await api('/user', { headers: { Authorization: `Bearer ${sim.tokens.bob}` } });
      expect((await bearer.json().then(loose)).login).toBe('bob');
      const basic = Buffer.from(`bob:${sim.passwords.bob}`).toString('base64');
      expect(
        (await (await api('/user', { headers: { Authorization: `Basic ${basic}` } })).json().then(loose))
          .login,
      ).toBe('bob');
      const bad = await api('/user', { token: 'f'.repeat(40) });
      expect(bad.status).toBe(401);
      expect(Object.keys(await bad.json().then(loose)).sort()).toEqual(['message', 'url']);
    });

    it('lets a site admin act as another user with Sudo, and refuses Sudo to others', async () => {
      const res = await api('/user', { token: sim.tokens.admin, headers: { Sudo: 'alice' } });
      expect((await res.json().then(loose)).login).toBe('alice');
      const refused = await api('/user', { token: sim.tokens.bob, headers: { Sudo: 'alice' } });
      expect(refused.status).toBe(403);
    });

    it('refuses a write with a read-only token (403) but allows reads', async () => {
      expect((await api('/repos/acme/widgets/issues', { token: sim.tokens.readOnly })).status).toBe(200);
      const res = await api('/repos/acme/widgets/issues', {
        method: 'POST',
        token: sim.tokens.readOnly,
        body: JSON.stringify({ title: 'x' }),
      });
      expect(res.status).toBe(403);
      expect((await res.json().then(loose)).message).toContain('required=[write:issue]');
    });

    it('hides private repositories from outsiders with 404', async () => {
      expect((await api('/repos/acme/internal')).status).toBe(404);
      // bob is an acme member, but his team does not include the private repo
      expect((await api('/repos/acme/internal', { token: sim.tokens.bob })).status).toBe(404);
      expect((await api('/repos/acme/internal', { token: sim.tokens.alice })).status).toBe(200);
      expect((await api('/repos/alice/notes', { token: sim.tokens.bob })).status).toBe(404);
      expect((await api('/repos/alice/notes', { token: sim.tokens.alice })).status).toBe(200);
    });

    it('creates access tokens through basic auth only, returning the secret once', async () => {
      const basic = Buffer.from(`bob:${sim.passwords.bob}`).toString('base64');
      const made = await api('/users/bob/tokens', {
        method: 'POST',
        headers: { Authorization: `Basic ${basic}` },
        body: JSON.stringify({ name: 'agent', scopes: ['write:repository'] }),
      });
      expect(made.status).toBe(201);
      const tok = await made.json().then(loose);
      expect(tok.sha1).toMatch(/^[0-9a-f]{40}$/);
      expect(
        (await (await api('/user/repos', { token: tok.sha1 })).json().then(loose)).length,
      ).toBeGreaterThan(0);
      // a user-scope call with a repository-only token is refused
      expect((await api('/user', { token: tok.sha1 })).status).toBe(403);
      const viaToken = await api('/users/bob/tokens', {
        method: 'POST',
        token: sim.tokens.bob,
        body: JSON.stringify({ name: 'x', scopes: ['all'] }),
      });
      expect(viaToken.status).toBe(401);
    });
  });

  describe('lists', () => {
    it('pages with page/limit and sends Link and X-Total-Count (page 2 of 3)', async () => {
      for (let i = 0; i < 5; i++) {
        await api('/repos/bob/sandbox/issues', {
          method: 'POST',
          token: sim.tokens.bob,
          body: JSON.stringify({ title: `issue ${i}` }),
        });
      }
      const res = await api('/repos/bob/sandbox/issues?limit=2&page=2', { token: sim.tokens.bob });
      expect(res.headers.get('x-total-count')).toBe('5');
      const link = res.headers.get('link')!;
      const base = `${sim.apiUrl}/repos/bob/sandbox/issues`;
      expect(link).toBe(
        [
          `<${base}?limit=2&page=3>; rel="next"`,
          `<${base}?limit=2&page=3>; rel="last"`,
          `<${base}?limit=2&page=1>; rel="first"`,
          `<${base}?limit=2&page=1>; rel="prev"`,
        ].join(','),
      );
      expect((await res.json().then(loose)).map((i: { title: string }) => i.title)).toEqual([
        'issue 2',
        'issue 1',
      ]);
    });

    it('applies the default page size 30 and caps limit at 50', async () => {
      for (let i = 0; i < 55; i++) {
        await api('/repos/bob/sandbox/labels', {
          method: 'POST',
          token: sim.tokens.bob,
          body: JSON.stringify({ name: `l${i}`, color: '112233' }),
        });
      }
      expect((await (await api('/repos/bob/sandbox/labels')).json().then(loose)).length).toBe(30);
      expect((await (await api('/repos/bob/sandbox/labels?limit=500')).json().then(loose)).length).toBe(50);
    });
  });

  describe('Gitea-specific answers', () => {
    it('returns the runner registration token in a `token` header', async () => {
      const res = await api('/repos/acme/widgets/actions/runners/registration-token', {
        method: 'POST',
        token: sim.tokens.alice,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('token')).toMatch(/^[0-9a-f]{40}$/);
    });

    it('echoes authorization_header when a webhook is created', async () => {
      const res = await api('/repos/acme/widgets/hooks', {
        method: 'POST',
        token: sim.tokens.alice,
        body: JSON.stringify({
          type: 'gitea',
          config: { url: 'https://example.com/h', content_type: 'json' },
          authorization_header: 'Bearer hook-secret',
        }),
      });
      expect((await res.json().then(loose)).authorization_header).toBe('Bearer hook-secret');
    });

    it('returns a client_secret when an OAuth2 application is created', async () => {
      const res = await api('/user/applications/oauth2', {
        method: 'POST',
        token: sim.tokens.alice,
        body: JSON.stringify({ name: 'x', redirect_uris: ['http://127.0.0.1/cb'] }),
      });
      expect(res.status).toBe(201);
      expect((await res.json().then(loose)).client_secret).toMatch(/^gto_/);
    });

    it('serves raw files, archives and diff/patch bodies', async () => {
      const raw = await api('/repos/acme/widgets/raw/config/.env?ref=main');
      expect(raw.headers.get('content-type')).toContain('text/plain');
      const env = await raw.text();
      expect(env).toMatch(/AWS_ACCESS_KEY_ID=AKIA[A-Z2-7]{16}/);
      expect(env).toContain('PRIVATE KEY-----');
      const tgz = Buffer.from(await (await api('/repos/acme/widgets/archive/main.tar.gz')).arrayBuffer());
      expect(gunzipSync(tgz).toString('latin1')).toContain('widgets/src/index.ts');
      const zip = Buffer.from(await (await api('/repos/acme/widgets/archive/feature%2Fx.zip')).arrayBuffer());
      expect(zip.readUInt32LE(0)).toBe(0x04034b50);
      expect(await (await api('/repos/acme/widgets/pulls/4.diff')).text()).toContain(
        '+++ b/src/feature-x.ts',
      );
      expect(await (await api('/repos/acme/widgets/pulls/4.patch')).text()).toMatch(/^From [0-9a-f]{40} /);
    });

    it("answers Range on raw and media files the way Gitea's ServeUserContentByReader does, and ignores it on diffs", async () => {
      const whole = Buffer.from(
        await (await api('/repos/acme/widgets/raw/config/.env?ref=main')).arrayBuffer(),
      );
      const size = whole.length;
      const part = await api('/repos/acme/widgets/raw/config/.env?ref=main', {
        headers: { Range: 'bytes=4-9' },
      });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 4-9/${size}`);
      expect(part.headers.get('content-length')).toBe('6');
      expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(4, 10))).toBe(true);
      // An end past the file is clamped; "bytes=a-" reads to the end.
      const tail = await api('/repos/acme/widgets/media/config/.env?ref=main', {
        headers: { Range: `bytes=${size - 3}-${size + 1000}` },
      });
      expect(tail.status).toBe(206);
      expect(tail.headers.get('content-range')).toBe(`bytes ${size - 3}-${size - 1}/${size}`);
      const open = await api('/repos/acme/widgets/raw/config/.env?ref=main', {
        headers: { Range: 'bytes=0-' },
      });
      expect(open.status).toBe(206);
      expect(Buffer.from(await open.arrayBuffer()).equals(whole)).toBe(true);
      // A start at or past the end: 416 with http.Error's text and no Content-Range; end before start: 400.
      const past = await api('/repos/acme/widgets/raw/config/.env?ref=main', {
        headers: { Range: `bytes=${size}-` },
      });
      expect(past.status).toBe(416);
      expect(past.headers.get('content-range')).toBeNull();
      expect(await past.text()).toBe('invalid start range\n');
      const backwards = await api('/repos/acme/widgets/raw/config/.env?ref=main', {
        headers: { Range: 'bytes=9-4' },
      });
      expect(backwards.status).toBe(400);
      expect(await backwards.text()).toBe('invalid end range\n');
      // Gitea writes diffs and patches straight to the response: the Range is ignored.
      const diff = await api('/repos/acme/widgets/pulls/4.diff', { headers: { Range: 'bytes=0-9' } });
      expect(diff.status).toBe(200);
      expect(diff.headers.get('content-range')).toBeNull();
      expect((await diff.text()).length).toBeGreaterThan(10);
    });

    it('answers errors as JSON {message, url}: 404, 409, 422', async () => {
      const dup = await api('/repos/acme/widgets/branches', {
        method: 'POST',
        token: sim.tokens.alice,
        body: JSON.stringify({ new_branch_name: 'main' }),
      });
      expect(dup.status).toBe(409);
      const invalid = await api('/repos/acme/widgets/labels', {
        method: 'POST',
        token: sim.tokens.alice,
        body: JSON.stringify({ name: 'x', color: 'nope' }),
      });
      expect(invalid.status).toBe(422);
      expect(Object.keys(await invalid.json().then(loose)).sort()).toEqual(['message', 'url']);
    });
  });

  describe('OAuth2 provider', () => {
    const redirectUri = 'http://127.0.0.1:1/callback';
    const pkce = (): { verifier: string; challenge: string } => {
      const verifier = randomBytes(32).toString('base64url');
      return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
    };
    const token = (form: Record<string, string>): Promise<Response> =>
      fetch(`${sim.url}/login/oauth/access_token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form),
      });

    it('exchanges a PKCE code, rotates refresh tokens, expires access tokens and serves userinfo', async () => {
      const app = sim.oauth.registerApp({ name: 'mcp', redirectUris: [redirectUri] });
      sim.oauth.invalidateRefreshTokens = true;
      const { verifier, challenge } = pkce();
      const code = sim.oauth.approve({
        clientId: app.clientId,
        redirectUri,
        codeChallenge: challenge,
        login: 'bob',
      });
      const base = { client_id: app.clientId, client_secret: app.clientSecret, redirect_uri: redirectUri };

      const wrong = await token({
        ...base,
        grant_type: 'authorization_code',
        code,
        code_verifier: 'x'.repeat(43),
      });
      expect(wrong.status).toBe(400);
      const code2 = sim.oauth.approve({
        clientId: app.clientId,
        redirectUri,
        codeChallenge: challenge,
        login: 'bob',
      });
      const first = await token({
        ...base,
        grant_type: 'authorization_code',
        code: code2,
        code_verifier: verifier,
      });
      expect(first.status).toBe(200);
      const t1 = await first.json().then(loose);
      expect(t1).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
      // a code is single-use
      expect(
        (await token({ ...base, grant_type: 'authorization_code', code: code2, code_verifier: verifier }))
          .status,
      ).toBe(400);

      const me = await fetch(`${sim.apiUrl}/user`, {
        headers: { Authorization: `Bearer ${t1.access_token}` },
      });
      expect((await me.json().then(loose)).login).toBe('bob');
      const info = await (
        await fetch(`${sim.url}/login/oauth/userinfo`, {
          headers: { Authorization: `Bearer ${t1.access_token}` },
        })
      )
        .json()
        .then(loose);
      expect(info).toMatchObject({ preferred_username: 'bob', sub: expect.any(String) });

      const refreshed = await token({
        ...base,
        grant_type: 'refresh_token',
        refresh_token: t1.refresh_token,
      });
      expect(refreshed.status).toBe(200);
      const t2 = await refreshed.json().then(loose);
      expect(t2.refresh_token).not.toBe(t1.refresh_token);
      // the old refresh token is spent
      expect(
        (await token({ ...base, grant_type: 'refresh_token', refresh_token: t1.refresh_token })).status,
      ).toBe(400);

      sim.advanceTime(3601 * 1000);
      const expired = await fetch(`${sim.apiUrl}/user`, {
        headers: { Authorization: `Bearer ${t2.access_token}` },
      });
      expect(expired.status).toBe(401);
      const again = await token({ ...base, grant_type: 'refresh_token', refresh_token: t2.refresh_token });
      expect(again.status).toBe(200);
      sim.oauth.invalidateRefreshTokens = false;
    });

    it('redirects from /login/oauth/authorize with a code (auto-approve) and requires PKCE for public clients', async () => {
      const app = sim.oauth.registerApp({ name: 'public', redirectUris: [redirectUri], confidential: false });
      const { verifier, challenge } = pkce();
      const q = new URLSearchParams({
        client_id: app.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        state: 'xyz',
      });
      sim.oauth.autoApproveAs = 'alice';
      try {
        const noPkce = await fetch(`${sim.url}/login/oauth/authorize?${q}`, { redirect: 'manual' });
        expect(new URL(noPkce.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
        q.set('code_challenge', challenge);
        q.set('code_challenge_method', 'S256');
        const res = await fetch(`${sim.url}/login/oauth/authorize?${q}`, { redirect: 'manual' });
        expect(res.status).toBe(303);
        const loc = new URL(res.headers.get('location')!);
        expect(loc.searchParams.get('state')).toBe('xyz');
        const t = await token({
          client_id: app.clientId,
          grant_type: 'authorization_code',
          code: loc.searchParams.get('code')!,
          code_verifier: verifier,
          redirect_uri: redirectUri,
        });
        expect(t.status).toBe(200);
      } finally {
        sim.oauth.autoApproveAs = null;
      }
      const unregistered = await fetch(
        `${sim.url}/login/oauth/authorize?client_id=${app.clientId}&redirect_uri=http://evil.example/cb&response_type=code`,
        { redirect: 'manual' },
      );
      expect(unregistered.status).toBe(400);
    });
  });

  describe('fault switches', () => {
    it('answers a 5xx for the next N requests on a path prefix', async () => {
      sim.faults.failNext(503, 2, '/api/v1/repos');
      expect((await api('/repos/acme/widgets')).status).toBe(503);
      expect((await api('/version')).status).toBe(200);
      expect((await api('/repos/acme/widgets')).status).toBe(503);
      expect((await api('/repos/acme/widgets')).status).toBe(200);
    });

    it('adds latency', async () => {
      sim.faults.latency(150);
      const t0 = Date.now();
      await api('/version');
      expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    });

    it('resets the connection', async () => {
      sim.faults.set({ resetConnection: true, times: 1 });
      await expect(api('/version')).rejects.toThrow();
    });

    it('sends a slow body, a huge body and deeply nested JSON', async () => {
      sim.faults.set({ slowBodyMs: 200, times: 1 });
      const t0 = Date.now();
      const res = await api('/repos/acme/widgets');
      const headersAt = Date.now() - t0;
      await res.json().then(loose);
      // The body is held back slowBodyMs after the headers are written; a loaded machine may deliver
      // the headers late, so the whole exchange (not the gap after the headers) is what must be slow.
      const total = Date.now() - t0;
      expect(total).toBeGreaterThanOrEqual(190);
      expect(total).toBeGreaterThan(headersAt);

      sim.faults.set({ hugeBodyBytes: 5_000_000, times: 1 });
      expect((await (await api('/repos/acme/widgets')).arrayBuffer()).byteLength).toBeGreaterThanOrEqual(
        5_000_000,
      );

      sim.faults.set({ deepJsonLevels: 150, times: 1 });
      const deep = await (await api('/repos/acme/widgets')).text();
      expect(deep.startsWith('{"a":'.repeat(150))).toBe(true);
    });
  });
});
