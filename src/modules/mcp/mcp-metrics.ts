// Prometheus metrics of the MCP endpoint, registered on the shared registry when one is provided.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export class McpMetrics {
  readonly toolCalls: Counter<'tool' | 'kind'>;
  readonly toolCallSeconds: Histogram<'kind'>;
  readonly inFlight: Gauge;
  readonly rejections: Counter<'reason'>;

  constructor(readonly registry: Registry) {
    this.toolCalls = reuse(
      registry,
      'mcp_tool_calls_total',
      () =>
        new Counter({
          name: 'mcp_tool_calls_total',
          help: 'MCP tool calls by tool and result kind',
          labelNames: ['tool', 'kind'],
          registers: [registry],
        }),
    );
    this.toolCallSeconds = reuse(
      registry,
      'mcp_tool_call_duration_seconds',
      () =>
        new Histogram({
          name: 'mcp_tool_call_duration_seconds',
          help: 'Duration of MCP tool calls in seconds',
          labelNames: ['kind'],
          buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
          registers: [registry],
        }),
    );
    this.inFlight = reuse(
      registry,
      'mcp_tool_calls_in_flight',
      () =>
        new Gauge({
          name: 'mcp_tool_calls_in_flight',
          help: 'MCP tool calls currently running',
          registers: [registry],
        }),
    );
    this.rejections = reuse(
      registry,
      'mcp_requests_rejected_total',
      () =>
        new Counter({
          name: 'mcp_requests_rejected_total',
          help: 'MCP HTTP requests refused before dispatch, by reason',
          labelNames: ['reason'],
          registers: [registry],
        }),
    );
  }
}

// Two app instances in one process (tests) may share a registry: reuse what is registered.
function reuse<T>(registry: Registry, name: string, create: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}
