// Aggregates over the audit records for the console's overview (GET /api/admin/audit/stats): counts
// by outcome kind, tool, person, org, day and (windows of a day or less) minute, and how many
// results were masked or blocked, within a time window, optionally for one org. Raw SQL on the
// indexed columns, the same on PostgreSQL and PGlite.
export type StatsDb = { $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T> };

export type AuditStatsQuery = { from: Date; to: Date; org: string | null; top: number };

export type AuditStats = {
  total: number;
  byKind: Array<{ kind: string; count: number }>;
  byTool: Array<{ tool: string; count: number }>;
  byOrg: Array<{ org: string | null; count: number }>;
  byDay: Array<{ day: string; count: number }>;
  byLogin: Array<{ login: string | null; count: number }>;
  /** Empty for windows longer than a day (too many minutes to chart). */
  byMinute: Array<{ minute: string; count: number }>;
  masked: number;
  blocked: number;
};

const DAY_MS = 86_400_000;

type Row = Record<string, unknown>;

export class AuditStatsRepository {
  constructor(private readonly db: StatsDb) {}

  async stats(query: AuditStatsQuery): Promise<AuditStats> {
    const params: unknown[] = [query.from.toISOString(), query.to.toISOString()];
    let where = 'created_at >= $1::timestamptz AND created_at < $2::timestamptz';
    if (query.org) {
      params.push(query.org.toLowerCase());
      where += ` AND lower(org) = $${params.length}::text`;
    }
    const group = (column: string, order = 'n DESC', limit = query.top) =>
      this.db.$queryRawUnsafe<Row[]>(
        `SELECT ${column} AS key, count(*)::text AS n FROM audit_records WHERE ${where} GROUP BY 1 ORDER BY ${order} LIMIT ${Math.max(1, Math.min(limit, 1000))}`,
        ...params,
      );
    const perMinute = query.to.getTime() - query.from.getTime() <= DAY_MS;
    const [total, kinds, tools, orgs, days, logins, minutes] = await Promise.all([
      this.db.$queryRawUnsafe<Row[]>(
        `SELECT count(*)::text AS n, count(*) FILTER (WHERE masks > 0)::text AS masked,
                count(*) FILTER (WHERE blocked)::text AS blocked FROM audit_records WHERE ${where}`,
        ...params,
      ),
      group(`coalesce(kind, 'ok')`, 'n DESC', 100),
      group('tool'),
      group('lower(org)'),
      group(`to_char(date_trunc('day', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`, 'key ASC', 400),
      group('login'),
      perMinute
        ? group(
            `to_char(date_trunc('minute', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24:MI"Z"')`,
            'key ASC',
            1440,
          )
        : Promise.resolve([] as Row[]),
    ]);
    const pairs = (rows: Row[]) => rows.map((r) => ({ key: r.key as string | null, count: Number(r.n) }));
    return {
      total: Number(total[0]?.n ?? 0),
      byKind: pairs(kinds).map((p) => ({ kind: String(p.key), count: p.count })),
      byTool: pairs(tools).map((p) => ({ tool: String(p.key), count: p.count })),
      byOrg: pairs(orgs).map((p) => ({ org: p.key, count: p.count })),
      byDay: pairs(days).map((p) => ({ day: String(p.key), count: p.count })),
      byLogin: pairs(logins).map((p) => ({ login: p.key, count: p.count })),
      byMinute: pairs(minutes).map((p) => ({ minute: String(p.key), count: p.count })),
      masked: Number(total[0]?.masked ?? 0),
      blocked: Number(total[0]?.blocked ?? 0),
    };
  }
}
