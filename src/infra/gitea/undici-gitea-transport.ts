// GiteaTransport on undici: the pool of the one Gitea HTTP client (gitea-http-client.ts; keep-alive
// reuse), a timeout per call, a cap on the response body. Redirects: followed for GET within the Gitea API; one hop off
// the Gitea origin (a signed download link, ADR 0019) is fetched without any credential.
import { randomBytes } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { GiteaHttpClient } from './gitea-http-client';
import {
  TransportError,
  type CallIdentity,
  type GiteaRequest,
  type GiteaResponse,
  type GiteaTransport,
} from '../../core/ports';
import { isTextContentType } from '../../core/envelope/envelope';

export type UndiciTransportOptions = {
  /** GITEA_URL, possibly with a sub path (https://host/gitea). */
  baseUrl: string;
  /** The application's Gitea HTTP client (its pool is used); without it the transport makes its own. */
  client?: GiteaHttpClient;
  connections?: number;
  userAgent?: string;
  /** Same-origin redirects under /api/v1 followed for GET (Gitea redirects renamed repositories). */
  maxRedirects?: number;
  /** Fetch a GET's redirect off the Gitea origin (signed download links) without credentials; default on (GITEA_OFF_ORIGIN_DOWNLOADS). */
  followOffOrigin?: boolean;
};

/** A redirect the transport follows: the target, and whether it leaves the Gitea origin. */
type Hop = { url: URL; offOrigin: boolean };

function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\./.test(host) ||
    /^169\.254\./.test(host) ||
    host === '::1' ||
    /^fe[89ab][0-9a-f]:/.test(host) ||
    host === '0.0.0.0' ||
    /^::ffff:(127\.|169\.254\.)/.test(host)
  );
}

/**
 * Why an exchange is torn down after a cut text body: one error built once, without a stack (undici
 * only passes it on to onError, which ignores it once the body was returned).
 */
const CUT_SIGNAL: Error = (() => {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new TransportError('payload_too_large', 'text body cut at MAX_TEXT_BODY_BYTES');
  } finally {
    Error.stackTraceLimit = limit;
  }
})();

export class UndiciGiteaTransport implements GiteaTransport {
  private readonly origin: string;
  private readonly apiBase: string;
  private readonly client: GiteaHttpClient;
  private readonly ownsClient: boolean;

  constructor(private readonly options: UndiciTransportOptions) {
    this.ownsClient = !options.client;
    this.client =
      options.client ??
      new GiteaHttpClient({
        baseUrl: options.baseUrl,
        ...(options.connections ? { connections: options.connections } : {}),
        ...(options.userAgent ? { userAgent: options.userAgent } : {}),
      });
    this.origin = this.client.origin;
    this.apiBase = `${this.client.basePath}/api/v1`;
  }

