// Is Gitea usable for this service right now? It answers GET /api/v1/version, and, when agents
// act through the service account (MCP_BEARER_TOKEN with GITEA_TOKEN), it accepts that token
// (GET /api/v1/user). A refused token makes the pod unready instead of every /mcp call a 503.
// One probe serves every caller for CACHE_MS, so /readyz floods cost at most one pair of Gitea
// requests a second. State changes are logged once, naming GITEA_URL and the error; the first
// version seen is checked against what the service knows (startup-checks.ts).
import { closeSync, openSync, readSync } from 'node:fs';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { giteaVersionWarnings } from '../../config/startup-checks';
import { GiteaHttpError, type GiteaHttpClient } from '../../infra/gitea/gitea-http-client';
import { bundledSpecPath } from '../../infra/gitea/spec-source';
import { fetchGiteaUser } from '../auth/gitea-user.client';
import { GITEA_HTTP, LOGGER } from '../tokens';

export const READINESS_CACHE_MS = 1_000;
export const PROBE_TIMEOUT_MS = 5_000;

export type GiteaStatus =
  { up: true; version: string | null; serviceAccount: string | null } | { up: false; message: string };

/** The most specific reason undici gives for a failed request ("fetch failed" alone says nothing). */
export function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof GiteaHttpError) return error.message;
  // Duck-typed: undici's errors may come from another realm than this module's Error.
  type ErrorLike = { name?: unknown; message?: unknown; code?: unknown; cause?: unknown };
  const like = (value: unknown): ErrorLike | null =>
    typeof value === 'object' && value !== null ? value : null;
  const err = like(error);
  if (!err || typeof err.message !== 'string') return String(error);
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const cause = like(err.cause);
  if (cause && typeof cause.message === 'string' && cause.message) {
    const code = typeof cause.code === 'string' ? cause.code : '';
    return code && !cause.message.includes(code) ? `${code} ${cause.message}` : cause.message;
  }
  return err.message;
}

/** info.version of the bundled swagger (read from its first bytes; the document is 3 MB). */
export function bundledSpecVersion(): string | null {
  try {
    const fd = openSync(bundledSpecPath(), 'r');
    try {
      const head = Buffer.alloc(4096);
      const read = readSync(fd, head, 0, head.length, 0);
      return (
        /"info"\s*:\s*\{[\s\S]*?"version"\s*:\s*"([^"]+)"/.exec(
          head.subarray(0, read).toString('utf8'),
        )?.[1] ?? null
      );
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

@Injectable()
export class GiteaReadiness {
  private cached: { at: number; status: Promise<GiteaStatus> } | null = null;
  private lastMessage: string | null | undefined = undefined;
  private versionChecked = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(GITEA_HTTP) private readonly gitea: GiteaHttpClient,
  ) {}

  check(now: number = Date.now()): Promise<GiteaStatus> {
    if (this.cached && now - this.cached.at < READINESS_CACHE_MS) return this.cached.status;
    const status = this.probe().then((result) => this.record(result));
    this.cached = { at: now, status };
    return status;
  }

  private async probe(): Promise<GiteaStatus> {
    const base = this.config.gitea.url;
    const timeoutMs = Math.min(this.config.gitea.timeoutMs, PROBE_TIMEOUT_MS);
    let version: string | null;
    try {
      const response = await this.gitea.request('/api/v1/version', {
        timeoutMs,
        headers: { accept: 'application/json' },
      });
      if (response.status < 200 || response.status >= 300) {
        const hint =
          response.status === 404 ? ' (is GITEA_URL the base URL of a Gitea, without /api/v1?)' : '';
        return { up: false, message: `GET ${base}/api/v1/version answered HTTP ${response.status}${hint}` };
      }
      const body = (response.json() ?? {}) as { version?: unknown };
      version = typeof body.version === 'string' ? body.version : null;
    } catch (error) {
      return {
        up: false,
        message: `Gitea at GITEA_URL ${base} is unreachable: ${describeFetchError(error, timeoutMs)}`,
      };
    }
    if (version && !this.versionChecked) {
      this.versionChecked = true;
      const bundled = bundledSpecVersion();
      for (const warning of giteaVersionWarnings(version, bundled, this.config.tools.specSource))
        this.logger.warn({ component: 'gitea', giteaVersion: version }, warning);
    }
    const token = this.config.gitea.token;
    if (!token || !this.config.mcp.bearerToken) return { up: true, version, serviceAccount: null };
    const user = await fetchGiteaUser(this.gitea, token, timeoutMs);
    if (!user.ok) {
      const message = user.unauthorized
        ? `${user.message}: set GITEA_TOKEN to a valid access token of the service account`
        : `${user.message} (GITEA_URL ${base})`;
      return { up: false, message };
    }
    return { up: true, version, serviceAccount: user.user.login };
  }

  private record(status: GiteaStatus): GiteaStatus {
    const message = status.up ? null : status.message;
    if (message !== this.lastMessage) {
      if (message)
        this.logger.warn({ component: 'gitea', giteaUrl: this.config.gitea.url }, `not ready: ${message}`);
      else if (this.lastMessage)
        this.logger.info({ component: 'gitea', giteaUrl: this.config.gitea.url }, 'Gitea is reachable again');
      this.lastMessage = message;
    }
    return status;
  }
}
