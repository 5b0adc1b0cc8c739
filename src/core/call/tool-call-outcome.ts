// The one exit of a tools/call (issue 11): whatever ends a call (success, Gitea error, validation,
// policy, sudo refusal, rate limit, concurrency, deadline, unknown tool) is described once, as a
// ToolCallOutcome, and the MCP answer, the audit record, the metrics and the log line are all made
// from it. Nothing downstream reads the result text back.
import { errorBody, type ErrorKind } from '../errors/error-mapping';
import type { AuditEntry, CallIdentity } from '../ports';
import { REDACTED } from '../secrets/redaction-marker';

/** `ok`, an ADR 0005 error kind, or one of the ends that never reach a tool result. */
export type OutcomeKind = 'ok' | ErrorKind | 'unknown_tool';

/**
 * How the caller is answered: a tool result (the usual case, errors included), JSON-RPC -32602 for a
 * name that is no tool, or an HTTP refusal of the transport (429 rate limit, 503 concurrency).
 */
export type OutcomeReply =
  | { as: 'result' }
  | { as: 'unknown_tool'; message: string }
  | {
      as: 'http';
      httpStatus: 429 | 503;
      retryAfterSeconds: number;
      message: string;
      /** The error body's details (scrubbed), for the JSON-RPC error's data: never read back from `text`. */
      details?: Record<string, unknown>;
    };

export type OutcomeCounts = { resultBytes: number; redactions: number; masks: number; blocked: boolean };

export type ToolCallOutcome = {
  /** The identity the call ran as (sudo and client as decided for this call). */
  identity: CallIdentity;
  /** The tool as the caller named it, cut to MAX_TOOL_NAME_CHARS: the audit record's `tool`. */
  tool: string;
  /**
   * The catalogue's own name when `tool` is one (generated tool, raw tool or meta-tool), else null.
   * Metrics labels and log fields use only this, so a caller cannot mint label values.
   */
  knownTool: string | null;
  operationId: string | null;
  org: string | null;
  repo: string | null;
  method: string | null;
  path: string | null;
  /** Gitea's status, or the status of our own refusal (403 sudo, 429, 503, 504); null when none. */
  status: number | null;
  kind: OutcomeKind;
  /** The MCP tool result's text (a result envelope or an error body), already scrubbed. */
  text: string;
  isError: boolean;
  reply: OutcomeReply;
  /** Epoch ms when the call started and how long it took. */
  startedAt: number;
  durationMs: number;
  counts: OutcomeCounts;
  /**
   * The arguments with secrets redacted: the audit record's `arguments`. The executor redacts them
   * when this is first read (by the exit, after the answer on the MCP fast paths).
   */
  arguments: unknown;
  /** Set by the MCP layer: the protocol revision of the exchange (log line). */
  protocolVersion?: string;
  /** The eventId of the call's audit record, set by the exit when it writes it. */
  auditEventId?: string;
};

/** What the call path needs to know of a refusal decided outside the executor. */
export type Refusal = {
  kind: ErrorKind;
  /** The status the error body carries (403 sudo, 429, 503, 504), or null. */
  status: number | null;
  message: string;
  details?: unknown;
  /** Set for refusals answered at the HTTP level instead of as a tool result. */
  http?: { httpStatus: 429 | 503; retryAfterSeconds: number };
};

export const MAX_TOOL_NAME_CHARS = 200;
/** The metrics label and log value of a name that is not a tool. */
export const UNKNOWN_TOOL_LABEL = '(unknown)';

export const NO_COUNTS: OutcomeCounts = { resultBytes: 0, redactions: 0, masks: 0, blocked: false };

/** The tool-error text of ADR 0005, `{"error": {status, kind, message, details?}}`: built here only. */
export function toolErrorText(
  kind: ErrorKind,
  status: number | null,
  message: string,
  details?: unknown,
): string {
  return JSON.stringify(errorBody(kind, status, message, details));
}

/** The MCP tool result of an outcome answered as a result. */
export function resultOf(outcome: ToolCallOutcome): {
  content: Array<{ type: 'text'; text: string }>;
  isError: boolean;
} {
  return { content: [{ type: 'text', text: outcome.text }], isError: outcome.isError };
}

/** The label a metric or log line may carry for this outcome's tool. */
export function toolLabel(outcome: Pick<ToolCallOutcome, 'knownTool'>): string {
  return outcome.knownTool ?? UNKNOWN_TOOL_LABEL;
}

/** The audit record of an outcome: one per tools/call, refusals included. */
export function auditEntryOf(outcome: ToolCallOutcome, eventId: string): AuditEntry {
  const { identity } = outcome;
  // The caller's own token can arrive as any value it sends (an owner, a path, a tool name): the
  // arguments are redacted on the way in; the columns taken from them are redacted here.
  const token = identity.token;
  const clean = <T extends string | null>(value: T): T =>
    (token && token.length >= 4 && value !== null && value.includes(token)
      ? value.split(token).join(REDACTED)
      : value) as T;
  return {
    eventId,
    time: new Date(outcome.startedAt),
    login: identity.login,
    mode: identity.mode,
    sudo: identity.sudo,
    clientName: identity.client?.name ?? null,
    clientVersion: identity.client?.version ?? null,
    tool: clean(outcome.tool).slice(0, MAX_TOOL_NAME_CHARS),
    operationId: outcome.operationId,
    org: clean(outcome.org),
    repo: clean(outcome.repo),
    method: outcome.method,
    path: clean(outcome.path),
    status: outcome.status,
    kind: outcome.kind === 'ok' ? null : outcome.kind,
    durationMs: outcome.durationMs,
    resultBytes: outcome.counts.resultBytes,
    redactions: outcome.counts.redactions,
    masks: outcome.counts.masks,
    blocked: outcome.counts.blocked,
    arguments: outcome.arguments,
  };
}
