// The contract between the MCP layer and the call path. The MCP engineer codes against these types;
// keep them stable and only add fields.
import type { AuditSink, CallIdentity, Clock, GiteaTransport, PolicyProvider } from '../ports';
import type { Refusal, ToolCallOutcome } from '../call/tool-call-outcome';
import type { SecretDetectionMode } from '../secrets/detection-mode';
import type { CpuTurns } from './cpu-turns';
import type { ToolSettings } from './tool-settings';
import type { QuotaCounter } from '../policy/quota';
import type { OffLoopSuccessTask, SuccessOutput } from './success-result';

import type { McpToolDefinition } from '../catalogue/tool-definition';
import type { SentenceEncoder } from '../catalogue/semantic-search';

export type { JsonObject, JsonValue, McpToolDefinition } from '../catalogue/tool-definition';

export type ToolCallResult = { content: Array<{ type: 'text'; text: string }>; isError: boolean };

/** Thrown by callTool for a name that is not in the catalogue at all; maps to JSON-RPC -32602. */
export class UnknownToolError extends Error {
  constructor(readonly toolName: string) {
    super(`Unknown tool: ${toolName.slice(0, 100)}`);
    this.name = 'UnknownToolError';
  }
}

export interface ToolService {
  listTools(): McpToolDefinition[];
  /** The MCP server's `instructions` (how to use the tools), when the service has any. */
  instructions?(): string;
  /** Runs a call and returns its outcome without auditing it: the caller hands it to the CallExit. */
  execute(
    name: string,
    args: unknown,
    identity: CallIdentity,
    options?: { signal?: AbortSignal },
  ): Promise<ToolCallOutcome>;
  /** The outcome of a call refused before it ran (sudo, rate limit, concurrency, deadline). */
  refuse(
    name: string,
    args: unknown,
    identity: CallIdentity,
    refusal: Refusal,
    startedAt?: number,
  ): ToolCallOutcome;
  /** execute + audit through ToolServiceDeps.audit, answered as a tool result (UnknownToolError for no tool). */
  callTool(name: string, args: unknown, identity: CallIdentity): Promise<ToolCallResult>;
  /** "read" for calls that only read Gitea (GET), "write" otherwise; null for an unknown tool. */
  requiredAccess?(name: string, args: unknown): 'read' | 'write' | null;
}

/** Port for the secrets module (src/core/secrets), injected so the executor does not import it. */
export interface ResultScrubber {
  collectBodySecrets(body: unknown, operationId: string): string[];
  scrubResult(
    value: unknown,
    ctx: { exactSecrets: string[]; mode: 'off' | 'mask' | 'block'; skipPatterns: boolean },
  ): {
    value: unknown;
    redactions: number;
    masks: number;
    blocked: null | { kinds: string[]; reason?: string };
  };
  /**
   * scrubResult for successful results, when the scrubber has one: scans binary bodies and
   * archives over the event loop before the synchronous pass. `blocked.reason`, when set, says why
   * the result is withheld (a secret inside an archive, an archive that could not be scanned).
   */
  scrubResultAsync?(
    value: unknown,
    ctx: { exactSecrets: string[]; mode: 'off' | 'mask' | 'block'; skipPatterns: boolean },
    /**
     * `bytes`: size of the Gitea body the result came from, `binary`: that body is not text (an
     * archive may inflate to far more); a scrubber may scan such results off the event loop.
     * `body`: the binary body itself, so that an archive can be routed by its expanded size.
     * `signal`: the call was abandoned (its deadline passed), stop scanning.
     */
    options?: { bytes?: number; binary?: boolean; body?: Uint8Array; signal?: AbortSignal },
  ): Promise<{
    value: unknown;
    redactions: number;
    masks: number;
    blocked: null | { kinds: string[]; reason?: string };
  }>;
  /**
   * The whole rest of a successful call (decoding, shaping, both secret layers, bounds and
   * serialisation: success-result.ts) off the event loop, when the scrubber takes this body (a
   * large one, ADR 0018); null to have the executor run it here. `signal` (the deadline) stops it.
   */
  finishOffLoop?(task: OffLoopSuccessTask, signal?: AbortSignal): Promise<SuccessOutput> | null;
  /** JSON path of a mask marker found in an outgoing body, or null. */
  findMaskMarker(body: unknown, operationId: string): string | null;
  readonly CREDENTIAL_ISSUING_OPERATIONS: ReadonlySet<string>;
}

export type { ToolSettings } from './tool-settings';

export type ToolServiceOptions = {
  tools: ToolSettings;
  secrets: { detectionMode: SecretDetectionMode };
  /** GITEA_TOKEN, MCP_BEARER_TOKEN, GITEA_OAUTH_CLIENT_SECRET and any extra secrets: always redacted. */
  exactSecrets: string[];
  /** Per-call timeout towards Gitea (GITEA_TIMEOUT_MS). */
  timeoutMs: number;
  /** Cap on a Gitea response body read by the transport; defaults to a bound derived from the limits. */
  maxResponseBytes?: number;
  /** Key material for continuation cursors (shared by every replica); null: a random key per process. */
  cursorSecret?: string | null;
  /** Hidden characters in file contents and diffs: counted only (default) or made visible. */
  hygieneFileContents?: 'flag' | 'neutralise';
  /** One turn per event-loop iteration for the CPU-heavy part of a call (CpuTurns); none: no wait. */
  turns?: CpuTurns;
};

export type ToolServiceDeps = {
  transport: GiteaTransport;
  policy: PolicyProvider;
  audit: AuditSink;
  clock: Clock;
  scrubber: ResultScrubber;
  /** Counts org quotas (Redis across replicas, memory in one process); without it quotas are not counted. */
  quotas?: QuotaCounter;
  /** Unique id per call for the audit record; defaults to crypto.randomUUID. */
  newEventId?: () => string;
  warn?: (message: string) => void;
  /** Ranks gitea_search_tools by meaning too (fused with the lexical search); lexical only without it. */
  sentenceEncoder?: SentenceEncoder;
  /** Real words the search's typo corrector never changes (read on the first search; the encoder's vocabulary). */
  knownWords?: () => ReadonlySet<string>;
};
