// /api/admin: thin HTTP glue over AdminPolicyService. Authenticates through the AdminAuthRegistry,
// validates every input with the zod schemas the OpenAPI document is built from, and answers
// errors as {"error": {"status", "kind", "message"}} (admin-http.ts). The service's body parser is
// off, so bodies are read there (bounded).
import { Controller, Get, Inject, Post, Put, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { LOGGER } from '../tokens';
import * as S from './admin-api.schemas';
import type { AdminAuthRegistry, AdminPrincipal } from './admin-auth';
import { KIND, parse, readJson, runAdmin, send, STREAMED, type AdminReq } from './admin-http';
import { adminOpenApiDocument } from './admin-openapi';
import { AdminApiError, type AdminPolicyService } from './admin-policy.service';
import type { AdminAuditService } from './admin-audit.service';
import { ADMIN_AUDIT_SERVICE, ADMIN_AUTH_REGISTRY, ADMIN_POLICY_SERVICE } from './policy.tokens';

type Req = AdminReq;

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
  private run(
    req: Req,
    res: ServerResponse,
    handler: (principal: AdminPrincipal) => Promise<unknown>,
  ): Promise<void> {
    return runAdmin({ auth: this.auth, logger: this.logger }, req, res, handler);
  }
}
