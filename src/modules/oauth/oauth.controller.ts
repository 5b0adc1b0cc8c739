// HTTP glue of the authorization server and the resource metadata: parse, call, answer. The
// decisions live in AuthorizationServer and src/core/oauth.
import { Controller, Get, Inject, Options, Post, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { remoteKey } from '../../core/mcp/auth-failure-limiter';
import { readBody } from '../mcp/node-http.util';
import type { AuthorizationServer, HttpAnswer } from './authorization-server';
import { AUTHORIZATION_SERVER } from './oauth.tokens';

const FORM_LIMIT = 16 * 1024;
type Req = IncomingMessage & { body?: unknown; url?: string };

function query(req: Req): Record<string, string | undefined> {
  const url = new URL(req.url ?? '/', 'http://x');
  const out: Record<string, string | undefined> = {};
  // A repeated parameter is ambiguous (RFC 6749 3.1): it is treated as absent and so refused.
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    out[key] = all.length === 1 ? all[0] : undefined;
  }
  return out;
}

async function form(req: Req): Promise<URLSearchParams | null> {
  const body = await readBody(req, FORM_LIMIT);
  if (!body.ok) return null;
  if (body.raw) return new URLSearchParams(body.raw.toString('utf8'));
  if (body.preParsed && typeof body.preParsed === 'object')
    return new URLSearchParams(body.preParsed as Record<string, string>);
  return new URLSearchParams();
}

const disabled: HttpAnswer = {
  status: 404,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    error: 'not_found',
    error_description: 'OAuth is not enabled on this server (AUTH_MODES)',
  }),
};

function send(res: ServerResponse, answer: HttpAnswer): void {
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.end(answer.body);
}

const tooLarge: HttpAnswer = {
  status: 413,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ error: 'invalid_request', error_description: 'the request body is too large' }),
};

function cors(res: ServerResponse): void {
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
  res.setHeader('access-control-allow-headers', 'Content-Type, Authorization, MCP-Protocol-Version');
}

@Controller()
export class OAuthController {
  private readonly server: AuthorizationServer | null;
  constructor(@Inject(AUTHORIZATION_SERVER) server: AuthorizationServer | null) {
    this.server = server;
  }

  /** The server, or null after answering 404 when OAuth is off. */
  private get as(): AuthorizationServer {
    return this.server as AuthorizationServer;
  }

  @Get(['.well-known/oauth-protected-resource', '.well-known/oauth-protected-resource/mcp'])
  resourceMetadata(@Res() res: ServerResponse): void {
    if (!this.server) return send(res, disabled);
    send(res, this.as.protectedResourceMetadata());
  }

  @Get(['.well-known/oauth-authorization-server', '.well-known/openid-configuration'])
  serverMetadata(@Res() res: ServerResponse): void {
    if (!this.server) return send(res, disabled);
    send(res, this.as.authorizationServerMetadata());
  }

  @Options(['oauth/token', 'oauth/revoke', 'oauth/register', '.well-known/*path'])
  preflight(@Res() res: ServerResponse): void {
    cors(res);
    res.statusCode = 204;
    res.end();
  }

  @Get('oauth/authorize')
  async authorize(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    if (!this.server) return send(res, disabled);
    send(res, await this.as.authorize(query(req), req.headers.cookie));
  }

  @Post('oauth/consent')
  async consent(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    if (!this.server) return send(res, disabled);
    const body = await form(req);
    send(res, body ? await this.as.consent(body, req.headers.cookie) : tooLarge);
  }

  @Get('oauth/gitea/callback')
  async callback(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    if (!this.server) return send(res, disabled);
    send(res, await this.as.giteaCallback(query(req), req.headers.cookie));
  }

  @Post('oauth/token')
  async token(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    if (!this.server) return send(res, disabled);
    cors(res);
    const body = await form(req);
    send(res, body ? await this.as.token(body, req.headers.authorization) : tooLarge);
  }

  @Post('oauth/revoke')
  async revoke(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    if (!this.server) return send(res, disabled);
    cors(res);
    const body = await form(req);
    send(res, body ? await this.as.revoke(body, req.headers.authorization) : tooLarge);
  }

  @Post('oauth/register')
  async register(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    if (!this.server) return send(res, disabled);
    cors(res);
    const body = await readBody(req, FORM_LIMIT);
    if (!body.ok) return send(res, tooLarge);
    let parsed: unknown = body.preParsed;
    if (body.raw) {
      try {
        parsed = JSON.parse(body.raw.toString('utf8'));
      } catch {
        return send(res, {
          status: 400,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            error: 'invalid_client_metadata',
            error_description: 'the body is not JSON',
          }),
        });
      }
    }
    send(res, await this.as.register(parsed, remoteKey(req.socket?.remoteAddress)));
  }

  @Get('oauth/grants')
  async grants(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    if (!this.server) return send(res, disabled);
    send(res, await this.as.grantsList(query(req), req.headers.cookie));
  }

  @Post('oauth/grants/revoke')
  async grantsRevoke(@Req() req: Req, @Res() res: ServerResponse): Promise<void> {
    if (!this.server) return send(res, disabled);
    const body = await form(req);
    send(res, body ? await this.as.grantsRevoke(body, req.headers.cookie) : tooLarge);
  }
}
