// Issue 14, Show: resolution of the effective policy and the decision for one call, table-driven:
// the global floor, org rules, globs, detection modes, read-only, the repository allow-list, quotas.
import type { SecretDetectionMode } from '../secrets/detection-mode';
import {
  applyPolicyPatch,
  decideCall,
  defaultOrgPolicy,
  resolveEffectivePolicy,
  strongerMode,
  type CallOperation,
  type GlobalFloor,
  type OrgPolicy,
} from './org-policy';
import { MemoryQuotaCounter, peekQuotas, quotaKey, takeQuotas, windowOf } from './quota';

const floor = (over: Partial<GlobalFloor> = {}): GlobalFloor => ({
  disabledTools: [],
  toolsets: [],
  readOnly: false,
  detectionMode: 'mask',
  ...over,
});

const org = (over: Partial<OrgPolicy> = {}): OrgPolicy => ({
  ...defaultOrgPolicy('acme'),
  version: 1,
  ...over,
});

const op = (
  operationId: string,
  method = 'GET',
  tags = ['repository'],
  route = `/test/${operationId}`,
): CallOperation => ({
  operationId,
  method,
  route,
  tags,
});

const GET_ISSUE = op('issueGetIssue', 'GET', ['issue']);
const CREATE_ISSUE = op('issueCreateIssue', 'POST', ['issue']);
const DELETE_REPO = op('repoDelete', 'DELETE');
const ADMIN_USERS = op('adminSearchUsers', 'GET', ['admin']);

type Row = {
  name: string;
  floor: GlobalFloor;
  org: OrgPolicy | null;
  op: CallOperation;
  target: { org: string | null; repo: string | null };
  expected:
    | { allowed: true; mode?: SecretDetectionMode }
    | { kind: string; source: string; rule: string; value?: unknown };
};

const acme = { org: 'acme', repo: 'widgets' };
const user = { org: null, repo: 'notes' };

