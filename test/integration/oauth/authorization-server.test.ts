// The authorization server and the OAuth resolver on a real database (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set), with the real Gitea side behind main's seam (GiteaBrowserSignIn's
// start/finish, GiteaGrantStoreAdapter) against the simulator, and a clock the test moves: the
// ten-minute interaction, code and access-token expiry, a token bound to another resource,
// revocation reaching a second replica's cache within a second (tombstones), and the Gitea side
// ending a person's MCP grants through MCP_GRANT_REVOKER (the relay the module provides).
import { CimdFetcher } from '../../../src/infra/oauth/cimd-fetcher';
import { GrantCipher } from '../../../src/core/gitea-oauth/grant-cipher';
import { s256 } from '../../../src/core/oauth/pkce';
import type { Database } from '../../../src/infra/database/database';
import { PrismaSignInStateStore } from '../../../src/infra/gitea-oauth/sign-in-state.store';
import { OAuthStore } from '../../../src/infra/oauth/oauth-store';
import { GiteaGrantStoreAdapter } from '../../../src/modules/gitea-oauth/gitea-grant-store';
import { GiteaBrowserSignIn } from '../../../src/modules/gitea-oauth/gitea-sign-in';
import { AuthorizationServer, type HttpAnswer } from '../../../src/modules/oauth/authorization-server';
import { GrantRevokerRelay } from '../../../src/modules/oauth/grant-revoker-relay';
import { OAuthIdentityResolver } from '../../../src/modules/oauth/oauth-identity.resolver';
import { describeEachDatabase } from '../database/database-targets';
import { grantWorld, newKey, type GrantWorld } from '../gitea-oauth/grant-helpers';

const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const REDIRECT = 'http://127.0.0.1:40000/cb';
const ISSUER = 'http://127.0.0.1:9';

