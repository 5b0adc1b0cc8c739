// The typed, validated configuration every module receives (token APP_CONFIG).
// Parsed once at boot from the environment by src/config/env.schema.ts; never read
// process.env anywhere else. Secrets are plain strings here and must never be logged.
import type { SecretDetectionMode } from '../core/secrets/detection-mode';

export type { SecretDetectionMode };
export type ToolMode = 'full' | 'discovery';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export type AppConfig = {
  server: {
    host: string; // HOST
    port: number; // PORT
    publicUrl: string; // PUBLIC_URL: the externally visible base URL (OAuth issuer, resource)
    logLevel: LogLevel; // LOG_LEVEL
    shutdownTimeoutMs: number; // SHUTDOWN_TIMEOUT_MS
    metricsPort: number; // METRICS_PORT: the metrics listener (default 9464; 0 with PORT=0)
    metricsToken: string | null; // METRICS_TOKEN: bearer for /metrics (and /metrics on the MCP port)
  };
  gitea: {
    url: string; // GITEA_URL (no trailing slash)
    token: string | null; // GITEA_TOKEN: the service account's token (mode "token")
    timeoutMs: number; // GITEA_TIMEOUT_MS
    oauthClientId: string | null; // GITEA_OAUTH_CLIENT_ID
    oauthClientSecret: string | null; // GITEA_OAUTH_CLIENT_SECRET
    oauthAdminScopes: boolean; // GITEA_OAUTH_ADMIN_SCOPES: ask for read:/write:admin too
    grantReconcileIntervalMs: number; // GITEA_GRANT_RECONCILE_INTERVAL_MS: lifecycle bound
    tokenRefreshAheadMs: number; // GITEA_TOKEN_REFRESH_AHEAD_MS
    /** GITEA_OFF_ORIGIN_DOWNLOADS (ADR 0019); unset in hand-built configs means "follow". */
    offOriginDownloads?: 'follow' | 'refuse';
  };
  mcp: {
    bearerToken: string | null; // MCP_BEARER_TOKEN
    allowedOrigins: string[]; // MCP_ALLOWED_ORIGINS (comma list); empty = same-origin/no Origin only
    maxBodyBytes: number; // MCP_MAX_BODY_BYTES
    rateLimitPerMinute: number; // RATE_LIMIT_PER_MINUTE (per identity; 0 = off)
    authFailuresPerMinute: number; // AUTH_FAILURES_PER_MINUTE (per remote address; 0 = off)
    maxConcurrentPerIdentity: number; // MAX_CONCURRENT_PER_IDENTITY
    maxConcurrentTotal: number; // MAX_CONCURRENT_TOTAL
    requestTimeoutMs: number; // REQUEST_TIMEOUT_MS
  };
  tools: {
    specSource: string; // SPEC_SOURCE: 'bundled' | 'live' | a file path
    toolsets: string[]; // TOOLSETS (swagger tags); empty = all
    mode: ToolMode; // TOOL_MODE
    readOnly: boolean; // READ_ONLY
    disabledTools: string[]; // DISABLED_TOOLS (names and globs)
    allowSudo: boolean; // ALLOW_SUDO
    maxResponseItems: number; // MAX_TOOL_RESPONSE_ITEMS
    maxResponseChars: number; // MAX_TOOL_RESPONSE_CHARS
    maxBinaryBytes: number; // MAX_BINARY_BYTES
    hygieneFileContents?: 'flag' | 'neutralise'; // HYGIENE_FILE_CONTENTS
    maxTextBodyBytes?: number; // MAX_TEXT_BODY_BYTES (default 4 x maxResponseChars)
    discoveryEmbeddings?: 'on' | 'off'; // DISCOVERY_EMBEDDINGS
  };
  secrets: {
    detectionMode: SecretDetectionMode; // SECRET_DETECTION_MODE
    scanArchives?: 'scan' | 'withhold'; // SECRET_SCAN_ARCHIVES
    archiveMaxBytes?: number; // SECRET_SCAN_ARCHIVE_MAX_BYTES
    archiveMaxMembers?: number; // SECRET_SCAN_ARCHIVE_MAX_MEMBERS
    encryptionKey: string | null; // ENCRYPTION_KEY (32 bytes, base64 or hex) for grants at rest
    previousEncryptionKeys: string[]; // ENCRYPTION_KEYS_PREVIOUS: decrypt only (rotation)
    scanWorkers?: number; // SECRET_SCAN_WORKERS (0: scan on the event loop)
    scanWorkerMinBytes?: number; // SECRET_SCAN_WORKER_MIN_BYTES
  };
  storage: {
    databaseUrl: string | null; // DATABASE_URL; null = embedded PGlite under dataDir
    dataDir: string; // DATA_DIR
    redisUrl: string | null; // REDIS_URL; null = in-process queue
  };
  audit: {
    retentionDays: number; // AUDIT_RETENTION_DAYS (0 = keep forever)
    batchSize: number; // AUDIT_BATCH_SIZE
    flushIntervalMs: number; // AUDIT_FLUSH_INTERVAL_MS: a partial batch is written after this wait
  };
  admin: {
    token: string | null; // ADMIN_TOKEN: bootstrap site-admin credential of /api/admin; null = none
    policyCacheTtlMs: number; // POLICY_CACHE_TTL_MS: longest a replica serves a cached org policy
  };
  oauth: {
    modes: Array<'oauth' | 'token'>; // AUTH_MODES (default: each mode whose variables are set)
    accessTokenTtlSeconds: number; // OAUTH_ACCESS_TOKEN_TTL_SECONDS
    refreshTokenTtlSeconds: number; // OAUTH_REFRESH_TOKEN_TTL_SECONDS
    dcrEnabled: boolean; // OAUTH_DCR_ENABLED
    dcrPerHour: number; // OAUTH_DCR_PER_HOUR (per remote address)
    cimdAllowHttpOrigins: string[]; // OAUTH_CIMD_ALLOW_HTTP_ORIGINS (tests, loopback development)
    cimdCacheMaxSeconds: number; // OAUTH_CIMD_CACHE_MAX_SECONDS
  };
};

export const APP_CONFIG = Symbol('APP_CONFIG');
