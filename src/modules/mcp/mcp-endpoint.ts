// MCP routing of POST/DELETE /mcp. Admission (origin 403, authentication 401, content type 415,
// accept 406, size 413, JSON 400/-32700) is the HttpAdmission pipeline's; here: era routing
// (2026-07-28 vs. the session-based revisions) -> sessions (400/404) -> the pipeline's rate limit
// (429) and concurrency (503) for tools/call, refusals audited through the call exit -> dispatch.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { clientInfoFromParams, parseClientInfo } from '../../core/mcp/client-info.util';
import type { Release } from '../../core/mcp/concurrency-limiter';
import {
  classifyMessage,
  errorBody,
  INVALID_REQUEST,
  PARSE_ERROR,
  SERVER_ERROR,
  type InboundMessage,
  type JsonRpcId,
} from '../../core/mcp/jsonrpc.util';
import {
  ALL_PROTOCOL_VERSIONS,
  checkLegacyVersionHeader,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
} from '../../core/mcp/protocol-versions';
import { ownerOf, SessionTokenCodec, type SessionState } from '../../core/mcp/session-token';
import type { Refusal } from '../../core/call/tool-call-outcome';
import type { CallIdentity } from '../../core/ports';
import type { AdmissionRoute, HttpAdmission } from '../admission/http-admission';
import { bearerChallenge } from '../../core/oauth/challenge';
import { scopesForAccess } from '../../core/oauth/scopes';
import type { McpMetrics } from './mcp-metrics';
import {
  toAuthInfo,
  type AfterAnswer,
  type ExchangeContext,
  type McpProtocol,
  type ModernFastRequest,
} from './mcp-protocol';
import { sendWebResponse, toWebRequest } from './node-http.util';
import { EraClassifier, type InboundClassification } from './era-classifier';
import type { SessionRevocations } from '../../infra/mcp/session-revocations';
import type { CpuTurns } from '../../core/executor/cpu-turns';

export type McpEndpointOptions = {
  /** Origin, authentication, body, rate and concurrency limits (src/modules/admission). */
  admission: HttpAdmission;
  maxBodyBytes: number;
  requestTimeoutMs: number;
  sessionSecret: string;
  sessionMaxAgeSeconds: number;
  protocol: McpProtocol;
  revocations: SessionRevocations;
  metrics: McpMetrics;
  logger: Logger;
  /** RFC 9728 metadata URL named in the 403 insufficient_scope challenge (OAuth mode). */
  resourceMetadataUrl?: string;
  /** Told of every step-up refusal with its audit record's eventId (the resolver keeps it). */
  stepUp?: (identity: CallIdentity, refusalEventId: string | null) => void;
  /** Turns for the work of a request once its body is read (CpuTurns, shared with the executor). */
  turns?: CpuTurns;
};

const SESSION_HEADER = 'mcp-session-id';
const VERSION_HEADER = 'mcp-protocol-version';
const METHOD_HEADER = 'mcp-method';
const NAME_HEADER = 'mcp-name';
/** The 2026-07-28 envelope's standard keys; a request with any other `_meta` key takes the SDK path. */
const ENVELOPE_KEYS: ReadonlySet<string> = new Set([
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/clientInfo',
  'io.modelcontextprotocol/clientCapabilities',
]);
/** Names an Mcp-Name header carries as they are (no Base64 sentinel, nothing to decode). */
const PLAIN_TOOL_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;
const SUDO_HEADER = 'x-gitea-sudo';
const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
/** Entries kept by each of the endpoint's small caches before they start over. */
const CACHE_LIMIT = 4096;
const EXPOSED_HEADERS = 'Mcp-Session-Id, WWW-Authenticate, Retry-After';

