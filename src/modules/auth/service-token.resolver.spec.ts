import { ServiceTokenIdentityResolver } from './service-token.resolver';

describe('ServiceTokenIdentityResolver', () => {
  const make = (lookups: Array<'admin' | 'refused'>) => {
    let calls = 0;
    let now = 0;
    const resolver = new ServiceTokenIdentityResolver({
      bearerToken: 'the-bearer',
      giteaToken: 'gitea-token',
      resourceMetadataUrl: null,
      lookupUser: async () => {
        const next = lookups[Math.min(calls, lookups.length - 1)];
        calls += 1;
        return next === 'admin'
          ? { ok: true, user: { login: 'svc', isSiteAdmin: true } }
          : { ok: false, unauthorized: true, message: 'no' };
      },
      now: () => now,
      warn: () => undefined,
      recheckIntervalMs: 1000,
    });
    return { resolver, calls: () => calls, advance: (ms: number) => (now += ms) };
  };

  it('maps the bearer token to the service identity and refuses others with 401', async () => {
    const { resolver } = make(['admin']);
    await resolver.init();
    const ok = await resolver.authenticate('Bearer the-bearer');
    expect(ok).toEqual({
      ok: true,
      identity: expect.objectContaining({
        login: 'svc',
        mode: 'token',
        sudo: null,
        isSiteAdmin: true,
        subject: 'token:svc',
        token: 'gitea-token',
      }),
    });
    for (const header of [undefined, 'Bearer wrong', 'Basic the-bearer', 'Bearer the-bearer2']) {
      const refused = await resolver.authenticate(header);
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.status).toBe(401);
    }
    // A Bearer header that cannot carry a token is malformed: 400 invalid_request (RFC 6750 3.1).
    for (const header of ['Bearer', 'Bearer ', 'Bearer the-bearer extra', 'Bearer \u00e9']) {
      const malformed = await resolver.authenticate(header);
      expect(malformed).toMatchObject({ ok: false, status: 400, error: 'invalid_request' });
    }
    expect(await resolver.authenticate('Basic the-bearer')).toMatchObject({ status: 401, error: null });
  });

  it('re-checks the account when Gitea answers 401 and then refuses with 503', async () => {
    const { resolver, advance } = make(['admin', 'refused']);
    await resolver.init();
    const first = await resolver.authenticate('Bearer the-bearer');
    if (!first.ok) throw new Error('expected ok');
    advance(2000);
    resolver.upstreamUnauthorized(first.identity);
    await new Promise((r) => setImmediate(r));
    const after = await resolver.authenticate('Bearer the-bearer');
    expect(after).toMatchObject({ ok: false, status: 503 });
  });

  it('builds an RFC 6750 challenge', () => {
    const { resolver } = make(['admin']);
    expect(resolver.challenge({ ok: false, status: 401, error: 'invalid_token', message: '' })).toBe(
      'Bearer realm="aegis-gitea-mcp", error="invalid_token"',
    );
  });
});
