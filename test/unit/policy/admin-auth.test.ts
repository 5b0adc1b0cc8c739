// Issue 14 point 4: who reaches /api/admin. ADMIN_TOKEN is a site admin (and does not exist when
// unset); a person's OAuth access token (mode "oauth" from the /mcp resolver) is that person; the
// service bearer is no admin credential; org ownership is asked of Gitea as the person and cached.
import { GiteaHttpClient } from '../../../src/infra/gitea/gitea-http-client';
import {
  AdminAuthRegistry,
  AdminTokenAuthenticator,
  OAuthAdminAuthenticator,
  OrgOwnership,
  type AdminPrincipal,
  type BearerIdentityResolver,
} from '../../../src/modules/policy/admin-auth';

const view = (authorization?: string) => ({ method: 'GET', headers: { authorization } });

const resolver: BearerIdentityResolver = {
  authenticate: async (header) => {
    if (header === 'Bearer person-token')
      return {
        ok: true,
        identity: { login: 'alice', isSiteAdmin: false, mode: 'oauth', token: 'gitea-alice' },
      };
    if (header === 'Bearer person-read' || header === 'Bearer person-write')
      return {
        ok: true,
        identity: {
          login: 'alice',
          isSiteAdmin: false,
          mode: 'oauth',
          token: 'gitea-alice',
          scopes: header.endsWith('write') ? ['gitea:read', 'gitea:write'] : ['gitea:read'],
        },
      };
    if (header === 'Bearer mcp-service-bearer')
      return { ok: true, identity: { login: 'svc', isSiteAdmin: true, mode: 'token', token: 'gitea-svc' } };
    if (header === 'Bearer busy') return { ok: false, status: 503, message: 'Gitea is unreachable' };
    return { ok: false, status: 401, message: 'invalid token' };
  },
};

function registry(adminToken: string | null): AdminAuthRegistry {
  const r = new AdminAuthRegistry();
  if (adminToken) r.register('admin_token', new AdminTokenAuthenticator(adminToken));
  r.register(
    'oauth',
    new OAuthAdminAuthenticator(resolver, new GiteaHttpClient({ baseUrl: 'http://gitea.invalid' }), 1000),
  );
  return r;
}

describe('admin authentication', () => {
  it.each([
    [
      'ADMIN_TOKEN',
      'Bearer the-admin-token',
      { ok: true, login: 'admin-token', site: true, via: 'admin_token' },
    ],
    [
      "a person's OAuth token",
      'Bearer person-token',
      { ok: true, login: 'alice', site: false, via: 'oauth' },
    ],
    ['the MCP service bearer', 'Bearer mcp-service-bearer', { ok: false, status: 401 }],
    ['a wrong token', 'Bearer nope', { ok: false, status: 401 }],
    ['no header', undefined, { ok: false, status: 401 }],
    ['Gitea down while resolving a person', 'Bearer busy', { ok: false, status: 503 }],
  ])('%s', async (_name, header, expectedRow) => {
    const expected = expectedRow as {
      ok: boolean;
      login?: string;
      site?: boolean;
      via?: string;
      status?: number;
    };
    const outcome = await registry('the-admin-token').authenticate(view(header));
    if (expected.ok) {
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      expect([outcome.principal.login, outcome.principal.isSiteAdmin, outcome.principal.via]).toEqual([
        expected.login,
        expected.site,
        expected.via,
      ]);
    } else expect(outcome).toMatchObject({ ok: false, status: expected.status });
  });

  it('lets a read-only OAuth token read, and refuses it any change (403 insufficient_scope)', async () => {
    const r = registry(null);
    const as = (method: string, header: string) =>
      r.authenticate({ method, headers: { authorization: header } });
    expect((await as('GET', 'Bearer person-read')).ok).toBe(true);
    for (const method of ['PUT', 'POST', 'PATCH', 'DELETE'])
      expect(await as(method, 'Bearer person-read')).toMatchObject({
        ok: false,
        status: 403,
        message: expect.stringMatching(/insufficient_scope.*gitea:write/),
      });
    expect((await as('PUT', 'Bearer person-write')).ok).toBe(true);
    // A simulation changes nothing: a read-only token may ask for one.
    const simulate = {
      method: 'POST',
      path: '/api/admin/policy/simulate',
      headers: { authorization: 'Bearer person-read' },
    };
    expect((await r.authenticate(simulate)).ok).toBe(true);
    // An OAuth identity that carries no scopes at all is no read-write grant either.
    expect(await as('PUT', 'Bearer person-token')).toMatchObject({ ok: false, status: 403 });
  });

  it('has no ADMIN_TOKEN when it is unset', async () => {
    expect((await registry(null).authenticate(view('Bearer the-admin-token'))).ok).toBe(false);
  });

  it('asks Gitea as the person whether they own the org, and caches the answer briefly', async () => {
    let now = 0;
    const asked: string[] = [];
    const ownership = new OrgOwnership(30_000, () => now);
    const alice: AdminPrincipal = {
      login: 'alice',
      isSiteAdmin: false,
      via: 'oauth',
      gitea: async (path) => {
        asked.push(path);
        return { status: 200, body: { is_owner: path.includes('/orgs/acme/') } };
      },
    };
    expect(await ownership.canManage(alice, 'acme')).toEqual({ ok: true, role: 'org_owner' });
    expect(await ownership.canManage(alice, 'beta')).toMatchObject({ ok: false, status: 403 });
    expect(await ownership.canManage(alice, 'acme')).toMatchObject({ ok: true });
    expect(asked).toEqual(['/users/alice/orgs/acme/permissions', '/users/alice/orgs/beta/permissions']);
    now = 30_001;
    await ownership.canManage(alice, 'acme');
    expect(asked).toHaveLength(3);
    const admin = { ...alice, isSiteAdmin: true, gitea: null };
    expect(await ownership.canManage(admin, 'anything')).toEqual({ ok: true, role: 'site_admin' });
    const down = { ...alice, login: 'bob', gitea: async () => ({ status: 502, body: null }) };
    expect(await ownership.canManage(down, 'acme')).toMatchObject({ ok: false, status: 503 });
  });
});
