// Per-organisation policy (issue 14, docs/adr/0010): what an org stores, how it merges with the
// global floor from the environment, and the decision for one call with the rule that made it.
// Pure functions only: the store, the cache and the quota counters live in src/infra.
import type { SecretDetectionMode } from '../secrets/detection-mode';
import type { EffectivePolicy } from '../ports';
import { decideGlobal, matchesAny, matchSubject, type GlobalRules, type PolicySubject } from './call-policy';

/** off < mask < block: an org may make its mode stricter than the global one, never weaker. */
export const DETECTION_MODE_RANK: Readonly<Record<SecretDetectionMode, number>> = {
  off: 0,
  mask: 1,
  block: 2,
};

export function strongerMode(a: SecretDetectionMode, b: SecretDetectionMode): SecretDetectionMode {
  return DETECTION_MODE_RANK[a] >= DETECTION_MODE_RANK[b] ? a : b;
}

export type OrgQuotas = {
  /** Tool calls per person within the org per minute; null = no org quota. */
  toolCallsPerMinute: number | null;
  /** Non-GET tool calls per person within the org per hour; null = no org quota. */
  writeCallsPerHour: number | null;
};

/** The policy an org's owners set, as stored (one row per org). */
export type OrgPolicy = {
  /** Lower-cased org name (Gitea owner names are case-insensitive). */
  org: string;
  /** Operation names and globs disabled for the org, on top of DISABLED_TOOLS. */
  disabledTools: string[];
  /** null = the global SECRET_DETECTION_MODE. */
  secretDetectionMode: SecretDetectionMode | null;
  readOnly: boolean;
  /** Repository names (or globs) of the org that calls may reach; null = every repository. */
  allowedRepos: string[] | null;
  quotas: OrgQuotas;
  /** Increases by one with every change (0: never set). */
  version: number;
  updatedAt: string | null;
  updatedBy: string | null;
};

/** The floor set by the environment (DISABLED_TOOLS, TOOLSETS, READ_ONLY, SECRET_DETECTION_MODE). */
export type GlobalFloor = GlobalRules & { detectionMode: SecretDetectionMode };

export function normalizeOrg(org: string): string {
  return org.trim().toLowerCase();
}

export function defaultOrgPolicy(org: string): OrgPolicy {
  return {
    org: normalizeOrg(org),
    disabledTools: [],
    secretDetectionMode: null,
    readOnly: false,
    allowedRepos: null,
    quotas: { toolCallsPerMinute: null, writeCallsPerHour: null },
    version: 0,
    updatedAt: null,
    updatedBy: null,
  };
}

/** The effective policy of a call's org: the global floor with the org's own rules added. */
export function resolveEffectivePolicy(
  floor: GlobalFloor,
  org: string | null,
  stored: OrgPolicy | null,
): EffectivePolicy {
  if (org === null) {
    return {
      org: null,
      disabledTools: [...floor.disabledTools],
      detectionMode: floor.detectionMode,
      detectionModeSource: 'global',
      readOnly: floor.readOnly,
      allowedRepos: null,
      quotas: { toolCallsPerMinute: null, writeCallsPerHour: null },
      orgDisabledTools: [],
      version: 0,
    };
  }
  const own = stored ?? defaultOrgPolicy(org);
  const mode = own.secretDetectionMode
    ? strongerMode(floor.detectionMode, own.secretDetectionMode)
    : floor.detectionMode;
  return {
    org,
    disabledTools: [...floor.disabledTools, ...own.disabledTools],
    detectionMode: mode,
    detectionModeSource:
      own.secretDetectionMode && mode === own.secretDetectionMode && mode !== floor.detectionMode
        ? 'org'
        : 'global',
    readOnly: floor.readOnly || own.readOnly,
    allowedRepos: own.allowedRepos ? [...own.allowedRepos] : null,
    quotas: { ...own.quotas },
    orgDisabledTools: [...own.disabledTools],
    version: own.version,
  };
}

/** What a call needs for a decision: the operation it reaches (name, method and route) and where. */
export type CallOperation = {
  operationId: string;
  method: string;
  route: string;
  tags: string[];
  referenceName?: string;
};
export type CallTarget = { org: string | null; repo: string | null };

export type RefusalKind = 'tool_disabled' | 'read_only' | 'repo_not_allowed' | 'rate_limited';

/** The rule that decided: where it is set and its name as written there. */
export type PolicyRule = {
  source: 'global' | 'org';
  /** DISABLED_TOOLS, TOOLSETS, READ_ONLY (env) or disabled_tools, read_only, allowed_repos, quotas.* (org). */
  name: string;
  /** The matching glob, the list, or the limit. */
  value?: unknown;
};

export type CallDecision =
  | {
      allowed: true;
      org: string | null;
      detectionMode: SecretDetectionMode;
      detectionModeSource: 'global' | 'org';
      /** The org quotas this call counts against (empty for user-owned repos). */
      quotas: QuotaRule[];
    }
  | { allowed: false; kind: RefusalKind; org: string | null; rule: PolicyRule; message: string };

export type QuotaRule = {
  name: 'tool_calls_per_minute' | 'write_calls_per_hour';
  limit: number;
  windowMs: number;
};

/**
 * The policy decision for one call: the global floor first (nothing an org sets can lift it), then
 * the org's disabled tools, read-only and repository allow-list. Quotas are counted by the caller
 * (they need the shared counters) through `quotaDecision`.
 */