describeEachDatabase('authorization server on the Gitea seam', (target) => {
  let db: Database & { dispose(): Promise<void> };
  let world: GrantWorld;
  let now = Date.parse('2026-12-01T12:00:00Z');
  let as: AuthorizationServer;
  let store: OAuthStore;
  let grants: GiteaGrantStoreAdapter;
  let service: ReturnType<GrantWorld['service']>;
  let clientId: string;
  const relay = new GrantRevokerRelay();
  const fetcher = new CimdFetcher([]);
  const key = newKey();

  const resolver = (resource = `${ISSUER}/mcp`) =>
    new OAuthIdentityResolver({
      store,
      grants,
      resource,
      resourceMetadataUrl: `${ISSUER}/.well-known/oauth-protected-resource/mcp`,
      now: () => now,
    });

  const cookieOf = (...answers: HttpAnswer[]) =>
    answers
      .flatMap((a) => ([] as string[]).concat(a.headers['set-cookie'] ?? []))
      .map((c) => c.split(';')[0])
      .filter((c) => !c!.endsWith('='))
      .join('; ');

  /** Authorize → consent page → Allow: the answer is the redirect to Gitea's authorize URL. */
  const consented = async (login: string) => {
    const page = await as.authorize(
      {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: s256(VERIFIER),
        code_challenge_method: 'S256',
        state: 's',
        scope: 'gitea:write',
      },
      undefined,
    );
    expect(page.status).toBe(200);
    const interaction = /name="interaction" value="([^"]+)"/.exec(page.body)![1]!;
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
    const cookie = cookieOf(page);
    const allowed = await as.consent(new URLSearchParams({ interaction, csrf, decision: 'allow' }), cookie);
    expect(allowed.status).toBe(302);
    const toGitea = new URL(String(allowed.headers.location));
    expect(toGitea.origin + toGitea.pathname).toBe(`${world.sim.url}/login/oauth/authorize`);
    return { cookie, toGitea, login };
  };

  /** The person approves at Gitea (the simulator's stand-in for the sign-in form and grant page). */
  const atGitea = async (toGitea: URL, login: string): Promise<Record<string, string>> => {
    world.sim.oauth.autoApproveAs = login;
    try {
      const res = await fetch(toGitea, { redirect: 'manual' });
      expect(res.status).toBe(303);
      const back = new URL(res.headers.get('location')!);
      expect(back.toString().startsWith(`${ISSUER}/oauth/gitea/callback`)).toBe(true);
      return Object.fromEntries(back.searchParams);
    } finally {
      world.sim.oauth.autoApproveAs = null;
    }
  };

  const codeFor = async (login = 'alice'): Promise<string> => {
    const c = await consented(login);
    const done = await as.giteaCallback(await atGitea(c.toGitea, login), c.cookie);
    expect(done.status).toBe(302);
    const back = new URL(String(done.headers.location));
    expect(back.searchParams.get('iss')).toBe(ISSUER);
    return back.searchParams.get('code')!;
  };

  const redeem = async (code: string) =>
    JSON.parse(
      (
        await as.token(
          new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            client_id: clientId,
            redirect_uri: REDIRECT,
            code_verifier: VERIFIER,
          }),
        )
      ).body,
    ) as { access_token?: string; refresh_token?: string; expires_in?: number; error?: string };

  beforeAll(async () => {
    db = await target.open();
    await db.migrate();
    world = await grantWorld(db, key);
    // The service's Gitea application also lists the authorization server's callback.
    world.sim.state.oauthApps
      .find((a) => a.clientId === world.clientId)!
      .redirectUris.push(`${ISSUER}/oauth/gitea/callback`);
    service = world.service();
    // As GiteaOAuthModule does: a person who loses their Gitea grant loses their MCP grants.
    service.onRevoked((personId, reason) => void relay.revokePerson(personId, reason));
    grants = new GiteaGrantStoreAdapter(service);
    const signIn = new GiteaBrowserSignIn({
      giteaUrl: world.sim.url,
      publicUrl: ISSUER,
      clientId: world.clientId,
      clientSecret: world.clientSecret,
      includeAdminScopes: false,
      grants: service,
      endpoint: world.endpoint,
      states: new PrismaSignInStateStore(db.prisma, new GrantCipher(key)),
    });
    store = new OAuthStore(db.prisma);
    as = new AuthorizationServer({
      issuer: ISSUER,
      resource: `${ISSUER}/mcp`,
      accessTokenTtlSeconds: 3600,
      refreshTokenTtlSeconds: 86400,
      dcrEnabled: true,
      dcrPerHour: 100,
      cimdAllowHttpOrigins: [],
      cimdCacheMaxSeconds: 60,
      secret: key,
      store,
      fetcher,
      signIn: signIn.seam(),
      grants,
      now: () => now,
    });
    relay.attach(as);
    const reg = await as.register(
      { client_name: 'Int', redirect_uris: [REDIRECT], application_type: 'native' },
      '1.2.3.4',
    );
    clientId = (JSON.parse(reg.body) as { client_id: string }).client_id;
  }, 60_000);
  afterAll(async () => {
    await fetcher.close();
    await world?.close();
    await db?.dispose();
  }, 60_000);

  it('completes through Gitea within ten minutes, and refuses the same Gitea answer twice or late', async () => {
    const ok = await consented('alice');
    const answer = await atGitea(ok.toGitea, 'alice');
    const done = await as.giteaCallback(answer, ok.cookie);
    expect(done.status).toBe(302);
    expect(new URL(String(done.headers.location)).searchParams.get('iss')).toBe(ISSUER);
    expect(await as.giteaCallback(answer, ok.cookie)).toMatchObject({ status: 400 });

    const late = await consented('alice');
    const lateAnswer = await atGitea(late.toGitea, 'alice');
    now += 10 * 60_000 + 1;
    expect(await as.giteaCallback(lateAnswer, late.cookie)).toMatchObject({ status: 400 });
  });

  it('refuses a Gitea answer brought back by another browser', async () => {
    const mine = await consented('alice');
    const other = await consented('alice');
    const answer = await atGitea(mine.toGitea, 'alice');
    expect(await as.giteaCallback(answer, other.cookie)).toMatchObject({ status: 403 });
  });

  it('lets a code expire after 60 seconds and an access token after its lifetime', async () => {
    const c1 = await codeFor();
    now += 61_000;
    expect(await redeem(c1)).toMatchObject({ error: 'invalid_grant' });

    const tokens = await redeem(await codeFor());
    expect(tokens.expires_in).toBe(3600);
    const r = resolver();
    const seen = await r.authenticate(`Bearer ${tokens.access_token}`);
    expect(seen).toMatchObject({ ok: true, identity: { login: 'alice', mode: 'oauth' } });
    // The identity carries the person's Gitea token (from the encrypted grant), never ours.
    const giteaToken = (seen as { identity: { token: string } }).identity.token;
    expect(giteaToken).not.toBe(tokens.access_token);
    expect((await world.endpoint.currentUser(giteaToken)).ok).toBe(true);
    now += 3600_000;
    expect(await r.authenticate(`Bearer ${tokens.access_token}`)).toMatchObject({
      ok: false,
      status: 401,
      error: 'invalid_token',
    });
  });

  it('records the first use of a grant once, beside its last use (issue 13 point 7)', async () => {
    const tokens = await redeem(await codeFor('alice'));
    const row = await db.prisma.oAuthToken.findFirstOrThrow({
      where: { kind: 'access', revokedAt: null },
      orderBy: { createdAt: 'desc' },
    });
    const grantOf = () => db.prisma.oAuthGrant.findUniqueOrThrow({ where: { id: row.grantId } });
    expect(await grantOf()).toMatchObject({ firstUsedAt: null, lastUsedAt: null });
    // Uses are recorded without delaying the call: wait for the row.
    const until = async (check: (g: Awaited<ReturnType<typeof grantOf>>) => boolean) => {
      const deadline = Date.now() + 10_000;
      for (let g = await grantOf(); !check(g); g = await grantOf()) {
        if (Date.now() > deadline) throw new Error(`grant use not recorded: ${JSON.stringify(g)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const r = resolver();
    const first = now;
    expect((await r.authenticate(`Bearer ${tokens.access_token}`)).ok).toBe(true);
    await until((g) => g.lastUsedAt?.getTime() === first);
    expect((await grantOf()).firstUsedAt?.getTime()).toBe(first);
    // Later uses, in this replica and another, move the last use and never the first.
    now += 5 * 60_000;
    expect((await r.authenticate(`Bearer ${tokens.access_token}`)).ok).toBe(true);
    await until((g) => g.lastUsedAt?.getTime() === now);
    now += 5 * 60_000;
    expect((await resolver().authenticate(`Bearer ${tokens.access_token}`)).ok).toBe(true);
    await until((g) => g.lastUsedAt?.getTime() === now);
    expect((await grantOf()).firstUsedAt?.getTime()).toBe(first);
    // The admin API's listing and the self-service page carry it.
    const listed = (await store.grantsOf(null)).find((g) => g.id === row.grantId);
    expect(listed?.firstUsedAt?.getTime()).toBe(first);
  });

  it('answers malformed requests with 400 invalid_request (checklist A5), invalid tokens with 401', async () => {
    const r = resolver();
    for (const header of ['Bearer', 'Bearer a b', 'Bearer \u00e9'])
      expect(await r.authenticate(header)).toMatchObject({
        ok: false,
        status: 400,
        error: 'invalid_request',
      });
    expect(await r.authenticate('Basic abc')).toMatchObject({ ok: false, status: 401, error: null });
    expect(await r.authenticate(undefined)).toMatchObject({ ok: false, status: 401, error: null });
    expect(await r.authenticate('Bearer aegis_at_unknown')).toMatchObject({
      status: 401,
      error: 'invalid_token',
    });
    const token = async (form: Record<string, string> | URLSearchParams) => {
      const a = await as.token(form instanceof URLSearchParams ? form : new URLSearchParams(form));
      return { status: a.status, error: (JSON.parse(a.body) as { error: string }).error };
    };
    expect(await token({ client_id: clientId })).toEqual({ status: 400, error: 'invalid_request' });
    expect(await token({ client_id: clientId, grant_type: 'authorization_code' })).toEqual({
      status: 400,
      error: 'invalid_request',
    });
    expect(await token({ client_id: clientId, grant_type: 'refresh_token' })).toEqual({
      status: 400,
      error: 'invalid_request',
    });
    const twice = new URLSearchParams({ client_id: clientId, grant_type: 'authorization_code', code: 'a' });
    twice.append('code', 'b');
    expect(await token(twice)).toEqual({ status: 400, error: 'invalid_request' });
    expect(await token({ client_id: clientId, grant_type: 'password' })).toEqual({
      status: 400,
      error: 'unsupported_grant_type',
    });
  });

  it('refuses a token bound to another resource', async () => {
    const tokens = await redeem(await codeFor());
    const other = await resolver('https://other.example/mcp').authenticate(`Bearer ${tokens.access_token}`);
    expect(other).toMatchObject({
      ok: false,
      status: 401,
      message: expect.stringMatching(/another resource/),
    });
  });

  it('reaches a second replica within a second of a revocation (tombstones)', async () => {
    const tokens = await redeem(await codeFor());
    const replicaA = resolver();
    const replicaB = resolver();
    expect((await replicaA.authenticate(`Bearer ${tokens.access_token}`)).ok).toBe(true);
    expect((await replicaB.authenticate(`Bearer ${tokens.access_token}`)).ok).toBe(true); // now cached in B
    await as.revoke(new URLSearchParams({ token: tokens.refresh_token!, client_id: clientId }));
    now += 1000;
    expect(await replicaB.authenticate(`Bearer ${tokens.access_token}`)).toMatchObject({
      ok: false,
      status: 401,
    });
    expect((await replicaA.authenticate(`Bearer ${tokens.access_token}`)).ok).toBe(false);
  });

  it('ends every MCP grant of a person when the Gitea side revokes their Gitea grant', async () => {
    const tokens = await redeem(await codeFor('bob'));
    const r = resolver();
    const bob = await r.authenticate(`Bearer ${tokens.access_token}`);
    expect(bob).toMatchObject({ ok: true, identity: { login: 'bob' } });
    const row = await db.prisma.oAuthGrant.findFirstOrThrow({ where: { login: 'bob', revokedAt: null } });
    // The Gitea side (lifecycle, 401, admin) revokes; the relay reaches the authorization server.
    await service.revokeAllFor(row.personId, 'account_disabled');
    const deadline = Date.now() + 10_000;
    while (!(await db.prisma.oAuthGrant.findUniqueOrThrow({ where: { id: row.id } })).revokedAt) {
      if (Date.now() > deadline) throw new Error('the MCP grant was not revoked');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    now += 1000;
    expect((await r.authenticate(`Bearer ${tokens.access_token}`)).ok).toBe(false);
  });
});
