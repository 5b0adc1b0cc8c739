// The HTTP admission pipeline (issue 11), one unit for every route that changes or reads something
// on behalf of a caller: /mcp today, /oauth/* and /api/admin/* next. In order:
//   origin (403) -> CORS preflight (204) -> method (405) -> authentication through the
//   IdentityResolver, entered once per request (401/503; failures limited per remote address, 429,
//   and audited) -> body: content type (415), size (413), JSON (400) -> rate limit (429) and
//   concurrency (503) per identity, taken by the route when it knows the request is a call.
// A route supplies how a refusal is written (JSON-RPC for /mcp, its own error shape elsewhere).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { AuthFailureLimiter, remoteKey } from '../../core/mcp/auth-failure-limiter';
import { ConcurrencyLimiter, type Release } from '../../core/mcp/concurrency-limiter';
import { OriginPolicy } from '../../core/mcp/origin.util';
import { TokenBucketRateLimiter } from '../../core/mcp/rate-limiter';
import type { AuditSink, CallIdentity } from '../../core/ports';
import type { AuthFailure, IdentityResolver } from '../auth/identity-resolver';
import { authFailureEntry, suppressedAuthFailuresEntry } from '../mcp/auth-failure-audit';
import { readBody } from '../mcp/node-http.util';

export type AdmissionOptions = {
  allowedOrigins: string[];
  publicUrl: string | null;
  identityResolver: IdentityResolver;
  /** Failed authentications audited one by one per remote address per minute (0 = no limit). */
  authFailuresPerMinute: number;
  /** Calls per identity per minute (0 = off). */
  rateLimitPerMinute: number;
  maxConcurrentPerIdentity: number;
  maxConcurrentTotal: number;
  /** How long a call may wait for a concurrency slot before 503. */
  queueWaitMs: number;
  /** Records requests refused at authentication (AUDIT_SINK when the audit module is wired). */
  audit: AuditSink | null;
  logger: Logger;
};

/** Why a request was refused: the HTTP status, a short reason (metrics label) and a message. */
export type AdmissionRefusal = { status: number; reason: string; message: string };

/** What a route tells the pipeline about itself. */
export type AdmissionRoute = {
  /** Short name: `<name>.authenticate` is the tool of its authentication audit records. */
  name: string;
  /** Methods answered; anything else is 405 (OPTIONS is the CORS preflight). */
  methods: string[];
  /** Request headers a browser client may send (CORS preflight). */
  allowHeaders: string;
  /** Response headers a browser client may read. */
  exposeHeaders: string;
  /** Writes a refusal in the route's own error format. */
  reject(res: ServerResponse, refusal: AdmissionRefusal): void;
};

/** A request that passed origin, method and authentication. */
export type Admitted = { method: string; identity: CallIdentity };

export type BodyLimits = {
  maxBytes: number;
  /** Accepted media types (compared without parameters, lower case). */
  contentTypes: string[];
  /** Parse the body as JSON (400 `parse_error` when it is not). */
  json: boolean;
  /** When set, an Accept header that matches none of these is refused with 406. */
  accepts?: RegExp;
  /** The 406 message. */
  acceptMessage?: string;
};

export type AdmittedBody = { raw: Buffer | null; parsed: unknown };

/** The rate limit and concurrency verdict for one call of an identity. */
export type CallAdmission =
  | { ok: true; release: Release }
  | {
      ok: false;
      status: 429 | 503;
      reason: 'rate_limited' | 'concurrency';
      retryAfterSeconds: number;
      message: string;
    };

