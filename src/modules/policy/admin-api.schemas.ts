// Request and response shapes of /api/admin, written once with zod: requests are validated with
// them at the edge (unknown fields are a 400) and the OpenAPI document (admin-openapi.ts) is
// generated from the same definitions, so the console's generated client cannot drift from the code.
import { z } from 'zod';

export const ORG_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,38}[A-Za-z0-9_])?$/;
const TOOL_PATTERN = /^[A-Za-z0-9_*?]{1,200}$/;
const REPO_PATTERN = /^[A-Za-z0-9_.*?-]{1,100}$/;

export const OrgName = z.string().regex(ORG_NAME, 'an organization name (letters, digits, "-", "_", ".")');
export const DetectionMode = z.enum(['off', 'mask', 'block']);
const QuotaLimit = z.number().int().min(1).max(1_000_000).nullable();

export const QuotasPatch = z.strictObject({
  tool_calls_per_minute: QuotaLimit.optional().describe(
    'Tool calls per person within the org per minute; null = none',
  ),
  write_calls_per_hour: QuotaLimit.optional().describe(
    'Non-GET tool calls per person within the org per hour; null = none',
  ),
});

export const PolicyPut = z
  .strictObject({
    disabled_tools: z
      .array(z.string().regex(TOOL_PATTERN, 'an operation name or a glob of one (* and ?)'))
      .max(500)
      .optional()
      .describe(
        'Operation names and globs disabled for the org (on top of DISABLED_TOOLS); each must match an operation',
      ),
    secret_detection_mode: DetectionMode.nullable()
      .optional()
      .describe(
        'off < mask < block; null = the global SECRET_DETECTION_MODE. A mode below the global one has no effect',
      ),
    read_only: z.boolean().optional().describe('Only GET operations in this org'),
    allowed_repos: z
      .array(z.string().regex(REPO_PATTERN, 'a repository name or a glob of one'))
      .max(1000)
      .nullable()
      .optional()
      .describe('Repositories of the org that calls may reach (names or globs); null = all'),
    quotas: QuotasPatch.optional(),
  })
  .describe('Absent fields keep their value');

export const Quotas = z.strictObject({
  tool_calls_per_minute: z.number().int().nullable(),
  write_calls_per_hour: z.number().int().nullable(),
});

export const StoredPolicy = z.strictObject({
  org: z.string(),
  disabled_tools: z.array(z.string()),
  secret_detection_mode: DetectionMode.nullable(),
  read_only: z.boolean(),
  allowed_repos: z.array(z.string()).nullable(),
  quotas: Quotas,
  version: z.number().int().describe('0 when the org never set a policy'),
  updated_at: z.string().nullable(),
  updated_by: z.string().nullable(),
});

export const GlobalFloor = z.strictObject({
  disabled_tools: z.array(z.string()).describe('DISABLED_TOOLS'),
  toolsets: z.array(z.string()).describe('TOOLSETS (empty = all)'),
  read_only: z.boolean().describe('READ_ONLY'),
  secret_detection_mode: DetectionMode.describe('SECRET_DETECTION_MODE'),
});

export const EffectivePolicy = z.strictObject({
  disabled_tools: z.array(z.string()).describe('Global and org patterns together'),
  secret_detection_mode: DetectionMode,
  secret_detection_mode_source: z.enum(['global', 'org']),
  read_only: z.boolean(),
  allowed_repos: z.array(z.string()).nullable(),
  quotas: Quotas,
});

export const PolicyView = z.strictObject({
  org: z.string(),
  role: z.enum(['site_admin', 'org_owner']).describe('Why the caller may manage this org'),
  policy: StoredPolicy,
  effective: EffectivePolicy,
  floor: GlobalFloor,
  notes: z.array(z.string()).describe('Rules of the org that the global floor overrides'),
});

export const PolicyChange = z.strictObject({
  id: z.string(),
  org: z.string(),
  version: z.number().int(),
  changed_at: z.string(),
  changed_by: z.string(),
  role: z.string(),
  before: StoredPolicy.nullable(),
  after: StoredPolicy,
});

