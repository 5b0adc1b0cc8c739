// GiteaTransport on undici: one connection pool per Gitea origin (keep-alive reuse), a timeout per
// call, a cap on the response body, and no redirect followed off the Gitea API.
import { randomBytes } from 'node:crypto';
import { Agent, request as undiciRequest, type Dispatcher } from 'undici';
import {
  TransportError,
  type CallIdentity,
  type GiteaRequest,
  type GiteaResponse,
  type GiteaTransport,
} from '../../core/ports';

export type UndiciTransportOptions = {
  /** GITEA_URL, possibly with a sub path (https://host/gitea). */
  baseUrl: string;
  connections?: number;
  userAgent?: string;
  /** Same-origin redirects under /api/v1 followed for GET (Gitea redirects renamed repositories). */
  maxRedirects?: number;
};

export class UndiciGiteaTransport implements GiteaTransport {
  private readonly origin: string;
  private readonly apiBase: string;
  private readonly agent: Agent;

  constructor(private readonly options: UndiciTransportOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.apiBase = `${url.pathname.replace(/\/+$/, '')}/api/v1`;
    this.agent = new Agent({
      connections: options.connections ?? 32,
      keepAliveTimeout: 30_000,
      pipelining: 1,
    });
  }

  async send(
    request: GiteaRequest,
    identity: CallIdentity,
    limits: { timeoutMs: number; maxBodyBytes: number },
  ): Promise<GiteaResponse> {
    const headers: Record<string, string> = {
      accept: 'application/json, */*;q=0.5',
      'user-agent': this.options.userAgent ?? 'aegis-gitea-mcp',
      ...lowerKeys(request.headers),
      authorization: `token ${identity.token}`,
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
    const signal = AbortSignal.timeout(limits.timeoutMs);
    const maxRedirects = request.method === 'GET' ? (this.options.maxRedirects ?? 3) : 0;
    try {
      for (let hop = 0; ; hop++) {
        const response = await undiciRequest(`${this.origin}${path}`, {
          dispatcher: this.agent,
          method: request.method,
          headers,
          body,
          signal,
          headersTimeout: limits.timeoutMs,
          bodyTimeout: limits.timeoutMs,
        });
        const location = headerValue(response.headers.location);
        if (response.statusCode >= 300 && response.statusCode < 400 && location && hop < maxRedirects) {
          const next = this.sameApiTarget(location, path);
          if (next) {
            await response.body.dump();
            path = next;
            continue;
          }
        }
        return {
          status: response.statusCode,
          headers: flattenHeaders(response.headers),
          body: await readCapped(response, limits.maxBodyBytes),
        };
      }
    } catch (error) {
      throw toTransportError(error, limits.timeoutMs, signal);
    }
  }

  /** A redirect is followed only to the same origin and under the API base; else it is returned as is. */
  private sameApiTarget(location: string, current: string): string | null {
    let target: URL;
    try {
      target = new URL(location, `${this.origin}${current}`);
    } catch {
      return null;
    }
    if (target.origin !== this.origin || !target.pathname.startsWith(`${this.apiBase}/`)) return null;
    return `${target.pathname}${target.search}`;
  }

  async close(): Promise<void> {
    await this.agent.close();
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

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

async function readCapped(response: Dispatcher.ResponseData, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(headerValue(response.headers['content-length']) ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    discard(response);
    throw new TransportError(
      'payload_too_large',
      `Gitea response of ${declared} bytes exceeds the limit of ${maxBytes} bytes`,
    );
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    const buf = chunk as Buffer;
    total += buf.length;
    if (total > maxBytes) {
      discard(response);
      throw new TransportError('payload_too_large', `Gitea response exceeds the limit of ${maxBytes} bytes`);
    }
    chunks.push(buf);
  }
  return new Uint8Array(Buffer.concat(chunks, total));
}

/** Drops a response body we will not read; the abort it causes is expected, not an error. */
function discard(response: Dispatcher.ResponseData): void {
  response.body.on('error', () => undefined);
  response.body.destroy();
}

function toTransportError(error: unknown, timeoutMs: number, signal: AbortSignal): TransportError {
  if (error instanceof TransportError) return error;
  const e = error as { name?: string; code?: string; message?: string };
  if (
    signal.aborted ||
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
