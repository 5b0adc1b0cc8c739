// /api/admin/connections (a person's own grants) and /api/admin/grants (site admins): thin glue
// over ConnectionsService, authenticated, validated and answered like every /api/admin route
// (admin-http.ts). Revokes are POSTs: the console session needs its CSRF token for them.
import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { LOGGER } from '../tokens';
import type { AdminAuthRegistry, AdminPrincipal } from '../policy/admin-auth';
import { KIND, parse, readJson, runAdmin, type AdminReq } from '../policy/admin-http';
import { AdminApiError } from '../policy/admin-policy.service';
import { ADMIN_AUTH_REGISTRY } from '../policy/policy.tokens';
import type { ConnectionsService, RevokeAttempt } from './connections.service';
import * as G from './grants.schemas';
import { CONNECTIONS_SERVICE } from './grants.tokens';

type Req = AdminReq;

function filters(req: AdminReq): unknown {
  const params = new URL(req.url ?? '/', 'http://localhost').searchParams;
  return Object.fromEntries(params);
}

@Controller('api/admin')
export class GrantsController {
  constructor(
    @Inject(ADMIN_AUTH_REGISTRY) private readonly auth: AdminAuthRegistry,
    @Inject(CONNECTIONS_SERVICE) private readonly connections: ConnectionsService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Get('connections')
  mine(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    return this.run(req, res, (principal) => this.connections.mine(principal));
  }

  @Post('connections/revoke-all')
  revokeAllMine(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    return this.revoke(req, res, 'connections', null, async (principal, attempt) => {
      parse(G.RevokeRequest, await readJson(req));
      return this.connections.revokeAllMine(principal, attempt);
    });
  }

  @Post('connections/:id/revoke')
  revokeMine(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    return this.revoke(req, res, 'connections', req.params?.id ?? '', async (principal, attempt) => {
      const id = parse(G.ConnectionId, req.params?.id ?? '');
      parse(G.RevokeRequest, await readJson(req));
      return this.connections.revokeMine(principal, id, attempt);
    });
  }

  @Get('grants')
  all(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    return this.run(req, res, (principal) =>
      this.connections.all(principal, parse(G.GrantFilters, filters(req))),
    );
  }

  @Post('grants/:id/revoke')
  revokeAny(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    return this.revoke(req, res, 'grants', req.params?.id ?? '', async (principal, attempt) => {
      const id = parse(G.ConnectionId, req.params?.id ?? '');
      parse(G.RevokeRequest, await readJson(req));
      return this.connections.revokeAny(principal, id, attempt);
    });
  }

  /** A revocation: the service audits one that is done; a refused one is audited here. */
  private revoke(
    req: Req,
    res: ServerResponse,
    route: 'connections' | 'grants',
    id: string | null,
    handler: (principal: AdminPrincipal, attempt: RevokeAttempt) => Promise<unknown>,
  ): Promise<void> {
    return this.run(req, res, async (principal) => {
      // The route with the id as decoded (the console sends it URL-encoded), whoever spelled it how.
      const bounded = id === null ? null : id.slice(0, 120);
      const attempt: RevokeAttempt = {
        path:
          bounded === null
            ? `/api/admin/${route}/revoke-all`
            : `/api/admin/${route}/${encodeURIComponent(bounded).replace(/%3A/gi, ':')}/revoke`,
        id: bounded,
        started: Date.now(),
      };
      try {
        return await handler(principal, attempt);
      } catch (error) {
        const status = error instanceof AdminApiError ? error.status : 500;
        await this.connections.auditRefusedRevoke(principal, attempt, {
          status,
          kind: KIND[status] ?? 'internal_error',
          message: error instanceof Error ? error.message : String(error),
        });
        throw error;
      }
    });
  }

  private run(
    req: Req,
    res: ServerResponse,
    handler: (principal: AdminPrincipal) => Promise<unknown>,
  ): Promise<void> {
    return runAdmin({ auth: this.auth, logger: this.logger }, req, res, handler);
  }
}
