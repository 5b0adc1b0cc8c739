// The audit trail through /api/admin for the console: query (filters, cursor pages), export
// (CSV or JSON Lines, streamed), stats for the overview, and the chain's verification status.
// Site admins see every record; an org owner sees the records of an org they own (org= required).
import type { ServerResponse } from 'node:http';
import type { z } from 'zod';
import {
  AuditQueryError,
  csvHeader,
  parseAuditQuery,
  serialiseRecord,
  toExportObject,
  type AuditQuery,
  type ExportFormat,
} from '../../core/audit';
import type { AuditRecordRepository } from '../../infra/audit/audit-record.repository';
import type { AuditStatsRepository } from '../../infra/audit/audit-stats.repository';
import type { AdminPrincipal } from './admin-auth';
import type * as S from './admin-api.schemas';
import { AdminApiError, type AdminPolicyService } from './admin-policy.service';

const QUERY_KEYS = ['from', 'to', 'login', 'org', 'repo', 'tool', 'kind', 'limit', 'cursor', 'order'];
const DAY_MS = 86_400_000;

export class AdminAuditService {
  constructor(
    private readonly records: AuditRecordRepository | null,
    private readonly statsRepo: AuditStatsRepository | null,
    private readonly policies: AdminPolicyService,
  ) {}

  private repo(): AuditRecordRepository {
    if (!this.records) throw new AdminApiError(503, 'the audit trail is not available in this deployment');
    return this.records;
  }

  /** Filters from the query string; org owners are held to an org they own. */
  private async scopedQuery(
    principal: AdminPrincipal,
    params: URLSearchParams,
    allowed: string[],
  ): Promise<AuditQuery> {
    const raw: Record<string, unknown> = {};
    for (const [key, value] of params) {
      if (!allowed.includes(key)) throw new AdminApiError(400, `unknown query parameter ${key.slice(0, 50)}`);
      raw[key] = value;
    }
    let query: AuditQuery;
    try {
      query = parseAuditQuery(raw);
    } catch (error) {
      if (error instanceof AuditQueryError) throw new AdminApiError(400, error.message);
      throw error;
    }
    if (!principal.isSiteAdmin) {
      if (!query.org) throw new AdminApiError(403, 'org owners must name their org (?org=)');
      await this.policies.authorize(principal, query.org);
    }
    return query;
  }

  async query(principal: AdminPrincipal, params: URLSearchParams): Promise<z.infer<typeof S.AuditPage>> {
    const query = await this.scopedQuery(principal, params, QUERY_KEYS);
    const page = await this.repo().query(query);
    return {
      items: page.items.map((r) => toExportObject(r) as z.infer<typeof S.AuditRecord>),
      next_cursor: page.nextCursor,
    };
  }

  async export(principal: AdminPrincipal, params: URLSearchParams, res: ServerResponse): Promise<void> {
    const format = (params.get('format') ?? 'jsonl') as ExportFormat;
    if (format !== 'jsonl' && format !== 'csv') throw new AdminApiError(400, 'format: csv or jsonl');
    params.delete('format');
    const query = await this.scopedQuery(
      principal,
      params,
      QUERY_KEYS.filter((k) => k !== 'limit' && k !== 'cursor'),
    );
    const repo = this.repo();
    res.statusCode = 200;
    res.setHeader(
      'content-type',
      format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    );
    res.setHeader(
      'content-disposition',
      `attachment; filename="audit.${format === 'csv' ? 'csv' : 'jsonl'}"`,
    );
    res.setHeader('cache-control', 'no-store');
    res.setHeader('x-content-type-options', 'nosniff');
    if (format === 'csv') res.write(csvHeader());
    for await (const record of repo.stream({ ...query, limit: 500, cursor: null })) {
      if (!res.write(serialiseRecord(record, format))) await new Promise((r) => res.once('drain', r));
    }
    res.end();
  }

  async stats(principal: AdminPrincipal, params: URLSearchParams): Promise<z.infer<typeof S.AuditStats>> {
    const query = await this.scopedQuery(principal, params, ['from', 'to', 'org']);
    if (!this.statsRepo) throw new AdminApiError(503, 'the audit trail is not available in this deployment');
    const to = query.to ?? new Date();
    const from = query.from ?? new Date(to.getTime() - 30 * DAY_MS);
    if (to.getTime() - from.getTime() > 400 * DAY_MS)
      throw new AdminApiError(400, 'from/to: at most 400 days');
    const stats = await this.statsRepo.stats({ from, to, org: query.org, top: 20 });
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      org: query.org,
      total: stats.total,
      by_kind: stats.byKind,
      by_tool: stats.byTool,
      by_org: principal.isSiteAdmin
        ? stats.byOrg
        : stats.byOrg.filter((o) => o.org === query.org?.toLowerCase()),
      by_day: stats.byDay,
      by_login: stats.byLogin,
      by_minute: stats.byMinute,
      masked: stats.masked,
      blocked: stats.blocked,
    };
  }

  async verify(principal: AdminPrincipal): Promise<z.infer<typeof S.AuditVerify>> {
    this.policies.requireSiteAdmin(principal);
    const result = await this.repo().verify();
    const link = (l: { seq: bigint; hash: string }) => ({ seq: l.seq.toString(), hash: l.hash });
    return {
      ok: result.ok,
      checked: result.checked,
      anchor: link(result.anchor),
      last: link(result.last),
      head: link(result.head),
      first_break: result.firstBreak
        ? {
            reason: result.firstBreak.reason,
            seq: result.firstBreak.seq.toString(),
            event_id: result.firstBreak.eventId,
            detail: result.firstBreak.detail,
          }
        : null,
    };
  }
}
