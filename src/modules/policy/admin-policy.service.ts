// What /api/admin does, behind the thin controller: authorise per org, read and change policies
// (history, audit record, propagation), simulate a call with the same decision /mcp makes, show
// the global floor and settings, and the catalogue with where each tool is disabled.
import { randomUUID } from 'node:crypto';
import type { AppConfig } from '../../config/app-config';
import { configFromEnv, ENV_VARS } from '../../config/env.schema';
import type { SpecDiff, SpecReport } from '../../core/catalogue/spec-diff';
import type { CatalogueOperation } from '../../core/catalogue/tool-catalogue';
import { patternReachesAny } from '../../core/catalogue/tool-filter';
import {
  DETECTION_MODE_RANK,
  decideCall,
  defaultOrgPolicy,
  normalizeOrg,
  policyToJson,
  resolveEffectivePolicy,
  type GlobalFloor,
  type OrgPolicy,
  type OrgPolicyPatch,
} from '../../core/policy/org-policy';
import { peekQuotas, type QuotaCounter } from '../../core/policy/quota';
import type { AuditSink, PolicyProvider } from '../../core/ports';
import type { OrgPolicyRepository } from '../../infra/policy/org-policy.repository';
import type { PolicyCache } from '../../infra/policy/policy-cache';
import type { AdminPrincipal, GiteaAsPerson, OrgOwnership } from './admin-auth';
import type { z } from 'zod';
import type * as S from './admin-api.schemas';
import { ORG_NAME } from './admin-api.schemas';

export class AdminApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 413 | 503,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export type AdminPolicyDeps = {
  config: AppConfig;
  repository: OrgPolicyRepository;
  cache: PolicyCache;
  provider: PolicyProvider;
  ownership: OrgOwnership;
  operations: () => CatalogueOperation[];
  /** The API description the catalogue was built from (version from its info block, SPEC_SOURCE). */
  spec?: () => { version: string; source: string; report: SpecReport | null };
  quotas: QuotaCounter | null;
  audit: AuditSink | null;
  /** Gitea as the service account (GITEA_TOKEN), for ADMIN_TOKEN's org list; null without one. */
  serviceGitea: GiteaAsPerson | null;
  now?: () => number;
};

type PutBody = z.infer<typeof S.PolicyPut>;

const CHANGE_FIELDS = ['disabled_tools', 'secret_detection_mode', 'read_only', 'allowed_repos', 'quotas'];
const MAX_ATTEMPTED_FIELD_CHARS = 4096;

/** The fields of a refused change as the audit keeps them: known fields bounded, unknown ones named. */
function attemptedFields(body: unknown): unknown {
  if (body === undefined) return null;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { not_an_object: true };
  const kept: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (!CHANGE_FIELDS.includes(key)) {
      if (unknown.length < 20) unknown.push(key.slice(0, 100));
      continue;
    }
    const text = JSON.stringify(value) ?? 'null';
    kept[key] = text.length <= MAX_ATTEMPTED_FIELD_CHARS ? value : { omitted_chars: text.length };
  }
  return unknown.length ? { ...kept, unknown_fields: unknown } : kept;
}

export class AdminPolicyService {
  readonly floor: GlobalFloor;

  constructor(private readonly deps: AdminPolicyDeps) {
    this.floor = {
      disabledTools: deps.config.tools.disabledTools,
      toolsets: deps.config.tools.toolsets,
      readOnly: deps.config.tools.readOnly,
      detectionMode: deps.config.secrets.detectionMode,
    };
  }

  async authorize(principal: AdminPrincipal, org: string): Promise<'site_admin' | 'org_owner'> {
    const verdict = await this.deps.ownership.canManage(principal, org);
    if (!verdict.ok) throw new AdminApiError(verdict.status, verdict.message);
    return verdict.role;
  }

  requireSiteAdmin(principal: AdminPrincipal): void {
    if (!principal.isSiteAdmin) throw new AdminApiError(403, 'site admins only');
  }

