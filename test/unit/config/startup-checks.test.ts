// Start-up refusals and warnings (src/config/startup-checks.ts): each names the variable and the
// fix, never a value.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configFromEnv, parseConfig } from '../../../src/config/env.schema';
import {
  compareVersions,
  giteaVersionWarnings,
  type NamedTool,
  startupRefusals,
  startupWarnings,
  unmatchedDisabledTools,
} from '../../../src/config/startup-checks';

const BEARER = 'b'.repeat(32);
const refusals = (env: Record<string, string>) => startupRefusals(configFromEnv(env));
const ok = { GITEA_TOKEN: 'gitea-token', MCP_BEARER_TOKEN: BEARER };

describe('startupRefusals', () => {
  it('accepts a bearer of 32 printable characters with a Gitea token', () => {
    expect(refusals(ok)).toEqual([]);
  });

  it('refuses when no agent could authenticate', () => {
    expect(refusals({ GITEA_TOKEN: 'gitea-token' })).toEqual([
      {
        variable: 'MCP_BEARER_TOKEN',
        message: expect.stringMatching(/is not set and per-user OAuth is off .*openssl rand -base64 32/),
      },
    ]);
  });

  it('refuses a bearer shorter than 32 characters, saying how long it is and never what it is', () => {
    const issues = refusals({ ...ok, MCP_BEARER_TOKEN: 'x' });
    expect(issues).toEqual([
      {
        variable: 'MCP_BEARER_TOKEN',
        message: expect.stringContaining('is 1 characters long; it must have at least 32'),
      },
    ]);
    expect(refusals({ ...ok, MCP_BEARER_TOKEN: 'y'.repeat(31) })).toHaveLength(1);
  });

  it('refuses a bearer with spaces or non-ASCII characters (no Authorization header could match it)', () => {
    for (const bearer of [
      `${'a'.repeat(20)} ${'b'.repeat(20)}`,
      `${'é'.repeat(40)}`,
      `${'a'.repeat(20)}\t${'a'.repeat(20)}`,
    ]) {
      const issues = refusals({ ...ok, MCP_BEARER_TOKEN: bearer });
      expect(issues.map((i) => i.variable)).toEqual(['MCP_BEARER_TOKEN']);
      expect(issues[0]!.message).toContain('printable ASCII without spaces');
      expect(issues[0]!.message).not.toContain(bearer.trim());
    }
  });

  it('refuses a bearer without the service token it acts with', () => {
    expect(refusals({ MCP_BEARER_TOKEN: BEARER })).toEqual([
      { variable: 'GITEA_TOKEN', message: expect.stringContaining('the bearer acts as the service account') },
    ]);
  });

  it('refuses OAuth without ENCRYPTION_KEY, and accepts OAuth alone as a way to authenticate', () => {
    const oauth = { GITEA_OAUTH_CLIENT_ID: 'id', GITEA_OAUTH_CLIENT_SECRET: 'secret' };
    expect(refusals(oauth)).toEqual([
      { variable: 'ENCRYPTION_KEY', message: expect.stringContaining('required when per-user OAuth is on') },
    ]);
    expect(refusals({ ...oauth, ENCRYPTION_KEY: 'a'.repeat(64) })).toEqual([]);
  });

  describe('PUBLIC_URL with the OAuth authorization server on (checklist B9: its endpoints on https)', () => {
    const oauth = {
      GITEA_OAUTH_CLIENT_ID: 'id',
      GITEA_OAUTH_CLIENT_SECRET: 'secret',
      ENCRYPTION_KEY: 'a'.repeat(64),
    };

    it('refuses an http PUBLIC_URL on a host that is not loopback, in one line naming the fix', () => {
      const issues = refusals({ ...oauth, PUBLIC_URL: 'http://mcp.example.com' });
      expect(issues).toEqual([
        {
          variable: 'PUBLIC_URL',
          message: expect.stringMatching(
            /^is http:\/\/mcp\.example\.com, but the OAuth authorization server .* must be reached over https: set PUBLIC_URL to the https:\/\//,
          ),
        },
      ]);
      expect(issues[0]!.message).not.toContain('\n');
    });

    it('refuses the default derived from HOST=0.0.0.0 (a container without PUBLIC_URL)', () => {
      expect(refusals({ ...oauth, HOST: '0.0.0.0' }).map((i) => i.variable)).toEqual(['PUBLIC_URL']);
      expect(refusals({ ...oauth, PUBLIC_URL: 'http://10.0.0.5:8080' }).map((i) => i.variable)).toEqual([
        'PUBLIC_URL',
      ]);
    });

    it('accepts https anywhere and http on loopback (development, the demo, the tests)', () => {
      for (const url of [
        'https://mcp.example.com',
        'http://127.0.0.1:8080',
        'http://localhost:1',
        'http://[::1]:8080',
        'http://dev.localhost:8080',
      ])
        expect(refusals({ ...oauth, PUBLIC_URL: url })).toEqual([]);
      expect(refusals(oauth)).toEqual([]); // default http://127.0.0.1:8080
    });

    it('leaves PUBLIC_URL alone when only the service token authenticates (no authorization server)', () => {
      expect(refusals({ ...ok, PUBLIC_URL: 'http://mcp.example.com' })).toEqual([]);
      expect(refusals({ ...ok, HOST: '0.0.0.0' })).toEqual([]);
      expect(
        refusals({ ...ok, ...oauth, AUTH_MODES: 'token', PUBLIC_URL: 'http://mcp.example.com' }),
      ).toEqual([]);
    });
  });
});

