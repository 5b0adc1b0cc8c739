// The sign-in seam used by the MCP authorization server (GITEA_SIGN_IN: start/finish keyed by the
// caller's state) on real storage against the simulator: PKCE S256 and granular scopes on the
// authorize URL, the person and grant saved, a state that is single-use, expires after ten
// minutes and cannot be finished through the browser flow (and the reverse).
import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { GrantCipher } from '../../../src/core/gitea-oauth/grant-cipher';
import { giteaScopesFor } from '../../../src/core/gitea-oauth/gitea-scopes';
import type { Database } from '../../../src/infra/database/database';
import { PrismaSignInStateStore, sha256Hex } from '../../../src/infra/gitea-oauth/sign-in-state.store';
import { GiteaBrowserSignIn } from '../../../src/modules/gitea-oauth/gitea-sign-in';
import { describeEachDatabase } from '../database/database-targets';
import { grantWorld, newKey, REDIRECT_URI, type GrantWorld } from './grant-helpers';

describeEachDatabase('Gitea sign-in seam', (target) => {
  let db: Database & { dispose(): Promise<void> };
  let world: GrantWorld;
  let clock = 0;
  const key = newKey();
  let signIn: GiteaBrowserSignIn;
  let states: PrismaSignInStateStore;

  beforeAll(async () => {
    db = await target.open();
    await db.migrate();
    world = await grantWorld(db, key);
    states = new PrismaSignInStateStore(db.prisma, new GrantCipher(key), () => Date.now() + clock);
    signIn = new GiteaBrowserSignIn({
      giteaUrl: world.sim.url,
      publicUrl: 'http://127.0.0.1:9',
      clientId: world.clientId,
      clientSecret: world.clientSecret,
      includeAdminScopes: false,
      grants: world.service(),
      endpoint: world.endpoint,
      states,
    });
  }, 60_000);
  afterAll(async () => {
    await world?.close();
    await db?.dispose();
  });

  const newState = (): string => randomBytes(24).toString('base64url');

  async function authorize(url: string, login: string): Promise<URL> {
    world.sim.oauth.autoApproveAs = login;
    try {
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status).toBe(303);
      return new URL(res.headers.get('location')!);
    } finally {
      world.sim.oauth.autoApproveAs = null;
    }
  }

  it('start gives Gitea’s authorize URL with PKCE S256, the caller’s state and explicit scopes; finish saves the person', async () => {
    const seam = signIn.seam();
    const state = newState();
    const { url } = await seam.start({ state, scopes: giteaScopesFor('read'), redirectUri: REDIRECT_URI });
    const u = new URL(url);
    expect(u.origin + u.pathname).toBe(`${world.sim.url}/login/oauth/authorize`);
    expect(u.searchParams.get('state')).toBe(state);
    expect(u.searchParams.get('code_challenge_method')).toBe('S256');
    expect(u.searchParams.get('scope')).toBe(giteaScopesFor('read').join(' '));
    expect(u.searchParams.get('client_id')).toBe(world.clientId);
    // the verifier is stored encrypted, keyed by the state's hash; the state itself is not stored
    const row = await db.prisma.giteaSignInState.findUniqueOrThrow({ where: { id: sha256Hex(state) } });
    expect(JSON.stringify(row)).not.toContain(state);
    expect(row.verifierEnc.startsWith('v1.')).toBe(true);

    const back = await authorize(url, 'alice');
    expect(back.searchParams.get('state')).toBe(state);
    const person = await seam.finish({
      state,
      code: back.searchParams.get('code')!,
      redirectUri: REDIRECT_URI,
    });
    expect(person).toMatchObject({
      login: 'alice',
      isSiteAdmin: false,
      access: 'read',
      giteaGrantId: expect.any(String),
    });
    const store = world.service();
    await expect(store.credentialForGrant(person.giteaGrantId)).resolves.toMatchObject({ login: 'alice' });
    // Gitea holds exactly the scopes asked for: a read-only token is refused on writes
    const credential = await store.credentialForGrant(person.giteaGrantId);
    // The code exchange went through the one Gitea HTTP client (which recorded the token it minted).
    expect(world.minted.has(credential.token)).toBe(true);
    const write = await fetch(`${world.sim.apiUrl}/repos/acme/widgets/issues`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${credential.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'nope' }),
    });
    expect(write.status).toBe(403);
  });

  it('refuses a replayed state, an unknown state and a state older than ten minutes', async () => {
    const seam = signIn.seam();
    const state = newState();
    const { url } = await seam.start({ state, scopes: giteaScopesFor('write'), redirectUri: REDIRECT_URI });
    const back = await authorize(url, 'bob');
    const code = back.searchParams.get('code')!;
    await expect(seam.finish({ state: newState(), code, redirectUri: REDIRECT_URI })).rejects.toThrow(
      /unknown or was already used/,
    );
    const person = await seam.finish({ state, code, redirectUri: REDIRECT_URI });
    expect(person.access).toBe('write');
    await expect(seam.finish({ state, code, redirectUri: REDIRECT_URI })).rejects.toThrow(/already used/);

    const late = newState();
    const started = await seam.start({
      state: late,
      scopes: giteaScopesFor('read'),
      redirectUri: REDIRECT_URI,
    });
    const lateBack = await authorize(started.url, 'bob');
    clock += 10 * 60_000 + 1;
    try {
      await expect(
        seam.finish({ state: late, code: lateBack.searchParams.get('code')!, redirectUri: REDIRECT_URI }),
      ).rejects.toThrow(/longer than ten minutes/);
    } finally {
      clock = 0;
    }
  });

  it('an external state cannot be taken by the browser flow, nor a browser state by the seam', async () => {
    const state = newState();
    await signIn.seam().start({ state, scopes: giteaScopesFor('read'), redirectUri: REDIRECT_URI });
    await expect(states.take(sha256Hex('any-cookie-value'), state)).resolves.toEqual({
      refusal: 'foreign_browser',
    });

    const browserHandle = await new Promise<string>((resolve, reject) =>
      states.store(
        {} as Request,
        'verifier-'.padEnd(43, 'x'),
        { purpose: 'connect', access: 'read', context: {}, browserHash: sha256Hex('cookie') },
        null,
        (err, handle) => (err ? reject(err) : resolve(handle!)),
      ),
    );
    await expect(states.take('external', browserHandle)).resolves.toEqual({ refusal: 'foreign_browser' });
  });

  it('purges expired states', async () => {
    await signIn
      .seam()
      .start({ state: newState(), scopes: giteaScopesFor('read'), redirectUri: REDIRECT_URI });
    clock += 11 * 60_000;
    try {
      expect(await states.purgeExpired()).toBeGreaterThanOrEqual(1);
      expect(
        await db.prisma.giteaSignInState.count({
          where: { expiresAt: { lt: new Date(Date.now() + clock) } },
        }),
      ).toBe(0);
    } finally {
      clock = 0;
    }
  });
});
