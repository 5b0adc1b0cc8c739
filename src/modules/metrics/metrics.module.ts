// One prom-client Registry for the service (token METRICS_REGISTRY) with Node's default
// metrics; other modules register their own metrics on it. Served at GET /metrics.
import { Controller, Get, Global, Header, Inject, Module } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { METRICS_REGISTRY } from '../tokens';

export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'aegis-gitea-mcp' });
  collectDefaultMetrics({ register: registry });
  return registry;
}

@Controller()
export class MetricsController {
  constructor(@Inject(METRICS_REGISTRY) private readonly registry: Registry) {}

  @Get('metrics')
  @Header('Cache-Control', 'no-store')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  async metrics(): Promise<string> {
    return this.registry.metrics();
  }
}

@Global()
@Module({
  controllers: [MetricsController],
  providers: [{ provide: METRICS_REGISTRY, useFactory: createMetricsRegistry }],
  exports: [METRICS_REGISTRY],
})
export class MetricsModule {}
