// The browser side of the sign-in through Gitea: Gitea's redirect back (callback) and a plain
// "connect Gitea" entry point that people use to reconnect after an auth_required answer.
import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { GITEA_BROWSER_SIGN_IN } from './gitea-oauth.tokens';
import { renderError, type GiteaBrowserSignIn } from './gitea-sign-in';

@Controller('auth/gitea')
export class GiteaSignInController {
  constructor(@Inject(GITEA_BROWSER_SIGN_IN) private readonly signIn: GiteaBrowserSignIn | null) {}

  @Get('callback')
  async callback(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (!this.signIn) return renderError(res, 404, 'Sign-in through Gitea is not configured.', '/');
    await this.signIn.finish(req, res);
  }

  @Get('connect')
  async connect(@Req() req: Request, @Res() res: Response, @Query('access') access?: string): Promise<void> {
    if (!this.signIn) return renderError(res, 404, 'Sign-in through Gitea is not configured.', '/');
    await this.signIn.start(req, res, { purpose: 'connect', access: access === 'write' ? 'write' : 'read' });
  }
}