/** How often the summaries of suppressed authentication failures are written, at the latest. */
const AUTH_SUMMARY_FLUSH_MS = 5_000;

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export class HttpAdmission {
  private readonly origins: OriginPolicy;
  private readonly rateLimiter: TokenBucketRateLimiter;
  private readonly concurrency: ConcurrencyLimiter;
  private readonly authFailures: AuthFailureLimiter;
  private readonly authSummaryTimer: ReturnType<typeof setInterval> | null;

  constructor(private readonly options: AdmissionOptions) {
    this.origins = new OriginPolicy(options.allowedOrigins, options.publicUrl);
    this.rateLimiter = new TokenBucketRateLimiter(options.rateLimitPerMinute, () => Date.now());
    this.concurrency = new ConcurrencyLimiter({
      perKey: options.maxConcurrentPerIdentity,
      total: options.maxConcurrentTotal,
      maxQueue: Math.max(64, options.maxConcurrentTotal * 4),
    });
    this.authFailures = new AuthFailureLimiter({ perMinute: options.authFailuresPerMinute }, () =>
      Date.now(),
    );
    // Summaries are written when their window ends, also when the failures have stopped by then.
    this.authSummaryTimer =
      this.authFailures.enabled && options.audit
        ? setInterval(() => this.auditSuppressed(false), AUTH_SUMMARY_FLUSH_MS)
        : null;
    this.authSummaryTimer?.unref();
  }

  get rateLimitPerMinute(): number {
    return this.options.rateLimitPerMinute;
  }

  /** Stops the summary timer and writes the summaries of windows still open. */
  close(): void {
    if (this.authSummaryTimer) clearInterval(this.authSummaryTimer);
    this.auditSuppressed(true);
  }

  /**
   * Origin, CORS preflight, method and authentication. Returns null when the request has been
   * answered (refused, or a preflight); the identity otherwise.
   */
  async admit(req: IncomingMessage, res: ServerResponse, route: AdmissionRoute): Promise<Admitted | null> {
    const origin = header(req, 'origin');
    if (!this.origins.isAllowed(origin)) {
      route.reject(res, { status: 403, reason: 'origin', message: 'Forbidden: Origin not allowed' });
      return null;
    }
    if (origin !== undefined) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('access-control-expose-headers', route.exposeHeaders);
      res.setHeader('vary', 'Origin');
    }
    const method = (req.method ?? 'GET').toUpperCase();
    if (method === 'OPTIONS') {
      res.setHeader('access-control-allow-methods', route.methods.join(', '));
      res.setHeader('access-control-allow-headers', route.allowHeaders);
      res.setHeader('access-control-max-age', '600');
      res.statusCode = 204;
      res.end();
      return null;
    }
    if (!route.methods.includes(method)) {
      res.setHeader('allow', route.methods.join(', '));
      route.reject(res, { status: 405, reason: 'method', message: 'Method not allowed' });
      return null;
    }
    const identity = await this.authenticate(req, res, route, method);
    return identity ? { method, identity } : null;
  }

  /** The one entry into the IdentityResolver for a request. */
  private async authenticate(
    req: IncomingMessage,
    res: ServerResponse,
    route: AdmissionRoute,
    method: string,
  ): Promise<CallIdentity | null> {
    const started = Date.now();
    const resolver = this.options.identityResolver;
    const auth = await resolver.authenticate(header(req, 'authorization'));
    if (auth.ok) return auth.identity;
    // Wrong or missing credentials are limited per remote address: within the budget each is
    // audited, beyond it the answer is 429 and the failure only counted (one summary record per
    // address and window). Credentials are still checked first, so a valid token is never
    // refused because others failed from the same address.
    // 400 (a malformed header) counts as a failed authentication too.
    const refused = auth.status !== 503;
    if (refused) {
      const verdict = this.authFailures.failure(remoteKey(req.socket?.remoteAddress));
      if (!verdict.record) {
        res.setHeader('retry-after', String(verdict.retryAfterSeconds));
        route.reject(res, {
          status: 429,
          reason: 'auth_failures_limited',
          message: 'Too Many Requests: too many failed authentications from this address',
        });
        return null;
      }
    }
    this.auditAuthFailure(req, route, method, auth, started);
    if (refused) res.setHeader('www-authenticate', resolver.challenge(auth));
    route.reject(res, {
      status: auth.status,
      reason:
        auth.status === 400 ? 'malformed_credentials' : refused ? 'unauthorized' : 'identity_unavailable',
      message: auth.message,
    });
    return null;
  }

  /** Content type, size and (optionally) JSON of the body; null when refused (already answered). */
  async body(
    req: IncomingMessage & { body?: unknown },
    res: ServerResponse,
    route: AdmissionRoute,
    limits: BodyLimits,
  ): Promise<AdmittedBody | null> {
    const type = header(req, 'content-type')?.split(';')[0]?.trim().toLowerCase();
    if (!type || !limits.contentTypes.includes(type)) {
      route.reject(res, {
        status: 415,
        reason: 'content_type',
        message: `Unsupported Media Type: Content-Type must be ${limits.contentTypes.join(' or ')}`,
      });
      return null;
    }
    const accept = header(req, 'accept');
    if (limits.accepts && accept && !limits.accepts.test(accept)) {
      route.reject(res, { status: 406, reason: 'accept', message: limits.acceptMessage ?? 'Not Acceptable' });
      return null;
    }
    const body = await readBody(req, limits.maxBytes);
    if (!body.ok) {
      if (body.reason === 'aborted') {
        res.destroy();
        return null;
      }
      res.setHeader('connection', 'close');
      route.reject(res, {
        status: 413,
        reason: 'body_too_large',
        message: `Payload Too Large: the body exceeds ${limits.maxBytes} bytes`,
      });
      return null;
    }
    if (!limits.json || !body.raw) return { raw: body.raw, parsed: body.preParsed };
    try {
      return { raw: body.raw, parsed: JSON.parse(body.raw.toString('utf8')) };
    } catch {
      route.reject(res, {
        status: 400,
        reason: 'parse_error',
        message: 'Parse error: the body is not valid JSON',
      });
      return null;
    }
  }

  /**
   * Rate limit, then a concurrency slot, for one call of `identity`. The route decides what counts
   * as a call (for /mcp: tools/call) and how a refusal is recorded and answered.
   */
  async call(identity: CallIdentity): Promise<CallAdmission> {
    const rate = this.rateLimiter.take(identity.subject);
    if (!rate.allowed) {
      return {
        ok: false,
        status: 429,
        reason: 'rate_limited',
        retryAfterSeconds: rate.retryAfterSeconds,
        message: `Too Many Requests: rate limit of ${this.options.rateLimitPerMinute} tool calls per minute`,
      };
    }
    const release = await this.concurrency.acquire(identity.subject, this.options.queueWaitMs);
    if (!release) {
      return {
        ok: false,
        status: 503,
        reason: 'concurrency',
        retryAfterSeconds: 1,
        message: 'Service Unavailable: too many concurrent tool calls',
      };
    }
    return { ok: true, release };
  }

  private auditAuthFailure(
    req: IncomingMessage,
    route: AdmissionRoute,
    method: string,
    failure: AuthFailure,
    started: number,
  ): void {
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
          route.name,
        ),
      );
    } catch (error) {
      this.options.logger.warn(
        { component: 'admission', err: error instanceof Error ? error.message : String(error) },
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
          { component: 'admission', err: error instanceof Error ? error.message : String(error) },
          'audit of suppressed authentication failures failed',
        );
      }
    }
  }
}
