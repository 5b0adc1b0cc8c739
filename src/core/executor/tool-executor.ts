// The call path of design section 3, framework-free: find the tool, policy, validation, request,
// Gitea, decoding, envelope, exact redaction, pattern masking, bounds, audit.
import { randomUUID } from 'node:crypto';
import type { AuditEntry, CallIdentity, EffectivePolicy, GiteaRequest, GiteaResponse } from '../ports';
import { TransportError } from '../ports';
import type { SwaggerSpec } from '../catalogue/swagger-types';
import {
  buildCatalogue,
  RAW_TOOL_NAME,
  rawToolDefinition,
  type CatalogueOperation,
  type ToolCatalogue,
} from '../catalogue/tool-catalogue';
import { globalRefusal, matchesAny } from '../catalogue/tool-filter';
import { CatalogueSearch } from '../catalogue/discovery-search';
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
import { BinaryTooLargeError, buildEnvelope, decodeBody } from '../envelope/envelope';
import { applyBounds } from '../envelope/bounds';
import { CursorCodec, CursorError, cursorSubject, type CursorState } from '../envelope/cursor';
import {
  RESULT_OPTIONS_HELP,
  ResultOptionError,
  takeResultOptions,
  type ResultOptions,
} from '../envelope/result-options';
import { shapeResult } from '../envelope/result-shaping';
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
  ) {
    super(message);
  }
}

type CallContext = {
  tool: string;
  op: CatalogueOperation | null;
  args: unknown;
  org: string | null;
  repo: string | null;
  request: GiteaRequest | null;
  status: number | null;
  bodySecrets: string[];
};

const RAW_PATH_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]+$/;

export class ToolExecutor implements ToolService {
  readonly catalogue: ToolCatalogue;
  private readonly search: CatalogueSearch;
  private readonly matcher: RouteMatcher;
  private readonly validator = new ArgumentValidator();
  private readonly rawTool = rawToolDefinition();
  private readonly metaTools = discoveryToolDefinitions();
  private readonly newEventId: () => string;
  private readonly cursors: CursorCodec;

  constructor(
    spec: SwaggerSpec | ToolCatalogue,
    private readonly options: ToolServiceOptions,
    private readonly deps: ToolServiceDeps,
  ) {
    this.catalogue =
      'operations' in spec ? spec : buildCatalogue(spec, { maxBinaryBytes: options.tools.maxBinaryBytes });
    this.search = new CatalogueSearch(this.catalogue.operations);
    this.matcher = new RouteMatcher(this.catalogue.operations);
    this.newEventId = deps.newEventId ?? randomUUID;
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
    if (this.options.tools.mode === 'discovery') return [...this.metaTools, this.rawTool];
    return [...this.enabledOperations().map((op) => op.tool), this.rawTool];
  }

  async callTool(name: string, args: unknown, identity: CallIdentity): Promise<ToolCallResult> {
    const started = this.deps.clock.now();
    const ctx: CallContext = {
      tool: name,
      op: null,
      args,
      org: null,
      repo: null,
      request: null,
      status: null,
      bodySecrets: [],
    };
    let text: string;
    let isError: boolean;
    let kind: string | null;
    let counts: { redactions: number; masks: number; blocked: boolean };
    try {
      const outcome = await this.run(name, args, identity, ctx);
      ({ text, counts } = outcome);
      isError = outcome.isError;
      kind = outcome.kind;
    } catch (error) {
      if (error instanceof UnknownToolError) {
        this.audit(ctx, identity, started, 'unknown_tool', 0, { redactions: 0, masks: 0, blocked: false });
        throw error;
      }
      // Anything unexpected: a generic message, never a stack trace.
      const failure = toFailure(error);
      const scrubbed = this.scrubError(
        errorBody(failure.kind, failure.status, failure.message, failure.details),
        identity,
        ctx,
      );
      text = JSON.stringify(scrubbed.value);
      counts = { redactions: scrubbed.redactions, masks: scrubbed.masks, blocked: scrubbed.blocked };
      isError = true;
      kind = scrubbed.blocked ? 'secret_blocked' : failure.kind;
    }
    this.audit(ctx, identity, started, kind, Buffer.byteLength(text), counts);
    return { content: [{ type: 'text', text }], isError };
  }

