// The SDK side of the endpoint: one tool handler set, served by
//  - a long-lived @modelcontextprotocol/server `Server` behind a MultiplexTransport for the
//    session-based revisions 2025-06-18 / 2025-11-25, and
//  - the SDK's createMcpHandler (strict, modern only) for 2026-07-28, whose per-request factory
//    returns a light low-level Server over the same handlers and a tools/list answer built once.
import {
  createMcpHandler,
  ProtocolError,
  Server,
  type AuthInfo,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { clientInfoFromParams } from '../../core/mcp/client-info.util';
import { LEGACY_PROTOCOL_VERSIONS } from '../../core/mcp/protocol-versions';
import type { CallExit } from '../../core/call/call-exit';
import { resultOf, type Refusal, type ToolCallOutcome } from '../../core/call/tool-call-outcome';
import { decideSudo, type SudoDecision } from '../../core/mcp/sudo.util';
import { INTERNAL_ERROR, INVALID_PARAMS } from '../../core/mcp/jsonrpc.util';
import type { CallIdentity } from '../../core/ports';
import type { ToolCallResult, ToolService } from '../../core/executor/tool-service';
import type { IdentityResolver } from '../auth/identity-resolver';
import type { McpMetrics } from './mcp-metrics';
import { MultiplexTransport } from './multiplex.transport';

/** `_meta` key on tools/call naming the user to act as (same meaning as the X-Gitea-Sudo header). */
export const SUDO_META_KEY = 'aegis/sudo';

/** What the HTTP layer hands to the handlers of one exchange (carried in AuthInfo.extra). */
export type ExchangeContext = {
  identity: CallIdentity;
  sudoHeader: string | undefined;
  client: { name: string; version: string } | null;
  protocolVersion: string;
  /** Epoch ms by which a tool call must have answered. */
  deadline: number;
  /** Set by tools/call when an org quota refused it: the endpoint answers HTTP 429 (issue 14). */
  quotaRefusal?: { retryAfterSeconds: number; message: string; data: Record<string, unknown> };
};

/**
 * Where a fast path leaves the exits (audit record, metrics, log line) of the calls an answer
 * carries, for the endpoint to run once that answer is written: the work after the answer is then
 * off the caller's wait (about a fifth of a small call's time at c=1). The endpoint runs every exit
 * exactly once, in the same turn of the event loop as the write, whether the write succeeded or not.
 */
export type AfterAnswer = Array<() => void>;

export type McpProtocolOptions = {
  serverName: string;
  serverVersion: string;
  allowSudo: boolean;
  maxBodyBytes: number;
  toolService: ToolService;
  identityResolver: IdentityResolver;
  metrics: McpMetrics;
  logger: Logger;
  /** The exit every outcome goes through: audit record, metrics, log line. */
  exit: CallExit;
};

export function toAuthInfo(context: ExchangeContext): AuthInfo {
  // The Gitea token stays inside `extra.identity`; the SDK only passes AuthInfo through.
  return { token: 'n/a', clientId: context.identity.subject, scopes: [], extra: { aegis: context } };
}

function contextOf(authInfo: AuthInfo | undefined): ExchangeContext {
  const context = (authInfo?.extra as { aegis?: ExchangeContext } | undefined)?.aegis;
  if (!context) throw new ProtocolError(INTERNAL_ERROR, 'Internal error');
  return context;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `_meta` the SDK would accept without further checks: no task relation, a well-typed progress token. */
function isPlainMeta(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!isPlainObject(meta) || 'io.modelcontextprotocol/related-task' in meta) return false;
  const token = meta.progressToken;
  return token === undefined || typeof token === 'string' || typeof token === 'number';
}

function isPlainListParams(params: unknown): boolean {
  if (!isPlainObject(params)) return false;
  for (const key of Object.keys(params)) if (key !== 'cursor' && key !== '_meta') return false;
  return (params.cursor === undefined || typeof params.cursor === 'string') && isPlainMeta(params._meta);
}

function isPlainCallParams(
  params: unknown,
): params is { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> } {
  if (!isPlainObject(params) || typeof params.name !== 'string') return false;
  for (const key of Object.keys(params))
    if (key !== 'name' && key !== 'arguments' && key !== '_meta') return false;
  return (params.arguments === undefined || isPlainObject(params.arguments)) && isPlainMeta(params._meta);
}

export class McpProtocol {
  readonly legacyTransport = new MultiplexTransport();
  readonly modern: McpHttpHandler;
  private readonly legacyServer: Server;
  private listResult: { tools: unknown[] } | null = null;
  private listJson: string | null = null;
  private modernListJson: string | null = null;
  private modernMetaJson: string | null = null;

  constructor(private readonly options: McpProtocolOptions) {
    this.legacyServer = this.buildServer(LEGACY_PROTOCOL_VERSIONS as string[]);
    this.modern = createMcpHandler(() => this.buildServer(undefined), {
      legacy: 'reject',
      maxRequestBodySize: options.maxBodyBytes,
      onerror: (error) =>
        options.logger.debug({ component: 'mcp', err: error.message }, 'modern exchange refused'),
    });
  }

  async start(): Promise<void> {
    await this.legacyServer.connect(this.legacyTransport);
  }

  async close(): Promise<void> {
    await this.modern.close().catch(() => undefined);
    await this.legacyServer.close().catch(() => undefined);
  }

  /** The tools/list answer, built once: the catalogue's filtering and mode are fixed at start. */
  toolsList(): { tools: unknown[] } {
    if (!this.listResult) {
      const tools = this.options.toolService.listTools().map((tool) => {
        const entry: Record<string, unknown> = {
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
        };
        if (tool.title) entry.title = tool.title;
        if (tool.annotations) entry.annotations = tool.annotations;
        return entry;
      });
      this.listResult = { tools };
    }
    return this.listResult;
  }

  /**
   * tools/call and tools/list of the session-based revisions, answered without the SDK's per-message
   * machinery (zod parse of the request, zod validation of our own result, handler context): that
   * was about a tenth of the CPU of a call. Only the plain, valid shapes take this path, with the
   * same answers the SDK gives; anything else returns null and goes through the SDK server.
   * Returns the JSON-RPC response as JSON text.
   */
  async serveLegacyFast(
    message: { id: string | number; method: string; params?: unknown },
    context: ExchangeContext,
    afterAnswer?: AfterAnswer,
  ): Promise<string | null> {
    const params = message.params;
    if (message.method === 'tools/list') {
      if (params !== undefined && !isPlainListParams(params)) return null;
      return `{"result":${this.toolsListJson()},"jsonrpc":"2.0","id":${JSON.stringify(message.id)}}`;
    }
    if (message.method !== 'tools/call' || !isPlainCallParams(params)) return null;
    try {
      return resultResponseJson(await this.callTool(params, context, afterAnswer), message.id);
    } catch (error) {
      // The SDK's answer for a throwing handler (2025-era codes).
      const e = error as { code?: unknown; message?: string; data?: unknown };
      const code = Number.isSafeInteger(e.code) ? (e.code as number) : INTERNAL_ERROR;
      return JSON.stringify({
        jsonrpc: '2.0',
        id: message.id,
        error: {
          code: code === -32002 ? INVALID_PARAMS : code,
          message: e.message ?? 'Internal error',
          ...(e.data !== undefined ? { data: e.data } : {}),
        },
      });
    }
  }

  /** Whether a tools/call needs write access (OAuth scope gitea:write) or read access; null: unknown tool. */
  requiredAccess(params: unknown): 'read' | 'write' | null {
    if (!isPlainObject(params) || typeof params.name !== 'string') return null;
    return this.options.toolService.requiredAccess?.(params.name, params.arguments ?? {}) ?? null;
  }

  /**
   * tools/call and tools/list of 2026-07-28 answered without the SDK's per-request machinery
   * (createMcpHandler builds a Server, its handlers and a transport for every request, plus a web
   * Request and Response, and validates the messages with zod: about 40 % of a call's CPU). The
   * endpoint sends only requests the SDK itself classified modern, with the standard headers
   * matching and a plain envelope (McpEndpoint.modernFast); the answer is the one the SDK's
   * handler gives: the result with `resultType` and the server's identity in `_meta` (tools/list
   * also the caching hints the server declares), an unknown tool as JSON-RPC -32602. Returns JSON text, or
   * null (before anything ran) when the params are not plain: the SDK answers those. With
   * `afterAnswer`, the call's exit is left there for the caller to run once the answer is written.
   */
  async serveModernFast(
    request: ModernFastRequest,
    context: ExchangeContext,
    afterAnswer?: AfterAnswer,
  ): Promise<string | null> {
    const id = JSON.stringify(request.id);
    if (request.method === 'tools/list') {
      if (!isPlainListParams(request.params)) return null;
      this.modernListJson ??= `{"result":${this.toolsListJson().slice(0, -1)},"resultType":"complete","ttlMs":${TOOLS_LIST_TTL_MS},"cacheScope":"private",${this.modernResultMeta()}}`;
      return `${this.modernListJson},"jsonrpc":"2.0","id":${id}}`;
    }
    const params = request.params;
    if (!isPlainCallParams(params)) return null;
    try {
      const result = await this.callTool(params, context, afterAnswer);
      return resultResponseJson(result, request.id, `,"resultType":"complete",${this.modernResultMeta()}`);
    } catch (error) {
      const e = error as { code?: unknown; message?: string; data?: unknown };
      const code = Number.isSafeInteger(e.code) ? (e.code as number) : INTERNAL_ERROR;
      return JSON.stringify({
        jsonrpc: '2.0',
        id: request.id,
        error: {
          code,
          message: e.message ?? 'Internal error',
          ...(e.data !== undefined ? { data: e.data } : {}),
        },
      });
    }
  }

  /** `"_meta":{...}` of every 2026-07-28 result: the server's identity, as the SDK adds it. */
  private modernResultMeta(): string {
    this.modernMetaJson ??= `"_meta":${JSON.stringify({
      'io.modelcontextprotocol/serverInfo': {
        name: this.options.serverName,
        version: this.options.serverVersion,
      },
    })}`;
    return this.modernMetaJson;
  }

  /** tools/list result serialised once (about 356 KB for the full catalogue). */
  private toolsListJson(): string {
    this.listJson ??= JSON.stringify(this.toolsList());
    return this.listJson;
  }

  private buildServer(supportedProtocolVersions: string[] | undefined): Server {
    const server = new Server(
      { name: this.options.serverName, version: this.options.serverVersion },
      {
        capabilities: { tools: { listChanged: false } },
        ...(supportedProtocolVersions ? { supportedProtocolVersions } : {}),
        ...(this.options.toolService.instructions
          ? { instructions: this.options.toolService.instructions() }
          : {}),
        // 2026-07-28 caching hints: what a caller may call depends on who they are (OAuth scopes, org
        // policies), so never a shared cache.
        ...(supportedProtocolVersions
          ? {}
          : { cacheHints: { 'tools/list': { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: 'private' as const } } }),
      },
    );
    server.setRequestHandler('tools/list', async () => this.toolsList() as never);
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const params = request.params as { name: string; arguments?: unknown; _meta?: Record<string, unknown> };
      return (await this.callTool(params, contextOf(ctx.http?.authInfo))) as never;
    });
    return server;
  }

  /**
   * One tools/call: its outcome goes through the exit once and becomes the MCP answer. The exit runs
   * here, or, given `afterAnswer`, is left there for whoever writes the answer (fast paths only).
   */
  private async callTool(
    params: CallParams,
    context: ExchangeContext,
    afterAnswer?: AfterAnswer,
  ): Promise<ToolCallResult> {
    const outcome = await this.runCall(params, context);
    if (afterAnswer) afterAnswer.push(() => this.finish(outcome, context));
    else this.finish(outcome, context);
    if (outcome.reply.as === 'unknown_tool')
      throw new ProtocolError(INVALID_PARAMS, outcome.reply.message.slice(0, 200));
    // An org quota (the call path's own 429): the endpoint answers it at the HTTP level.
    if (outcome.reply.as === 'http') context.quotaRefusal = quotaReply(outcome);
    return resultOf(outcome);
  }

  /**
   * A tools/call refused by the transport before it ran (rate limit, concurrency): audited, counted
   * and logged like any call; the caller answers at the HTTP level from the returned outcome.
   */
  refuseCall(
    params: unknown,
    context: ExchangeContext,
    refusal: Refusal,
    startedAt: number,
  ): ToolCallOutcome {
    const call = isPlainObject(params) ? params : {};
    const name = typeof call.name === 'string' ? call.name : '';
    const meta = isPlainObject(call._meta) ? call._meta : undefined;
    const { identity } = this.callIdentity({ name, ...(meta ? { _meta: meta } : {}) }, context);
    const outcome = this.options.toolService.refuse(name, call.arguments ?? {}, identity, refusal, startedAt);
    this.finish(outcome, context);
    return outcome;
  }

  private finish(outcome: ToolCallOutcome, context: ExchangeContext): void {
    outcome.protocolVersion = context.protocolVersion;
    this.options.exit.finish(outcome);
    // Gitea refused the credential: let the resolver re-check it (a rotated service token).
    if (outcome.kind === 'unauthorized' && outcome.status === 401)
      this.options.identityResolver.upstreamUnauthorized(context.identity);
  }

  /** Who this call runs as: the exchange's identity with this call's client and sudo decision. */
  private callIdentity(
    params: { name: string; _meta?: Record<string, unknown> },
    context: ExchangeContext,
  ): { identity: CallIdentity; sudo: SudoDecision } {
    // The exchange's client (session or 2026-07-28 envelope), else one named in this call's _meta.
    const reported = context.client ?? clientInfoFromParams(params);
    // OAuth mode names the client the person authorized (verified here), not the self-reported clientInfo.
    const oauthClient = context.identity.oauthClient;
    const client = oauthClient ? { name: oauthClient.name, version: reported?.version ?? '' } : reported;
    const requestedSudo = params._meta?.[SUDO_META_KEY] ?? context.sudoHeader;
    const sudo = decideSudo(requestedSudo, {
      allowSudo: this.options.allowSudo,
      // Sudo is a service-token feature: an OAuth identity never qualifies, whatever its Gitea role.
      isSiteAdmin: context.identity.mode === 'token' && context.identity.isSiteAdmin,
      login: context.identity.login,
    });
    const identity: CallIdentity = {
      ...context.identity,
      sudo: sudo.ok ? sudo.sudo : null,
      ...(client ? { client } : {}),
    };
    return { identity, sudo };
  }

  private async runCall(params: CallParams, context: ExchangeContext): Promise<ToolCallOutcome> {
    const started = Date.now();
    const { metrics, logger, toolService } = this.options;
    const { identity, sudo } = this.callIdentity(params, context);
    const args = params.arguments ?? {};
    if (!sudo.ok)
      return toolService.refuse(
        params.name,
        args,
        identity,
        { kind: 'forbidden', status: 403, message: sudo.message },
        started,
      );
    metrics.inFlight.inc();
    const abandon = new AbortController();
    try {
      const outcome = await withDeadline(
        toolService.execute(params.name, args, identity, { signal: abandon.signal }),
        context.deadline,
      );
      if (outcome !== DEADLINE) return outcome;
      // The deadline ended the call: Gitea's request is cancelled and its late answer never recorded.
      abandon.abort();
      return toolService.refuse(params.name, args, identity, DEADLINE_REFUSAL, started);
    } catch (error) {
      // Never leak internals to the client: the details go to the log only.
      logger.error(
        { component: 'mcp', err: error instanceof Error ? error.message : String(error) },
        'tool call failed',
      );
      return toolService.refuse(params.name, args, identity, INTERNAL_REFUSAL, started);
    } finally {
      metrics.inFlight.dec();
    }
  }
}