const rows: Row[] = [
  // the floor
  {
    name: 'nothing set: allowed',
    floor: floor(),
    org: null,
    op: GET_ISSUE,
    target: acme,
    expected: { allowed: true, mode: 'mask' },
  },
  {
    name: 'global DISABLED_TOOLS refuses in every org',
    floor: floor({ disabledTools: ['repoDelete'] }),
    org: org(),
    op: DELETE_REPO,
    target: acme,
    expected: { kind: 'tool_disabled', source: 'global', rule: 'DISABLED_TOOLS', value: 'repoDelete' },
  },
  {
    name: 'global glob refuses and an org cannot lift it',
    floor: floor({ disabledTools: ['admin*'] }),
    org: org({ disabledTools: [] }),
    op: ADMIN_USERS,
    target: { org: null, repo: null },
    expected: { kind: 'tool_disabled', source: 'global', rule: 'DISABLED_TOOLS', value: 'admin*' },
  },
  {
    name: 'global TOOLSETS refuses other toolsets',
    floor: floor({ toolsets: ['repository'] }),
    org: org(),
    op: GET_ISSUE,
    target: acme,
    expected: { kind: 'tool_disabled', source: 'global', rule: 'TOOLSETS' },
  },
  {
    name: 'global READ_ONLY wins over an org that is not read-only',
    floor: floor({ readOnly: true }),
    org: org({ readOnly: false }),
    op: CREATE_ISSUE,
    target: acme,
    expected: { kind: 'read_only', source: 'global', rule: 'READ_ONLY' },
  },
  // org rules and globs
  {
    name: 'org disables a tool by name',
    floor: floor(),
    org: org({ disabledTools: ['issueCreateIssue'] }),
    op: CREATE_ISSUE,
    target: acme,
    expected: { kind: 'tool_disabled', source: 'org', rule: 'disabled_tools', value: 'issueCreateIssue' },
  },
  {
    name: 'org glob (case-insensitive) disables a family',
    floor: floor(),
    org: org({ disabledTools: ['ISSUE*'] }),
    op: GET_ISSUE,
    target: acme,
    expected: { kind: 'tool_disabled', source: 'org', rule: 'disabled_tools', value: 'ISSUE*' },
  },
  {
    name: '? matches exactly one character',
    floor: floor(),
    org: org({ disabledTools: ['repoDelet?'] }),
    op: DELETE_REPO,
    target: acme,
    expected: { kind: 'tool_disabled', source: 'org', rule: 'disabled_tools', value: 'repoDelet?' },
  },
  {
    name: 'a glob that does not match leaves the tool alone',
    floor: floor(),
    org: org({ disabledTools: ['repo*'] }),
    op: GET_ISSUE,
    target: acme,
    expected: { allowed: true },
  },
  {
    name: "an org's rules do not apply to a user-owned repository (global only)",
    floor: floor(),
    org: org({ disabledTools: ['issue*'], readOnly: true }),
    op: CREATE_ISSUE,
    target: user,
    expected: { allowed: true },
  },
  // read-only
  {
    name: 'org read-only refuses a write',
    floor: floor(),
    org: org({ readOnly: true }),
    op: CREATE_ISSUE,
    target: acme,
    expected: { kind: 'read_only', source: 'org', rule: 'read_only', value: true },
  },
  {
    name: 'org read-only lets a read through',
    floor: floor(),
    org: org({ readOnly: true }),
    op: GET_ISSUE,
    target: acme,
    expected: { allowed: true },
  },
  // allow-list
  {
    name: 'allow-list refuses another repository',
    floor: floor(),
    org: org({ allowedRepos: ['internal'] }),
    op: GET_ISSUE,
    target: acme,
    expected: { kind: 'repo_not_allowed', source: 'org', rule: 'allowed_repos', value: ['internal'] },
  },
  {
    name: 'allow-list lets a listed repository through',
    floor: floor(),
    org: org({ allowedRepos: ['widgets'] }),
    op: GET_ISSUE,
    target: acme,
    expected: { allowed: true },
  },
  {
    name: 'allow-list takes globs',
    floor: floor(),
    org: org({ allowedRepos: ['wid*'] }),
    op: GET_ISSUE,
    target: acme,
    expected: { allowed: true },
  },
  {
    name: 'allow-list does not refuse org-level operations (no repository)',
    floor: floor(),
    org: org({ allowedRepos: [] }),
    op: op('orgListMembers', 'GET', ['organization']),
    target: { org: 'acme', repo: null },
    expected: { allowed: true },
  },
  {
    name: 'an empty allow-list refuses every repository',
    floor: floor(),
    org: org({ allowedRepos: [] }),
    op: GET_ISSUE,
    target: acme,
    expected: { kind: 'repo_not_allowed', source: 'org', rule: 'allowed_repos', value: [] },
  },
  // order of checks: the floor before the org
  {
    name: 'a tool disabled both globally and by the org names the global rule',
    floor: floor({ disabledTools: ['repoDelete'] }),
    org: org({ disabledTools: ['repo*'] }),
    op: DELETE_REPO,
    target: acme,
    expected: { kind: 'tool_disabled', source: 'global', rule: 'DISABLED_TOOLS', value: 'repoDelete' },
  },
  {
    name: 'disabled beats read-only beats allow-list',
    floor: floor(),
    org: org({ disabledTools: ['issueCreateIssue'], readOnly: true, allowedRepos: [] }),
    op: CREATE_ISSUE,
    target: acme,
    expected: { kind: 'tool_disabled', source: 'org', rule: 'disabled_tools', value: 'issueCreateIssue' },
  },
];