  async listOrgs(principal: AdminPrincipal): Promise<z.infer<typeof S.OrgList>> {
    const stored = new Map((await this.deps.repository.list()).map((p) => [p.org, p]));
    const names = new Set<string>();
    let role: 'site_admin' | 'org_owner' = 'org_owner';
    if (principal.isSiteAdmin) {
      role = 'site_admin';
      for (const org of stored.keys()) names.add(org);
      const gitea = principal.gitea ?? this.deps.serviceGitea;
      if (gitea) for (const org of await this.giteaOrgs(gitea, '/orgs')) names.add(org);
    } else if (principal.gitea) {
      for (const org of await this.giteaOrgs(principal.gitea, '/user/orgs')) {
        if ((await this.deps.ownership.isOwner(principal, org)) === true) names.add(org);
      }
    }
    const orgs = [...names].sort().map((org) => {
      const policy = stored.get(org);
      return {
        org,
        role,
        has_policy: Boolean(policy),
        version: policy?.version ?? 0,
        updated_at: policy?.updatedAt ?? null,
        updated_by: policy?.updatedBy ?? null,
      };
    });
    return { orgs };
  }

  private async giteaOrgs(gitea: GiteaAsPerson, path: string): Promise<string[]> {
    const out: string[] = [];
    for (let page = 1; page <= 20; page += 1) {
      let answer: { status: number; body: unknown };
      try {
        answer = await gitea(`${path}?limit=50&page=${page}`);
      } catch {
        throw new AdminApiError(503, 'Gitea could not be reached to list organizations');
      }
      if (answer.status !== 200 || !Array.isArray(answer.body))
        throw new AdminApiError(503, `Gitea answered HTTP ${answer.status} listing organizations`);
      for (const org of answer.body as Array<{ username?: unknown; name?: unknown }>) {
        const name = typeof org.username === 'string' ? org.username : org.name;
        if (typeof name === 'string') out.push(normalizeOrg(name));
      }
      if (answer.body.length < 50) break;
    }
    return out;
  }

  async view(
    org: string,
    role: 'site_admin' | 'org_owner',
    stored?: OrgPolicy | null,
  ): Promise<z.infer<typeof S.PolicyView>> {
    const key = normalizeOrg(org);
    const policy = stored === undefined ? await this.deps.repository.get(key) : stored;
    const own = policy ?? defaultOrgPolicy(key);
    const effective = resolveEffectivePolicy(this.floor, key, own);
    const notes: string[] = [];
    if (
      own.secretDetectionMode &&
      DETECTION_MODE_RANK[own.secretDetectionMode] < DETECTION_MODE_RANK[this.floor.detectionMode]
    )
      notes.push(
        `secret_detection_mode ${own.secretDetectionMode} is weaker than the global SECRET_DETECTION_MODE ${this.floor.detectionMode}, which applies (off < mask < block)`,
      );
    if (this.floor.readOnly && !own.readOnly) notes.push('READ_ONLY is set globally: every org is read-only');
    return {
      org: key,
      role,
      policy: policyToJson(own),
      effective: {
        disabled_tools: effective.disabledTools,
        secret_detection_mode: effective.detectionMode,
        secret_detection_mode_source: effective.detectionModeSource ?? 'global',
        read_only: effective.readOnly ?? false,
        allowed_repos: effective.allowedRepos ?? null,
        quotas: {
          tool_calls_per_minute: effective.quotas?.toolCallsPerMinute ?? null,
          write_calls_per_hour: effective.quotas?.writeCallsPerHour ?? null,
        },
      },
      floor: this.floorJson(),
      notes,
    };
  }

  floorJson(): z.infer<typeof S.GlobalFloor> {
    return {
      disabled_tools: [...this.floor.disabledTools],
      toolsets: [...this.floor.toolsets],
      read_only: this.floor.readOnly,
      secret_detection_mode: this.floor.detectionMode,
    };
  }

  /** Every name or glob must reach at least one operation of the catalogue. */
  private checkToolPatterns(patterns: string[]): void {
    const ops = this.deps.operations();
    // By name, by the bundled name of a live catalogue's operation, or by method and route.
    const unknown = patterns.filter((pattern) => !patternReachesAny(pattern, ops));
    if (unknown.length)
      throw new AdminApiError(
        400,
        `disabled_tools: ${unknown.map((u) => JSON.stringify(u)).join(', ')} match${unknown.length === 1 ? 'es' : ''} no operation of the catalogue`,
        { unknown_tools: unknown },
      );
  }

