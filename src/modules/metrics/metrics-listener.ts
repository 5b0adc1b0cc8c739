// The metrics listener: GET /metrics on METRICS_PORT, a port of its own so that scraping needs no
// route through the MCP port (which faces agents, the ingress and the internet). Opened by
// startApp() once the MCP port listens, closed with the application. When METRICS_TOKEN is set it
// answers only to that bearer, here and on the MCP port.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { bearerMatches } from '../auth/service-token.resolver';
import { METRICS_REGISTRY } from '../tokens';

/** True when no METRICS_TOKEN is configured or the request carries it as a bearer. */
export function metricsAuthorized(expected: Buffer | null, authorization: string | undefined): boolean {
  if (!expected) return true;
  const match = /^Bearer[ ]+([\x21-\x7e]{1,4096})[ ]*$/i.exec(authorization ?? '');
  return match !== null && bearerMatches(match[1] as string, expected);
}

@Injectable()
export class MetricsListener implements OnApplicationShutdown {
  private server: Server | null = null;
  readonly expectedToken: Buffer | null;

  constructor(
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const token = config.server.metricsToken;
    this.expectedToken = token ? createHash('sha256').update(token, 'utf8').digest() : null;
  }

  /** Listens on HOST:METRICS_PORT; resolves with the bound port. */
  async start(): Promise<number> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.server.metricsPort, this.config.server.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return (server.address() as AddressInfo).port;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: GET /metrics\n');
      return;
    }
    if (!metricsAuthorized(this.expectedToken, req.headers.authorization)) {
      res
        .writeHead(401, {
          'www-authenticate': 'Bearer realm="metrics"',
          'content-type': 'text/plain; charset=utf-8',
        })
        .end('Authorization: Bearer <METRICS_TOKEN> is required\n');
      return;
    }
    try {
      const body = await this.registry.metrics();
      res.writeHead(200, {
        'content-type': this.registry.contentType,
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(500).end();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