export const PolicyHistory = z.strictObject({
  org: z.string(),
  changes: z.array(PolicyChange),
  next_before: z.string().nullable().describe('Pass as ?before= for older changes; null at the end'),
});

export const OrgSummary = z.strictObject({
  org: z.string(),
  role: z.enum(['site_admin', 'org_owner']),
  has_policy: z.boolean(),
  version: z.number().int(),
  updated_at: z.string().nullable(),
  updated_by: z.string().nullable(),
});

export const OrgList = z.strictObject({ orgs: z.array(OrgSummary) });

export const SimulateRequest = z.strictObject({
  login: z.string().min(1).max(100).describe('The person the call would run as'),
  org: OrgName,
  tool: z.string().min(1).max(200).describe('An operation name (operationId)'),
  repo: z
    .string()
    .regex(REPO_PATTERN)
    .nullable()
    .optional()
    .describe('The repository the call would reach, if any'),
});

export const PolicyRule = z.strictObject({
  source: z.enum(['global', 'org']),
  name: z.string(),
  value: z.unknown().optional(),
});

export const QuotaUsage = z.strictObject({
  quota: z.enum(['tool_calls_per_minute', 'write_calls_per_hour']),
  used: z.number().int(),
  limit: z.number().int(),
  reset_at: z.string(),
});

export const SimulateResult = z.strictObject({
  login: z.string(),
  org: z.string(),
  tool: z.string(),
  repo: z.string().nullable(),
  operation: z.strictObject({ method: z.string(), path: z.string(), toolset: z.string().nullable() }),
  decision: z.enum(['allowed', 'refused']),
  kind: z.enum(['tool_disabled', 'read_only', 'repo_not_allowed', 'rate_limited']).nullable(),
  rule: PolicyRule.nullable(),
  message: z.string(),
  secret_detection_mode: DetectionMode,
  secret_detection_mode_source: z.enum(['global', 'org']),
  quotas: z.array(QuotaUsage).describe('Usage of the org quotas this call would count against'),
});

export const Settings = z.strictObject({
  floor: GlobalFloor,
  settings: z
    .array(
      z.strictObject({
        name: z.string(),
        group: z.string(),
        description: z.string(),
        value: z.unknown().describe('The effective value; for secrets only whether it is set'),
        sensitive: z.boolean(),
        is_default: z.boolean(),
      }),
    )
    .describe('Every environment variable with its effective value (secrets never shown)'),
});

export const CatalogueEntry = z.strictObject({
  name: z.string(),
  toolset: z.string().nullable(),
  method: z.string(),
  path: z.string(),
  access: z.enum(['read', 'write']),
  summary: z.string(),
  disabled_globally: PolicyRule.nullable().describe('The global rule that refuses it everywhere, if any'),
  disabled_in: z
    .array(
      z.strictObject({ org: z.string(), kind: z.enum(['tool_disabled', 'read_only']), rule: PolicyRule }),
    )
    .describe('Orgs (visible to the caller) whose policy refuses it'),
});

const SpecOperationRef = z.strictObject({ name: z.string(), method: z.string(), route: z.string() });

export const SpecDifferences = z.strictObject({
  reference_version: z.string().describe('The version of the bundled description'),
  live_version: z.string().describe('The version of the live description'),
  added: z.array(SpecOperationRef).describe('Operations of the live description only'),
  removed: z.array(SpecOperationRef).describe('Operations of the bundled description only'),
  changed: z
    .array(
      SpecOperationRef.extend({
        reference: SpecOperationRef.describe('The same operation in the bundled description'),
        changes: z.array(
          z.strictObject({
            what: z.enum(['name', 'method', 'route', 'parameter', 'body']),
            from: z.string().nullable().describe('As the bundled description has it; null when added'),
            to: z.string().nullable().describe('As the live description has it; null when dropped'),
          }),
        ),
      }),
    )
    .describe('Operations of both, paired by method and route (then by name), that differ'),
});