  async update(
    principal: AdminPrincipal,
    org: string,
    body: PutBody,
    path: string,
  ): Promise<z.infer<typeof S.PolicyView>> {
    const started = this.now();
    const role = await this.authorize(principal, org);
    if (body.disabled_tools) this.checkToolPatterns(body.disabled_tools);
    const patch: OrgPolicyPatch = {};
    if (body.disabled_tools !== undefined) patch.disabledTools = body.disabled_tools;
    if (body.secret_detection_mode !== undefined) patch.secretDetectionMode = body.secret_detection_mode;
    if (body.read_only !== undefined) patch.readOnly = body.read_only;
    if (body.allowed_repos !== undefined) patch.allowedRepos = body.allowed_repos;
    if (body.quotas) {
      patch.quotas = {};
      if (body.quotas.tool_calls_per_minute !== undefined)
        patch.quotas.toolCallsPerMinute = body.quotas.tool_calls_per_minute;
      if (body.quotas.write_calls_per_hour !== undefined)
        patch.quotas.writeCallsPerHour = body.quotas.write_calls_per_hour;
    }
    const { before, after } = await this.deps.repository.update(org, patch, { login: principal.login, role });
    await this.deps.cache.changed(after.org);
    this.auditChange(principal, after.org, path, started, before, after);
    return this.view(after.org, role, after);
  }

  private auditChange(
    principal: AdminPrincipal,
    org: string,
    path: string,
    started: number,
    before: OrgPolicy | null,
    after: OrgPolicy,
  ): void {
    this.auditAttempt(principal, {
      org,
      path,
      started,
      status: 200,
      kind: null,
      arguments: {
        version: after.version,
        before: before ? policyToJson(before) : null,
        after: policyToJson(after),
      },
    });
  }

  /**
   * A change that was refused (bad input 400, not an owner 403, ...) is audited too: every change
   * attempt leaves one record, in the same hash chain. The attempted body is kept only for the
   * fields a change may carry, each bounded; other fields are named, their values not kept.
   */
  auditRefusedChange(
    principal: AdminPrincipal,
    attempt: { org: string; body: unknown; status: number; kind: string; message: string; started: number },
  ): void {
    const org = ORG_NAME.test(attempt.org) ? normalizeOrg(attempt.org) : null;
    this.auditAttempt(principal, {
      org,
      path: `/api/admin/orgs/${encodeURIComponent(attempt.org.slice(0, 100))}/policy`,
      started: attempt.started,
      status: attempt.status,
      kind: attempt.kind,
      arguments: {
        refused: { status: attempt.status, message: attempt.message.slice(0, 500) },
        attempted: attemptedFields(attempt.body),
      },
    });
  }

  private auditAttempt(
    principal: AdminPrincipal,
    entry: {
      org: string | null;
      path: string;
      started: number;
      status: number;
      kind: string | null;
      arguments: unknown;
    },
  ): void {
    this.deps.audit?.record({
      eventId: randomUUID(),
      time: new Date(entry.started),
      login: principal.login,
      mode: principal.via === 'admin_token' ? 'token' : 'oauth',
      sudo: null,
      clientName: `admin-api:${principal.via}`,
      clientVersion: null,
      tool: 'admin.policy.update',
      operationId: null,
      org: entry.org,
      repo: null,
      method: 'PUT',
      path: entry.path,
      status: entry.status,
      kind: entry.kind,
      durationMs: Math.max(0, this.now() - entry.started),
      resultBytes: 0,
      redactions: 0,
      masks: 0,
      blocked: false,
      arguments: entry.arguments,
    });
  }

  async history(org: string, limit: number, before: string | null): Promise<z.infer<typeof S.PolicyHistory>> {
    const key = normalizeOrg(org);
    const changes = await this.deps.repository.history(key, { limit: limit + 1, before });
    const page = changes.slice(0, limit);
    return {
      org: key,
      changes: page.map((c) => ({
        id: c.id,
        org: c.org,
        version: c.version,
        changed_at: c.changedAt,
        changed_by: c.changedBy,
        role: c.role,
        before: c.before,
        after: c.after,
      })),
      next_before: changes.length > limit ? (page[page.length - 1]?.id ?? null) : null,
    };
  }

