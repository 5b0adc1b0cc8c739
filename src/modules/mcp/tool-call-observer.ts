// Metrics and the log line of every tools/call, made from its outcome at the exit (issue 11). The
// tool label is the catalogue's own name or "(unknown)": a caller cannot mint label values or log
// fields with the names it sends.
import type { Logger } from 'pino';
import type { OutcomeObserver } from '../../core/call/call-exit';
import { toolLabel, type ToolCallOutcome } from '../../core/call/tool-call-outcome';
import type { McpMetrics } from './mcp-metrics';

const CALL_LOGGER_CACHE_SIZE = 1024;

export class McpCallObserver implements OutcomeObserver {
  private readonly callLoggers = new Map<string, Logger>();

  constructor(
    private readonly metrics: McpMetrics,
    private readonly logger: Logger,
  ) {}

  observe(outcome: ToolCallOutcome): void {
    const tool = toolLabel(outcome);
    const { kind, status } = outcome;
    const durationMs = Math.round(outcome.durationMs * 10) / 10;
    this.metrics.toolCalls.inc({ tool, kind });
    this.metrics.toolCallSeconds.observe({ kind }, durationMs / 1000);
    // The per-identity fields live in a cached child, whose bindings pino serialises once: each call
    // builds and serialises only the four fields that change.
    this.callLogger(outcome).info({ tool, status, kind, durationMs }, 'tool call');
  }

  /** A child logger bound to one identity's tool_call fields; bounded so that many identities cannot grow it. */
  private callLogger(outcome: ToolCallOutcome): Logger {
    const { identity } = outcome;
    const protocolVersion = outcome.protocolVersion ?? '';
    const client = identity.client?.name ?? null;
    // NUL cannot occur in logins or version strings; \u0001 marks null apart from an empty string.
    const key = `${identity.login}\u0000${identity.mode}\u0000${identity.sudo ?? '\u0001'}\u0000${client ?? '\u0001'}\u0000${protocolVersion}`;
    let child = this.callLoggers.get(key);
    if (child === undefined) {
      if (this.callLoggers.size >= CALL_LOGGER_CACHE_SIZE) this.callLoggers.clear();
      child = this.logger.child({
        component: 'mcp',
        event: 'tool_call',
        login: identity.login,
        mode: identity.mode,
        sudo: identity.sudo,
        client,
        protocolVersion,
      });
      this.callLoggers.set(key, child);
    }
    return child;
  }
}
