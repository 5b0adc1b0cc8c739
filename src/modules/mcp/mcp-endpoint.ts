// The HTTP pipeline of POST/GET/DELETE /mcp, in order: Origin (403) -> authentication (401) -> body
// size (413) -> content type (415) -> JSON (400/-32700) -> era routing (2026-07-28 vs. the session-based
// revisions) -> sessions (400/404) -> rate limit (429) and concurrency (503) for tools/call -> dispatch.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { AuthFailureLimiter, remoteKey } from '../../core/mcp/auth-failure-limiter';
import { clientInfoFromParams, parseClientInfo } from '../../core/mcp/client-info.util';
import { ConcurrencyLimiter, type Release } from '../../core/mcp/concurrency-limiter';
import {
  classifyMessage,
  errorBody,
  INVALID_REQUEST,
  PARSE_ERROR,
  SERVER_ERROR,
  type InboundMessage,
  type JsonRpcId,
} from '../../core/mcp/jsonrpc.util';
import { OriginPolicy } from '../../core/mcp/origin.util';
import {
  ALL_PROTOCOL_VERSIONS,
  checkLegacyVersionHeader,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
} from '../../core/mcp/protocol-versions';
import { TokenBucketRateLimiter } from '../../core/mcp/rate-limiter';
import { ownerOf, SessionTokenCodec, type SessionState } from '../../core/mcp/session-token';
import type { AuditSink, CallIdentity } from '../../core/ports';
import type { AuthFailure, IdentityResolver } from '../auth/identity-resolver';
import type { McpMetrics } from './mcp-metrics';
import { toAuthInfo, type ExchangeContext, type McpProtocol } from './mcp-protocol';
import { readBody, sendWebResponse, toWebRequest } from './node-http.util';
import type { SessionRevocations } from './session-revocations';
import { authFailureEntry, suppressedAuthFailuresEntry } from './auth-failure-audit';

export type McpEndpointOptions = {
  allowedOrigins: string[];
  publicUrl: string | null;
  maxBodyBytes: number;
  rateLimitPerMinute: number;
  /** Failed authentications audited one by one per remote address per minute (0 = no limit). */
  authFailuresPerMinute?: number;
  maxConcurrentPerIdentity: number;
  maxConcurrentTotal: number;
  requestTimeoutMs: number;
  sessionSecret: string;
  sessionMaxAgeSeconds: number;
  protocol: McpProtocol;
  identityResolver: IdentityResolver;
  revocations: SessionRevocations;
  metrics: McpMetrics;
  logger: Logger;
  /** Records requests refused at authentication (AUDIT_SINK when the audit module is wired). */
  audit?: AuditSink | null;
};

const SESSION_HEADER = 'mcp-session-id';
const VERSION_HEADER = 'mcp-protocol-version';
const SUDO_HEADER = 'x-gitea-sudo';
const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
/** Entries kept by each of the endpoint's small caches before they start over. */
const CACHE_LIMIT = 4096;
const EXPOSED_HEADERS = 'Mcp-Session-Id, WWW-Authenticate, Retry-After';
/** How often the summaries of suppressed authentication failures are written, at the latest. */
const AUTH_SUMMARY_FLUSH_MS = 5_000;

