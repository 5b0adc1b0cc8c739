// Serialisation of audit records for export: JSON Lines (one object per line, lossless) and
// CSV (RFC 4180 quoting; cells that a spreadsheet would run as a formula are prefixed with a
// quote, since tool arguments and paths come from agents).
import { canonicalJson } from './audit-chain.util';
import type { ChainedAuditRecord } from './audit-record.types';

export type ExportFormat = 'jsonl' | 'csv';

export const CSV_COLUMNS = [
  'seq',
  'event_id',
  'created_at',
  'login',
  'mode',
  'sudo',
  'client_name',
  'client_version',
  'tool',
  'operation_id',
  'org',
  'repo',
  'method',
  'path',
  'status',
  'kind',
  'duration_ms',
  'result_bytes',
  'redactions',
  'masks',
  'blocked',
  'arguments',
  'prev_hash',
  'hash',
] as const;

export function toExportObject(record: ChainedAuditRecord): Record<(typeof CSV_COLUMNS)[number], unknown> {
  return {
    seq: record.seq.toString(),
    event_id: record.eventId,
    created_at: record.createdAt.toISOString(),
    login: record.login,
    mode: record.mode,
    sudo: record.sudo,
    client_name: record.clientName,
    client_version: record.clientVersion,
    tool: record.tool,
    operation_id: record.operationId,
    org: record.org,
    repo: record.repo,
    method: record.method,
    path: record.path,
    status: record.status,
    kind: record.kind,
    duration_ms: record.durationMs,
    result_bytes: record.resultBytes,
    redactions: record.redactions,
    masks: record.masks,
    blocked: record.blocked,
    arguments: record.arguments,
    prev_hash: record.prevHash,
    hash: record.hash,
  };
}

export function toJsonLine(record: ChainedAuditRecord): string {
  return `${JSON.stringify(toExportObject(record))}\n`;
}

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? canonicalJson(value as never) : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvHeader(): string {
  return `${CSV_COLUMNS.join(',')}\r\n`;
}

export function toCsvRow(record: ChainedAuditRecord): string {
  const obj = toExportObject(record);
  return `${CSV_COLUMNS.map((column) => csvCell(obj[column])).join(',')}\r\n`;
}

export function serialiseRecord(record: ChainedAuditRecord, format: ExportFormat): string {
  return format === 'csv' ? toCsvRow(record) : toJsonLine(record);
}