type Req = IncomingMessage & { body?: unknown };
/** What the SDK's classifier said about a request that is not legacy (modern, or a modern-era rejection). */
type ModernRoute = Exclude<InboundClassification, { kind: 'legacy' }>;

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export class McpEndpoint {
  private readonly sessions: SessionTokenCodec;
  private readonly eras = new EraClassifier();
  private readonly admissionRoute: AdmissionRoute = {
    name: 'mcp',
    methods: ['POST', 'DELETE'],
    allowHeaders:
      'Authorization, Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, X-Gitea-Sudo, Last-Event-ID',
    exposeHeaders: EXPOSED_HEADERS,
    reject: (res, refusal) =>
      this.reject(
        res,
        refusal.status,
        null,
        refusal.reason === 'parse_error' ? PARSE_ERROR : SERVER_ERROR,
        refusal.message,
        refusal.reason,
      ),
  };

  constructor(private readonly options: McpEndpointOptions) {
    this.sessions = new SessionTokenCodec(options.sessionSecret, options.sessionMaxAgeSeconds, () =>
      Math.floor(Date.now() / 1000),
    );
  }

  async handle(req: Req, res: ServerResponse): Promise<void> {
    try {
      await this.route(req, res);
    } catch (error) {
      this.options.logger.error(
        { component: 'mcp', err: error instanceof Error ? error.message : String(error) },
        'mcp endpoint fault',
      );
      if (!res.headersSent) this.reject(res, 500, null, -32603, 'Internal error', 'internal');
      else res.end();
    }
  }

  private async route(req: Req, res: ServerResponse): Promise<void> {
    const admitted = await this.options.admission.admit(req, res, this.admissionRoute);
    if (!admitted) return;
    const { identity } = admitted;
    if (admitted.method === 'DELETE') return this.endSession(req, res, identity);
    // The session's revocation is looked up now (with Redis, a round trip) and awaited where it was
    // checked before, after the body, the CPU turn and the classification: the lookup overlaps them.
    const revoked = this.revocationLookup(req, identity);
    const body = await this.options.admission.body(req, res, this.admissionRoute, {
      maxBytes: this.options.maxBodyBytes,
      contentTypes: ['application/json'],
      json: true,
      accepts: /application\/json|text\/event-stream|\*\/\*/i,
      acceptMessage: 'Not Acceptable: accept application/json or text/event-stream',
    });
    if (!body) return;
    // The SDK's and our own handling of the message is CPU work: taken in turn with other calls'.
    if (this.options.turns) await this.options.turns.turn();
    const parsed = body.parsed;
    if (Array.isArray(parsed)) {
      return this.reject(
        res,
        400,
        null,
        INVALID_REQUEST,
        'Invalid Request: JSON-RPC batches are not supported',
        'invalid_request',
      );
    }
    const message = classifyMessage(parsed);
    if (this.refusedForScope(req, res, identity, message, parsed)) return;
    const modern = this.modernRoute(req, parsed);
    if (modern) return this.serveModern(req, res, identity, message, parsed, body.raw, modern);
    return this.serveLegacy(req, res, identity, message, parsed, revoked);
  }

  /**
   * The revocation lookup of the request's session, started as soon as the request is
   * authenticated; null without a valid session of this identity (session() refuses those without
   * asking). A request's check still happens between its arrival and its answer, so an ended
   * session is refused as before; only the wait for the store overlaps the request's own work.
   */
  private revocationLookup(req: Req, identity: CallIdentity): Promise<boolean> | null {
    const sessionId = header(req, SESSION_HEADER);
    if (!sessionId) return null;
    const state = this.verifiedSession(sessionId);
    if (!state || state.owner !== this.ownerOf(identity.subject)) return null;
    const lookup = this.options.revocations.isRevoked(state.nonce);
    // A request that ends before its session is checked (a refusal, a 2026-07-28 message) must
    // not leave a rejection unhandled; session() awaits the same promise and sees any error.
    lookup.catch(() => undefined);
    return lookup;
  }

  // The SDK's own classifier (what its isLegacyRequest runs on a parsed body) decides when the
  // request is 2026-07-28 traffic, so our routing never disagrees with the modern handler; its
  // verdicts on the shapes that repeat are remembered (EraClassifier). Plain legacy traffic skips it.
  private modernRoute(req: Req, parsed: unknown): ModernRoute | null {
    const versionHeader = header(req, VERSION_HEADER);
    const meta = (parsed as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
    const claim = meta !== null && typeof meta === 'object' && PROTOCOL_VERSION_META_KEY in meta;
    if (!claim && (versionHeader === undefined || LEGACY_PROTOCOL_VERSIONS.includes(versionHeader.trim())))
      return null;
    const outcome = this.eras.classifyPost({
      protocolVersionHeader: versionHeader,
      mcpMethodHeader: header(req, METHOD_HEADER),
      mcpNameHeader: header(req, NAME_HEADER),
      body: parsed,
    });
    return outcome.kind === 'legacy' ? null : outcome;
  }

  /**
   * Whether a modern request is one the protocol answers itself (McpProtocol.serveModernFast):
   * a tools/call or tools/list the SDK classified modern for a revision we serve, with the
   * standard headers present and equal to the body (what the SDK's header validation demands), an
   * envelope of only the three standard keys and a JSON answer accepted. Anything else goes through
   * the SDK's handler, which owns every other answer of the modern era.
   */
  private modernFast(req: Req, route: ModernRoute): ModernFastRequest | null {
    if (route.kind !== 'modern' || route.messageKind !== 'request') return null;
    const request = route.message as { id: unknown; method: unknown; params?: unknown };
    const revision = route.classification.revision;
    if (revision === undefined || !MODERN_PROTOCOL_VERSIONS.includes(revision)) return null;
    if (typeof request.id !== 'string' && typeof request.id !== 'number') return null;
    if (request.method !== 'tools/call' && request.method !== 'tools/list') return null;
    if (header(req, VERSION_HEADER)?.trim() !== revision) return null;
    if (header(req, METHOD_HEADER)?.trim() !== request.method) return null;
    const params = request.params as { name?: unknown; _meta?: Record<string, unknown> } | undefined;
    const name = header(req, NAME_HEADER);
    if (request.method === 'tools/call') {
      if (
        typeof params?.name !== 'string' ||
        !PLAIN_TOOL_NAME.test(params.name) ||
        name?.trim() !== params.name
      )
        return null;
    } else if (name !== undefined) return null;
    const meta = params?._meta;
    if (!meta || Object.keys(meta).some((key) => !ENVELOPE_KEYS.has(key))) return null;
    const accept = header(req, 'accept') ?? '';
    if (!/application\/json|\*\/\*/i.test(accept)) return null;
    return { id: request.id, method: request.method, params: request.params };
  }

  private async serveModern(
    req: Req,
    res: ServerResponse,
    identity: CallIdentity,
    message: InboundMessage,
    parsed: unknown,
    raw: Buffer | null,
    route: ModernRoute,
  ): Promise<void> {
    const context: ExchangeContext = {
      identity,
      sudoHeader: header(req, SUDO_HEADER),
      // The SDK lifts the envelope's clientInfo out of `_meta` before our handler runs, so it
      // is taken from the raw message here.
      client: clientInfoFromParams((parsed as { params?: unknown } | null)?.params),
      protocolVersion: header(req, VERSION_HEADER) ?? (MODERN_PROTOCOL_VERSIONS[0] as string),
      deadline: Date.now() + this.options.requestTimeoutMs,
    };
    const release = await this.admit(res, message, context);
    if (release === false) return;
    context.deadline = Date.now() + this.options.requestTimeoutMs; // the wait for a slot is not the call's
    const fast = this.modernFast(req, route);
    if (fast) {
      let answered = true;
      const afterAnswer: AfterAnswer = [];
      try {
        const text = await this.options.protocol.serveModernFast(fast, context, afterAnswer);
        if (context.quotaRefusal) return this.quotaExceeded(res, message, context.quotaRefusal);
        if (text !== null) return this.writeJson(res, text);
        answered = false; // not plain after all: nothing ran, the SDK answers it
      } finally {
        this.afterAnswer(afterAnswer);
        if (answered) release?.();
      }
    }
    const abort = new AbortController();
    const request = toWebRequest(req, raw ?? JSON.stringify(parsed), abort.signal);
    const onClose = (): void => {
      if (!res.writableEnded) abort.abort();
    };
    res.once('close', onClose);
    try {
      const response = await this.options.protocol.modern.fetch(request, {
        authInfo: toAuthInfo(context),
        parsedBody: parsed,
      });
      if (context.quotaRefusal) {
        await response.body?.cancel().catch(() => undefined);
        return this.quotaExceeded(res, message, context.quotaRefusal);
      }
      await sendWebResponse(res, response, {});
    } finally {
      res.off('close', onClose);
      release?.();
    }
  }

  private async serveLegacy(
    req: Req,
    res: ServerResponse,
    identity: CallIdentity,
    message: InboundMessage,
    parsed: unknown,
    revoked: Promise<boolean> | null = null,
  ): Promise<void> {
    if (message.kind === 'invalid')
      return this.reject(res, 400, message.id, INVALID_REQUEST, message.message, 'invalid_request');
    const versionHeader = header(req, VERSION_HEADER);
    const transport = this.options.protocol.legacyTransport;

    if (message.kind === 'request' && message.method === 'initialize') {
      if (versionHeader !== undefined && !ALL_PROTOCOL_VERSIONS.includes(versionHeader.trim())) {
        return this.reject(
          res,
          400,
          message.id,
          SERVER_ERROR,
          `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(versionHeader.slice(0, 32))}`,
          'version',
        );
      }
      const client = parseClientInfo(message.params?.clientInfo);
      const context = this.legacyContext(req, identity, client, '');
      const response = await transport.request(parsed as { id: JsonRpcId }, toAuthInfo(context));
      const result = response.result as { protocolVersion?: unknown } | undefined;
      if (result && typeof result.protocolVersion === 'string') {
        res.setHeader(
          'mcp-session-id',
          this.sessions.issue({ version: result.protocolVersion, owner: ownerOf(identity.subject), client }),
        );
      }
      return this.writeLegacy(req, res, response);
    }

    const session = await this.session(req, res, identity, message, revoked);
    if (!session) return;
    const version = checkLegacyVersionHeader(versionHeader, session.version);
    if (!version.ok)
      return this.reject(
        res,
        400,
        message.kind === 'request' ? message.id : null,
        SERVER_ERROR,
        `Bad Request: ${version.message}`,
        'version',
      );
    const context = this.legacyContext(req, identity, session.client, session.version);

    if (message.kind !== 'request') {
      if (message.kind === 'notification')
        transport.notify(parsed as Record<string, unknown>, toAuthInfo(context));
      res.statusCode = 202;
      res.end();
      return;
    }
    const release = await this.admit(res, message, context);
    if (release === false) return;
    const afterAnswer: AfterAnswer = [];
    try {
      const fast = await this.options.protocol.serveLegacyFast(message, context, afterAnswer);
      if (context.quotaRefusal) return this.quotaExceeded(res, message, context.quotaRefusal);
      if (fast !== null) return this.writeLegacy(req, res, fast);
      const response = await transport.request(parsed as { id: JsonRpcId }, toAuthInfo(context));
      if (context.quotaRefusal) return this.quotaExceeded(res, message, context.quotaRefusal);
      this.writeLegacy(req, res, response);
    } finally {
      this.afterAnswer(afterAnswer);
      release?.();
    }
  }

  /**
   * The exits a fast path left for after its answer (the write is done or has failed): each runs
   * once, here, before the call's slot is released, so every call still leaves its audit record.
   */
  private afterAnswer(exits: AfterAnswer): void {
    for (const exit of exits.splice(0)) {
      try {
        exit();
      } catch (error) {
        this.options.logger.error(
          { component: 'mcp', err: error instanceof Error ? error.message : String(error) },
          'tool call exit failed',
        );
      }
    }
  }

  private legacyContext(
    req: Req,
    identity: CallIdentity,
    client: SessionState['client'],
    version: string,
  ): ExchangeContext {
    return {
      identity,
      sudoHeader: header(req, SUDO_HEADER),
      client,
      protocolVersion: version,
      deadline: Date.now() + this.options.requestTimeoutMs,
    };
  }

  /** The session of a non-initialize legacy request: 400 without one, 404 when unknown, ended or foreign. */
  private async session(
    req: Req,
    res: ServerResponse,
    identity: CallIdentity,
    message: InboundMessage,
    revoked: Promise<boolean> | null = null,
  ): Promise<SessionState | null> {
    const id = message.kind === 'request' ? message.id : null;
    const sessionId = header(req, SESSION_HEADER);
    if (!sessionId) {
      this.reject(
        res,
        400,
        id,
        SERVER_ERROR,
        'Bad Request: Mcp-Session-Id header is required (send initialize first)',
        'session_missing',
      );
      return null;
    }
    const state = this.verifiedSession(sessionId);
    // A session opened by another identity is reported exactly like an unknown one.
    if (
      !state ||
      state.owner !== this.ownerOf(identity.subject) ||
      (await (revoked ?? this.options.revocations.isRevoked(state.nonce)))
    ) {
      this.reject(res, 404, id, SERVER_ERROR, 'Session not found', 'session_unknown');
      return null;
    }
    return state;
  }

  // Verified session ids and subject hashes are remembered (bounded): an HMAC and a SHA-256 per
  // request were a few percent of a call. The age limit is still checked on every use; revocation
  // is checked by the caller on every use.
  private readonly verifiedSessions = new Map<string, SessionState>();
  private readonly owners = new Map<string, string>();

  private verifiedSession(sessionId: string): SessionState | null {
    let state = this.verifiedSessions.get(sessionId);
    if (!state) {
      const verdict = this.sessions.verify(sessionId);
      if (!verdict.ok) return null;
      state = verdict.state;
      if (this.verifiedSessions.size >= CACHE_LIMIT) this.verifiedSessions.clear();
      this.verifiedSessions.set(sessionId, state);
    }
    if (Math.floor(Date.now() / 1000) - state.iat > this.options.sessionMaxAgeSeconds) {
      this.verifiedSessions.delete(sessionId);
      return null;
    }
    return state;
  }

  private ownerOf(subject: string): string {
    let owner = this.owners.get(subject);
    if (owner === undefined) {
      owner = ownerOf(subject);
      if (this.owners.size >= CACHE_LIMIT) this.owners.clear();
      this.owners.set(subject, owner);
    }
    return owner;
  }

  private async endSession(req: Req, res: ServerResponse, identity: CallIdentity): Promise<void> {
    const sessionId = header(req, SESSION_HEADER);
    if (!sessionId) {
      res.setHeader('allow', 'POST, DELETE');
      return this.reject(
        res,
        400,
        null,
        SERVER_ERROR,
        'Bad Request: Mcp-Session-Id header is required',
        'session_missing',
      );
    }
    const verdict = this.sessions.verify(sessionId);
    if (!verdict.ok || verdict.state.owner !== ownerOf(identity.subject)) {
      return this.reject(res, 404, null, SERVER_ERROR, 'Session not found', 'session_unknown');
    }
    await this.options.revocations.revoke(verdict.state.nonce, this.options.sessionMaxAgeSeconds);
    this.verifiedSessions.delete(sessionId);
    res.statusCode = 200;
    res.end();
  }

  /**
   * OAuth step-up (RFC 6750 3.1): a tools/call that needs more than the token's scopes is answered
   * 403 insufficient_scope naming every scope it needs, before any work; one audit record (the exit).
   */
  private refusedForScope(
    req: Req,
    res: ServerResponse,
    identity: CallIdentity,
    message: InboundMessage,
    parsed: unknown,
  ): boolean {
    if (identity.mode !== 'oauth' || !identity.scopes) return false;
    if (message.kind !== 'request' || message.method !== 'tools/call') return false;
    const params = (parsed as { params?: unknown }).params;
    const access = this.options.protocol.requiredAccess(params);
    if (access === null) return false;
    const needed = scopesForAccess(access);
    if (needed.every((s) => identity.scopes!.includes(s))) return false;
    if (this.options.resourceMetadataUrl)
      res.setHeader(
        'www-authenticate',
        bearerChallenge({
          resourceMetadataUrl: this.options.resourceMetadataUrl,
          scope: needed,
          error: 'insufficient_scope',
          description: `this call needs ${needed.join(' ')}`,
        }),
      );
    const tool = String((params as { name?: unknown }).name).slice(0, 200);
    const text = `Forbidden: insufficient_scope: ${tool} needs ${needed.join(' ')}; the token has ${identity.scopes.join(' ') || 'none'}`;
    const outcome = this.options.protocol.refuseCall(
      params,
      {
        identity,
        sudoHeader: undefined,
        client: null,
        protocolVersion: header(req, VERSION_HEADER) ?? '',
        deadline: Date.now(),
      },
      { kind: 'forbidden', status: 403, message: text, details: { needed_scopes: needed } },
      Date.now(),
    );
    // The refusal is this call's one audit record; the elevation that may follow is recorded by the
    // authorization server as its own event, naming this record's eventId.
    this.options.stepUp?.(identity, outcome.auditEventId ?? null);
    this.reject(res, 403, message.id, SERVER_ERROR, text, 'insufficient_scope');
    return true;
  }

  /**
   * Rate limit and concurrency for tools/call; false when the request was refused (already answered).
   * A refused call still goes through the exit: one audit record, counted and logged.
   */
  private async admit(
    res: ServerResponse,
    message: InboundMessage,
    context: ExchangeContext,
  ): Promise<Release | null | false> {
    if (message.kind !== 'request' || message.method !== 'tools/call') return null;
    const started = Date.now();
    const verdict = await this.options.admission.call(context.identity);
    if (verdict.ok) return verdict.release;
    const refusal: Refusal = {
      kind: verdict.status === 429 ? 'rate_limited' : 'concurrency_limited',
      status: verdict.status,
      message: verdict.message,
      http: { httpStatus: verdict.status, retryAfterSeconds: verdict.retryAfterSeconds },
    };
    this.refuseCall(res, message, context, refusal, started, verdict.reason);
    return false;
  }

  private refuseCall(
    res: ServerResponse,
    message: InboundMessage & { kind: 'request' },
    context: ExchangeContext,
    refusal: Refusal,
    started: number,
    reason: string,
  ): void {
    const outcome = this.options.protocol.refuseCall(message.params, context, refusal, started);
    const reply =
      outcome.reply.as === 'http' ? outcome.reply : { ...refusal.http!, message: refusal.message };
    res.setHeader('retry-after', String(reply.retryAfterSeconds));
    this.reject(res, reply.httpStatus, message.id, SERVER_ERROR, reply.message, reason);
  }

  /** An org quota refused the tools/call (already audited by the call path): 429 with Retry-After. */
  private quotaExceeded(
    res: ServerResponse,
    message: InboundMessage,
    refusal: NonNullable<ExchangeContext['quotaRefusal']>,
  ): void {
    res.setHeader('retry-after', String(refusal.retryAfterSeconds));
    this.options.metrics.rejections.inc({ reason: 'org_quota' });
    res.statusCode = 429;
    res.setHeader('content-type', 'application/json');
    res.end(
      errorBody(
        message.kind === 'request' ? message.id : null,
        SERVER_ERROR,
        `Too Many Requests: ${refusal.message}`,
        refusal.data,
      ),
    );
  }

  private writeLegacy(req: Req, res: ServerResponse, response: Record<string, unknown> | string): void {
    const text = typeof response === 'string' ? response : JSON.stringify(response);
    const accept = header(req, 'accept') ?? '';
    // Clients that accept only SSE get the single response as one SSE event.
    if (/text\/event-stream/i.test(accept) && !/application\/json|\*\/\*/i.test(accept)) {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
      });
      res.end(`event: message\ndata: ${text}\n\n`);
      return;
    }
    this.writeJson(res, text);
  }

  // A known length: Node sends head and body in one write instead of chunked encoding's several.
  // The body is encoded once, as bytes: a string would be measured (flattened) for the length, then
  // joined to the head and flattened again for the write.
  private writeJson(res: ServerResponse, text: string): void {
    const body = Buffer.from(text, 'utf8');
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  }

  private reject(
    res: ServerResponse,
    status: number,
    id: JsonRpcId | null,
    code: number,
    message: string,
    reason: string,
  ): void {
    this.options.metrics.rejections.inc({ reason });
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(errorBody(id, code, message));
  }
}
