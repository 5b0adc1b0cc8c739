// HTTP glue shared by every /api/admin controller (policy, audit, grants): authentication through
// the AdminAuthRegistry, bounded JSON bodies, zod validation, and one error shape
// {"error": {"status", "kind", "message", "details?"}} with no-store and anti-framing headers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { z } from 'zod';
import * as S from './admin-api.schemas';
import type { AdminAuthRegistry, AdminPrincipal } from './admin-auth';
import { AdminApiError } from './admin-policy.service';

export const MAX_BODY_BYTES = 256 * 1024;
/** A handler that answered the response itself (streamed). */
export const STREAMED = Symbol('streamed');

export type AdminReq = IncomingMessage & { params?: Record<string, string> };

export const KIND: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  503: 'unavailable',
  500: 'internal_error',
};

export function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(text);
}

export function readJson(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json')
    return Promise.reject(new AdminApiError(400, 'Content-Type must be application/json'));
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES)
    return Promise.reject(new AdminApiError(413, `the body exceeds ${MAX_BODY_BYTES} bytes`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        reject(new AdminApiError(413, `the body exceeds ${MAX_BODY_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new AdminApiError(400, 'the body is not valid JSON'));
      }
    });
    req.once('error', () => reject(new AdminApiError(400, 'the body could not be read')));
  });
}

export function parse<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const problems = S.describeIssues(result.error);
    throw new AdminApiError(400, `invalid input: ${problems.join('; ')}`, { problems });
  }
  return result.data;
}

/** Authenticate, run, answer: every /api/admin route's errors take the same shape. */
export async function runAdmin(
  deps: { auth: AdminAuthRegistry; logger: Logger },
  req: AdminReq,
  res: ServerResponse,
  handler: (principal: AdminPrincipal) => Promise<unknown>,
): Promise<void> {
  try {
    const outcome = await deps.auth.authenticate({
      method: (req.method ?? 'GET').toUpperCase(),
      path: (req.url ?? '').split('?')[0],
      headers: req.headers as Record<string, string | undefined>,
    });
    if (!outcome.ok) {
      if (outcome.status === 401) res.setHeader('www-authenticate', 'Bearer realm="aegis-admin"');
      return send(res, outcome.status, {
        error: { status: outcome.status, kind: KIND[outcome.status], message: outcome.message },
      });
    }
    const body = await handler(outcome.principal);
    if (body !== STREAMED) send(res, 200, body);
  } catch (error) {
    if (res.headersSent) {
      // A streamed export failed part way: the client sees a cut body, the log says why.
      deps.logger.error(
        { component: 'admin', err: error instanceof Error ? error.message : String(error) },
        'admin stream failed',
      );
      res.destroy();
      return;
    }
    if (error instanceof AdminApiError) {
      return send(res, error.status, {
        error: {
          status: error.status,
          kind: KIND[error.status],
          message: error.message,
          ...(error.details !== undefined ? { details: error.details } : {}),
        },
      });
    }
    deps.logger.error(
      { component: 'admin', err: error instanceof Error ? error.message : String(error) },
      'admin request failed',
    );
    send(res, 500, {
      error: {
        status: 500,
        kind: 'internal_error',
        message: 'the request failed inside the service; see the service logs',
      },
    });
  }
}