  async simulate(input: z.infer<typeof S.SimulateRequest>): Promise<z.infer<typeof S.SimulateResult>> {
    const op = this.deps.operations().find((o) => o.operationId === input.tool);
    if (!op)
      throw new AdminApiError(400, `tool: no operation named ${JSON.stringify(input.tool.slice(0, 100))}`);
    const org = normalizeOrg(input.org);
    const orgRoute = op.route.includes('{org}') || op.route.includes('{owner}');
    const target = {
      org: orgRoute ? org : null,
      repo: op.route.includes('{repo}') ? (input.repo ?? null) : null,
    };
    // The same provider (and cache) as /mcp, so the answer is what the next call meets.
    const effective = await this.deps.provider.forOrg(target.org);
    const decision = decideCall(op, target, this.floor, effective);
    const base = {
      login: input.login,
      org,
      tool: op.operationId,
      repo: target.repo,
      operation: { method: op.method, path: op.route, toolset: op.tags[0] ?? null },
      secret_detection_mode: effective.detectionMode,
      secret_detection_mode_source: effective.detectionModeSource ?? ('global' as const),
    };
    if (!decision.allowed) {
      return {
        ...base,
        decision: 'refused',
        kind: decision.kind,
        rule: decision.rule,
        message: decision.message,
        quotas: [],
      };
    }
    const { refusal, usage } =
      decision.org && decision.quotas.length && this.deps.quotas
        ? await peekQuotas(this.deps.quotas, decision.quotas, decision.org, input.login, this.now())
        : { refusal: null, usage: [] };
    const quotas = usage.map((u) => ({ quota: u.quota, used: u.used, limit: u.limit, reset_at: u.resetAt }));
    if (refusal)
      return {
        ...base,
        decision: 'refused',
        kind: 'rate_limited',
        rule: refusal.rule,
        message: refusal.message,
        quotas,
      };
    return {
      ...base,
      decision: 'allowed',
      kind: null,
      rule: null,
      message: orgRoute
        ? `allowed: no rule of the global floor or of organization ${org} refuses ${op.operationId}`
        : `allowed: ${op.operationId} does not act within an organization, so only the global floor applies`,
      quotas,
    };
  }

  settings(): z.infer<typeof S.Settings> {
    const effective = settingsTable(this.deps.config);
    const defaults = settingsTable(configFromEnv({}));
    const settings = ENV_VARS.map((spec) => {
      const known = spec.name in effective;
      const value = known ? effective[spec.name] : null;
      const set = typeof value === 'string' ? value.length > 0 : value !== null && value !== undefined;
      return {
        name: spec.name,
        group: spec.group,
        description: spec.description,
        // Secrets: only whether they are set.
        value: spec.sensitive ? { set } : value,
        sensitive: spec.sensitive,
        is_default: known && JSON.stringify(value) === JSON.stringify(defaults[spec.name]),
      };
    });
    return { floor: this.floorJson(), settings };
  }

  async catalogue(principal: AdminPrincipal, onlyOrg: string | null): Promise<z.infer<typeof S.Catalogue>> {
    let orgs: OrgPolicy[];
    if (onlyOrg) {
      await this.authorize(principal, onlyOrg);
      const stored = await this.deps.repository.get(onlyOrg);
      orgs = stored ? [stored] : [];
    } else if (principal.isSiteAdmin) {
      orgs = await this.deps.repository.list();
    } else {
      orgs = [];
      for (const policy of await this.deps.repository.list())
        if ((await this.deps.ownership.isOwner(principal, policy.org)) === true) orgs.push(policy);
    }
    const effective = orgs.map((p) => ({ org: p.org, policy: resolveEffectivePolicy(this.floor, p.org, p) }));
    const none = resolveEffectivePolicy(this.floor, null, null);
    let disabledGlobally = 0;
    const tools = this.deps.operations().map((op) => {
      const global = decideCall(op, { org: null, repo: null }, this.floor, none);
      if (!global.allowed) disabledGlobally += 1;
      const disabledIn: Array<{
        org: string;
        kind: 'tool_disabled' | 'read_only';
        rule: { source: 'global' | 'org'; name: string; value?: unknown };
      }> = [];
      if (global.allowed) {
        for (const { org, policy } of effective) {
          const d = decideCall(op, { org, repo: null }, this.floor, policy);
          if (!d.allowed && (d.kind === 'tool_disabled' || d.kind === 'read_only'))
            disabledIn.push({ org, kind: d.kind, rule: d.rule });
        }
      }
      return {
        name: op.operationId,
        toolset: op.tags[0] ?? null,
        method: op.method,
        path: op.route,
        access: op.method === 'GET' ? ('read' as const) : ('write' as const),
        summary: op.summary,
        disabled_globally: global.allowed ? null : global.rule,
        disabled_in: disabledIn,
      };
    });
    return {
      tools,
      counts: { total: tools.length, disabled_globally: disabledGlobally },
      spec: this.specJson(),
    };
  }