describe('decideCall', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => {
    const effective = resolveEffectivePolicy(row.floor, row.target.org, row.target.org ? row.org : null);
    const decision = decideCall(row.op, row.target, row.floor, effective);
    if ('allowed' in row.expected) {
      expect(decision).toMatchObject({ allowed: true });
      if (row.expected.mode && decision.allowed) expect(decision.detectionMode).toBe(row.expected.mode);
      return;
    }
    expect(decision.allowed).toBe(false);
    if (decision.allowed) return;
    expect(decision.kind).toBe(row.expected.kind);
    expect(decision.rule.source).toBe(row.expected.source);
    expect(decision.rule.name).toBe(row.expected.rule);
    if ('value' in row.expected) expect(decision.rule.value).toEqual(row.expected.value);
    if (row.expected.source === 'org') expect(decision.message).toContain('organization acme');
  });
});

describe('secret detection mode: off < mask < block, the global mode is the floor', () => {
  const modes: SecretDetectionMode[] = ['off', 'mask', 'block'];
  const table: Array<
    [SecretDetectionMode, SecretDetectionMode | null, SecretDetectionMode, 'global' | 'org']
  > = [];
  for (const g of modes) {
    table.push([g, null, g, 'global']);
    for (const o of modes) {
      const rank = { off: 0, mask: 1, block: 2 };
      const eff = rank[o] > rank[g] ? o : g;
      table.push([g, o, eff, rank[o] > rank[g] ? 'org' : 'global']);
    }
  }

  it.each(table)('global %s, org %s -> %s (%s)', (global, own, expected, source) => {
    const effective = resolveEffectivePolicy(
      floor({ detectionMode: global }),
      'acme',
      org({ secretDetectionMode: own }),
    );
    expect(effective.detectionMode).toBe(expected);
    expect(effective.detectionModeSource).toBe(source);
    const decision = decideCall(GET_ISSUE, acme, floor({ detectionMode: global }), effective);
    expect(decision).toMatchObject({ allowed: true, detectionMode: expected });
  });

  it('a global block cannot be weakened by an org', () => {
    for (const own of ['off', 'mask'] as const)
      expect(
        resolveEffectivePolicy(floor({ detectionMode: 'block' }), 'acme', org({ secretDetectionMode: own }))
          .detectionMode,
      ).toBe('block');
  });

  it('user-owned repositories get the global mode', () => {
    expect(
      resolveEffectivePolicy(floor({ detectionMode: 'off' }), null, org({ secretDetectionMode: 'block' }))
        .detectionMode,
    ).toBe('off');
  });

  it('strongerMode is symmetric', () => {
    for (const a of modes) for (const b of modes) expect(strongerMode(a, b)).toBe(strongerMode(b, a));
  });
});

