// Filters and cursor pagination for reading audit records (console, export CLI). Records are
// listed newest first by chain position; the cursor is the last seen seq, opaque to callers.
export type AuditQuery = {
  from: Date | null; // inclusive
  to: Date | null; // exclusive
  login: string | null;
  org: string | null;
  repo: string | null;
  tool: string | null;
  /** Error kind; the value 'ok' selects successful calls (kind is null). */
  kind: string | null;
  limit: number;
  /** Opaque cursor from a previous page (records strictly older than it). */
  cursor: string | null;
  order: 'desc' | 'asc';
};

export type AuditPage<T> = { items: T[]; nextCursor: string | null };

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 100;

export class AuditQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuditQueryError';
  }
}

type Cursor = { seq: bigint; order: 'desc' | 'asc' };

export function encodeCursor(seq: bigint, order: 'desc' | 'asc' = 'desc'): string {
  return Buffer.from(`${order === 'desc' ? 'd' : 'a'}:${seq.toString()}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): Cursor {
  const raw = /^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^([da]):(\d{1,19})$/.exec(raw);
  if (!match) throw new AuditQueryError('invalid cursor');
  return { order: match[1] === 'd' ? 'desc' : 'asc', seq: BigInt(match[2] as string) };
}

function optText(raw: Record<string, unknown>, key: string): string | null {
  const value = raw[key];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > 256)
    throw new AuditQueryError(`${key} must be a string of at most 256 characters`);
  return value;
}

function optDate(raw: Record<string, unknown>, key: string): Date | null {
  const value = raw[key];
  if (value === undefined || value === null || value === '') return null;
  const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw new AuditQueryError(`${key} must be an ISO 8601 date`);
  return date;
}

/** Validates untrusted filter input (query string, CLI flags) into an AuditQuery. */
export function parseAuditQuery(raw: Record<string, unknown>): AuditQuery {
  const limitRaw = raw.limit;
  let limit = DEFAULT_PAGE_SIZE;
  if (limitRaw !== undefined && limitRaw !== null && limitRaw !== '') {
    limit = typeof limitRaw === 'number' ? limitRaw : Number(limitRaw);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
      throw new AuditQueryError(`limit must be an integer between 1 and ${MAX_PAGE_SIZE}`);
    }
  }
  const orderRaw = raw.order ?? 'desc';
  if (orderRaw !== 'desc' && orderRaw !== 'asc') throw new AuditQueryError('order must be asc or desc');
  const query: AuditQuery = {
    from: optDate(raw, 'from'),
    to: optDate(raw, 'to'),
    login: optText(raw, 'login'),
    org: optText(raw, 'org'),
    repo: optText(raw, 'repo'),
    tool: optText(raw, 'tool'),
    kind: optText(raw, 'kind'),
    limit,
    cursor: optText(raw, 'cursor'),
    order: orderRaw,
  };
  if (query.from && query.to && query.from >= query.to) throw new AuditQueryError('from must be before to');
  if (query.cursor && decodeCursor(query.cursor).order !== query.order)
    throw new AuditQueryError('cursor belongs to another order');
  return query;
}

export function emptyQuery(overrides: Partial<AuditQuery> = {}): AuditQuery {
  return {
    from: null,
    to: null,
    login: null,
    org: null,
    repo: null,
    tool: null,
    kind: null,
    limit: DEFAULT_PAGE_SIZE,
    cursor: null,
    order: 'desc',
    ...overrides,
  };
}