type CallParams = { name: string; arguments?: unknown; _meta?: Record<string, unknown> };

/** A 2026-07-28 request the endpoint found plain enough to answer without the SDK (see serveModernFast). */
export type ModernFastRequest = {
  id: string | number;
  method: 'tools/call' | 'tools/list';
  params?: unknown;
};

const DEADLINE_REFUSAL: Refusal = {
  kind: 'timeout',
  status: 504,
  message: 'The request timed out before the call finished (REQUEST_TIMEOUT_MS)',
};
const INTERNAL_REFUSAL: Refusal = {
  kind: 'internal_error',
  status: null,
  message: 'the call failed inside the service; see the service logs',
};
/** How long a client may reuse a tools/list answer (2026-07-28 caching hints); the catalogue is fixed at start. */
export const TOOLS_LIST_TTL_MS = 60_000;

/**
 * The JSON-RPC response of a tool result, written in one pass: the envelope is a fixed template and
 * only the text fields (already JSON documents themselves) go through JSON.stringify, instead of
 * stringifying the whole nested response object. Same members as JSON.stringify({ result, jsonrpc, id }).
 */
export function resultResponseJson(result: ToolCallResult, id: string | number, tail = ''): string {
  const whole = (): string => {
    const text = JSON.stringify({ result, jsonrpc: '2.0', id });
    if (!tail) return text;
    // `{"result":{...}` then `,"jsonrpc"...`: the tail's members go at the end of the result.
    const end = text.lastIndexOf('},"jsonrpc":');
    return `${text.slice(0, end)}${tail}${text.slice(end)}`;
  };
  for (const key in result) if (key !== 'content' && key !== 'isError') return whole();
  let json = '{"result":{"content":[';
  const content = result.content;
  for (let i = 0; i < content.length; i++) {
    const item = content[i] as { type: 'text'; text: string };
    if (item.type !== 'text' || Object.keys(item).length !== 2 || typeof item.text !== 'string')
      return whole();
    json += `${i === 0 ? '' : ','}{"type":"text","text":${JSON.stringify(item.text)}}`;
  }
  json += ']';
  if (typeof result.isError === 'boolean') json += result.isError ? ',"isError":true' : ',"isError":false';
  return `${json}${tail}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
}

const DEADLINE = Symbol('deadline');

/** The call's outcome, or DEADLINE when the exchange's deadline passed first. */
async function withDeadline<T>(call: Promise<T>, deadline: number): Promise<T | typeof DEADLINE> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof DEADLINE>((resolve) => {
    timer = setTimeout(() => resolve(DEADLINE), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The HTTP answer of an outcome refused with reply `http` inside the call path (org quotas). */
function quotaReply(outcome: ToolCallOutcome): NonNullable<ExchangeContext['quotaRefusal']> {
  const reply = outcome.reply as Extract<ToolCallOutcome['reply'], { as: 'http' }>;
  return {
    retryAfterSeconds: reply.retryAfterSeconds,
    message: reply.message,
    data: { kind: outcome.kind, ...(reply.details ?? {}) },
  };
}