  private specJson(): z.infer<typeof S.Catalogue>['spec'] {
    const spec = this.deps.spec?.() ?? {
      version: 'unknown',
      source: this.deps.config.tools.specSource,
      report: null,
    };
    const differences = spec.report?.differences ?? null;
    return {
      version: spec.version,
      source: spec.source,
      loaded: spec.report?.loaded ?? 'bundled',
      differences: differences ? differencesJson(differences) : null,
    };
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }
}

function differencesJson(diff: SpecDiff): z.infer<typeof S.SpecDifferences> {
  return {
    reference_version: diff.referenceVersion,
    live_version: diff.liveVersion,
    added: diff.added,
    removed: diff.removed,
    changed: diff.changed,
  };
}

/** The effective value of each environment variable, from the parsed configuration. */
function settingsTable(c: AppConfig): Record<string, unknown> {
  return {
    HOST: c.server.host,
    PORT: c.server.port,
    PUBLIC_URL: c.server.publicUrl,
    LOG_LEVEL: c.server.logLevel,
    SHUTDOWN_TIMEOUT_MS: c.server.shutdownTimeoutMs,
    GITEA_URL: c.gitea.url,
    GITEA_TOKEN: c.gitea.token,
    GITEA_TIMEOUT_MS: c.gitea.timeoutMs,
    GITEA_OAUTH_CLIENT_ID: c.gitea.oauthClientId,
    GITEA_OAUTH_CLIENT_SECRET: c.gitea.oauthClientSecret,
    MCP_BEARER_TOKEN: c.mcp.bearerToken,
    MCP_ALLOWED_ORIGINS: c.mcp.allowedOrigins,
    MCP_MAX_BODY_BYTES: c.mcp.maxBodyBytes,
    RATE_LIMIT_PER_MINUTE: c.mcp.rateLimitPerMinute,
    AUTH_FAILURES_PER_MINUTE: c.mcp.authFailuresPerMinute,
    MAX_CONCURRENT_PER_IDENTITY: c.mcp.maxConcurrentPerIdentity,
    MAX_CONCURRENT_TOTAL: c.mcp.maxConcurrentTotal,
    REQUEST_TIMEOUT_MS: c.mcp.requestTimeoutMs,
    SPEC_SOURCE: c.tools.specSource,
    TOOLSETS: c.tools.toolsets,
    TOOL_MODE: c.tools.mode,
    READ_ONLY: c.tools.readOnly,
    DISABLED_TOOLS: c.tools.disabledTools,
    ALLOW_SUDO: c.tools.allowSudo,
    MAX_TOOL_RESPONSE_ITEMS: c.tools.maxResponseItems,
    MAX_TOOL_RESPONSE_CHARS: c.tools.maxResponseChars,
    MAX_BINARY_BYTES: c.tools.maxBinaryBytes,
    SECRET_DETECTION_MODE: c.secrets.detectionMode,
    ENCRYPTION_KEY: c.secrets.encryptionKey,
    DATABASE_URL: c.storage.databaseUrl,
    DATA_DIR: c.storage.dataDir,
    REDIS_URL: c.storage.redisUrl,
    AUDIT_RETENTION_DAYS: c.audit.retentionDays,
    AUDIT_BATCH_SIZE: c.audit.batchSize,
    AUDIT_FLUSH_INTERVAL_MS: c.audit.flushIntervalMs,
    ADMIN_TOKEN: c.admin.token,
    POLICY_CACHE_TTL_MS: c.admin.policyCacheTtlMs,
    AUTH_MODES: c.oauth.modes,
    OAUTH_ACCESS_TOKEN_TTL_SECONDS: c.oauth.accessTokenTtlSeconds,
    OAUTH_REFRESH_TOKEN_TTL_SECONDS: c.oauth.refreshTokenTtlSeconds,
    OAUTH_DCR_ENABLED: c.oauth.dcrEnabled,
    OAUTH_DCR_PER_HOUR: c.oauth.dcrPerHour,
    OAUTH_CIMD_ALLOW_HTTP_ORIGINS: c.oauth.cimdAllowHttpOrigins,
    OAUTH_CIMD_CACHE_MAX_SECONDS: c.oauth.cimdCacheMaxSeconds,
  };
}
