// Small HTTP helpers shared by the simulator's handlers: typed replies, Gitea-shaped errors,
// request body parsing and Gitea's list paging (page/limit, Link, X-Total-Count).
import type { IncomingMessage } from 'node:http';

/** What a handler returns; the server turns it into bytes (and applies fault switches). */
export type Reply = {
  status: number;
  json?: unknown;
  raw?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
};

/** Gitea answers API errors as JSON {message, url}; handlers throw this to produce one. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const notFound = (message = 'not found'): HttpError => new HttpError(404, message);
export const forbidden = (message: string): HttpError => new HttpError(403, message);
export const unprocessable = (message: string): HttpError => new HttpError(422, message);
export const conflict = (message: string): HttpError => new HttpError(409, message);

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
  status,
  json: body,
  headers,
});
export const empty = (status = 204): Reply => ({ status });

export async function readBody(req: IncomingMessage, limit = 32 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > limit) throw new HttpError(413, 'request body too large');
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/** Parses a JSON or form body the way Gitea's binding does for API calls (JSON) and OAuth (form). */
export function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') {
    return Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
  }
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    // Gitea's binding reports undecodable JSON as 422
    throw unprocessable('invalid JSON body');
  }
}

// Gitea's defaults: [api] DEFAULT_PAGING_NUM = 30, MAX_RESPONSE_ITEMS = 50
export const DEFAULT_PAGING_NUM = 30;
export const MAX_RESPONSE_ITEMS = 50;

export type PageInfo = { page: number; limit: number };

export function pageInfo(query: URLSearchParams): PageInfo {
  let page = Number.parseInt(query.get('page') ?? '', 10);
  let limit = Number.parseInt(query.get('limit') ?? query.get('per_page') ?? '', 10);
  if (!Number.isFinite(page) || page <= 0) page = 1;
  if (!Number.isFinite(limit) || limit <= 0) limit = DEFAULT_PAGING_NUM;
  if (limit > MAX_RESPONSE_ITEMS) limit = MAX_RESPONSE_ITEMS;
  return { page, limit };
}

/**
 * Builds Gitea's Link header: next, last, first, prev in that order (as SetLinkHeader does),
 * each pointing at the same path with only `page` changed.
 */
export function linkHeader(
  baseUrl: string,
  rawPath: string,
  query: URLSearchParams,
  total: number,
  p: PageInfo,
): string {
  const pages = Math.max(1, Math.ceil(total / p.limit));
  const at = (n: number): string => {
    const q = new URLSearchParams(query);
    q.set('page', String(n));
    if (!q.has('limit')) q.set('limit', String(p.limit));
    return `<${baseUrl}${rawPath}?${q.toString()}>`;
  };
  const links: string[] = [];
  if (p.page < pages) {
    links.push(`${at(p.page + 1)}; rel="next"`);
    links.push(`${at(pages)}; rel="last"`);
  }
  if (p.page > 1) {
    links.push(`${at(1)}; rel="first"`);
    links.push(`${at(p.page - 1)}; rel="prev"`);
  }
  return links.join(',');
}
