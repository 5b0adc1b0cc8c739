// The call path of design section 3, framework-free: find the tool, policy, validation, request,
// Gitea, decoding, envelope, exact redaction, pattern masking, bounds, audit.
import type { CallIdentity, EffectivePolicy, GiteaRequest, GiteaResponse } from '../ports';
import { TransportError } from '../ports';
import type { SwaggerSpec } from '../catalogue/swagger-types';
import {
  BYTE_RANGE_ARG,
  BYTE_RANGE_OPERATIONS,
  buildCatalogue,
  RAW_TOOL_NAME,
  rawToolDefinition,
  type CatalogueOperation,
  type ToolCatalogue,
} from '../catalogue/tool-catalogue';
import { globalRefusal } from '../catalogue/tool-filter';
import { decideGlobal, type PolicySubject } from '../policy/call-policy';
import { decideCall, type CallDecision } from '../policy/org-policy';
import { takeQuotas } from '../policy/quota';
import { CatalogueSearch } from '../catalogue/discovery-search';
import { FusedSearch } from '../catalogue/semantic-search';
import { RouteMatcher } from '../catalogue/route-matcher';
import {
  DESCRIBE_TOOL_NAME,
  discoveryToolDefinitions,
  CALL_TOOL_NAME,
  SEARCH_TOOL_NAME,
} from '../catalogue/discovery-tools';
import { ArgumentValidator } from '../validation/argument-validator';
import { buildRequest, queryPairs, RequestBuildError } from '../request/request-builder';
import { encodeSegment } from '../request/path-encoding';
import { orgOfCall } from '../policy/global-policy';
import { CursorCodec, CursorError, cursorSubject, type CursorState } from '../envelope/cursor';
import {
  RESULT_OPTIONS_HELP,
  ResultOptionError,
  takeResultOptions,
  type ResultOptions,
} from '../envelope/result-options';
import { finishSuccess, type SuccessInput } from './success-result';
import { boundedRange, settleBoundedRead } from './bounded-read';
import { continuationRange } from '../envelope/text-pages';
import { discoveryInstructions, exampleCall, unknownToolHint } from '../catalogue/discovery-meta';
import { redactArguments } from '../secrets';
import {
  errorBody,
  giteaErrorMessage,
  kindForStatus,
  sanitizeMessage,
  type ErrorBody,
  type ErrorKind,
} from '../errors/error-mapping';
import { CallExit } from '../call/call-exit';
import {
  MAX_TOOL_NAME_CHARS,
  NO_COUNTS,
  resultOf,
  type OutcomeCounts,
  type OutcomeKind,
  type OutcomeReply,
  type Refusal,
  type ToolCallOutcome,
} from '../call/tool-call-outcome';
import {
  UnknownToolError,
  type McpToolDefinition,
  type ToolCallResult,
  type ToolService,
  type ToolServiceDeps,
  type ToolServiceOptions,
} from './tool-service';

/** A refusal or failure on the way, carried to the single exit of the call path. */
class CallFailure extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly status: number | null = null,
    readonly details?: unknown,
    /** Answer at the HTTP level (org quotas: 429 with Retry-After). */
    readonly http?: Refusal['http'],
  ) {
    super(message);
  }
}

type CallContext = {
  /** The name in tools/call (for gitea_call_tool the meta-tool itself). */
  calledAs: string;
  /** The tool the call reached (for gitea_call_tool the inner tool): the record's `tool`. */
  tool: string;
  op: CatalogueOperation | null;
  args: unknown;
  org: string | null;
  repo: string | null;
  request: GiteaRequest | null;
  status: number | null;
  bodySecrets: string[];
};

