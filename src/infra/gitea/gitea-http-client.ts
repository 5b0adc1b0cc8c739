// The one HTTP client to Gitea (GITEA_URL): one undici connection pool that the tool transport
// dispatches on (src/infra/gitea/undici-gitea-transport.ts) and that every other call to Gitea
// goes through: the service account lookup, readiness, the live spec, the admin API and console
// asking Gitea as a person, and Gitea's OAuth2 token endpoint. A request names a path under
// GITEA_URL, never a whole URL, so a token given to it can only go to the Gitea origin; redirects
// are never followed here (a 3xx is answered as it is).
import { Agent, request as undiciRequest } from 'undici';

export type GiteaHttpRequest = {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Whole exchange, body included. */
  timeoutMs: number;
  /** Longest body read (default 32 MiB, the live spec is about 1.5 MB); more is an error. */
  maxBytes?: number;
};

export type GiteaHttpAnswer = {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body as JSON, or null when it is not JSON. */
  json(): unknown;
};

/** Why a request to Gitea got no answer: `timeout`, or `unreachable` (connection refused, DNS, reset). */
export class GiteaHttpError extends Error {
  constructor(
    readonly kind: 'timeout' | 'unreachable' | 'too_large',
    message: string,
  ) {
    super(message);
    this.name = 'GiteaHttpError';
  }
}

export type GiteaHttpClientOptions = {
  /** GITEA_URL, possibly with a sub path (https://host/gitea). */
  baseUrl: string;
  connections?: number;
  userAgent?: string;
};

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

export class GiteaHttpClient {
  /** scheme://host:port of GITEA_URL. */
  readonly origin: string;
  /** GITEA_URL's path without the trailing slash ('' or '/gitea'). */
  readonly basePath: string;
  readonly userAgent: string;
  /** The pool; the tool transport dispatches its own exchanges on it. */
  readonly dispatcher: Agent;

  constructor(options: GiteaHttpClientOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.userAgent = options.userAgent ?? 'aegis-gitea-mcp';
    this.dispatcher = new Agent({
      connections: options.connections ?? 32,
      keepAliveTimeout: 30_000,
      pipelining: 1,
    });
  }

  /** The URL of a path under GITEA_URL (for messages; carries no credential). */
  url(path: string): string {
    return `${this.origin}${this.basePath}${path}`;
  }

  /** `path` starts with '/' and is taken under GITEA_URL: '/api/v1/user', '/login/oauth/access_token'. */
  async request(path: string, init: GiteaHttpRequest): Promise<GiteaHttpAnswer> {
    if (!path.startsWith('/') || path.startsWith('//'))
      throw new Error(`a Gitea request path must start with a single "/" (${path.slice(0, 40)})`);
    const maxBytes = init.maxBytes ?? DEFAULT_MAX_BYTES;
    const signal = AbortSignal.timeout(init.timeoutMs);
    try {
      const response = await undiciRequest(`${this.origin}${this.basePath}${path}`, {
        method: init.method ?? 'GET',
        headers: { 'user-agent': this.userAgent, ...init.headers },
        ...(init.body !== undefined ? { body: init.body } : {}),
        dispatcher: this.dispatcher,
        signal,
      });
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > maxBytes) {
          response.body.destroy();
          throw new GiteaHttpError('too_large', `Gitea's answer to ${path} exceeds ${maxBytes} bytes`);
        }
        chunks.push(chunk);
      }
      const text = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers))
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      return {
        status: response.statusCode,
        headers,
        text,
        json: () => {
          try {
            return JSON.parse(text) as unknown;
          } catch {
            return null;
          }
        },
      };
    } catch (error) {
      if (error instanceof GiteaHttpError) throw error;
      if (signal.aborted) throw new GiteaHttpError('timeout', `no answer within ${init.timeoutMs} ms`);
      // undici's own words ("connect ECONNREFUSED 10.0.0.5:3000"): the address, never a header.
      const { code, message } = error as { code?: unknown; message?: unknown };
      const detail =
        typeof message === 'string' && message ? message.slice(0, 200) : String(code ?? 'connection failed');
      throw new GiteaHttpError('unreachable', detail);
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
