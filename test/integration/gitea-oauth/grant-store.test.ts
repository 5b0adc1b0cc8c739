// The person's Gitea grant on real storage (PGlite, and PostgreSQL when TEST_DATABASE_URL is set)
// against the simulator's OAuth provider: encrypted at rest (no token in any row), refreshed ahead
// of expiry and on a 401, one refresh across replicas, revoked with auth_required when Gitea
// refuses the refresh or the account, key rotation by re-encryption.
import { GiteaAuthRequiredError } from '../../../src/core/gitea-oauth/errors';
import { GrantCipher } from '../../../src/core/gitea-oauth/grant-cipher';
import type { Database } from '../../../src/infra/database/database';
import { GiteaGrantStoreAdapter } from '../../../src/modules/gitea-oauth/gitea-grant-store';
import { describeEachDatabase } from '../database/database-targets';
import { dumpRows, grantWorld, newKey, type GrantWorld } from './grant-helpers';

describeEachDatabase('Gitea grant store', (target) => {
  let db: Database & { dispose(): Promise<void> };
  let world: GrantWorld;
  const key = newKey();

  beforeAll(async () => {
    db = await target.open();
    await db.migrate();
    world = await grantWorld(db, key);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
    await db?.dispose();
  });
  beforeEach(() => {
    world.sim.oauth.invalidateRefreshTokens = false;
  });

  it('stores a sign-in, hands out the token, and keeps no plaintext token in any row', async () => {
    const service = world.service();
    const { personId } = await world.signIn(service, 'alice', 'write');
    const credential = await service.credentialFor(personId);
    expect(credential).toMatchObject({ login: 'alice', isSiteAdmin: false, access: 'write', personId });
    const me = await fetch(`${world.sim.apiUrl}/user`, {
      headers: { Authorization: `Bearer ${credential.token}` },
    });
    expect(((await me.json()) as { login: string }).login).toBe('alice');

    const person = await service.findPerson(personId);
    expect(person).toMatchObject({ login: 'alice', giteaUserId: expect.any(Number) });
    const grant = await service.findGrant(personId);
    expect(grant).toMatchObject({ status: 'active', keyId: new GrantCipher(key).currentKeyId });

    const dump = await dumpRows(db);
    expect(world.minted.size).toBeGreaterThanOrEqual(2);
    for (const token of world.minted) {
      expect(dump).not.toContain(token);
      // no recognisable piece of it either (a JWT's payload segment)
      expect(dump).not.toContain(token.split('.')[1]!.slice(0, 24));
    }
  });

  it('a second sign-in of the same Gitea user keeps one person and one grant', async () => {
    const service = world.service();
    const first = await world.signIn(service, 'bob', 'read');
    const second = await world.signIn(service, 'bob', 'write');
    expect(second.personId).toBe(first.personId);
    const count = await db.prisma.giteaGrant.count({ where: { personId: first.personId } });
    expect(count).toBe(1);
    expect((await service.findGrant(first.personId))?.access).toBe('write');
  });

  it('records the first use of the Gitea grant once, beside its last use, and keeps it across sign-ins', async () => {
    let now = Date.parse('2026-12-01T12:00:00Z');
    const service = world.service({ now: () => now });
    const { personId } = await world.signIn(service, 'carol');
    const row = () => db.prisma.giteaGrant.findUniqueOrThrow({ where: { personId } });
    expect(await row()).toMatchObject({ firstUsedAt: null, lastUsedAt: null });
    // Uses are recorded without delaying the call: wait for the row.
    const until = async (at: number) => {
      const deadline = Date.now() + 10_000;
      while ((await row()).lastUsedAt?.getTime() !== at) {
        if (Date.now() > deadline) throw new Error('the use was not recorded');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const first = now;
    await service.credentialFor(personId);
    await until(first);
    now += 10 * 60_000;
    await service.credentialFor(personId);
    await until(now);
    expect((await row()).firstUsedAt?.getTime()).toBe(first);
    // A new sign-in replaces the tokens on the same grant: its first use stays.
    await world.signIn(service, 'carol');
    now += 60_000;
    await service.credentialFor(personId);
    await until(now);
    expect((await service.findGrant(personId))?.firstUsedAt?.getTime()).toBe(first);
  });

  it('refreshes a token that is about to expire, before handing it out', async () => {
    const service = world.service();
    const { personId } = await world.signIn(service, 'alice');
    const before = await service.credentialFor(personId);
    const refreshes = world.sim.oauth.issued.refresh_token;
    world.sim.advanceTime(3550 * 1000); // 50 s left: under the 60 s floor
    try {
      const after = await service.credentialFor(personId);
      expect(after.token).not.toBe(before.token);
      expect(world.sim.oauth.issued.refresh_token).toBe(refreshes + 1);
      const me = await fetch(`${world.sim.apiUrl}/user`, {
        headers: { Authorization: `Bearer ${after.token}` },
      });
      expect(me.status).toBe(200);
    } finally {
      world.sim.advanceTime(-3550 * 1000);
    }
  });

  it('the refresh job renews tokens ahead of expiry', async () => {
    const service = world.service({ refreshAheadMs: 20 * 60_000 });
    const { personId } = await world.signIn(service, 'bob');
    const grantBefore = await service.findGrant(personId);
    world.sim.advanceTime(45 * 60_000); // 15 min left: inside the 20 min window
    try {
      const result = await service.refreshExpiring();
      expect(result.refreshed).toBeGreaterThanOrEqual(1);
      const grantAfter = await service.findGrant(personId);
      expect(grantAfter!.accessExpiresAt!.getTime()).toBeGreaterThan(grantBefore!.accessExpiresAt!.getTime());
    } finally {
      world.sim.advanceTime(-45 * 60_000);
    }
  });

  it('two replicas refreshing at once spend the refresh token once (INVALIDATE_REFRESH_TOKENS on)', async () => {
    world.sim.oauth.invalidateRefreshTokens = true;
    const a = world.service();
    const b = world.service();
    const { personId } = await world.signIn(a, 'alice');
    world.sim.advanceTime(3590 * 1000);
    const refreshes = world.sim.oauth.issued.refresh_token;
    try {
      const [ca, cb] = await Promise.all([a.credentialFor(personId), b.credentialFor(personId)]);
      expect(ca.token).toBe(cb.token);
      expect(world.sim.oauth.issued.refresh_token).toBe(refreshes + 1);
      expect((await a.findGrant(personId))?.status).toBe('active');
    } finally {
      world.sim.advanceTime(-3590 * 1000);
    }
  });

  it('a grant revoked on Gitea: the 401 triggers one refresh, which fails, and the answer is auth_required', async () => {
    const service = world.service();
    const revoked: string[] = [];
    service.onRevoked((id, reason) => revoked.push(`${id}:${reason}`));
    const { personId } = await world.signIn(service, 'bob');
    const credential = await service.credentialFor(personId);
    expect(world.sim.oauth.revokeGrant('bob', world.clientId)).toBe(true);
    const call = await fetch(`${world.sim.apiUrl}/user`, {
      headers: { Authorization: `Bearer ${credential.token}` },
    });
    expect(call.status).toBe(401);
    await expect(service.upstreamRefused(personId, 401)).rejects.toMatchObject({
      kind: 'auth_required',
      reason: 'refresh_failed',
    });
    expect(revoked).toEqual([`${personId}:refresh_failed`]);
    const error = await service.credentialFor(personId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GiteaAuthRequiredError);
    expect((error as GiteaAuthRequiredError).message).toMatch(/Reconnect.*\/auth\/gitea\/connect/);
    expect((error as GiteaAuthRequiredError).toErrorBody().error.kind).toBe('auth_required');
    const row = await db.prisma.giteaGrant.findUnique({ where: { personId } });
    expect(row).toMatchObject({
      status: 'revoked',
      accessTokenEnc: null,
      refreshTokenEnc: null,
      keyId: null,
    });
    // signing in again restores it
    await world.signIn(service, 'bob');
    await expect(service.credentialFor(personId)).resolves.toMatchObject({ login: 'bob' });
  });

  it('a 401 with a still-valid grant refreshes and hands back a new token to retry with', async () => {
    const service = world.service();
    const { personId } = await world.signIn(service, 'alice');
    const refreshes = world.sim.oauth.issued.refresh_token;
    const before = await service.findGrant(personId);
    const retried = await service.upstreamRefused(personId, 401);
    // (Gitea's JWTs made in the same second can be identical: count the refresh instead)
    expect(world.sim.oauth.issued.refresh_token).toBe(refreshes + 1);
    expect((await service.findGrant(personId))!.updatedAt.getTime()).toBeGreaterThanOrEqual(
      before!.updatedAt.getTime(),
    );
    const me = await fetch(`${world.sim.apiUrl}/user`, {
      headers: { Authorization: `Bearer ${retried!.token}` },
    });
    expect(me.status).toBe(200);
    expect((await service.findGrant(personId))?.status).toBe('active');
  });

  it('a 403 saying the account may not sign in revokes at once; other 403s do not', async () => {
    const service = world.service();
    const { personId } = await world.signIn(service, 'alice');
    await expect(
      service.upstreamRefused(personId, 403, 'user should have a permission to write'),
    ).resolves.toBeNull();
    expect((await service.findGrant(personId))?.status).toBe('active');
    await expect(
      service.upstreamRefused(
        personId,
        403,
        'This account is prohibited from signing in, please contact your site administrator.',
      ),
    ).rejects.toMatchObject({ reason: 'account_disabled' });
    expect((await service.findGrant(personId))?.status).toBe('revoked');
    await world.signIn(service, 'alice');
  });

  it('a transient Gitea failure keeps the grant', async () => {
    const service = world.service();
    const { personId } = await world.signIn(service, 'bob');
    world.sim.faults.failNext(503, 1, '/login/oauth/access_token');
    world.sim.advanceTime(3590 * 1000);
    try {
      // the old token still has 10 s: it is handed out, the grant stays
      const credential = await service.credentialFor(personId);
      expect(credential.login).toBe('bob');
      expect((await service.findGrant(personId))?.status).toBe('active');
    } finally {
      world.sim.advanceTime(-3590 * 1000);
      world.sim.faults.clear();
    }
  });

  it('rotates the key: previous key still decrypts, the job re-encrypts, then the old key can go', async () => {
    const oldService = world.service();
    const { personId } = await world.signIn(oldService, 'alice');
    const oldKeyId = new GrantCipher(key).currentKeyId;
    expect((await oldService.findGrant(personId))?.keyId).toBe(oldKeyId);
    const nextKey = newKey();
    const rotated = world.service({ cipher: new GrantCipher(nextKey, [key]) });
    const token = (await rotated.credentialFor(personId)).token;
    const moved = await rotated.reencrypt();
    expect(moved).toBeGreaterThanOrEqual(1);
    const grant = await rotated.findGrant(personId);
    expect(grant?.keyId).toBe(new GrantCipher(nextKey).currentKeyId);
    expect(await db.prisma.giteaGrant.count({ where: { status: 'active', keyId: oldKeyId } })).toBe(0);
    const onlyNew = world.service({ cipher: new GrantCipher(nextKey) });
    expect((await onlyNew.credentialFor(personId)).token).toBe(token);
    // a replica that only knows the old key cannot read the rows any more: auth_required, not a crash
    await expect(
      world.service({ cipher: new GrantCipher(key) }).credentialFor(personId),
    ).rejects.toMatchObject({
      reason: 'undecryptable',
    });
    // put the suite's key back for the other tests
    await world.service({ cipher: new GrantCipher(key, [nextKey]) }).reencrypt();
  });

  it('a tampered ciphertext in the database is refused (auth_required), never returned', async () => {
    const service = world.service();
    const { personId } = await world.signIn(service, 'bob');
    const row = await db.prisma.giteaGrant.findUniqueOrThrow({ where: { personId } });
    const raw = Buffer.from(row.accessTokenEnc!.slice(3), 'base64url');
    raw[raw.length - 1] = raw[raw.length - 1]! ^ 1;
    await db.prisma.giteaGrant.update({
      where: { personId },
      data: { accessTokenEnc: `v1.${raw.toString('base64url')}` },
    });
    await expect(service.credentialFor(personId)).rejects.toMatchObject({ reason: 'undecryptable' });
    // moving another row's ciphertext here fails too (bound to its row)
    const other = await db.prisma.giteaGrant.findFirstOrThrow({
      where: { status: 'active', NOT: { personId } },
    });
    await db.prisma.giteaGrant.update({
      where: { personId },
      data: { accessTokenEnc: other.accessTokenEnc, keyId: other.keyId },
    });
    await expect(service.credentialFor(personId)).rejects.toMatchObject({ reason: 'undecryptable' });
    await world.signIn(service, 'bob');
  });

  it('GITEA_GRANT_STORE (by Gitea grant id): token, 401 refresh, 403 disabled revokes, then auth_required', async () => {
    const service = world.service();
    const store = new GiteaGrantStoreAdapter(service);
    const { personId } = await world.signIn(service, 'alice');
    const grantId = (await service.findGrant(personId))!.id;
    const first = await store.accessToken(grantId);
    expect(first).toMatchObject({ login: 'alice', isSiteAdmin: false, token: expect.any(String) });
    const refreshes = world.sim.oauth.issued.refresh_token;
    await store.upstreamUnauthorized(grantId, first.token);
    expect(world.sim.oauth.issued.refresh_token).toBe(refreshes + 1);
    await store.upstreamRefused(grantId, 403, 'user should have a permission to write to a repo');
    expect((await service.findGrant(personId))?.status).toBe('active');
    await store.upstreamRefused(
      grantId,
      403,
      'This account is prohibited from signing in, please contact your site administrator.',
    );
    await expect(store.accessToken(grantId)).rejects.toBeInstanceOf(GiteaAuthRequiredError);
    await expect(store.accessToken('no-such-grant')).rejects.toMatchObject({ reason: 'no_grant' });
    await world.signIn(service, 'alice');
  });
});
