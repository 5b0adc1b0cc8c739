// PostgreSQL/PGlite store of org policies and their history (tables org_policies and
// org_policy_changes, migration 20261201120500_org_policies). Raw, parameterised SQL so the same
// code runs on adapter-pg and PGlite; a change locks the org's row, writes the new version and its
// history entry in one transaction, so two concurrent changes get versions n and n+1, never both n.
import type { SecretDetectionMode } from '../../config/app-config';
import {
  applyPolicyPatch,
  defaultOrgPolicy,
  normalizeOrg,
  policyToJson,
  type OrgPolicy,
  type OrgPolicyPatch,
} from '../../core/policy/org-policy';

export type PolicyDb = {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
  $transaction<R>(
    fn: (tx: PolicyTx) => Promise<R>,
    options?: { maxWait?: number; timeout?: number },
  ): Promise<R>;
};
type PolicyTx = Pick<PolicyDb, '$queryRawUnsafe' | '$executeRawUnsafe'>;

export type PolicyActor = { login: string; role: 'site_admin' | 'org_owner' };

export type PolicyChange = {
  id: string;
  org: string;
  version: number;
  changedAt: string;
  changedBy: string;
  role: string;
  before: ReturnType<typeof policyToJson> | null;
  after: ReturnType<typeof policyToJson>;
};

type Row = Record<string, unknown>;

const POLICY_COLUMNS = `org, disabled_tools::text AS disabled_tools, secret_detection_mode, read_only,
  allowed_repos::text AS allowed_repos, tool_calls_per_minute, write_calls_per_hour, version,
  (extract(epoch from updated_at) * 1000)::bigint::text AS updated_ms, updated_by`;

function parseList(value: unknown): string[] | null {
  if (value === null || value === undefined) return null;
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : null;
}

const intOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

function toPolicy(row: Row): OrgPolicy {
  return {
    org: String(row.org),
    disabledTools: parseList(row.disabled_tools) ?? [],
    secretDetectionMode: (row.secret_detection_mode as SecretDetectionMode | null) ?? null,
    readOnly: row.read_only === true || row.read_only === 't',
    allowedRepos: parseList(row.allowed_repos),
    quotas: {
      toolCallsPerMinute: intOrNull(row.tool_calls_per_minute),
      writeCallsPerHour: intOrNull(row.write_calls_per_hour),
    },
    version: Number(row.version),
    updatedAt: new Date(Number(row.updated_ms)).toISOString(),
    updatedBy: String(row.updated_by),
  };
}

export class OrgPolicyRepository {
  constructor(private readonly db: PolicyDb) {}

  async get(org: string): Promise<OrgPolicy | null> {
    const rows = await this.db.$queryRawUnsafe<Row[]>(
      `SELECT ${POLICY_COLUMNS} FROM org_policies WHERE org = $1`,
      normalizeOrg(org),
    );
    return rows[0] ? toPolicy(rows[0]) : null;
  }

  async list(): Promise<OrgPolicy[]> {
    const rows = await this.db.$queryRawUnsafe<Row[]>(
      `SELECT ${POLICY_COLUMNS} FROM org_policies ORDER BY org`,
    );
    return rows.map(toPolicy);
  }

  /** Applies `patch` to the org's policy (or the default one) and records the change. */
  async update(
    org: string,
    patch: OrgPolicyPatch,
    actor: PolicyActor,
  ): Promise<{ before: OrgPolicy | null; after: OrgPolicy }> {
    const key = normalizeOrg(org);
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.db.$transaction(
          async (tx) => {
            const rows = await tx.$queryRawUnsafe<Row[]>(
              `SELECT ${POLICY_COLUMNS} FROM org_policies WHERE org = $1 FOR UPDATE`,
              key,
            );
            const before = rows[0] ? toPolicy(rows[0]) : null;
            const next = applyPolicyPatch(before ?? defaultOrgPolicy(key), patch);
            const version = (before?.version ?? 0) + 1;
            const values = [
              key,
              JSON.stringify(next.disabledTools),
              next.secretDetectionMode,
              next.readOnly,
              next.allowedRepos === null ? null : JSON.stringify(next.allowedRepos),
              next.quotas.toolCallsPerMinute,
              next.quotas.writeCallsPerHour,
              version,
              actor.login,
            ];
            const written = await tx.$queryRawUnsafe<Row[]>(
              before
                ? `UPDATE org_policies SET disabled_tools = $2::jsonb, secret_detection_mode = $3, read_only = $4,
                     allowed_repos = $5::jsonb, tool_calls_per_minute = $6, write_calls_per_hour = $7,
                     version = $8, updated_at = now(), updated_by = $9
                   WHERE org = $1 RETURNING ${POLICY_COLUMNS}`
                : `INSERT INTO org_policies (org, disabled_tools, secret_detection_mode, read_only, allowed_repos,
                     tool_calls_per_minute, write_calls_per_hour, version, updated_by)
                   VALUES ($1, $2::jsonb, $3, $4, $5::jsonb, $6, $7, $8, $9) RETURNING ${POLICY_COLUMNS}`,
              ...values,
            );
            const after = toPolicy(written[0] as Row);
            await tx.$executeRawUnsafe(
              `INSERT INTO org_policy_changes (org, version, changed_by, role, before, after)
               VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb)`,
              key,
              version,
              actor.login,
              actor.role,
              before ? JSON.stringify(policyToJson(before)) : null,
              JSON.stringify(policyToJson(after)),
            );
            return { before, after };
          },
          { maxWait: 10_000, timeout: 30_000 },
        );
      } catch (error) {
        // Two first-time changes of the same org race on the INSERT: the loser retries and updates.
        if (attempt < 2 && /duplicate key|unique/i.test(error instanceof Error ? error.message : ''))
          continue;
        throw error;
      }
    }
  }

  /** Newest first; `before` is a change id to page backwards from. */
  async history(org: string, options: { limit: number; before?: string | null }): Promise<PolicyChange[]> {
    const params: unknown[] = [normalizeOrg(org), options.limit];
    let where = 'org = $1';
    if (options.before) {
      params.push(options.before);
      where += ' AND id < $3::bigint';
    }
    const rows = await this.db.$queryRawUnsafe<Row[]>(
      `SELECT id::text AS id, org, version, (extract(epoch from changed_at) * 1000)::bigint::text AS changed_ms,
         changed_by, role, before::text AS before, after::text AS after
       FROM org_policy_changes WHERE ${where} ORDER BY id DESC LIMIT $2`,
      ...params,
    );
    return rows.map((row) => ({
      id: String(row.id),
      org: String(row.org),
      version: Number(row.version),
      changedAt: new Date(Number(row.changed_ms)).toISOString(),
      changedBy: String(row.changed_by),
      role: String(row.role),
      before: row.before ? (JSON.parse(String(row.before)) as PolicyChange['before']) : null,
      after: JSON.parse(String(row.after)) as PolicyChange['after'],
    }));
  }
}