  async send(
    request: GiteaRequest,
    identity: CallIdentity,
    limits: { timeoutMs: number; maxBodyBytes: number; signal?: AbortSignal; maxTextBytes?: number },
  ): Promise<GiteaResponse> {
    const headers: Record<string, string> = {
      accept: 'application/json, */*;q=0.5',
      'user-agent': this.options.userAgent ?? this.client.userAgent,
      ...lowerKeys(request.headers),
      // A person's Gitea OAuth token goes only as Bearer (CVE-2026-28699: sent any other way,
      // Gitea before 1.26.2 ignored its scopes); the service account's access token as `token`.
      authorization: identity.mode === 'oauth' ? `Bearer ${identity.token}` : `token ${identity.token}`,
    };
    if (identity.sudo) headers.sudo = identity.sudo;
    let body: Buffer | string | undefined;
    if (request.body?.kind === 'json') {
      body = JSON.stringify(request.body.value);
      headers['content-type'] = 'application/json';
    } else if (request.body?.kind === 'text') {
      body = request.body.value;
      headers['content-type'] = request.body.contentType;
    } else if (request.body?.kind === 'multipart') {
      const boundary = `aegis${randomBytes(12).toString('hex')}`;
      body = multipartBody(boundary, request.body.fields, request.body.files);
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
    }
    const search = new URLSearchParams(request.query).toString();
    let path = `${this.apiBase}${request.path}${search ? `?${search}` : ''}`;
    const maxRedirects = request.method === 'GET' ? (this.options.maxRedirects ?? 3) : 0;
    // One deadline for the whole call (redirects included), as a single timer.
    const deadline = { expired: false, abort: null as ((err: Error) => void) | null };
    const timer = setTimeout(() => {
      deadline.expired = true;
      deadline.abort?.(new TransportError('timeout', `no answer within ${limits.timeoutMs} ms`));
    }, limits.timeoutMs);
    // The caller gave up (its deadline): cancel the exchange the same way.
    const onAbort = (): void => {
      deadline.expired = true;
      deadline.abort?.(new TransportError('timeout', 'the call was abandoned at its deadline'));
    };
    if (limits.signal?.aborted) onAbort();
    limits.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      let origin = this.origin;
      let sendHeaders = headers;
      let offOrigin: GiteaResponse['offOrigin'];
      for (let hop = 0; ; hop++) {
        const follow = (location: string): Hop | null => {
          if (hop >= maxRedirects || offOrigin) return null; // nothing more after the off-origin hop
          const target = this.redirectTarget(location, origin, path);
          if (!target) return null;
          if (!target.offOrigin) return target;
          const refused = this.offOriginRefusal(target.url);
          offOrigin = refused
            ? { origin: target.url.origin, followed: false, reason: refused }
            : { origin: target.url.origin, followed: true };
          return refused ? null : target;
        };
        const response = await this.exchange(
          origin,
          path,
          request.method,
          sendHeaders,
          body,
          limits,
          deadline,
          follow,
        );
        if (response.redirectTo !== null) {
          const next = response.redirectTo;
          if (next.offOrigin) {
            // The signed link is the credential: nothing of the caller's goes to another host.
            sendHeaders = { accept: '*/*', 'user-agent': headers['user-agent']! };
          }
          origin = next.url.origin;
          path = `${next.url.pathname}${next.url.search}`;
          continue;
        }
        const out: GiteaResponse = {
          status: response.status,
          headers: response.headers,
          body: response.body,
        };
        if (response.cut) out.cut = response.cut;
        if (offOrigin) out.offOrigin = offOrigin;
        return out;
      }
    } catch (error) {
      throw toTransportError(error, limits.timeoutMs, deadline.expired);
    } finally {
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * One HTTP exchange on the pool through undici's dispatcher with a handler of our own: headers
   * flattened as they arrive and the body collected under the cap, without the per-call URL parse,
   * Readable stream and async iteration of undici's request() (a large share of the call's CPU).
   */
  private exchange(
    origin: string,
    path: string,
    method: GiteaRequest['method'],
    headers: Record<string, string>,
    body: Buffer | string | undefined,
    limits: { timeoutMs: number; maxBodyBytes: number; maxTextBytes?: number },
    deadline: { expired: boolean; abort: ((err: Error) => void) | null },
    follow: (location: string) => Hop | null,
  ): Promise<{
    status: number;
    headers: Record<string, string>;
    body: Uint8Array;
    redirectTo: Hop | null;
    cut?: { receivedBytes: number; totalBytes: number | null };
  }> {
    return new Promise((resolve, reject) => {
      let status = 0;
      let flat: Record<string, string> = {};
      let redirectTo: Hop | null = null;
      const chunks: Buffer[] = [];
      let total = 0;
      let abort: ((err: Error) => void) | null = null;
      let settled = false;
      // Text and JSON bodies stop at maxTextBytes: what came is returned and the rest not downloaded.
      let textLimit = Infinity;
      let declaredLength: number | null = null;
      const finish = (cut?: { receivedBytes: number; totalBytes: number | null }) => {
        if (settled) return;
        settled = true;
        deadline.abort = null;
        const out = new Uint8Array(total);
        let offset = 0;
        for (const c of chunks) {
          out.set(c, offset);
          offset += c.length;
        }
        resolve({ status, headers: flat, body: out, redirectTo, ...(cut ? { cut } : {}) });
      };
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        deadline.abort = null;
        reject(err);
      };
      const stop = (err: Error) => {
        // Rejects now; the abort tears the exchange down (its own onError is then ignored).
        fail(err);
        abort?.(err);
      };
      deadline.abort = stop;
      if (deadline.expired) {
        stop(new TransportError('timeout', `no answer within ${limits.timeoutMs} ms`));
        return;
      }
      const handler: Dispatcher.DispatchHandler = {
        onConnect: (abortFn: (err?: Error) => void) => {
          abort = abortFn;
          // Already given up (deadline passed while queued for a connection): do not send it.
          if (settled) abortFn(new TransportError('timeout', `no answer within ${limits.timeoutMs} ms`));
        },
        onHeaders: (statusCode: number, rawHeaders: Buffer[]) => {
          status = statusCode;
          flat = flattenRawHeaders(rawHeaders);
          const location = flat.location;
          if (statusCode >= 300 && statusCode < 400 && location) {
            // Only the first value, as before: a repeated Location header is joined when flattened.
            redirectTo = follow(location.split(', ')[0] as string);
            if (redirectTo !== null) return true; // body read and dropped below, connection kept
          }
          const declared = Number(flat['content-length'] ?? NaN);
          if (Number.isFinite(declared)) declaredLength = declared;
          if (limits.maxTextBytes !== undefined && isTextContentType(flat['content-type']))
            textLimit = limits.maxTextBytes;
          if (Number.isFinite(declared) && declared > limits.maxBodyBytes && declared > textLimit) {
            // A text body that large is read up to the text limit below; anything else is refused.
          } else if (Number.isFinite(declared) && declared > limits.maxBodyBytes) {
            stop(
              new TransportError(
                'payload_too_large',
                `Gitea response of ${declared} bytes exceeds the limit of ${limits.maxBodyBytes} bytes`,
              ),
            );
            return false;
          }
          return true;
        },
        onData: (chunk: Buffer) => {
          if (redirectTo !== null || settled) return true;
          if (total + chunk.length > textLimit) {
            const keep = textLimit - total;
            if (keep > 0) chunks.push(chunk.subarray(0, keep));
            total += Math.max(0, keep);
            finish({ receivedBytes: total, totalBytes: declaredLength });
            // The rest is not downloaded: the connection is torn down (its error is then ignored).
            // Only when Gitea ignored the Range of a file read (diffs, patches) or the body is not
            // file content: a bounded read (core/executor/bounded-read.ts) gets no more than this.
            abort?.(CUT_SIGNAL);
            return false;
          }
          total += chunk.length;
          if (total > limits.maxBodyBytes) {
            stop(
              new TransportError(
                'payload_too_large',
                `Gitea response exceeds the limit of ${limits.maxBodyBytes} bytes`,
              ),
            );
            return false;
          }
          chunks.push(chunk);
          return true;
        },
        onComplete: () => finish(),
        onError: (err: Error) => fail(err),
      } as unknown as Dispatcher.DispatchHandler;
      this.client.dispatcher.dispatch(
        {
          origin,
          path,
          method,
          headers,
          body,
          headersTimeout: limits.timeoutMs,
          bodyTimeout: limits.timeoutMs,
        },
        handler,
      );
    });
  }

  /**
   * Where a redirect leads: within the Gitea API (same origin, under the API base), or off the Gitea
   * origin. A redirect to the Gitea origin outside the API (the web UI) is not followed.
   */
  private redirectTarget(location: string, origin: string, current: string): Hop | null {
    let url: URL;
    try {
      url = new URL(location, `${origin}${current}`);
    } catch {
      return null;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.origin === this.origin)
      return url.pathname.startsWith(`${this.apiBase}/`) ? { url, offOrigin: false } : null;
    return { url, offOrigin: true };
  }

  /** Why an off-origin download link is not fetched, or null when it may be (ADR 0019). */
  private offOriginRefusal(url: URL): string | null {
    if (this.options.followOffOrigin === false)
      return 'downloads off the Gitea origin are turned off here (GITEA_OFF_ORIGIN_DOWNLOADS=refuse)';
    if (url.username || url.password) return 'the link carries a user name or password';
    if (this.origin.startsWith('https:') && url.protocol !== 'https:')
      return 'the link is plain http while Gitea is served over https';
    // Loopback and link-local addresses (cloud metadata) only when Gitea itself is on one.
    if (isLocalHost(url.hostname) && !isLocalHost(new URL(this.origin).hostname))
      return 'the link points at a loopback or link-local address';
    return null;
  }

  /** Closes the pool when the transport made its own; the application's client is closed by its module. */
  async close(): Promise<void> {
    if (this.ownsClient) await this.client.close();
  }
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    const key = k.toLowerCase();
    // Credentials come from the identity only.
    if (key !== 'authorization' && key !== 'sudo' && key !== 'cookie') out[key] = v;
  }
  return out;
}