export const Catalogue = z.strictObject({
  tools: z.array(CatalogueEntry),
  counts: z.strictObject({ total: z.number().int(), disabled_globally: z.number().int() }),
  spec: z
    .strictObject({
      version: z.string().describe('The Gitea API version of the description in use (its info.version)'),
      source: z.string().describe('SPEC_SOURCE: bundled, live, or a file path'),
      loaded: z
        .enum(['bundled', 'live', 'file'])
        .describe('Where the description in use came from (SPEC_SOURCE=live falls back to the bundled one)'),
      differences: SpecDifferences.nullable().describe(
        'With SPEC_SOURCE=live and the live description in use: the operations that differ from the bundled one; else null',
      ),
    })
    .describe('The API description the tools are generated from'),
});

export const Me = z.strictObject({
  login: z.string(),
  is_site_admin: z.boolean(),
  via: z.string(),
});

export const ErrorResponse = z.strictObject({
  error: z.strictObject({
    status: z.number().int(),
    kind: z.enum([
      'bad_request',
      'unauthorized',
      'forbidden',
      'not_found',
      'payload_too_large',
      'unavailable',
      'internal_error',
    ]),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});

/** zod issues as short lines naming the JSON path: what a 400 says. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.slice(0, 20).map((issue) => {
    const path = issue.path.length ? issue.path.join('.') : '(body)';
    if (issue.code === 'unrecognized_keys') return `${path}: unknown field(s) ${issue.keys.join(', ')}`;
    return `${path}: ${issue.message}`;
  });
}

export const AuditRecord = z.strictObject({
  seq: z.string(),
  event_id: z.string(),
  created_at: z.string(),
  login: z.string().nullable(),
  mode: z.string().nullable(),
  sudo: z.string().nullable(),
  client_name: z.string().nullable(),
  client_version: z.string().nullable(),
  tool: z.string(),
  operation_id: z.string().nullable(),
  org: z.string().nullable(),
  repo: z.string().nullable(),
  method: z.string().nullable(),
  path: z.string().nullable(),
  status: z.number().int().nullable(),
  kind: z.string().nullable().describe('Error kind; null for a successful call'),
  duration_ms: z.number(),
  result_bytes: z.number().int(),
  redactions: z.number().int(),
  masks: z.number().int(),
  blocked: z.boolean(),
  arguments: z.unknown().describe('Arguments with secrets redacted'),
  prev_hash: z.string(),
  hash: z.string(),
});

export const AuditPage = z.strictObject({
  items: z.array(AuditRecord),
  next_cursor: z.string().nullable().describe('Pass as ?cursor= for the next page; null at the end'),
});

const Count = z.number().int();
export const AuditStats = z.strictObject({
  from: z.string(),
  to: z.string(),
  org: z.string().nullable(),
  total: Count,
  by_kind: z.array(z.strictObject({ kind: z.string().describe('"ok" for successful calls'), count: Count })),
  by_tool: z.array(z.strictObject({ tool: z.string(), count: Count })),
  by_org: z.array(z.strictObject({ org: z.string().nullable(), count: Count })),
  by_day: z.array(z.strictObject({ day: z.string().describe('YYYY-MM-DD (UTC)'), count: Count })),
  by_login: z.array(z.strictObject({ login: z.string().nullable(), count: Count })).describe('Top people'),
  by_minute: z
    .array(z.strictObject({ minute: z.string().describe('YYYY-MM-DDTHH:MMZ (UTC)'), count: Count }))
    .describe('Calls per minute; empty when the window is longer than a day'),
  masked: Count.describe('Results in which secrets were masked'),
  blocked: Count.describe('Results withheld (block mode, or a secret in a binary or archive)'),
});

const ChainLink = z.strictObject({ seq: z.string(), hash: z.string() });
export const AuditVerify = z.strictObject({
  ok: z.boolean(),
  checked: Count,
  anchor: ChainLink.describe('Where verification started (genesis or the last pruning checkpoint)'),
  last: ChainLink,
  head: ChainLink.describe('The chain head recorded by the writers'),
  first_break: z
    .strictObject({
      reason: z.string(),
      seq: z.string(),
      event_id: z.string().nullable(),
      detail: z.string(),
    })
    .nullable(),
});
