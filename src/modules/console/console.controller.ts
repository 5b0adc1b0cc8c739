// Serves the built console under /admin: hashed assets from /admin/assets (cached for a year),
// every other path the single page (the browser router picks the page). /admin/auth/* belongs
// to the session controller.
import { Controller, Get, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import { CONSOLE_SECURITY_HEADERS, contentTypeOf, findConsoleDist } from './console-assets';

@Controller('admin')
export class ConsoleController {
  private readonly dist = findConsoleDist();

  @Get(['', '*page'])
  async page(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
    await this.serve(req, res);
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [name, value] of Object.entries(CONSOLE_SECURITY_HEADERS)) res.setHeader(name, value);
    let path: string;
    try {
      path = decodeURIComponent((req.url ?? '/').split('?')[0] as string);
    } catch {
      return this.send(res, 400, 'text/plain; charset=utf-8', 'Bad path.');
    }
    // The session endpoints are not this controller's: never answer them with the page.
    if (path.startsWith('/admin/auth/'))
      return this.send(
        res,
        404,
        'application/json',
        JSON.stringify({
          error: { kind: 'not_found', message: 'console sign-in is not available on this service yet' },
        }),
      );
    if (!this.dist) return this.send(res, 503, 'text/plain; charset=utf-8', 'The console is not built.');
    const asset = /^\/admin\/assets\/[^/]+$/.test(path);
    const file = asset
      ? normalize(join(this.dist, path.slice('/admin'.length)))
      : join(this.dist, 'index.html');
    if (!file.startsWith(this.dist + sep))
      return this.send(res, 404, 'text/plain; charset=utf-8', 'Not found.');
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      if (asset) return this.send(res, 404, 'text/plain; charset=utf-8', 'Not found.');
      return this.send(
        res,
        503,
        'text/plain; charset=utf-8',
        'The console is not built: run `npm ci` (or `npm --prefix web run build`).',
      );
    }
    res.setHeader('cache-control', asset ? 'public, max-age=31536000, immutable' : 'no-store');
    this.send(res, 200, contentTypeOf(file), body);
  }

  private send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
    res.statusCode = status;
    res.setHeader('content-type', type);
    res.end(body);
  }
}