export function decideCall(
  op: CallOperation,
  target: CallTarget,
  floor: GlobalFloor,
  effective: EffectivePolicy,
): CallDecision {
  const org = target.org;
  // The floor is callpath's decideGlobal (src/core/policy/call-policy.ts); org rules follow.
  const subject: PolicySubject = {
    kind: 'operation',
    name: op.operationId,
    method: op.method,
    route: op.route,
    tags: op.tags,
    ...(op.referenceName ? { referenceName: op.referenceName } : {}),
  };
  const global = decideGlobal(subject, floor);
  if (!global.allowed) {
    const name = global.rule === 'TOOLSETS' || global.rule === 'READ_ONLY' ? global.rule : 'DISABLED_TOOLS';
    return {
      allowed: false,
      kind: global.kind,
      org,
      rule: { source: 'global', name, ...(name === 'DISABLED_TOOLS' ? { value: global.rule } : {}) },
      message: global.message,
    };
  }
  // Providers that predate org policies return one merged list: its global part is checked above.
  const orgPatterns = effective.orgDisabledTools ?? effective.disabledTools;
  const pattern = matchSubject(subject, orgPatterns);
  if (pattern) {
    return {
      allowed: false,
      kind: 'tool_disabled',
      org,
      rule: {
        source: effective.org ? 'org' : 'global',
        name: effective.org ? 'disabled_tools' : 'DISABLED_TOOLS',
        value: pattern,
      },
      message: effective.org
        ? `tool ${op.operationId} is disabled for organization ${effective.org} (disabled_tools: ${pattern})`
        : `tool ${op.operationId} is disabled by policy (${pattern})`,
    };
  }
  if (effective.org && effective.readOnly && op.method !== 'GET') {
    return {
      allowed: false,
      kind: 'read_only',
      org,
      rule: { source: 'org', name: 'read_only', value: true },
      message: `tool ${op.operationId} changes data and organization ${effective.org} is read-only for agents (read_only: true)`,
    };
  }
  const allowed = effective.allowedRepos ?? null;
  if (effective.org && allowed && target.repo !== null && !matchesAny(target.repo, allowed)) {
    return {
      allowed: false,
      kind: 'repo_not_allowed',
      org,
      rule: { source: 'org', name: 'allowed_repos', value: allowed },
      message: `repository ${effective.org}/${target.repo.slice(0, 100)} is not in the allowed repositories of organization ${effective.org} (allowed_repos: ${allowed.join(', ') || 'none'})`,
    };
  }
  const quotas: QuotaRule[] = [];
  if (effective.org && effective.quotas) {
    const q = effective.quotas;
    if (q.toolCallsPerMinute !== null && q.toolCallsPerMinute !== undefined)
      quotas.push({ name: 'tool_calls_per_minute', limit: q.toolCallsPerMinute, windowMs: 60_000 });
    if (op.method !== 'GET' && q.writeCallsPerHour !== null && q.writeCallsPerHour !== undefined)
      quotas.push({ name: 'write_calls_per_hour', limit: q.writeCallsPerHour, windowMs: 3_600_000 });
  }
  return {
    allowed: true,
    org,
    detectionMode: effective.detectionMode,
    detectionModeSource: effective.detectionModeSource ?? 'global',
    quotas,
  };
}

/** A change as the admin API accepts it: absent fields keep their value. */
export type OrgPolicyPatch = Partial<{
  disabledTools: string[];
  secretDetectionMode: SecretDetectionMode | null;
  readOnly: boolean;
  allowedRepos: string[] | null;
  quotas: Partial<OrgQuotas>;
}>;

/** The policy after `patch` (version, updatedAt and updatedBy are the store's to set). */
export function applyPolicyPatch(current: OrgPolicy, patch: OrgPolicyPatch): OrgPolicy {
  return {
    ...current,
    disabledTools: patch.disabledTools ? dedupe(patch.disabledTools) : current.disabledTools,
    secretDetectionMode:
      patch.secretDetectionMode !== undefined ? patch.secretDetectionMode : current.secretDetectionMode,
    readOnly: patch.readOnly ?? current.readOnly,
    allowedRepos:
      patch.allowedRepos !== undefined
        ? patch.allowedRepos && dedupe(patch.allowedRepos)
        : current.allowedRepos,
    quotas: { ...current.quotas, ...(patch.quotas ?? {}) },
  };
}

function dedupe(items: string[]): string[] {
  return [...new Set(items.map((item) => item.trim()).filter(Boolean))];
}

/** The policy in the admin API's shape (snake_case field names, as the issue writes them). */
export function policyToJson(policy: OrgPolicy): {
  org: string;
  disabled_tools: string[];
  secret_detection_mode: SecretDetectionMode | null;
  read_only: boolean;
  allowed_repos: string[] | null;
  quotas: { tool_calls_per_minute: number | null; write_calls_per_hour: number | null };
  version: number;
  updated_at: string | null;
  updated_by: string | null;
} {
  return {
    org: policy.org,
    disabled_tools: [...policy.disabledTools],
    secret_detection_mode: policy.secretDetectionMode,
    read_only: policy.readOnly,
    allowed_repos: policy.allowedRepos ? [...policy.allowedRepos] : null,
    quotas: {
      tool_calls_per_minute: policy.quotas.toolCallsPerMinute,
      write_calls_per_hour: policy.quotas.writeCallsPerHour,
    },
    version: policy.version,
    updated_at: policy.updatedAt,
    updated_by: policy.updatedBy,
  };
}
