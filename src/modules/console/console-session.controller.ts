// The console's session endpoints: who is signed in (and the CSRF token for changes), sign-out,
// and the start of sign-in through Gitea. The session id lives only in an httpOnly cookie.
import { Controller, Get, Inject, Optional, Post, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CSRF_HEADER,
  clearCookieHeader,
  consoleCookie,
  cookieValue,
  csrfTokenFor,
  csrfValid,
  type ConsoleCookie,
} from '../../core/console/console-session';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { ConsoleSessionStore } from '../../infra/console/console-session.store';
import { CONSOLE_SECURITY_HEADERS } from './console-assets';
import { CONSOLE_SESSIONS } from '../../infra/console/console.tokens';
import { CONSOLE_SIGN_IN, type ConsoleSignIn } from './console.tokens';

const json = (res: ServerResponse, status: number, body: unknown): void => {
  for (const [name, value] of Object.entries(CONSOLE_SECURITY_HEADERS)) res.setHeader(name, value);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.setHeader('cache-control', 'no-store');
  res.end(JSON.stringify(body));
};

const refusal = (kind: string, message: string) => ({ error: { kind, message } });

@Controller('admin/auth')
export class ConsoleSessionController {
  private readonly cookie: ConsoleCookie;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(CONSOLE_SESSIONS) private readonly sessions: ConsoleSessionStore,
    @Optional() @Inject(CONSOLE_SIGN_IN) private readonly signIn: ConsoleSignIn | null,
  ) {
    this.cookie = consoleCookie(config.server.publicUrl);
  }

  @Get('session')
  async session(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
    const id = cookieValue(req.headers.cookie, this.cookie.name);
    const session = id ? await this.sessions.find(id) : null;
    if (!id || !session) {
      if (id) res.setHeader('set-cookie', clearCookieHeader(this.cookie));
      return json(res, 401, refusal('auth_required', 'You are not signed in (or your session ended).'));
    }
    json(res, 200, {
      login: session.login,
      isSiteAdmin: session.isSiteAdmin,
      csrfToken: csrfTokenFor(id),
      expiresAt: new Date(session.expiresAt).toISOString(),
    });
  }

  @Post('sign-out')
  async signOut(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
    const id = cookieValue(req.headers.cookie, this.cookie.name);
    if (!id) return json(res, 401, refusal('auth_required', 'You are not signed in.'));
    const token = req.headers[CSRF_HEADER];
    if (!csrfValid(id, typeof token === 'string' ? token : undefined))
      return json(
        res,
        403,
        refusal('csrf', `Sign-out refused: the ${CSRF_HEADER} header is missing or wrong.`),
      );
    await this.sessions.end(id);
    res.setHeader('set-cookie', clearCookieHeader(this.cookie));
    json(res, 200, { signedOut: true });
  }

  @Get('sign-in')
  async start(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
    if (!this.signIn)
      return json(
        res,
        503,
        refusal('unavailable', 'Sign-in through Gitea is not available on this service yet.'),
      );
    await this.signIn.start(req, res);
  }
}