  private async run(
    name: string,
    args: unknown,
    identity: CallIdentity,
    ctx: CallContext,
  ): Promise<{
    text: string;
    isError: boolean;
    kind: string | null;
    counts: { redactions: number; masks: number; blocked: boolean };
  }> {
    const none = { redactions: 0, masks: 0, blocked: false };
    if (name === SEARCH_TOOL_NAME || name === DESCRIBE_TOOL_NAME) {
      const meta = this.metaTools.find((t) => t.name === name)!;
      const check = this.validator.validate(name, meta.inputSchema, args);
      if (!check.ok) throw new CallFailure('invalid_arguments', check.message, null, check.issues);
      const a = args as Record<string, unknown>;
      const data =
        name === SEARCH_TOOL_NAME
          ? this.searchTools(String(a.query), typeof a.limit === 'number' ? a.limit : 8)
          : this.describeTool(String(a.name));
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
      return this.run(inner.name, inner.arguments ?? {}, identity, ctx);
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
    ctx.op = op;
    ctx.org = orgOfCall(callArgs, op.route);
    ctx.repo = op.route.includes('{repo}') && typeof callArgs.repo === 'string' ? callArgs.repo : null;
    ctx.bodySecrets = safeCollect(() => this.deps.scrubber.collectBodySecrets(callArgs.body, op.operationId));

    // Policy: the global floor, then the org's own list.
    const refusal = globalRefusal(op, this.options.tools);
    if (refusal) throw new CallFailure(refusal.kind, refusal.message);
    const policy: EffectivePolicy = await this.deps.policy.forOrg(ctx.org);
    const pattern = matchesAny(op.operationId, policy.disabledTools);
    if (pattern) {
      throw new CallFailure(
        'tool_disabled',
        policy.org
          ? `tool ${op.operationId} is disabled for organization ${policy.org}`
          : `tool ${op.operationId} is disabled by policy (${pattern})`,
      );
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

    const response = await this.deps.transport.send(request, identity, {
      timeoutMs: this.options.timeoutMs,
      maxBodyBytes:
        this.options.maxResponseBytes ?? Math.max(this.options.tools.maxBinaryBytes + 1, 32 * 1024 * 1024),
    });
    ctx.status = response.status;
    if (response.status < 200 || response.status >= 300) {
      throw new CallFailure(kindForStatus(response.status), responseMessage(response), response.status);
    }
    return this.success(op, request, response, identity, ctx, policy, { name, ...shaping });
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

  private success(
    op: CatalogueOperation,
    request: GiteaRequest,
    response: GiteaResponse,
    identity: CallIdentity,
    ctx: CallContext,
    policy: EffectivePolicy,
    call: { name: string; args: unknown; options: ResultOptions; offset: number | null },
  ) {
    let decoded;
    try {
      decoded = decodeBody(response, this.options.tools.maxBinaryBytes);
    } catch (error) {
      if (error instanceof BinaryTooLargeError)
        throw new CallFailure('payload_too_large', error.message, response.status);
      throw error;
    }
    const envelope = buildEnvelope({
      identity,
      method: request.method,
      path: request.path,
      response,
      query: request.query,
      isList: op.listResult,
      declaredHeaders: op.responseHeaders,
      decoded,
    });
    // Field selection, hygiene, text pages and tables before the secret layers and the bounds.
    const shaped = shapeResult(envelope, {
      op,
      decodedFormat: decoded.format,
      call,
      identity,
      cursors: this.cursors,
      maxChars: this.options.tools.maxResponseChars,
      hygieneFiles: this.options.hygieneFileContents ?? 'flag',
    });
    const scrubbed = this.deps.scrubber.scrubResult(shaped.envelope, {
      exactSecrets: this.exactSecrets(identity, ctx),
      mode: policy.detectionMode,
      skipPatterns: this.deps.scrubber.CREDENTIAL_ISSUING_OPERATIONS.has(op.operationId),
    });
    if (scrubbed.blocked) {
      const kinds = scrubbed.blocked.kinds.slice(0, 20);
      const body = errorBody(
        'secret_blocked',
        response.status,
        `the result was withheld because it contains secrets (${kinds.join(', ') || 'unknown kind'}) and secret detection is in block mode`,
      );
      return {
        text: JSON.stringify(body),
        isError: true,
        kind: 'secret_blocked',
        counts: { redactions: scrubbed.redactions, masks: scrubbed.masks, blocked: true },
      };
    }
    const bounded = applyBounds(scrubbed.value as typeof envelope, {
      maxItems: this.options.tools.maxResponseItems,
      maxChars: this.options.tools.maxResponseChars,
    });
    return {
      text: shaped.finish(bounded.text, bounded.keptItems),
      isError: false,
      kind: null,
      counts: { redactions: scrubbed.redactions, masks: scrubbed.masks, blocked: false },
    };
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

  private searchTools(query: string, limit: number) {
    // Disabled tools are found and flagged, not hidden: the agent learns why a call would fail.
    const hits = this.search.search(query, limit).map((hit) => {
      const op = this.catalogue.byName.get(hit.name);
      const refusal = op ? globalRefusal(op, this.options.tools) : null;
      return refusal ? { ...hit, disabled: { kind: refusal.kind, reason: refusal.message } } : hit;
    });
    return {
      query,
      results: hits,
      hint: hits.length
        ? `Use ${DESCRIBE_TOOL_NAME} for a tool's full input schema and an example, then ${CALL_TOOL_NAME} to call it.`
        : 'No tool matched; try other words (e.g. "list pull requests", "create issue").',
    };
  }

  private describeTool(name: string) {
    if (name === RAW_TOOL_NAME) return { ...this.rawTool };
    const op = this.catalogue.byName.get(name);
    if (!op)
      throw new CallFailure(
        'invalid_arguments',
        `no tool named ${name.slice(0, 100)}; use ${SEARCH_TOOL_NAME} to find one`,
      );
    const refusal = globalRefusal(op, this.options.tools);
    if (refusal) throw new CallFailure(refusal.kind, refusal.message);
    return {
      ...op.tool,
      method: op.method,
      path: op.route,
      toolset: op.tags[0] ?? null,
      example: exampleCall(op),
      result_options: RESULT_OPTIONS_HELP,
    };
  }

  private audit(
    ctx: CallContext,
    identity: CallIdentity,
    started: number,
    kind: string | null,
    resultBytes: number,
    counts: { redactions: number; masks: number; blocked: boolean },
  ): void {
    let redactedArgs: unknown;
    try {
      // Body secret fields of any length and depth, the caller's token, the configured secrets and
      // recognisable secrets: the stored arguments carry none of them, whatever the scrubber port is.
      redactedArgs = redactArguments(
        summariseUploads(ctx.args),
        this.exactSecrets(identity, ctx),
        ctx.op?.operationId ?? ctx.tool,
      );
    } catch {
      redactedArgs = '[arguments withheld: redaction failed]';
    }
    const entry: AuditEntry = {
      eventId: this.newEventId(),
      time: new Date(started),
      login: identity.login,
      mode: identity.mode,
      sudo: identity.sudo,
      clientName: identity.client?.name ?? null,
      clientVersion: identity.client?.version ?? null,
      tool: ctx.tool.slice(0, 200),
      operationId: ctx.op?.operationId ?? null,
      org: ctx.org,
      repo: ctx.repo,
      method: ctx.request?.method ?? ctx.op?.method ?? null,
      path: ctx.request?.path ?? null,
      status: ctx.status,
      kind,
      durationMs: Math.max(0, this.deps.clock.now() - started),
      resultBytes,
      redactions: counts.redactions,
      masks: counts.masks,
      blocked: counts.blocked,
      arguments: redactedArgs,
    };
    try {
      this.deps.audit.record(entry);
    } catch (error) {
      this.deps.warn?.(
        `audit sink failed: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown'}`,
      );
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
  if (response.status >= 300 && response.status < 400) {
    return `Gitea answered with a redirect (HTTP ${response.status}) that was not followed: redirects off the Gitea API are refused`;
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