describe('quotas', () => {
  const quotaPolicy = org({ quotas: { toolCallsPerMinute: 3, writeCallsPerHour: 1 } });

  it.each([
    ['a read counts against calls per minute only', GET_ISSUE, ['tool_calls_per_minute']],
    ['a write counts against both', CREATE_ISSUE, ['tool_calls_per_minute', 'write_calls_per_hour']],
  ])('%s', (_name, operation, expected) => {
    const d = decideCall(operation, acme, floor(), resolveEffectivePolicy(floor(), 'acme', quotaPolicy));
    expect(d.allowed && d.quotas.map((q) => q.name)).toEqual(expected);
  });

  it('no quotas for user-owned repositories or orgs without them', () => {
    const none = decideCall(CREATE_ISSUE, user, floor(), resolveEffectivePolicy(floor(), null, null));
    expect(none.allowed && none.quotas).toEqual([]);
    const plain = decideCall(CREATE_ISSUE, acme, floor(), resolveEffectivePolicy(floor(), 'acme', org()));
    expect(plain.allowed && plain.quotas).toEqual([]);
  });

  it('refuses the call over the limit, per person, naming the quota and when it resets', async () => {
    const counter = new MemoryQuotaCounter();
    const d = decideCall(GET_ISSUE, acme, floor(), resolveEffectivePolicy(floor(), 'acme', quotaPolicy));
    if (!d.allowed) throw new Error('expected allowed');
    const now = 10 * 60_000 + 15_000; // 15 s into a minute
    for (let i = 0; i < 3; i += 1)
      expect(await takeQuotas(counter, d.quotas, 'acme', 'alice', now)).toBeNull();
    const refusal = await takeQuotas(counter, d.quotas, 'acme', 'alice', now);
    expect(refusal).toMatchObject({
      kind: 'rate_limited',
      quota: 'tool_calls_per_minute',
      limit: 3,
      retryAfterSeconds: 45,
    });
    expect(refusal!.message).toContain('tool_calls_per_minute of organization acme');
    expect(refusal!.message).toContain(new Date(11 * 60_000).toISOString());
    // another person in the same org has their own count; the next window starts over
    expect(await takeQuotas(counter, d.quotas, 'acme', 'bob', now)).toBeNull();
    expect(await takeQuotas(counter, d.quotas, 'acme', 'alice', 11 * 60_000)).toBeNull();
  });

  it('write calls per hour hold independently of calls per minute', async () => {
    const counter = new MemoryQuotaCounter();
    const d = decideCall(CREATE_ISSUE, acme, floor(), resolveEffectivePolicy(floor(), 'acme', quotaPolicy));
    if (!d.allowed) throw new Error('expected allowed');
    expect(await takeQuotas(counter, d.quotas, 'acme', 'alice', 0)).toBeNull();
    const refusal = await takeQuotas(counter, d.quotas, 'acme', 'alice', 120_000);
    expect(refusal).toMatchObject({ quota: 'write_calls_per_hour', limit: 1, retryAfterSeconds: 3600 - 120 });
  });

  it('peek tells what the next call would meet without counting', async () => {
    const counter = new MemoryQuotaCounter();
    const rules = [{ name: 'tool_calls_per_minute' as const, limit: 1, windowMs: 60_000 }];
    expect((await peekQuotas(counter, rules, 'acme', 'alice', 0)).refusal).toBeNull();
    expect((await peekQuotas(counter, rules, 'acme', 'alice', 0)).usage[0]!.used).toBe(0);
    await takeQuotas(counter, rules, 'acme', 'alice', 0);
    const after = await peekQuotas(counter, rules, 'acme', 'alice', 0);
    expect(after.usage[0]!.used).toBe(1);
    expect(after.refusal?.quota).toBe('tool_calls_per_minute');
  });

  it('windows are aligned and keys name org, person, quota and window', () => {
    const rule = { name: 'write_calls_per_hour' as const, limit: 1, windowMs: 3_600_000 };
    expect(windowOf(rule, 3_600_000 + 5)).toEqual({ index: 1, resetAt: 7_200_000 });
    expect(quotaKey('Acme', 'Alice', rule, 5)).toBe('acme:alice:write_calls_per_hour:0');
  });
});

describe('applyPolicyPatch', () => {
  it('keeps absent fields, replaces given ones, null clears', () => {
    const current = org({
      disabledTools: ['repoDelete'],
      secretDetectionMode: 'block',
      allowedRepos: ['a'],
      quotas: { toolCallsPerMinute: 5, writeCallsPerHour: 2 },
    });
    expect(applyPolicyPatch(current, { readOnly: true })).toMatchObject({
      disabledTools: ['repoDelete'],
      secretDetectionMode: 'block',
      readOnly: true,
      allowedRepos: ['a'],
      quotas: { toolCallsPerMinute: 5, writeCallsPerHour: 2 },
    });
    expect(
      applyPolicyPatch(current, {
        secretDetectionMode: null,
        allowedRepos: null,
        disabledTools: ['x', 'x', ' '],
        quotas: { writeCallsPerHour: null },
      }),
    ).toMatchObject({
      disabledTools: ['x'],
      secretDetectionMode: null,
      allowedRepos: null,
      quotas: { toolCallsPerMinute: 5, writeCallsPerHour: null },
    });
  });
});
