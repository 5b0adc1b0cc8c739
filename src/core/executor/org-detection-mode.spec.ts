// Issue 5 point 3: the secret detection mode of a call is its org's (PolicyProvider.forOrg) when the
// org has a policy, else the global setting; exercised with the real secrets module.
import type { EffectivePolicy, GiteaRequest, PolicyProvider } from '../ports';
import { secretsScrubber, testToolService, tokenCaller } from '../testing/tool-service-fixture';

const SECRET = 'ghp_' + 'aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5';
const identity = tokenCaller();

/** Org policies for acme (block) and other (off); any other owner (a user) has none. */
class OrgPolicies implements PolicyProvider {
  readonly asked: Array<string | null> = [];
  private readonly orgs: Record<string, EffectivePolicy['detectionMode']> = { acme: 'block', other: 'off' };

  async forOrg(org: string | null): Promise<EffectivePolicy> {
    this.asked.push(org);
    const own = org !== null ? this.orgs[org] : undefined;
    return { org: own ? org : null, disabledTools: [], detectionMode: own ?? 'mask' };
  }
}

function setup(reply: (req: GiteaRequest) => { status: number; json: unknown }) {
  const policy = new OrgPolicies();
  const { service, audits } = testToolService({
    tools: { maxResponseChars: 50_000, maxBinaryBytes: 100_000 },
    reply,
    deps: { policy, clock: { now: () => 0 }, scrubber: secretsScrubber },
  });
  return { service, audits, policy };
}

describe('secret detection mode per organisation', () => {
  const issue = { id: 1, title: 'ci broken', body: `the deploy uses ${SECRET} since monday` };

  it.each([
    ['issueGetIssue', { owner: 'acme', repo: 'app', index: 1 }],
    ['gitea_api_request', { method: 'GET', path: '/repos/acme/app/issues/1' }],
  ])(
    'blocks for acme, leaves alone for other, masks (global) for a user-owned repo: %s',
    async (tool, acmeArgs) => {
      const t = setup(() => ({ status: 200, json: issue }));
      const asOwner = (owner: string): Record<string, unknown> =>
        tool === 'gitea_api_request'
          ? { method: 'GET', path: `/repos/${owner}/app/issues/1` }
          : { ...acmeArgs, owner };

      const acme = await t.service.callTool(tool, asOwner('acme'), identity);
      expect(acme.isError).toBe(true);
      const acmeError = JSON.parse(acme.content[0]!.text).error;
      expect(acmeError.kind).toBe('secret_blocked');
      expect(acmeError.message).toContain('github');
      expect(acme.content[0]!.text).not.toContain(SECRET);

      const other = await t.service.callTool(tool, asOwner('other'), identity);
      expect(other.isError).toBe(false);
      expect(JSON.parse(other.content[0]!.text).data.body).toContain(SECRET);

      const user = await t.service.callTool(tool, asOwner('alice'), identity);
      expect(user.isError).toBe(false);
      const masked = JSON.parse(user.content[0]!.text).data.body as string;
      expect(masked).not.toContain(SECRET);
      expect(masked).toMatch(/^the deploy uses .*ghp_.* since monday$/);

      expect(t.policy.asked).toEqual(['acme', 'other', 'alice']);
      expect(t.audits.map((a) => [a.org, a.kind, a.blocked, a.masks > 0 && !a.blocked])).toEqual([
        ['acme', 'secret_blocked', true, false],
        ['other', null, false, false],
        ['alice', null, false, true],
      ]);
    },
  );

  it('takes the org of a raw call from its path, never from a query parameter of the same name', async () => {
    const t = setup(() => ({ status: 200, json: issue }));
    const r = await t.service.callTool(
      'gitea_api_request',
      { method: 'GET', path: '/repos/acme/app/issues/1', query: { owner: 'other', repo: 'x' } },
      identity,
    );
    expect(r.content[0]!.text).not.toContain(SECRET);
    expect(t.policy.asked).toEqual(['acme']);
    expect(t.audits[0]).toMatchObject({ org: 'acme', repo: 'app' });
  });

  it('applies the org mode to Gitea error messages too', async () => {
    const t = setup(() => ({ status: 422, json: { message: `the key ${SECRET} is not valid here` } }));
    const acme = await t.service.callTool(
      'issueGetIssue',
      { owner: 'acme', repo: 'app', index: 1 },
      identity,
    );
    expect(JSON.parse(acme.content[0]!.text).error.kind).toBe('secret_blocked');
    const other = await t.service.callTool(
      'issueGetIssue',
      { owner: 'other', repo: 'app', index: 1 },
      identity,
    );
    expect(JSON.parse(other.content[0]!.text).error.message).toContain(SECRET);
    const user = await t.service.callTool(
      'issueGetIssue',
      { owner: 'alice', repo: 'app', index: 1 },
      identity,
    );
    const error = JSON.parse(user.content[0]!.text).error;
    expect(error.kind).toBe('validation_failed');
    expect(error.message).not.toContain(SECRET);
  });
});
