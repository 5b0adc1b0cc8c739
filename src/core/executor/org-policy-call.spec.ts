// Issue 14 points 2, 3 and 5 in the call path: the org of a generated tool, of the raw tool's
// matched route and of the discovery call tool; each refusal kind naming the org and the rule, with
// exactly one audit record; quotas counted per person; the discovery meta-tools flag what an
// org's policy disables.
import type { CallIdentity } from '../ports';
import { defaultOrgPolicy, type OrgPolicy } from '../policy/org-policy';
import { OrgPolicyProvider } from '../policy/org-policy-provider';
import { MemoryQuotaCounter } from '../policy/quota';
import { secretsScrubber, testToolService, tokenCaller } from '../testing/tool-service-fixture';

const identity = tokenCaller();

function setup(policies: Record<string, Partial<OrgPolicy>>, now = () => 30_000) {
  const stored = new Map(
    Object.entries(policies).map(([org, p]) => [org, { ...defaultOrgPolicy(org), ...p }]),
  );
  const floor = { disabledTools: ['admin*'], toolsets: [], readOnly: false, detectionMode: 'mask' as const };
  const { service, audits, sent } = testToolService({
    tools: { disabledTools: ['admin*'], maxResponseChars: 50_000, maxBinaryBytes: 100_000 },
    reply: () => ({ json: { id: 1 } }),
    deps: {
      policy: new OrgPolicyProvider(floor, { get: async (org) => stored.get(org) ?? null }),
      clock: { now },
      scrubber: secretsScrubber,
      quotas: new MemoryQuotaCounter(now),
    },
  });
  return { service, audits, sent };
}

const error = (result: { content: Array<{ text: string }> }) =>
  JSON.parse(result.content[0]!.text).error as {
    kind: string;
    message: string;
    details: { org: string; rule: { source: string; name: string } };
  };

