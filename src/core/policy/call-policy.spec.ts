// core/policy decides every refusal as a pure function; DISABLED_TOOLS reaches the raw tool and the
// discovery meta-tools too (issue 11 finding), in the list and when called.
import type { CallIdentity } from '../ports';
import { testToolService } from '../testing/tool-service-fixture';
import { decideGlobal, decideToolCall, type GlobalRules } from './call-policy';

const open: GlobalRules = { disabledTools: [], toolsets: [], readOnly: false };
const repoDelete = {
  kind: 'operation' as const,
  name: 'repoDelete',
  method: 'DELETE',
  route: '/repos/{owner}/{repo}',
  tags: ['repository'],
};

describe('decideToolCall', () => {
  it('returns the decision and its reason for each input in turn', () => {
    expect(decideToolCall(repoDelete, { global: open })).toEqual({ allowed: true });
    expect(decideToolCall(repoDelete, { global: { ...open, disabledTools: ['repo*'] } })).toMatchObject({
      allowed: false,
      kind: 'tool_disabled',
      source: 'global',
      rule: 'repo*',
    });
    expect(decideToolCall(repoDelete, { global: { ...open, toolsets: ['issue'] } })).toMatchObject({
      source: 'global',
      rule: 'TOOLSETS',
    });
    expect(decideToolCall(repoDelete, { global: { ...open, readOnly: true } })).toMatchObject({
      kind: 'read_only',
      rule: 'READ_ONLY',
    });
    expect(
      decideToolCall(repoDelete, { global: open, org: { org: 'acme', disabledTools: ['repoDelete'] } }),
    ).toMatchObject({
      allowed: false,
      source: 'org',
      message: 'tool repoDelete is disabled for organization acme',
    });
  });

  it('judges the raw tool and the meta-tools by name only (toolsets and read-only are for operations)', () => {
    const raw = { kind: 'raw' as const, name: 'gitea_api_request' };
    expect(decideGlobal(raw, { ...open, readOnly: true, toolsets: ['issue'] })).toEqual({ allowed: true });
    expect(decideGlobal(raw, { ...open, disabledTools: ['gitea_api_request'] })).toMatchObject({
      allowed: false,
    });
    expect(
      decideGlobal({ kind: 'meta', name: 'gitea_search_tools' }, { ...open, disabledTools: ['gitea_*'] }),
    ).toMatchObject({
      allowed: false,
    });
  });
});

describe('DISABLED_TOOLS on the raw tool and the meta-tools', () => {
  const identity: CallIdentity = {
    login: 'a',
    mode: 'token',
    sudo: null,
    token: 'tok-aaaa',
    isSiteAdmin: false,
    subject: 's',
  };
  const make = (mode: 'full' | 'discovery', disabledTools: string[]) => {
    const { service, audits, sent } = testToolService({
      tools: { mode, disabledTools, maxResponseChars: 50_000 },
      reply: () => ({ json: {} }),
      deps: {
        policy: { forOrg: async (org) => ({ org, disabledTools: [], detectionMode: 'mask' }) },
        clock: { now: () => 0 },
      },
    });
    return { service, audits, sent: () => sent.length };
  };

  it('leaves them out of tools/list and refuses their calls with one audit record each', async () => {
    const full = make('full', ['gitea_api_request']);
    expect(full.service.listTools().map((t) => t.name)).not.toContain('gitea_api_request');
    const raw = await full.service.callTool('gitea_api_request', { method: 'GET', path: '/user' }, identity);
    expect(JSON.parse(raw.content[0]!.text).error.kind).toBe('tool_disabled');
    expect(full.sent()).toBe(0);

    const discovery = make('discovery', ['gitea_search_tools', 'gitea_call_tool']);
    expect(discovery.service.listTools().map((t) => t.name)).toEqual([
      'gitea_describe_tool',
      'gitea_api_request',
    ]);
    for (const [name, args] of [
      ['gitea_search_tools', { query: 'issues' }],
      ['gitea_call_tool', { name: 'userGetCurrent', arguments: {} }],
    ] as const) {
      const r = await discovery.service.callTool(name, args, identity);
      expect(JSON.parse(r.content[0]!.text).error.kind).toBe('tool_disabled');
    }
    expect(discovery.sent()).toBe(0);
    expect(discovery.audits.map((a) => a.kind)).toEqual(['tool_disabled', 'tool_disabled']);
  });
});
