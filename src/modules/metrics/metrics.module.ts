// One prom-client Registry for the service (token METRICS_REGISTRY) with Node's default
// metrics; other modules register their own metrics on it. Served on METRICS_PORT by the
// MetricsListener; on the MCP port only with METRICS_TOKEN (and only to that bearer).
import {
  Controller,
  Get,
  Global,
  Header,
  Headers,
  HttpException,
  Inject,
  Module,
  NotFoundException,
} from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { METRICS_REGISTRY } from '../tokens';
import { MetricsListener, metricsAuthorized } from './metrics-listener';

export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'aegis-gitea-mcp' });
  collectDefaultMetrics({ register: registry });
  return registry;
}

@Controller()
export class MetricsController {
  constructor(
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
    private readonly listener: MetricsListener,
  ) {}

  @Get('metrics')
  @Header('Cache-Control', 'no-store')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  async metrics(@Headers('authorization') authorization: string | undefined): Promise<string> {
    // Without METRICS_TOKEN the MCP port does not serve metrics at all (they live on METRICS_PORT).
    if (!this.listener.expectedToken) throw new NotFoundException('Metrics are served on METRICS_PORT');
    if (!metricsAuthorized(this.listener.expectedToken, authorization))
      throw new HttpException('Authorization: Bearer <METRICS_TOKEN> is required', 401);
    return this.registry.metrics();
  }
}

@Global()
@Module({
  controllers: [MetricsController],
  providers: [{ provide: METRICS_REGISTRY, useFactory: createMetricsRegistry }, MetricsListener],
  exports: [METRICS_REGISTRY, MetricsListener],
})
export class MetricsModule {}
