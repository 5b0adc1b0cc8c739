// /api/admin: thin HTTP glue over AdminPolicyService. Authenticates through the AdminAuthRegistry,
// validates every input with the zod schemas the OpenAPI document is built from, and answers
// errors as {"error": {"status", "kind", "message"}}. The service's body parser is off, so bodies
// are read here (bounded).
import { Controller, Get, Inject, Post, Put, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { LOGGER } from '../tokens';
import * as S from './admin-api.schemas';
import type { AdminAuthRegistry, AdminPrincipal } from './admin-auth';
import { adminOpenApiDocument } from './admin-openapi';
import { AdminApiError, type AdminPolicyService } from './admin-policy.service';
import type { AdminAuditService } from './admin-audit.service';
import { ADMIN_AUDIT_SERVICE, ADMIN_AUTH_REGISTRY, ADMIN_POLICY_SERVICE } from './policy.tokens';

const MAX_BODY_BYTES = 256 * 1024;
/** A handler that answered the response itself (streamed). */
const STREAMED = Symbol('streamed');

type Req = IncomingMessage & { params?: Record<string, string> };

const KIND: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  503: 'unavailable',
  500: 'internal_error',
};

function send(res: ServerResponse, status: number, body: unknown): void {
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

function readJson(req: IncomingMessage): Promise<unknown> {
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

function parse<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const problems = S.describeIssues(result.error);
    throw new AdminApiError(400, `invalid input: ${problems.join('; ')}`, { problems });
  }
  return result.data;
}

function query(req: IncomingMessage): URLSearchParams {
  try {
    return new URL(req.url ?? '/', 'http://localhost').searchParams;
  } catch {
    return new URLSearchParams();
  }
}

function orgParam(req: Req): string {
  return parse(S.OrgName, req.params?.org ?? '');
}

@Controller('api/admin')
export class AdminController {
  constructor(
    @Inject(ADMIN_AUTH_REGISTRY) private readonly auth: AdminAuthRegistry,
    @Inject(ADMIN_POLICY_SERVICE) private readonly service: AdminPolicyService,
    @Inject(ADMIN_AUDIT_SERVICE) private readonly audits: AdminAuditService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Get('openapi.json')
  openapi(@Res() res: ServerResponse): void {
    send(res, 200, adminOpenApiDocument());
  }

  @Get('me')
  me(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    return this.run(req, res, async (principal) => ({
      login: principal.login,
      is_site_admin: principal.isSiteAdmin,
      via: principal.via,
    }));
  }

  @Get('orgs')
  orgs(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    return this.run(req, res, (principal) => this.service.listOrgs(principal));
  }

  @Get('orgs/:org/policy')
  getPolicy(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    return this.run(req, res, async (principal) => {
      const org = orgParam(req);
      return this.service.view(org, await this.service.authorize(principal, org));
    });
  }

  @Put('orgs/:org/policy')
  putPolicy(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    return this.run(req, res, async (principal) => {
      // Every change attempt is audited: a refused one here, an applied one by the service.
      const started = Date.now();
      let raw: unknown;
      let applied = false;
      try {
        const org = orgParam(req);
        raw = await readJson(req);
        const body = parse(S.PolicyPut, raw);
        const view = await this.service.update(principal, org, body, `/api/admin/orgs/${org}/policy`);
        applied = true;
        return view;
      } catch (error) {
        if (!applied) {
          const status = error instanceof AdminApiError ? error.status : 500;
          this.service.auditRefusedChange(principal, {
            org: req.params?.org ?? '',
            body: raw,
            status,
            kind: KIND[status] ?? 'internal_error',
            message: error instanceof Error ? error.message : String(error),
            started,
          });
        }
        throw error;
      }
    });
  }

  @Get('orgs/:org/policy/history')
  history(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    return this.run(req, res, async (principal) => {
      const org = orgParam(req);
      await this.service.authorize(principal, org);
      const q = query(req);
      const limitText = q.get('limit');
      const limit = limitText === null ? 50 : Number(limitText);
      if (!Number.isInteger(limit) || limit < 1 || limit > 200)
        throw new AdminApiError(400, 'limit: a whole number from 1 to 200');
      const before = q.get('before');
      if (before !== null && !/^\d{1,19}$/.test(before))
        throw new AdminApiError(400, 'before: the next_before value of a previous page');
      return this.service.history(org, limit, before);
    });
  }

  @Post('policy/simulate')
  simulate(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    return this.run(req, res, async (principal) => {
      const input = parse(S.SimulateRequest, await readJson(req));
      await this.service.authorize(principal, input.org);
      return this.service.simulate(input);
    });
  }

  @Get('settings')
  settings(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    return this.run(req, res, async (principal) => {
      this.service.requireSiteAdmin(principal);
      return this.service.settings();
    });
  }

  @Get('catalogue')
  catalogue(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    return this.run(req, res, async (principal) => {
      const org = query(req).get('org');
      return this.service.catalogue(principal, org === null ? null : parse(S.OrgName, org));
    });
  }

  @Get('audit')
  audit(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    return this.run(req, res, (principal) => this.audits.query(principal, query(req)));
  }

  @Get('audit/export')
  auditExport(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    return this.run(req, res, async (principal) => {
      await this.audits.export(principal, query(req), res);
      return STREAMED;
    });
  }

  @Get('audit/stats')
  auditStats(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    return this.run(req, res, (principal) => this.audits.stats(principal, query(req)));
  }

  @Get('audit/verify')
  auditVerify(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    return this.run(req, res, (principal) => this.audits.verify(principal));
  }

  /** Authenticate, run, answer: every route's errors take the same shape. */
  private async run(
    req: Req,
    res: ServerResponse,
    handler: (principal: AdminPrincipal) => Promise<unknown>,
  ): Promise<void> {
    try {
      const outcome = await this.auth.authenticate({
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
        this.logger.error(
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
      this.logger.error(
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
}