describe('org policy in the call path', () => {
  const policies = {
    acme: { disabledTools: ['issueCreate*'], readOnly: false },
    beta: { readOnly: true, allowedRepos: ['app'] },
  };
  const newIssue = { title: 'x' };

  it.each([
    [
      'generated tool',
      'issueCreateIssue',
      { owner: 'acme', repo: 'widgets', body: newIssue },
      'tool_disabled',
      'acme',
      'disabled_tools',
    ],
    [
      'raw tool (org from the matched route)',
      'gitea_api_request',
      { method: 'POST', path: '/repos/acme/widgets/issues', body: newIssue },
      'tool_disabled',
      'acme',
      'disabled_tools',
    ],
    [
      'discovery call tool',
      'gitea_call_tool',
      { name: 'issueCreateIssue', arguments: { owner: 'ACME', repo: 'widgets', body: newIssue } },
      'tool_disabled',
      'ACME',
      'disabled_tools',
    ],
    [
      'read-only org',
      'issueCreateIssue',
      { owner: 'beta', repo: 'app', body: newIssue },
      'read_only',
      'beta',
      'read_only',
    ],
    ['allow-list', 'repoGet', { owner: 'beta', repo: 'other' }, 'repo_not_allowed', 'beta', 'allowed_repos'],
    [
      'raw tool to a repository off the allow-list',
      'gitea_api_request',
      { method: 'GET', path: '/repos/beta/other' },
      'repo_not_allowed',
      'beta',
      'allowed_repos',
    ],
    ['global floor inside an org', 'adminSearchUsers', {}, 'tool_disabled', null, 'DISABLED_TOOLS'],
  ])(
    '%s: %s refused as %s naming the org and the rule, one audit record',
    async (_n, tool, args, kind, org, rule) => {
      const t = setup(policies);
      const result = await t.service.callTool(tool, args, identity);
      expect(result.isError).toBe(true);
      const e = error(result);
      expect(e.kind).toBe(kind);
      expect(e.details.rule.name).toBe(rule);
      if (org) expect(e.message).toContain(`organization ${org}`);
      expect(t.sent).toEqual([]);
      expect(t.audits).toHaveLength(1);
      expect(t.audits[0]).toMatchObject({ kind, org });
    },
  );

  it.each([
    ['acme reads', 'issueListIssues', { owner: 'acme', repo: 'widgets' }],
    ['beta reads an allowed repository', 'repoGet', { owner: 'beta', repo: 'app' }],
    [
      'a user-owned repository ignores org rules',
      'issueCreateIssue',
      { owner: 'bob', repo: 'sandbox', body: newIssue },
    ],
  ])('%s: allowed', async (_n, tool, args) => {
    const t = setup(policies);
    const result = await t.service.callTool(tool, args, identity);
    expect(result.isError).toBe(false);
    expect(t.sent).toHaveLength(1);
  });

  it('counts quotas per person within the org and answers the refusal at the HTTP level (429)', async () => {
    const t = setup({ acme: { quotas: { toolCallsPerMinute: 2, writeCallsPerHour: null } } });
    const call = (who: CallIdentity) =>
      t.service.execute('issueListIssues', { owner: 'acme', repo: 'widgets' }, who);
    expect((await call(identity)).kind).toBe('ok');
    expect((await call(identity)).kind).toBe('ok');
    const refused = await call(identity);
    expect(refused.kind).toBe('rate_limited');
    expect(refused.org).toBe('acme');
    expect(refused.reply).toMatchObject({ as: 'http', httpStatus: 429, retryAfterSeconds: 30 });
    if (refused.reply.as === 'http')
      expect(refused.reply.message).toContain('tool_calls_per_minute of organization acme');
    expect(JSON.parse(refused.text).error.details).toMatchObject({
      quota: 'tool_calls_per_minute',
      limit: 2,
    });
    // The HTTP refusal carries the same details itself: the MCP layer never parses the text back.
    expect(refused.reply).toMatchObject({ details: JSON.parse(refused.text).error.details });
    // another person, and another org, are not affected
    expect((await call({ ...identity, login: 'bob' })).kind).toBe('ok');
    expect((await t.service.execute('repoGet', { owner: 'other', repo: 'x' }, identity)).kind).toBe('ok');
    expect(t.sent).toHaveLength(4);
  });

  it('search flags tools an org disables; describe says why; both leave other orgs alone', async () => {
    const t = setup(policies);
    const search = async (org?: string) =>
      JSON.parse(
        (
          await t.service.callTool(
            'gitea_search_tools',
            { query: 'create an issue', limit: 5, ...(org ? { org } : {}) },
            identity,
          )
        ).content[0]!.text,
      ) as { results: Array<{ name: string; disabled_for_org?: { kind: string; reason: string } }> };
    const acme = await search('acme');
    const create = acme.results.find((r) => r.name === 'issueCreateIssue');
    expect(create?.disabled_for_org).toMatchObject({ kind: 'tool_disabled' });
    expect(create!.disabled_for_org!.reason).toContain('organization acme');
    expect(
      (await search('other')).results.find((r) => r.name === 'issueCreateIssue')?.disabled_for_org,
    ).toBeUndefined();
    expect(
      (await search()).results.find((r) => r.name === 'issueCreateIssue')?.disabled_for_org,
    ).toBeUndefined();

    const describe = async (org: string) =>
      JSON.parse(
        (await t.service.callTool('gitea_describe_tool', { name: 'issueCreateIssue', org }, identity))
          .content[0]!.text,
      ).policy as { allowed: boolean; kind?: string; reason?: string };
    expect(await describe('beta')).toMatchObject({ allowed: false, kind: 'read_only' });
    expect((await describe('beta')).reason).toContain('read-only');
    expect(await describe('other')).toMatchObject({ allowed: true });
  });

  it('tools/list stays the catalogue (policy applies per call)', () => {
    const t = setup(policies);
    expect(t.service.listTools().some((tool) => tool.name === 'issueCreateIssue')).toBe(true);
  });
});
