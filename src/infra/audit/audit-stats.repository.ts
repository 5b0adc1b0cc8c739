// Aggregates over the audit records for the console's overview (GET /api/admin/audit/stats): counts
// by outcome kind, tool, org and day within a time window, optionally for one org. Raw SQL on the
// indexed columns, the same on PostgreSQL and PGlite.
export type StatsDb = { $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T> };

export type AuditStatsQuery = { from: Date; to: Date; org: string | null; top: number };

export type AuditStats = {
  total: number;
  byKind: Array<{ kind: string; count: number }>;
  byTool: Array<{ tool: string; count: number }>;
  byOrg: Array<{ org: string | null; count: number }>;
  byDay: Array<{ day: string; count: number }>;
};

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
    const [total, kinds, tools, orgs, days] = await Promise.all([
      this.db.$queryRawUnsafe<Row[]>(
        `SELECT count(*)::text AS n FROM audit_records WHERE ${where}`,
        ...params,
      ),
      group(`coalesce(kind, 'ok')`, 'n DESC', 100),
      group('tool'),
      group('lower(org)'),
      group(`to_char(date_trunc('day', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`, 'key ASC', 400),
    ]);
    const pairs = (rows: Row[]) => rows.map((r) => ({ key: r.key as string | null, count: Number(r.n) }));
    return {
      total: Number(total[0]?.n ?? 0),
      byKind: pairs(kinds).map((p) => ({ kind: String(p.key), count: p.count })),
      byTool: pairs(tools).map((p) => ({ tool: String(p.key), count: p.count })),
      byOrg: pairs(orgs).map((p) => ({ org: p.key, count: p.count })),
      byDay: pairs(days).map((p) => ({ day: String(p.key), count: p.count })),
    };
  }
}