/** Raw [name, value, ...] pairs as lower-cased names; repeated headers joined with ", ". */
function flattenRawHeaders(raw: Buffer[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = (raw[i] as Buffer).toString('latin1').toLowerCase();
    if (key === '__proto__') continue;
    const value = (raw[i + 1] as Buffer).toString('latin1');
    const prev = out[key];
    out[key] = prev === undefined ? value : `${prev}, ${value}`;
  }
  return out;
}

function toTransportError(error: unknown, timeoutMs: number, expired: boolean): TransportError {
  if (error instanceof TransportError) return error;
  const e = error as { name?: string; code?: string; message?: string };
  if (
    expired ||
    e.name === 'TimeoutError' ||
    e.name === 'AbortError' ||
    e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e.code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    return new TransportError('timeout', `no answer within ${timeoutMs} ms`);
  }
  // Only the error code: undici messages may carry the URL, never anything secret, but keep it short.
  return new TransportError('network_error', e.code ? `connection failed (${e.code})` : 'connection failed');
}

function multipartBody(
  boundary: string,
  fields: Array<[string, string]>,
  files: Array<{ field: string; filename: string; contentType: string; data: Uint8Array }>,
): Buffer {
  const parts: Buffer[] = [];
  const quote = (s: string) => s.replace(/["\r\n\\]/g, '_');
  for (const [name, value] of fields) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.filename)}"\r\ncontent-type: ${file.contentType.replace(/[\r\n]/g, '')}\r\n\r\n`,
      ),
      Buffer.from(file.data),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}
