// core/policy decides every refusal as a pure function; DISABLED_TOOLS reaches the raw tool and the
// discovery meta-tools too (issue 11 finding), in the list and when called.
import type { AuditEntry, CallIdentity } from '../ports';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSpec } from '../catalogue/spec-loader';
import { buildCatalogue } from '../catalogue/tool-catalogue';
import { createToolService } from '../executor/tool-executor';
import { passThroughScrubber } from '../executor/pass-through-scrubber';
import { decideGlobal, decideToolCall, type GlobalRules } from './call-policy';

// The bundled swagger, read here: the core itself does no file I/O (src/infra/gitea/spec-source.ts).
const loadBundledSpec = () =>
  parseSpec(readFileSync(join(__dirname, '../../../gitea/swagger.v1.json'), 'utf8'), 'bundled spec');

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
  const catalogue = buildCatalogue(loadBundledSpec(), { maxBinaryBytes: 1000 });
  const identity: CallIdentity = {
    login: 'a',
    mode: 'token',
    sudo: null,
    token: 'tok-aaaa',
    isSiteAdmin: false,
    subject: 's',
  };
  const make = (mode: 'full' | 'discovery', disabledTools: string[]) => {
    const audits: AuditEntry[] = [];
    let sent = 0;
    const service = createToolService(
      catalogue,
      {
        tools: {
          specSource: 'bundled',
          toolsets: [],
          mode,
          readOnly: false,
          disabledTools,
          allowSudo: false,
          maxResponseItems: 50,
          maxResponseChars: 50_000,
          maxBinaryBytes: 1000,
        },
        secrets: { detectionMode: 'mask' },
        exactSecrets: [],
        timeoutMs: 1000,
      },
      {
        transport: {
          send: async () => {
            sent += 1;
            return { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') };
          },
        },
        policy: { forOrg: async (org) => ({ org, disabledTools: [], detectionMode: 'mask' }) },
        audit: { record: (e) => audits.push(e) },
        clock: { now: () => 0 },
        scrubber: passThroughScrubber,
      },
    );
    return { service, audits, sent: () => sent };
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