describe('SPEC_SOURCE=live', () => {
  it('is refused over plain http to a host that is not loopback, in one line naming the fix', () => {
    expect(refusals({ ...ok, SPEC_SOURCE: 'live', GITEA_URL: 'http://gitea.example.com' })).toEqual([
      {
        variable: 'SPEC_SOURCE',
        message: expect.stringMatching(
          /^is live, .* over plain http from gitea\.example\.com: use an https:\/\/ GITEA_URL/,
        ),
      },
    ]);
  });

  it('is accepted over https and to loopback', () => {
    expect(refusals({ ...ok, SPEC_SOURCE: 'live', GITEA_URL: 'https://gitea.example.com' })).toEqual([]);
    expect(refusals({ ...ok, SPEC_SOURCE: 'live', GITEA_URL: 'http://127.0.0.1:3000' })).toEqual([]);
    expect(refusals({ ...ok, SPEC_SOURCE: 'bundled', GITEA_URL: 'http://gitea.example.com' })).toEqual([]);
  });
});

describe('GITEA_URL', () => {
  it('refuses a URL ending in /api/v1 and names the base URL to use', () => {
    for (const url of [
      'https://gitea.example.com/api/v1',
      'https://gitea.example.com/api/v1/',
      'http://g:3000/API/V1',
    ]) {
      const parsed = parseConfig({ GITEA_URL: url });
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(parsed.issues).toEqual([
          {
            variable: 'GITEA_URL',
            message: expect.stringMatching(/without \/api\/v1: use https?:\/\/g(itea\.example\.com|:3000)$/),
          },
        ]);
      }
    }
    expect(parseConfig({ GITEA_URL: 'https://example.com/gitea' }).ok).toBe(true);
  });

  it('warns about http:// to a host that is not loopback, and not for loopback', () => {
    expect(startupWarnings(configFromEnv({ GITEA_URL: 'http://gitea.example.com:3000' }))).toEqual([
      expect.stringContaining('GITEA_URL uses http:// to gitea.example.com:3000'),
    ]);
    for (const url of [
      'http://127.0.0.1:3000',
      'http://localhost:3000',
      'http://[::1]:3000',
      'https://gitea.example.com',
    ])
      expect(startupWarnings(configFromEnv({ GITEA_URL: url }))).toEqual([]);
  });
});

describe('DISABLED_TOOLS patterns', () => {
  const swagger = JSON.parse(readFileSync(join(__dirname, '../../../gitea/swagger.v1.json'), 'utf8')) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  const names: NamedTool[] = Object.entries(swagger.paths).flatMap(([route, item]) =>
    Object.entries(item).map(([method, op]) => ({ name: op.operationId, method, route })),
  );
  names.push({ name: 'gitea_api_request' });

  it('accepts a method and route with any parameter names, and the meta-tools by name', () => {
    expect(
      unmatchedDisabledTools(
        ['DELETE /repos/{owner}/{repo}', 'delete /repos/{o}/{r}', 'gitea_api_request'],
        names,
      ),
    ).toEqual([]);
    expect(unmatchedDisabledTools(['DELETE /nowhere/{x}'], names)).toEqual([
      {
        variable: 'DISABLED_TOOLS',
        message: expect.stringContaining('pattern "DELETE /nowhere/{x}" matches no tool'),
      },
    ]);
  });

  it('refuses the documented-by-mistake admin_* (tools are camelCase) and suggests admin*', () => {
    expect(unmatchedDisabledTools(['admin_*'], names)).toEqual([
      {
        variable: 'DISABLED_TOOLS',
        message: expect.stringContaining('pattern "admin_*" matches no tool (did you mean admin*?)'),
      },
    ]);
  });

  it('accepts names and globs that match, case-insensitively', () => {
    expect(unmatchedDisabledTools(['repoDelete', 'admin*', 'ADMINCRONLIST', 'repo?elete'], names)).toEqual(
      [],
    );
  });

  it('names every pattern that matches nothing', () => {
    expect(unmatchedDisabledTools(['repoDelete', 'nosuchTool', 'x*y'], names).map((i) => i.message)).toEqual([
      expect.stringContaining('"nosuchTool"'),
      expect.stringContaining('"x*y"'),
    ]);
  });

  it('docs/configuration.md shows a pattern that matches', () => {
    const doc = readFileSync(join(__dirname, '../../../docs/configuration.md'), 'utf8');
    const example = /`DISABLED_TOOLS`[^\n]*\(e\.g\. ([^)]+)\)/.exec(doc)?.[1];
    expect(example).toBeDefined();
    const patterns = example!.split(/,\s*|\s+or\s+/).map((p) => p.trim());
    expect(unmatchedDisabledTools(patterns, names)).toEqual([]);
  });
});

describe('Gitea version', () => {
  it('compares major.minor.patch numerically, ignoring build suffixes', () => {
    expect(compareVersions('1.26.2', '1.26.10')).toBe(-1);
    expect(compareVersions('1.27.1+dev-12-gabc', '1.27.1')).toBe(0);
    expect(compareVersions('v1.28.0', '1.27.9')).toBe(1);
  });

  it('warns below 1.26.2 (OAuth tokens sent as Basic auth bypassed their scopes)', () => {
    expect(giteaVersionWarnings('1.26.1', '1.27.1', 'bundled')).toEqual([
      expect.stringContaining('older than 1.26.2'),
    ]);
    expect(giteaVersionWarnings('1.26.2', '1.27.1', 'bundled')).toEqual([]);
  });

  it('warns when Gitea is newer than the bundled spec, unless SPEC_SOURCE=live', () => {
    expect(giteaVersionWarnings('1.28.0', '1.27.1', 'bundled')).toEqual([
      expect.stringContaining('newer than the bundled API description (1.27.1)'),
    ]);
    expect(giteaVersionWarnings('1.28.0', '1.27.1', 'live')).toEqual([]);
    expect(giteaVersionWarnings('unknown', '1.27.1', 'bundled')).toEqual([]);
  });
});
