// The audit record of a request refused at authentication on /mcp (issue 7: auth failures are
// audited like refused tool calls). Nothing the caller presented is stored: no token, no body
// (it is never read for an unauthenticated request), only which scheme was offered.
import { randomUUID } from 'node:crypto';
import type { SuppressedAuthFailures } from '../../core/mcp/auth-failure-limiter';
import type { AuditEntry } from '../../core/ports';
import type { AuthFailure } from '../auth/identity-resolver';

/** `tool` of these records; no Gitea operation is involved. */
export const MCP_AUTH_TOOL = 'mcp.authenticate';

/** What an authentication record never has: no identity, no Gitea call, no result. */
function noCallFields(tool: string = MCP_AUTH_TOOL) {
  return {
    eventId: randomUUID(),
    login: null,
    mode: null,
    sudo: null,
    clientName: null,
    clientVersion: null,
    tool,
    operationId: null,
    org: null,
    repo: null,
    method: null,
    path: null,
    resultBytes: 0,
    redactions: 0,
    masks: 0,
    blocked: false,
  } satisfies Partial<AuditEntry>;
}

export function authFailureEntry(
  failure: AuthFailure,
  request: { httpMethod: string; authorization: string | undefined; mcpMethod: string | undefined },
  started: number,
  now: number,
  /** The admission route (`mcp`, `oauth`, `admin`): tool `<route>.authenticate`, kind `<route>_unauthorized`. */
  route = 'mcp',
): AuditEntry {
  const scheme = request.authorization?.trim()
    ? /^bearer\s/i.test(request.authorization.trim())
      ? 'bearer'
      : 'other'
    : 'none';
  const mcpMethod =
    request.mcpMethod && /^[A-Za-z0-9/_.-]{1,64}$/.test(request.mcpMethod) ? request.mcpMethod : null;
  return {
    ...noCallFields(`${route}.authenticate`),
    time: new Date(started),
    // The status the route answered (401 wrong or missing credentials, 503 identity not resolvable).
    status: failure.status,
    kind: failure.status === 503 ? `${route}_identity_unavailable` : `${route}_unauthorized`,
    durationMs: Math.max(0, now - started),
    arguments: { http_method: request.httpMethod, credentials: scheme, mcp_method: mcpMethod },
  };
}

/** `kind` of the one record that stands for the failures suppressed from one address in a window. */
export const SUPPRESSED_KIND = 'mcp_unauthorized_suppressed';

/**
 * One record for the failed authentications from one remote address that were answered 429 and
 * not audited one by one (AUTH_FAILURES_PER_MINUTE): how many, from when to when, and from where.
 */
export function suppressedAuthFailuresEntry(summary: SuppressedAuthFailures): AuditEntry {
  return {
    ...noCallFields(),
    time: new Date(summary.firstAt),
    status: 429,
    kind: SUPPRESSED_KIND,
    durationMs: Math.max(0, summary.lastAt - summary.firstAt),
    arguments: {
      suppressed_failures: summary.count,
      remote: summary.remote,
      first_at: new Date(summary.firstAt).toISOString(),
      last_at: new Date(summary.lastAt).toISOString(),
    },
  };
}