type Req = IncomingMessage & { body?: unknown };

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export class McpEndpoint {
  private readonly origins: OriginPolicy;
  private readonly rateLimiter: TokenBucketRateLimiter;
  private readonly concurrency: ConcurrencyLimiter;
  private readonly sessions: SessionTokenCodec;
  private readonly authFailures: AuthFailureLimiter;
  private readonly authSummaryTimer: ReturnType<typeof setInterval> | null;

  constructor(private readonly options: McpEndpointOptions) {
    this.origins = new OriginPolicy(options.allowedOrigins, options.publicUrl);
    this.rateLimiter = new TokenBucketRateLimiter(options.rateLimitPerMinute, () => Date.now());
    this.concurrency = new ConcurrencyLimiter({
      perKey: options.maxConcurrentPerIdentity,
      total: options.maxConcurrentTotal,
      maxQueue: Math.max(64, options.maxConcurrentTotal * 4),
    });
    this.sessions = new SessionTokenCodec(options.sessionSecret, options.sessionMaxAgeSeconds, () =>
      Math.floor(Date.now() / 1000),
    );
    this.authFailures = new AuthFailureLimiter({ perMinute: options.authFailuresPerMinute ?? 0 }, () =>
      Date.now(),
    );
    // Summaries are written when their window ends, also when the failures have stopped by then.
    this.authSummaryTimer =
      this.authFailures.enabled && options.audit
        ? setInterval(() => this.auditSuppressed(false), AUTH_SUMMARY_FLUSH_MS)
        : null;
    this.authSummaryTimer?.unref();
  }

  /** Stops the summary timer and writes the summaries of windows still open. */
  close(): void {
    if (this.authSummaryTimer) clearInterval(this.authSummaryTimer);
    this.auditSuppressed(true);
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
    const origin = header(req, 'origin');
    if (!this.origins.isAllowed(origin)) {
      return this.reject(res, 403, null, SERVER_ERROR, 'Forbidden: Origin not allowed', 'origin');
    }
    if (origin !== undefined) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
      res.setHeader('vary', 'Origin');
    }
    const method = (req.method ?? 'GET').toUpperCase();
    if (method === 'OPTIONS') {
      res.setHeader('access-control-allow-methods', 'POST, DELETE');
      res.setHeader(
        'access-control-allow-headers',
        'Authorization, Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, X-Gitea-Sudo, Last-Event-ID',
      );
      res.setHeader('access-control-max-age', '600');
      res.statusCode = 204;
      res.end();
      return;
    }
    if (method !== 'POST' && method !== 'DELETE') {
      // No standalone SSE stream (GET): 2026-07-28 has none and the session-based revisions allow 405.
      res.setHeader('allow', 'POST, DELETE');
      return this.reject(res, 405, null, SERVER_ERROR, 'Method not allowed', 'method');
    }

    const authStarted = Date.now();
    const auth = await this.options.identityResolver.authenticate(header(req, 'authorization'));
    if (!auth.ok) {
      // Wrong or missing credentials are limited per remote address: within the budget each is
      // audited, beyond it the answer is 429 and the failure only counted (one summary record per
      // address and window). Credentials are still checked first, so a valid token is never
      // refused because others failed from the same address.
      if (auth.status === 401) {
        const verdict = this.authFailures.failure(remoteKey(req.socket?.remoteAddress));
        if (!verdict.record) {
          res.setHeader('retry-after', String(verdict.retryAfterSeconds));
          return this.reject(
            res,
            429,
            null,
            SERVER_ERROR,
            'Too Many Requests: too many failed authentications from this address',
            'auth_failures_limited',
          );
        }
      }
      this.auditAuthFailure(req, method, auth, authStarted);
      if (auth.status === 401)
        res.setHeader('www-authenticate', this.options.identityResolver.challenge(auth));
      return this.reject(
        res,
        auth.status,
        null,
        SERVER_ERROR,
        auth.message,
        auth.status === 401 ? 'unauthorized' : 'identity_unavailable',
      );
    }
    const identity = auth.identity;

    if (method === 'DELETE') return this.endSession(req, res, identity);

    if (!isJson(header(req, 'content-type'))) {
      return this.reject(
        res,
        415,
        null,
        SERVER_ERROR,
        'Unsupported Media Type: Content-Type must be application/json',
        'content_type',
      );
    }
    const accept = header(req, 'accept');
    if (accept && !/application\/json|text\/event-stream|\*\/\*/i.test(accept)) {
      return this.reject(
        res,
        406,
        null,
        SERVER_ERROR,
        'Not Acceptable: accept application/json or text/event-stream',
        'accept',
      );
    }
    const body = await readBody(req, this.options.maxBodyBytes);
    if (!body.ok) {
      if (body.reason === 'aborted') return void res.destroy();
      res.setHeader('connection', 'close');
      return this.reject(
        res,
        413,
        null,
        SERVER_ERROR,
        `Payload Too Large: the body exceeds ${this.options.maxBodyBytes} bytes`,
        'body_too_large',
      );
    }
    let parsed: unknown = body.preParsed;
    if (body.raw) {
      try {
        parsed = JSON.parse(body.raw.toString('utf8'));
      } catch {
        return this.reject(
          res,
          400,
          null,
          PARSE_ERROR,
          'Parse error: the body is not valid JSON',
          'parse_error',
        );
      }
    }
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
    const modern = await this.modernRequest(req, parsed, body.raw);
    if (modern) return this.serveModern(req, res, identity, message, parsed, modern);
    return this.serveLegacy(req, res, identity, message, parsed);
  }

  // The SDK's own classifier decides when the request could be 2026-07-28 traffic, so our routing
  // never disagrees with the modern handler; plain legacy traffic skips building a web Request.
  private async modernRequest(
    req: Req,
    parsed: unknown,
    raw: Buffer | null,
  ): Promise<{ request: Request; abort: AbortController } | null> {
    const versionHeader = header(req, VERSION_HEADER);
    const meta = (parsed as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
    const claim = meta !== null && typeof meta === 'object' && PROTOCOL_VERSION_META_KEY in meta;
    if (!claim && (versionHeader === undefined || LEGACY_PROTOCOL_VERSIONS.includes(versionHeader.trim())))
      return null;
    // One web Request for both the classification and the exchange: with the parsed body given,
    // the classifier does not read the request's body.
    const abort = new AbortController();
    const request = toWebRequest(req, raw ?? JSON.stringify(parsed), abort.signal);
    const legacy = await isLegacyRequest(request, parsed, { maxRequestBodySize: this.options.maxBodyBytes });
    return legacy ? null : { request, abort };
  }

  private async serveModern(
    req: Req,
    res: ServerResponse,
    identity: CallIdentity,
    message: InboundMessage,
    parsed: unknown,
    modern: { request: Request; abort: AbortController },
  ): Promise<void> {
    const release = await this.admit(res, identity, message);
    if (release === false) return;
    const { request, abort } = modern;
    const onClose = (): void => {
      if (!res.writableEnded) abort.abort();
    };
    res.once('close', onClose);
    try {
      const context: ExchangeContext = {
        identity,
        sudoHeader: header(req, SUDO_HEADER),
        // The SDK lifts the envelope's clientInfo out of `_meta` before our handler runs, so it
        // is taken from the raw message here.
        client: clientInfoFromParams((parsed as { params?: unknown } | null)?.params),
        protocolVersion: header(req, VERSION_HEADER) ?? (MODERN_PROTOCOL_VERSIONS[0] as string),
        deadline: Date.now() + this.options.requestTimeoutMs,
      };
      const response = await this.options.protocol.modern.fetch(request, {
        authInfo: toAuthInfo(context),
        parsedBody: parsed,
      });
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

    const session = await this.session(req, res, identity, message);
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
    const release = await this.admit(res, identity, message);
    if (release === false) return;
    try {
      const fast = await this.options.protocol.serveLegacyFast(message, context);
      if (fast !== null) return this.writeLegacy(req, res, fast);
      const response = await transport.request(parsed as { id: JsonRpcId }, toAuthInfo(context));
      this.writeLegacy(req, res, response);
    } finally {
      release?.();
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
      (await this.options.revocations.isRevoked(sessionId))
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
    await this.options.revocations.revoke(sessionId, this.options.sessionMaxAgeSeconds);
    this.verifiedSessions.delete(sessionId);
    res.statusCode = 200;
    res.end();
  }

  /** Rate limit and concurrency for tools/call; false when the request was refused (already answered). */
  private async admit(
    res: ServerResponse,
    identity: CallIdentity,
    message: InboundMessage,
  ): Promise<Release | null | false> {
    if (message.kind !== 'request' || message.method !== 'tools/call') return null;
    const rate = this.rateLimiter.take(identity.subject);
    if (!rate.allowed) {
      res.setHeader('retry-after', String(rate.retryAfterSeconds));
      this.reject(
        res,
        429,
        message.id,
        SERVER_ERROR,
        `Too Many Requests: rate limit of ${this.options.rateLimitPerMinute} tool calls per minute`,
        'rate_limited',
      );
      return false;
    }
    const release = await this.concurrency.acquire(identity.subject, this.options.requestTimeoutMs);
    if (!release) {
      res.setHeader('retry-after', '1');
      this.reject(
        res,
        503,
        message.id,
        SERVER_ERROR,
        'Service Unavailable: too many concurrent tool calls',
        'concurrency',
      );
      return false;
    }
    return release;
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
    // A known length: Node sends head and body in one write instead of chunked encoding's several.
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  private auditAuthFailure(req: Req, method: string, failure: AuthFailure, started: number): void {
    if (!this.options.audit) return;
    try {
      this.options.audit.record(
        authFailureEntry(
          failure,
          {
            httpMethod: method,
            authorization: header(req, 'authorization'),
            mcpMethod: header(req, 'mcp-method'),
          },
          started,
          Date.now(),
        ),
      );
    } catch (error) {
      this.options.logger.warn(
        { component: 'mcp', err: error instanceof Error ? error.message : String(error) },
        'audit of an authentication failure failed',
      );
    }
  }

  private auditSuppressed(all: boolean): void {
    const summaries = this.authFailures.drain(all);
    if (!this.options.audit) return;
    for (const summary of summaries) {
      try {
        this.options.audit.record(suppressedAuthFailuresEntry(summary));
      } catch (error) {
        this.options.logger.warn(
          { component: 'mcp', err: error instanceof Error ? error.message : String(error) },
          'audit of suppressed authentication failures failed',
        );
      }
    }
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

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  return contentType.split(';')[0]?.trim().toLowerCase() === 'application/json';
}