function newContext(name: string, args: unknown): CallContext {
  return {
    calledAs: name,
    tool: name,
    op: null,
    args,
    org: null,
    repo: null,
    request: null,
    status: null,
    bodySecrets: [],
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const RAW_PATH_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]+$/;

export class ToolExecutor implements ToolService {
  readonly catalogue: ToolCatalogue;
  private readonly search: CatalogueSearch;
  /** The search by words and meaning, when a sentence encoder is given (DISCOVERY_EMBEDDINGS). */
  private readonly fused: FusedSearch | null;
  private readonly matcher: RouteMatcher;
  private readonly validator = new ArgumentValidator();
  private readonly rawTool = rawToolDefinition();
  private readonly metaTools = discoveryToolDefinitions();
  private readonly cursors: CursorCodec;
  private readonly exit: CallExit;

  constructor(
    spec: SwaggerSpec | ToolCatalogue,
    private readonly options: ToolServiceOptions,
    private readonly deps: ToolServiceDeps,
  ) {
    this.catalogue =
      'operations' in spec ? spec : buildCatalogue(spec, { maxBinaryBytes: options.tools.maxBinaryBytes });
    this.search = new CatalogueSearch(
      this.catalogue.operations,
      deps.knownWords ? { knownWords: deps.knownWords } : {},
    );
    this.fused = deps.sentenceEncoder
      ? new FusedSearch(this.search, this.catalogue.operations, deps.sentenceEncoder, deps.warn)
      : null;
    this.matcher = new RouteMatcher(this.catalogue.operations);
    this.exit = new CallExit({
      audit: deps.audit,
      ...(deps.newEventId ? { newEventId: deps.newEventId } : {}),
      ...(deps.warn ? { warn: deps.warn } : {}),
    });
    this.cursors = new CursorCodec(options.cursorSecret ?? null, () => deps.clock.now());
  }

  /** The server's `instructions`: how to use the discovery tools and the result options. */
  instructions(): string {
    return discoveryInstructions(this.options.tools.mode === 'discovery');
  }

  /** Operations the global configuration lets through (listed, searchable). */
  enabledOperations(): CatalogueOperation[] {
    return this.catalogue.operations.filter((op) => !globalRefusal(op, this.options.tools));
  }

  listTools(): McpToolDefinition[] {
    // DISABLED_TOOLS applies to the raw tool and the meta-tools too.
    const extra = [...(this.options.tools.mode === 'discovery' ? this.metaTools : []), this.rawTool].filter(
      (tool) => decideGlobal(this.ownToolSubject(tool.name), this.options.tools).allowed,
    );
    if (this.options.tools.mode === 'discovery') return extra;
    return [...this.enabledOperations().map((op) => op.tool), ...extra];
  }

  requiredAccess(name: string, args: unknown): 'read' | 'write' | null {
    const a =
      args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
    if (name === SEARCH_TOOL_NAME || name === DESCRIBE_TOOL_NAME) return 'read';
    if (name === CALL_TOOL_NAME)
      return typeof a.name === 'string' ? this.requiredAccess(a.name, a.arguments ?? {}) : 'write';
    if (name === RAW_TOOL_NAME) return a.method === 'GET' ? 'read' : 'write';
    const op = this.catalogue.byName.get(name);
    if (!op) return null;
    return op.method === 'GET' ? 'read' : 'write';
  }

  private ownToolSubject(name: string): PolicySubject {
    return { kind: name === RAW_TOOL_NAME ? 'raw' : 'meta', name };
  }

  /** The raw tool and the meta-tools are refused like any tool when DISABLED_TOOLS names them. */
  private refuseOwnTool(name: string): void {
    const decision = decideGlobal(this.ownToolSubject(name), this.options.tools);
    if (!decision.allowed) throw new CallFailure(decision.kind, decision.message);
  }

  /**
   * Runs one call and describes how it ended; never throws and never audits (the caller hands the
   * outcome to the exit). `signal` abandons the call: the Gitea request is cancelled.
   */
  async execute(
    name: string,
    args: unknown,
    identity: CallIdentity,
    options: { signal?: AbortSignal } = {},
  ): Promise<ToolCallOutcome> {
    const started = this.deps.clock.now();
    const ctx = newContext(name, args);
    try {
      const ran = await this.run(name, args, identity, ctx, options.signal);
      return this.outcome(ctx, identity, started, ran.kind ?? 'ok', ran.text, ran.isError, ran.counts);
    } catch (error) {
      if (error instanceof UnknownToolError) {
        return this.outcome(ctx, identity, started, 'unknown_tool', '', true, NO_COUNTS, {
          as: 'unknown_tool',
          message: error.message,
        });
      }
      const failure = toFailure(error);
      return this.failed(ctx, identity, started, failure, failure.http);
    }
  }

  /**
   * The outcome of a call refused before it ran (sudo, rate limit, concurrency, deadline): the tool
   * and its organisation are still resolved for the record, and the error text is scrubbed like any.
   */
  refuse(
    name: string,
    args: unknown,
    identity: CallIdentity,
    refusal: Refusal,
    startedAt: number = this.deps.clock.now(),
  ): ToolCallOutcome {
    const ctx = newContext(name, args);
    this.locate(name, args, ctx);
    ctx.status = refusal.status;
    const failure = new CallFailure(refusal.kind, refusal.message, refusal.status, refusal.details);
    return this.failed(ctx, identity, startedAt, failure, refusal.http);
  }

  /** The catalogue's name for `name` (a generated tool, the raw tool or a meta-tool), else null. */
  knownTool(name: string): string | null {
    if (this.catalogue.byName.has(name) || name === RAW_TOOL_NAME) return name;
    return this.metaTools.some((t) => t.name === name) ? name : null;
  }

  /** execute, then the exit (one audit record through deps.audit), answered as ToolService does. */
  async callTool(name: string, args: unknown, identity: CallIdentity): Promise<ToolCallResult> {
    const outcome = await this.execute(name, args, identity);
    this.exit.finish(outcome);
    if (outcome.reply.as === 'unknown_tool') throw new UnknownToolError(name);
    return resultOf(outcome);
  }

  private failed(
    ctx: CallContext,
    identity: CallIdentity,
    started: number,
    failure: CallFailure,
    http?: Refusal['http'],
  ): ToolCallOutcome {
    // Anything unexpected arrives here as internal_error: a generic message, never a stack trace.
    const scrubbed = this.scrubError(
      errorBody(failure.kind, failure.status, failure.message, failure.details),
      identity,
      ctx,
    );
    const text = JSON.stringify(scrubbed.value);
    const counts = {
      resultBytes: Buffer.byteLength(text),
      redactions: scrubbed.redactions,
      masks: scrubbed.masks,
      blocked: scrubbed.blocked,
    };
    const kind = scrubbed.blocked ? 'secret_blocked' : failure.kind;
    const error = (scrubbed.value as ErrorBody).error;
    const details = error.details;
    const reply: OutcomeReply = http
      ? {
          as: 'http',
          ...http,
          message: error.message,
          ...(details && typeof details === 'object' && !Array.isArray(details)
            ? { details: details as Record<string, unknown> }
            : {}),
        }
      : { as: 'result' };
    return this.outcome(ctx, identity, started, kind, text, true, counts, reply);
  }

  private outcome(
    ctx: CallContext,
    identity: CallIdentity,
    started: number,
    kind: OutcomeKind,
    text: string,
    isError: boolean,
    counts: Omit<OutcomeCounts, 'resultBytes'> & { resultBytes?: number },
    reply: OutcomeReply = { as: 'result' },
  ): ToolCallOutcome {
    // The stored arguments are redacted when the exit first reads them: on the MCP fast paths that
    // is after the answer is written, so the redaction is not part of the caller's wait.
    let redacted: { value: unknown } | null = null;
    const redact = (): unknown => (redacted ??= { value: this.redactedArguments(ctx, identity) }).value;
    return {
      identity,
      tool: ctx.tool.slice(0, MAX_TOOL_NAME_CHARS),
      knownTool: reply.as === 'unknown_tool' ? null : this.knownTool(ctx.calledAs),
      operationId: ctx.op?.operationId ?? null,
      org: ctx.org,
      repo: ctx.repo,
      method: ctx.request?.method ?? ctx.op?.method ?? null,
      path: ctx.request?.path ?? null,
      status: ctx.status,
      kind,
      text,
      isError,
      reply,
      startedAt: started,
      durationMs: Math.max(0, this.deps.clock.now() - started),
      counts: {
        resultBytes: counts.resultBytes ?? Buffer.byteLength(text),
        redactions: counts.redactions,
        masks: counts.masks,
        blocked: counts.blocked,
      },
      get arguments() {
        return redact();
      },
    };
  }

  /** Best effort, for refusals: which operation and organisation a call would have reached. */
  private locate(name: string, args: unknown, ctx: CallContext, depth = 0): void {
    try {
      if (name === CALL_TOOL_NAME && depth === 0 && isRecord(args) && typeof args.name === 'string') {
        ctx.tool = args.name;
        ctx.args = args.arguments ?? {};
        return this.locate(args.name, ctx.args, ctx, 1);
      }
      if (name === RAW_TOOL_NAME) {
        const raw = this.resolveRaw(args);
        this.bind(raw.op, raw.args, ctx);
        return;
      }
      const op = this.catalogue.byName.get(name);
      if (op) this.bind(op, isRecord(args) ? args : {}, ctx);
    } catch {
      // an unresolvable call is recorded with what is known
    }
  }

  /** The operation a call reaches: its organisation, repository and body secrets. */
  private bind(op: CatalogueOperation, callArgs: Record<string, unknown>, ctx: CallContext): void {
    ctx.op = op;
    ctx.org = orgOfCall(callArgs, op.route);
    ctx.repo = op.route.includes('{repo}') && typeof callArgs.repo === 'string' ? callArgs.repo : null;
    ctx.bodySecrets = safeCollect(() => this.deps.scrubber.collectBodySecrets(callArgs.body, op.operationId));
  }

  private async run(
    name: string,
    args: unknown,
    identity: CallIdentity,
    ctx: CallContext,
    signal?: AbortSignal,
  ): Promise<{
    text: string;
    isError: boolean;
    kind: OutcomeKind | null;
    counts: { redactions: number; masks: number; blocked: boolean };
  }> {
    const none = { redactions: 0, masks: 0, blocked: false };
    // OAuth mode: the person's Gitea grant is gone. Never fall back to another credential.
    if (identity.authRequired !== undefined && name !== SEARCH_TOOL_NAME && name !== DESCRIBE_TOOL_NAME)
      throw new CallFailure('auth_required', identity.authRequired, 401);
    if (
      name === SEARCH_TOOL_NAME ||
      name === DESCRIBE_TOOL_NAME ||
      name === CALL_TOOL_NAME ||
      name === RAW_TOOL_NAME
    )
      this.refuseOwnTool(name);
    if (name === SEARCH_TOOL_NAME || name === DESCRIBE_TOOL_NAME) {
      const meta = this.metaTools.find((t) => t.name === name)!;
      const check = this.validator.validate(name, meta.inputSchema, args);
      if (!check.ok) throw new CallFailure('invalid_arguments', check.message, null, check.issues);
      const a = args as Record<string, unknown>;
      const org = typeof a.org === 'string' ? a.org : null;
      const data =
        name === SEARCH_TOOL_NAME
          ? await this.searchTools(String(a.query), typeof a.limit === 'number' ? a.limit : 8, org)
          : await this.describeTool(String(a.name), org);
      return { text: JSON.stringify(data), isError: false, kind: null, counts: none };
    }
    if (name === CALL_TOOL_NAME) {
      const meta = this.metaTools.find((t) => t.name === name)!;
      const check = this.validator.validate(name, meta.inputSchema, args);
      if (!check.ok) throw new CallFailure('invalid_arguments', check.message, null, check.issues);
      const inner = args as { name: string; arguments?: unknown };
      if (
        inner.name === CALL_TOOL_NAME ||
        inner.name === SEARCH_TOOL_NAME ||
        inner.name === DESCRIBE_TOOL_NAME
      )
        throw new CallFailure('invalid_arguments', `${CALL_TOOL_NAME} calls Gitea tools, not the meta-tools`);
      if (inner.name !== RAW_TOOL_NAME && !this.catalogue.byName.has(inner.name)) {
        ctx.tool = inner.name;
        // An error result with the describe tool's hint, not a protocol error (issue 17).
        const hint = unknownToolHint(inner.name, this.search);
        throw new CallFailure('invalid_arguments', hint.message, null, { suggestions: hint.suggestions });
      }
      // Same path as a direct call: the audit record names the inner tool.
      ctx.tool = inner.name;
      ctx.args = inner.arguments ?? {};
      return this.run(inner.name, inner.arguments ?? {}, identity, ctx, signal);
    }
    if (name !== RAW_TOOL_NAME && !this.catalogue.byName.has(name)) throw new UnknownToolError(name);
    const shaping = this.resultOptions(name, args, identity);
    args = shaping.args;
    ctx.args = args;
    let op: CatalogueOperation;
    let callArgs: Record<string, unknown>;
    let request: GiteaRequest | null = null;
    let rawParts: Record<string, unknown> | null = null;
    if (name === RAW_TOOL_NAME) {
      const raw = this.resolveRaw(args);
      op = raw.op;
      callArgs = raw.args;
      request = raw.request;
      rawParts = raw.parts;
    } else {
      const found = this.catalogue.byName.get(name);
      if (!found) throw new UnknownToolError(name);
      op = found;
      callArgs =
        args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
    }
    this.bind(op, callArgs, ctx);

    // Policy (src/core/policy/org-policy.ts): the global floor, then the org's own rules.
    const policy: EffectivePolicy = await this.deps.policy.forOrg(ctx.org);
    const decision = decideCall(op, { org: ctx.org, repo: ctx.repo }, this.floor(), policy);
    if (!decision.allowed) {
      throw new CallFailure(decision.kind, decision.message, null, {
        org: decision.org,
        rule: decision.rule,
      });
    }
    (ctx as CallContext & { mode?: string }).mode = policy.detectionMode;

    if (!request) {
      const check = this.validator.validate(op.operationId, op.tool.inputSchema, args);
      if (!check.ok) throw new CallFailure('invalid_arguments', check.message, null, check.issues);
      request = buildRequest(op, callArgs, { maxBinaryBytes: this.options.tools.maxBinaryBytes });
    } else if (rawParts) {
      // The raw tool's query and body meet the same schema as the generated tool's (issue 4).
      const check = this.validator.validate(
        `${RAW_TOOL_NAME} as ${op.operationId}`,
        rawPartsSchema(op),
        rawParts,
      );
      if (!check.ok) throw new CallFailure('invalid_arguments', check.message, null, check.issues);
    }
    // A text cursor on an operation that takes byte_range reads its next window with a Range request.
    if (shaping.offset !== null && !rawParts && BYTE_RANGE_OPERATIONS.has(op.operationId))
      request.headers.range = continuationRange(
        shaping.offset,
        callArgs[BYTE_RANGE_ARG],
        this.maxTextBytes(),
      );
    ctx.request = request;
    const marker =
      request.body?.kind === 'json'
        ? this.deps.scrubber.findMaskMarker(request.body.value, op.operationId)
        : null;
    if (marker) {
      throw new CallFailure(
        'masked_content_write',
        `the request body contains a masked secret placeholder at ${marker}; writing it back would replace the real value. Send the real content or leave the field out.`,
      );
    }

    await this.takeQuotas(decision, identity);

    const send = (req: GiteaRequest): Promise<GiteaResponse> =>
      this.deps.transport.send(req, identity, {
        timeoutMs: this.options.timeoutMs,
        maxBodyBytes:
          this.options.maxResponseBytes ?? Math.max(this.options.tools.maxBinaryBytes + 1, 32 * 1024 * 1024),
        ...(signal ? { signal } : {}),
        maxTextBytes: this.maxTextBytes(),
      });
    // A body that is file content is asked for with a Range of at most MAX_TEXT_BODY_BYTES, so Gitea
    // sends no more than is read (bounded-read.ts; the raw tool's requests are sent as they are).
    const bounded =
      !rawParts && BYTE_RANGE_OPERATIONS.has(op.operationId)
        ? boundedRange(request.headers.range, this.maxTextBytes())
        : null;
    if (bounded) request.headers.range = bounded.header;
    let response = await send(request);
    if (bounded) {
      const settled = await settleBoundedRead(
        request,
        response,
        bounded,
        send,
        this.options.tools.maxBinaryBytes,
      );
      if ('tooLarge' in settled) throw new CallFailure('payload_too_large', settled.tooLarge, settled.status);
      request = settled.request;
      response = settled.response;
      ctx.request = request;
    }
    ctx.status = response.status;
    if (response.status < 200 || response.status >= 300) {
      throw new CallFailure(kindForStatus(response.status), responseMessage(response), response.status);
    }
    return this.success(op, request, response, identity, ctx, policy, { name, ...shaping }, signal);
  }

  /** fields/format/cursor split off the arguments; a cursor is checked and replaces them. */
  private resultOptions(
    name: string,
    args: unknown,
    identity: CallIdentity,
  ): { args: unknown; options: ResultOptions; offset: number | null } {
    let taken;
    try {
      taken = takeResultOptions(args);
    } catch (error) {
      if (error instanceof ResultOptionError) throw new CallFailure('invalid_arguments', error.message);
      throw error;
    }
    if (!taken.options.cursor) return { args: taken.args, options: taken.options, offset: null };
    let state: CursorState;
    try {
      state = this.cursors.decode(taken.options.cursor, cursorSubject(identity));
    } catch (error) {
      if (error instanceof CursorError)
        throw new CallFailure('invalid_arguments', `cursor refused: ${error.message}`);
      throw error;
    }
    if (state.tool !== name)
      throw new CallFailure(
        'invalid_arguments',
        `cursor refused: it continues ${state.tool.slice(0, 100)}, not ${name.slice(0, 100)}`,
      );
    return {
      args: state.args,
      options: { fields: state.fields, format: state.format, cursor: null },
      offset: state.offset ?? null,
    };
  }

  private floor() {
    return { ...this.options.tools, detectionMode: this.options.secrets.detectionMode };
  }

  /** Org quotas, counted per person (the sudo user when acting as one) across replicas. */
  private async takeQuotas(decision: CallDecision, identity: CallIdentity): Promise<void> {
    if (!decision.allowed || !decision.org || !decision.quotas.length || !this.deps.quotas) return;
    const person = identity.sudo ?? identity.login;
    const refusal = await takeQuotas(
      this.deps.quotas,
      decision.quotas,
      decision.org,
      person,
      this.deps.clock.now(),
    );
    if (refusal) {
      throw new CallFailure(
        'rate_limited',
        refusal.message,
        429,
        {
          org: refusal.org,
          rule: refusal.rule,
          quota: refusal.quota,
          limit: refusal.limit,
          reset_at: refusal.resetAt,
          retry_after_seconds: refusal.retryAfterSeconds,
        },
        { httpStatus: 429, retryAfterSeconds: refusal.retryAfterSeconds },
      );
    }
  }

  private async success(
    op: CatalogueOperation,
    request: GiteaRequest,
    response: GiteaResponse,
    identity: CallIdentity,
    ctx: CallContext,
    policy: EffectivePolicy,
    call: { name: string; args: unknown; options: ResultOptions; offset: number | null },
    signal?: AbortSignal,
  ) {
    const input: SuccessInput = {
      op: {
        operationId: op.operationId,
        listResult: op.listResult,
        paging: op.paging,
        countField: op.countField,
        responseHeaders: op.responseHeaders,
        listField: op.listField,
      },
      byteRangeOp: BYTE_RANGE_OPERATIONS.has(op.operationId),
      byteRangeArg: BYTE_RANGE_ARG,
      rawToolName: RAW_TOOL_NAME,
      request,
      response,
      identity,
      call,
      scrub: {
        exactSecrets: this.exactSecrets(identity, ctx),
        mode: policy.detectionMode,
        skipPatterns: this.deps.scrubber.CREDENTIAL_ISSUING_OPERATIONS.has(op.operationId),
      },
      limits: {
        maxBinaryBytes: this.options.tools.maxBinaryBytes,
        maxResponseItems: this.options.tools.maxResponseItems,
        maxResponseChars: this.options.tools.maxResponseChars,
        maxTextBytes: this.maxTextBytes(),
        hygieneFiles: this.options.hygieneFileContents ?? 'flag',
      },
    };
    // A large body is finished whole off the event loop when the scrubber can (ADR 0018): decoding,
    // shaping, both secret layers, bounds and serialisation in a worker thread, which the deadline stops.
    const offLoop = this.deps.scrubber.finishOffLoop?.(
      { input, cursorKey: this.cursors.exportKey(), now: this.deps.clock.now() },
      signal,
    );
    const done = offLoop
      ? await offLoop
      : await finishSuccess(input, {
          cursors: this.cursors,
          scrub: (value, scrubCtx, options) =>
            this.deps.scrubber.scrubResultAsync
              ? this.deps.scrubber.scrubResultAsync(value, scrubCtx, {
                  ...options,
                  ...(signal ? { signal } : {}),
                })
              : Promise.resolve(this.deps.scrubber.scrubResult(value, scrubCtx)),
          pause: () => new Promise<void>((resolve) => setImmediate(resolve)),
          ...(this.options.turns ? { turn: () => this.options.turns!.turn() } : {}),
        });
    if ('failure' in done)
      throw new CallFailure(done.failure.kind, done.failure.message, done.failure.status);
    return done;
  }

  /** MAX_TEXT_BODY_BYTES: text and JSON bodies are read up to here (default 4 x MAX_TOOL_RESPONSE_CHARS). */
  private maxTextBytes(): number {
    return this.options.tools.maxTextBodyBytes ?? 4 * this.options.tools.maxResponseChars;
  }

  private exactSecrets(identity: CallIdentity, ctx: CallContext): string[] {
    return [identity.token, ...this.options.exactSecrets, ...ctx.bodySecrets].filter(
      (s): s is string => typeof s === 'string' && s.length > 0,
    );
  }

  private scrubError(
    body: ErrorBody,
    identity: CallIdentity,
    ctx: CallContext,
  ): { value: unknown; redactions: number; masks: number; blocked: boolean } {
    body.error.message = sanitizeMessage(body.error.message, this.exactSecrets(identity, ctx));
    const mode =
      (ctx as CallContext & { mode?: 'off' | 'mask' | 'block' }).mode ?? this.options.secrets.detectionMode;
    // Errors go through both layers like any result; in block mode a secret withholds the message.
    const scrubbed = this.deps.scrubber.scrubResult(body, {
      exactSecrets: this.exactSecrets(identity, ctx),
      mode,
      skipPatterns: false,
    });
    if (!scrubbed.blocked) return { ...scrubbed, blocked: false };
    const kinds = scrubbed.blocked.kinds.slice(0, 20).join(', ') || 'unknown kind';
    return {
      value: errorBody(
        'secret_blocked',
        body.error.status,
        `the ${body.error.kind} error was withheld because its message contains secrets (${kinds}) and secret detection is in block mode`,
      ),
      redactions: scrubbed.redactions,
      masks: scrubbed.masks,
      blocked: true,
    };
  }

  /** The raw tool: checks the path, finds the operation it reaches, builds the request as sent. */
  private resolveRaw(args: unknown): {
    op: CatalogueOperation;
    args: Record<string, unknown>;
    request: GiteaRequest;
    /** `{query?, body?}` as sent, validated against rawPartsSchema(op) once policy has allowed the call. */
    parts: Record<string, unknown>;
  } {
    const check = this.validator.validate(RAW_TOOL_NAME, this.rawTool.inputSchema, args);
    if (!check.ok) throw new CallFailure('invalid_arguments', check.message, null, check.issues);
    const a = args as {
      method: GiteaRequest['method'];
      path: string;
      query?: Record<string, unknown>;
      body?: unknown;
    };
    const path = a.path;
    if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//'))
      throw new CallFailure('invalid_arguments', 'path must be a path relative to /api/v1, not a URL');
    if (!path.startsWith('/'))
      throw new CallFailure('invalid_arguments', 'path must be absolute (start with /), relative to /api/v1');
    if (path.includes('%')) {
      throw new CallFailure(
        'invalid_arguments',
        'path must not contain "%": escaped characters such as %2F cannot be sent through gitea_api_request; use the generated tool for the operation (for example repoGetReleaseByTag for a tag containing "/")',
      );
    }
    if (path.includes('?') || path.includes('#'))
      throw new CallFailure(
        'invalid_arguments',
        'path must not contain a query string or fragment; use the query argument',
      );
    const segments = path.slice(1).split('/');
    if (segments.some((s) => s === '..' || s === '.'))
      throw new CallFailure('invalid_arguments', 'path must not contain "." or ".." segments');
    if (segments.some((s) => s === '') && path !== '/')
      throw new CallFailure(
        'invalid_arguments',
        'path must not contain empty segments (double or trailing "/")',
      );
    if (!RAW_PATH_CHARS.test(path))
      throw new CallFailure(
        'invalid_arguments',
        'path contains characters that are not allowed in a plain path (spaces, backslashes, control or non-ASCII characters)',
      );
    if (/^\/api\/v1(\/|$)/.test(path))
      throw new CallFailure('invalid_arguments', 'path is relative to /api/v1: leave the /api/v1 prefix out');
    const match = this.matcher.match(a.method, segments);
    if (!match) throw new CallFailure('invalid_arguments', `no Gitea operation matches ${a.method} ${path}`);
    const op = match.op;
    if (op.multipart)
      throw new CallFailure(
        'invalid_arguments',
        `${op.operationId} uploads a file; call the ${op.operationId} tool instead`,
      );
    const query: Array<[string, string]> = [];
    for (const [key, value] of Object.entries(a.query ?? {})) query.push(...queryPairs(key, value));
    const request: GiteaRequest = {
      method: a.method,
      path: '/' + segments.map(encodeSegment).join('/'),
      query,
      headers: {},
    };
    if (a.body !== undefined) {
      request.body =
        op.body?.contentType === 'text' && typeof a.body === 'string'
          ? { kind: 'text', value: a.body, contentType: 'text/plain' }
          : { kind: 'json', value: a.body };
    }
    // Path parameters last: a query key named like one (owner, org) must not move the call to
    // another organisation's policy or detection mode.
    const parts: Record<string, unknown> = {};
    if (a.query !== undefined) parts.query = a.query;
    if (a.body !== undefined) parts.body = a.body;
    return { op, args: { ...(a.query ?? {}), ...match.params, body: a.body }, request, parts };
  }

  /** Why `org`'s policy refuses `op` (no repository given), or null. */
  private async orgRefusal(op: CatalogueOperation, org: string, policy?: EffectivePolicy) {
    const effective = policy ?? (await this.deps.policy.forOrg(org));
    const decision = decideCall(op, { org, repo: null }, this.floor(), effective);
    return decision.allowed
      ? null
      : { org, kind: decision.kind, reason: decision.message, rule: decision.rule };
  }

  private async searchTools(query: string, limit: number, org: string | null) {
    // Disabled tools are found and flagged, not hidden: the agent learns why a call would fail.
    const ranked = this.fused ? await this.fused.search(query, limit) : this.search.search(query, limit);
    const found = ranked.map((hit) => {
      const op = this.catalogue.byName.get(hit.name);
      const refusal = op ? globalRefusal(op, this.options.tools) : null;
      return refusal ? { ...hit, disabled: { kind: refusal.kind, reason: refusal.message } } : hit;
    });
    let hits: Array<(typeof found)[number] & { disabled_for_org?: unknown }> = found;
    if (org) {
      const policy = await this.deps.policy.forOrg(org);
      hits = await Promise.all(
        found.map(async (hit) => {
          const op = this.catalogue.byName.get(hit.name);
          const refusal = op && !('disabled' in hit) ? await this.orgRefusal(op, org, policy) : null;
          return refusal ? { ...hit, disabled_for_org: refusal } : hit;
        }),
      );
    }
    return {
      query,
      results: hits,
      hint: hits.length
        ? `Use ${DESCRIBE_TOOL_NAME} for a tool's full input schema and an example, then ${CALL_TOOL_NAME} to call it.`
        : 'No tool matched; try other words (e.g. "list pull requests", "create issue").',
    };
  }

  private async describeTool(name: string, org: string | null) {
    if (name === RAW_TOOL_NAME) return { ...this.rawTool };
    const op = this.catalogue.byName.get(name);
    if (!op)
      throw new CallFailure(
        'invalid_arguments',
        `no tool named ${name.slice(0, 100)}; use ${SEARCH_TOOL_NAME} to find one`,
      );
    const refusal = globalRefusal(op, this.options.tools);
    if (refusal) throw new CallFailure(refusal.kind, refusal.message);
    const described = {
      ...op.tool,
      method: op.method,
      path: op.route,
      toolset: op.tags[0] ?? null,
      example: exampleCall(op),
      result_options: RESULT_OPTIONS_HELP,
    };
    if (!org) return described;
    const forOrg = await this.orgRefusal(op, org);
    return {
      ...described,
      policy: forOrg
        ? { org, allowed: false, kind: forOrg.kind, reason: forOrg.reason, rule: forOrg.rule }
        : { org, allowed: true },
    };
  }

  private redactedArguments(ctx: CallContext, identity: CallIdentity): unknown {
    try {
      // Body secret fields of any length and depth, the caller's token, the configured secrets and
      // recognisable secrets: the stored arguments carry none of them, whatever the scrubber port is.
      return redactArguments(
        summariseUploads(ctx.args),
        this.exactSecrets(identity, ctx),
        ctx.op?.operationId ?? ctx.tool,
      );
    } catch {
      return '[arguments withheld: redaction failed]';
    }
  }
}

const rawSchemas = new WeakMap<CatalogueOperation, object>();

/**
 * The schema of the raw tool's `{query, body}` for one operation, cut from the generated tool's own
 * input schema: `query` holds that operation's query parameters (closed, required ones required),
 * `body` is the generated tool's `body` property unchanged, so a body error names the same schema
 * path (#/properties/body/...) as a call of the generated tool.
 */
export function rawPartsSchema(op: CatalogueOperation): object {
  let schema = rawSchemas.get(op);
  if (schema) return schema;
  const generated = op.tool.inputSchema as {
    properties?: Record<string, unknown>;
    required?: string[];
  };
  const props = generated.properties ?? {};
  const queryProps: Record<string, unknown> = {};
  const queryRequired: string[] = [];
  for (const p of op.params) {
    if (p.in !== 'query') continue;
    queryProps[p.name] = props[p.name] ?? {};
    if (p.required) queryRequired.push(p.name);
  }
  const query: Record<string, unknown> = {
    type: 'object',
    properties: queryProps,
    additionalProperties: false,
  };
  if (queryRequired.length) query.required = queryRequired;
  const properties: Record<string, unknown> = { query };
  const required: string[] = queryRequired.length ? ['query'] : [];
  if (op.body && props.body !== undefined) {
    properties.body = props.body;
    if (generated.required?.includes('body')) required.push('body');
  }
  schema = {
    type: 'object',
    properties,
    additionalProperties: false,
    ...(required.length ? { required } : {}),
  };
  rawSchemas.set(op, schema);
  return schema;
}

function safeCollect(fn: () => string[]): string[] {
  try {
    return fn();
  } catch {
    return [];
  }
}

function responseMessage(response: GiteaResponse): string {
  const off = response.offOrigin;
  if (off && !off.followed) {
    return `Gitea redirected to a download at ${off.origin} (HTTP ${response.status}); it was not fetched: ${off.reason}. The link itself is not shown: it is signed, and anyone holding it could download the file.`;
  }
  if (off?.followed) {
    return `Gitea redirected to a download at ${off.origin}, which answered HTTP ${response.status}: ${giteaErrorMessage(response.status, response.body)}`;
  }
  if (response.status >= 300 && response.status < 400) {
    return `Gitea answered with a redirect (HTTP ${response.status}) that was not followed: a redirect to the Gitea web pages, or more than the allowed number of hops`;
  }
  return giteaErrorMessage(response.status, response.body);
}

function toFailure(error: unknown): CallFailure {
  if (error instanceof CallFailure) return error;
  if (error instanceof RequestBuildError) return new CallFailure(error.kind, error.message);
  if (error instanceof TransportError) {
    const prefix = {
      timeout: 'Gitea did not answer in time',
      network_error: 'Gitea could not be reached',
      payload_too_large: 'Gitea response too large',
    }[error.kind];
    return new CallFailure(error.kind, `${prefix}: ${error.message}`);
  }
  return new CallFailure('internal_error', 'the call failed inside the service; see the service logs');
}

/** Uploads in audit records: their size, not their bytes. */
function summariseUploads(args: unknown): unknown {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return args;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args as Record<string, unknown>)) {
    if (
      value &&
      typeof value === 'object' &&
      typeof (value as { content_base64?: unknown }).content_base64 === 'string'
    ) {
      const upload = value as { content_base64: string; filename?: unknown };
      out[key] = {
        filename: upload.filename,
        content_base64: `[${upload.content_base64.length} base64 chars]`,
      };
    } else out[key] = value;
  }
  return out;
}

export function createToolService(
  spec: SwaggerSpec | ToolCatalogue,
  options: ToolServiceOptions,
  deps: ToolServiceDeps,
): ToolExecutor {
  return new ToolExecutor(spec, options, deps);
}
