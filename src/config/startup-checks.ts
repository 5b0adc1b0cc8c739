// Start-up checks across variables: each one parses on its own, but together they cannot work,
// or work in a way an operator would not want. Refusals stop the process before it listens (one
// line each, naming the variable and the fix); warnings are logged and the service starts.
// Pure: configuration (and the tool names) in, problems out; main.ts prints them.
import { matchSubject, type PolicySubject } from '../core/policy/call-policy';
import type { AppConfig } from './app-config';
import type { ConfigIssue } from './env.schema';

export const MIN_BEARER_LENGTH = 32;
/** Gitea before 1.26.2 let OAuth tokens sent as Basic auth bypass their scopes. */
export const MIN_SAFE_GITEA_VERSION = '1.26.2';

const GENERATE = 'generate one with: openssl rand -base64 32';

export function startupRefusals(config: AppConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const bearer = config.mcp.bearerToken;
  const oauth = config.gitea.oauthClientId !== null;
  if (!bearer && !oauth) {
    issues.push({
      variable: 'MCP_BEARER_TOKEN',
      message: `is not set and per-user OAuth is off (GITEA_OAUTH_CLIENT_ID), so no agent could authenticate: set MCP_BEARER_TOKEN (with GITEA_TOKEN; ${GENERATE}) or configure OAuth`,
    });
  }
  if (bearer) {
    if (!/^[\x21-\x7e]+$/.test(bearer)) {
      issues.push({
        variable: 'MCP_BEARER_TOKEN',
        message: `must be printable ASCII without spaces (an Authorization header could never carry it); ${GENERATE}`,
      });
    } else if (bearer.length < MIN_BEARER_LENGTH) {
      issues.push({
        variable: 'MCP_BEARER_TOKEN',
        message: `is ${bearer.length} characters long; it must have at least ${MIN_BEARER_LENGTH}; ${GENERATE}`,
      });
    }
    if (!config.gitea.token) {
      issues.push({
        variable: 'GITEA_TOKEN',
        message:
          'is not set but MCP_BEARER_TOKEN is: the bearer acts as the service account, so set GITEA_TOKEN to that account’s Gitea access token',
      });
    }
  }
  if (config.tools.specSource.trim() === 'live') {
    const gitea = new URL(config.gitea.url);
    if (gitea.protocol !== 'https:' && !isLoopbackHost(gitea.hostname)) {
      issues.push({
        variable: 'SPEC_SOURCE',
        message: `is live, which would read the API description (it decides the tools and their routes) over plain http from ${gitea.host}: use an https:// GITEA_URL, or SPEC_SOURCE=bundled or a reviewed file`,
      });
    }
  }
  if (oauth && !config.secrets.encryptionKey) {
    issues.push({
      variable: 'ENCRYPTION_KEY',
      message: `is required when per-user OAuth is on (GITEA_OAUTH_CLIENT_ID): stored grants are encrypted with it; ${GENERATE}`,
    });
  }
  // The authorization server's endpoints and its issuer are PUBLIC_URL: OAuth 2.1 wants them on
  // https (MCP authorization, security considerations). Loopback stays allowed for development.
  if (config.oauth.modes.includes('oauth')) {
    const publicUrl = new URL(config.server.publicUrl);
    if (publicUrl.protocol !== 'https:' && !isLoopbackHost(publicUrl.hostname)) {
      issues.push({
        variable: 'PUBLIC_URL',
        message: `is ${publicUrl.protocol}//${publicUrl.host}, but the OAuth authorization server (AUTH_MODES oauth) must be reached over https: set PUBLIC_URL to the https:// URL people and MCP clients use (TLS at the ingress or proxy), or use a loopback host for local development`,
      });
    }
  }
  return issues;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|::1)$/i;

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.test(hostname) || hostname.toLowerCase().endsWith('.localhost');
}

export function startupWarnings(config: AppConfig): string[] {
  const warnings: string[] = [];
  const gitea = new URL(config.gitea.url);
  if (gitea.protocol === 'http:' && !isLoopbackHost(gitea.hostname)) {
    warnings.push(
      `GITEA_URL uses http:// to ${gitea.host}, which is not this machine: tokens and content cross the network unencrypted; use https:// unless that network is private (e.g. a cluster's pod network)`,
    );
  }
  return warnings;
}

/** What a DISABLED_TOOLS pattern can name: an operation (by id, or method and route) or a meta-tool (no method). */
export type NamedTool = { name: string; method?: string; route?: string };

/** DISABLED_TOOLS patterns that match no tool (a typo would otherwise disable nothing, silently). */
export function unmatchedDisabledTools(
  patterns: readonly string[],
  tools: readonly NamedTool[],
): ConfigIssue[] {
  const subjects: PolicySubject[] = tools.map((tool) =>
    tool.method && tool.route
      ? { kind: 'operation', name: tool.name, method: tool.method, route: tool.route, tags: [] }
      : { kind: 'meta', name: tool.name },
  );
  const matches = (pattern: string) => subjects.some((subject) => matchSubject(subject, [pattern]) !== null);
  const issues: ConfigIssue[] = [];
  for (const pattern of patterns) {
    if (matches(pattern)) continue;
    // Tools are camelCase operation ids (adminCronList): admin_* most likely meant admin*.
    const camel = pattern.replace(/_/g, '');
    const suggestion = camel !== pattern && matches(camel) ? ` (did you mean ${camel}?)` : '';
    issues.push({
      variable: 'DISABLED_TOOLS',
      message: `pattern "${pattern}" matches no tool${suggestion}; tool names are Gitea operation ids such as adminCronList or repoDelete (see tools/list), or a method and route such as "DELETE /repos/{owner}/{repo}"`,
    });
  }
  return issues;
}

/** Compares dotted versions numerically by major.minor.patch (Gitea's "1.27.1+dev-12-gabc" too). */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    (/^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(v.trim()) ?? []).slice(1, 4).map((p) => Number(p ?? 0));
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** What to warn about the Gitea version found at start (null: nothing). */
export function giteaVersionWarnings(
  version: string,
  bundledVersion: string | null,
  specSource: string,
): string[] {
  const warnings: string[] = [];
  if (!/^v?\d+\.\d+/.test(version)) return warnings;
  if (compareVersions(version, MIN_SAFE_GITEA_VERSION) < 0) {
    warnings.push(
      `Gitea ${version} is older than ${MIN_SAFE_GITEA_VERSION}: before it, OAuth tokens sent as Basic auth bypassed their scopes; upgrade Gitea`,
    );
  }
  if (bundledVersion && specSource !== 'live' && compareVersions(version, bundledVersion) > 0) {
    warnings.push(
      `Gitea ${version} is newer than the bundled API description (${bundledVersion}): operations added since are not offered; set SPEC_SOURCE=live to read Gitea's own`,
    );
  }
  return warnings;
}
