// The one place that names every environment variable: its meaning, default, whether it is a
// secret, and how its string becomes a typed value. parseConfig() is pure (env in, config or a
// list of every problem out), so start-up, tests and docs/configuration.md share the same table.
import type { AppConfig, LogLevel, SecretDetectionMode, ToolMode } from './app-config';

export type EnvGroup =
  'server' | 'gitea' | 'mcp' | 'tools' | 'secrets' | 'storage' | 'audit' | 'admin' | 'oauth';

export type EnvVarSpec = {
  name: string;
  group: EnvGroup;
  description: string;
  /** The default as documented (null: unset unless given). */
  defaultText: string | null;
  /** Never echo the value (errors, logs, docs examples). */
  sensitive: boolean;
  /** Parses a present, non-empty value; throws EnvValueError with a message that never contains the value. */
  parse: (raw: string) => unknown;
};

export class EnvValueError extends Error {}

export type ConfigIssue = { variable: string; message: string };
export type ParseResult = { ok: true; config: AppConfig } | { ok: false; issues: ConfigIssue[] };

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const DETECTION_MODES: readonly SecretDetectionMode[] = ['off', 'mask', 'block'];
const TOOL_MODES: readonly ToolMode[] = ['full', 'discovery'];

const integer =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  (raw: string): number => {
    if (!/^[+]?\d+$/.test(raw.trim()))
      throw new EnvValueError(`must be a whole number between ${min} and ${max}`);
    const value = Number(raw.trim());
    if (value < min || value > max) throw new EnvValueError(`must be between ${min} and ${max}`);
    return value;
  };

const oneOf =
  <T extends string>(values: readonly T[]) =>
  (raw: string): T => {
    const value = raw.trim().toLowerCase();
    if (!(values as readonly string[]).includes(value))
      throw new EnvValueError(`must be one of: ${values.join(', ')}`);
    return value as T;
  };

const boolean = (raw: string): boolean => {
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new EnvValueError('must be true or false (also accepted: 1/0, yes/no, on/off)');
};

const list = (raw: string): string[] =>
  raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);

const text = (raw: string): string => raw.trim();

const url =
  (protocols: readonly string[], what: string) =>
  (raw: string): string => {
    let parsed: URL;
    try {
      parsed = new URL(raw.trim());
    } catch {
      throw new EnvValueError(`must be a valid ${what} URL`);
    }
    if (!protocols.includes(parsed.protocol)) {
      throw new EnvValueError(
        `must be a ${what} URL (${protocols.map((p) => p.replace(':', '://')).join(' or ')})`,
      );
    }
    return raw.trim().replace(/\/+$/, '');
  };

const httpUrl = url(['http:', 'https:'], 'http(s)');

// Gitea's base URL: the service appends /api/v1 itself, so a URL that already ends in it would
// turn every call into a 404. Refused with the URL to use instead (the base is not a secret).
const giteaBaseUrl = (raw: string): string => {
  const value = httpUrl(raw);
  const base = value.replace(/\/api\/v1$/i, '');
  if (base !== value)
    throw new EnvValueError(
      `must be Gitea's base URL without /api/v1: use ${base || 'the URL without /api/v1'}`,
    );
  return value;
};

const origins = (raw: string): string[] =>
  list(raw).map((origin) => {
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new EnvValueError('must be a comma-separated list of origins such as https://app.example.com');
    }
    if (!['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin.replace(/\/$/, '')) {
      throw new EnvValueError('must be a comma-separated list of origins (scheme://host[:port], no path)');
    }
    return parsed.origin;
  });

// 32 bytes, given as 64 hex characters or base64 (standard or url-safe).
const encryptionKey = (raw: string): string => {
  const value = raw.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(value)
    ? Buffer.from(value, 'hex')
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(value)
      ? Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
      : null;
  if (!bytes || bytes.length !== 32)
    throw new EnvValueError('must be 32 bytes, as 64 hex characters or base64');
  return value;
};

const v = (
  name: string,
  group: EnvGroup,
  defaultText: string | null,
  description: string,
  parse: (raw: string) => unknown,
  sensitive = false,
): EnvVarSpec => ({ name, group, defaultText, description, parse, sensitive });

export const ENV_VARS: readonly EnvVarSpec[] = [
  v(
    'HOST',
    'server',
    '127.0.0.1',
    'Interface address the HTTP server binds to (use 0.0.0.0 in a container).',
    text,
  ),
  v('PORT', 'server', '8080', 'TCP port of the HTTP server (0 picks a free port).', integer(0, 65535)),
  v(
    'PUBLIC_URL',
    'server',
    'http://HOST:PORT',
    'Externally visible base URL of the service (OAuth issuer and protected-resource URL); set it behind a proxy or ingress. With the OAuth authorization server on (AUTH_MODES oauth) it must be https:// unless its host is loopback, else the service refuses to start.',
    httpUrl,
  ),
  v('LOG_LEVEL', 'server', 'info', `Log level: ${LOG_LEVELS.join(', ')}.`, oneOf(LOG_LEVELS)),
  v(
    'SHUTDOWN_TIMEOUT_MS',
    'server',
    '10000',
    'On SIGTERM/SIGINT, how long to wait for in-flight work, the queue and the database to close before exiting.',
    integer(0),
  ),
  v(
    'METRICS_PORT',
    'server',
    '9464 (0 when PORT is 0)',
    'TCP port of the metrics listener (GET /metrics, Prometheus format) on HOST, separate from the MCP port; 0 picks a free port.',
    integer(0, 65535),
  ),
  v(
    'METRICS_TOKEN',
    'server',
    null,
    'When set, /metrics also answers on the MCP port, and on both ports only to "Authorization: Bearer <METRICS_TOKEN>".',
    text,
    true,
  ),
  v(
    'GITEA_URL',
    'gitea',
    'http://localhost:3000',
    'Base URL of the Gitea instance (without /api/v1).',
    giteaBaseUrl,
  ),
  v(
    'GITEA_TOKEN',
    'gitea',
    null,
    'Service-account access token for calls in "token" mode; unset disables that mode.',
    text,
    true,
  ),
  v('GITEA_TIMEOUT_MS', 'gitea', '30000', 'Timeout of one request to Gitea.', integer(1)),
  v(
    'GITEA_OAUTH_CLIENT_ID',
    'gitea',
    null,
    'Client ID of the OAuth2 application registered in Gitea (per-user mode and console login).',
    text,
  ),
  v(
    'GITEA_OAUTH_CLIENT_SECRET',
    'gitea',
    null,
    'Client secret of that OAuth2 application; required together with GITEA_OAUTH_CLIENT_ID.',
    text,
    true,
  ),
  v(
    'GITEA_OAUTH_ADMIN_SCOPES',
    'gitea',
    'false',
    'Also ask Gitea for read:admin / write:admin when a person signs in, so site admins can use admin tools through their own grant.',
    boolean,
  ),
  v(
    'GITEA_GRANT_RECONCILE_INTERVAL_MS',
    'gitea',
    '300000',
    'How often every person with a Gitea grant is checked on Gitea; a suspended, prohibit-login or deleted account loses its grants within this bound (plus one run).',
    integer(10_000),
  ),
  v(
    'GITEA_TOKEN_REFRESH_AHEAD_MS',
    'gitea',
    '600000',
    'Gitea access tokens expiring within this window are refreshed by the background job (a call also refreshes a token with under a minute left).',
    integer(60_000),
  ),
  v(
    'GITEA_OFF_ORIGIN_DOWNLOADS',
    'gitea',
    'follow',
    'A GET that Gitea redirects off its own origin (an artifact or LFS download behind a signed storage link, ADR 0019): "follow" fetches that one hop without any credential and returns the bytes like any binary result (within MAX_BINARY_BYTES, scanned); "refuse" answers it with an error naming the origin. The link itself is never returned.',
    oneOf(['follow', 'refuse'] as const),
  ),
  v(
    'MCP_BEARER_TOKEN',
    'mcp',
    null,
    'Static bearer token MCP clients may present to act as the service account (GITEA_TOKEN).',
    text,
    true,
  ),
  v(
    'MCP_ALLOWED_ORIGINS',
    'mcp',
    '(empty)',
    'Comma-separated browser origins allowed to call /mcp; empty allows only requests without a foreign Origin header.',
    origins,
  ),
  v('MCP_MAX_BODY_BYTES', 'mcp', '1048576', 'Largest accepted MCP request body, in bytes.', integer(1)),
  v(
    'RATE_LIMIT_PER_MINUTE',
    'mcp',
    '600',
    'Tool calls allowed per identity per minute (0 turns the limit off).',
    integer(0),
  ),
  v(
    'AUTH_FAILURES_PER_MINUTE',
    'mcp',
    '30',
    'Failed /mcp authentications audited one by one per remote address (IPv6: per /64) per minute; beyond it the answer is 429 and one summary record per address per minute (0 turns the limit off).',
    integer(0),
  ),
  v(
    'MAX_CONCURRENT_PER_IDENTITY',
    'mcp',
    '16',
    'Tool calls one identity may run at the same time.',
    integer(1),
  ),
  v('MAX_CONCURRENT_TOTAL', 'mcp', '256', 'Tool calls the whole service runs at the same time.', integer(1)),
  v(
    'REQUEST_TIMEOUT_MS',
    'mcp',
    '60000',
    'Upper bound for one MCP request, including all Gitea calls.',
    integer(1),
  ),
  v(
    'SPEC_SOURCE',
    'tools',
    'bundled',
    'Where the Gitea OpenAPI description comes from: "bundled", "live" (GITEA_URL/swagger.v1.json, fetched with GITEA_TOKEN; https or loopback only) or a file path.',
    text,
  ),
  v(
    'TOOLSETS',
    'tools',
    '(all)',
    'Comma-separated swagger tags (e.g. repository,issue) whose operations become tools; empty means all.',
    list,
  ),
  v(
    'TOOL_MODE',
    'tools',
    'full',
    '"full" lists every tool; "discovery" lists a few meta-tools that search and call the others.',
    oneOf(TOOL_MODES),
  ),
  v('READ_ONLY', 'tools', 'false', 'Expose only GET operations.', boolean),
  v(
    'DISABLED_TOOLS',
    'tools',
    '(none)',
    'Comma-separated tool names or globs (e.g. repoDelete, admin*), case-insensitive, or a method and route such as DELETE /repos/{owner}/{repo}, that are never offered or run; a pattern that matches no tool stops start-up.',
    list,
  ),
  v(
    'ALLOW_SUDO',
    'tools',
    'false',
    "Allow site-admin callers to act as another user through Gitea's Sudo header.",
    boolean,
  ),
  v(
    'MAX_TOOL_RESPONSE_ITEMS',
    'tools',
    '100',
    'Largest number of list items returned by one tool call.',
    integer(1),
  ),
  v(
    'MAX_TOOL_RESPONSE_CHARS',
    'tools',
    '100000',
    'Largest size of one tool result, in characters; longer results are truncated and say so.',
    integer(1),
  ),
  v(
    'MAX_BINARY_BYTES',
    'tools',
    '1048576',
    'Largest binary payload (file contents, archives) returned inline.',
    integer(0),
  ),
  v(
    'HYGIENE_FILE_CONTENTS',
    'tools',
    'flag',
    'Hidden characters (invisible, bidi, tag characters, HTML comments) in file contents and diffs: flag (count them in the envelope, bytes unchanged) or neutralise (make them visible, as in issue and PR text).',
    oneOf(['flag', 'neutralise'] as const),
  ),
  v(
    'MAX_TEXT_BODY_BYTES',
    'tools',
    '4 x MAX_TOOL_RESPONSE_CHARS',
    'Largest text or JSON body read from Gitea per call; the download stops there and the result says what was cut and how to get the rest.',
    integer(1024, 64 * 1024 * 1024),
  ),
  v(
    'DISCOVERY_EMBEDDINGS',
    'tools',
    'on',
    'Discovery search (gitea_search_tools) also ranks by meaning with a sentence encoder bundled with the service (Universal Sentence Encoder lite, loaded on the first search, which then takes 1 to 2 s more, and holds 120 to 170 MiB more memory from then on); off: words only.',
    oneOf(['on', 'off'] as const),
  ),
  v(
    'SECRET_DETECTION_MODE',
    'secrets',
    'mask',
    'What to do with secrets found in Gitea content: off, mask (replace them) or block (refuse the result).',
    oneOf(DETECTION_MODES),
  ),
  v(
    'SECRET_SCAN_ARCHIVES',
    'secrets',
    'scan',
    'Archives and other containers (zip, tar, gzip) in results: scan (read every member within the budget; withhold the archive if a secret is found or a member cannot be read) or withhold (never return one).',
    oneOf(['scan', 'withhold'] as const),
  ),
  v(
    'SECRET_SCAN_ARCHIVE_MAX_BYTES',
    'secrets',
    '33554432',
    'Uncompressed bytes read from the archives of one result; an archive holding more is withheld.',
    integer(0),
  ),
  v(
    'SECRET_SCAN_ARCHIVE_MAX_MEMBERS',
    'secrets',
    '10000',
    'Members read from the archives of one result; an archive holding more is withheld.',
    integer(0),
  ),
  v(
    'ENCRYPTION_KEY',
    'secrets',
    null,
    'Key (32 bytes, hex or base64) that encrypts stored OAuth grants; required for per-user OAuth mode.',
    encryptionKey,
    true,
  ),
  v(
    'ENCRYPTION_KEYS_PREVIOUS',
    'secrets',
    '(none)',
    'Comma-separated former ENCRYPTION_KEY values: they only decrypt, and a background job re-encrypts their rows with ENCRYPTION_KEY (key rotation without downtime).',
    (raw: string) => list(raw).map(encryptionKey),
    true,
  ),
  v(
    'SECRET_SCAN_WORKERS',
    'secrets',
    '1',
    'Worker threads that scan large results for secrets, so the event loop keeps answering meanwhile; 0 scans every result on the event loop.',
    integer(0),
  ),
  v(
    'SECRET_SCAN_WORKER_MIN_BYTES',
    'secrets',
    '262144',
    'Results whose Gitea body has at least this many bytes (an archive: its expanded size, read from its headers) are scanned in a worker thread (when SECRET_SCAN_WORKERS > 0); smaller ones on the event loop.',
    integer(0),
  ),
  v(
    'DATABASE_URL',
    'storage',
    null,
    'PostgreSQL connection URL; unset uses embedded PGlite under DATA_DIR.',
    url(['postgres:', 'postgresql:'], 'PostgreSQL'),
    true,
  ),
  v(
    'DATA_DIR',
    'storage',
    './.data',
    'Directory for embedded data (PGlite lives in DATA_DIR/pglite); "memory://" keeps PGlite in memory (tests).',
    text,
  ),
  v(
    'REDIS_URL',
    'storage',
    null,
    'Redis URL for BullMQ (and shared state across replicas); unset uses the in-process queue.',
    url(['redis:', 'rediss:'], 'Redis'),
    true,
  ),
  v('AUDIT_RETENTION_DAYS', 'audit', '90', 'Days audit records are kept (0 keeps them forever).', integer(0)),
  v(
    'AUDIT_BATCH_SIZE',
    'audit',
    '100',
    'Audit records written to the database per batch.',
    integer(1, 10000),
  ),
  v(
    'AUDIT_FLUSH_INTERVAL_MS',
    'audit',
    '100',
    'Longest an audit record waits in memory for its batch to fill before the batch is written.',
    integer(1, 10000),
  ),
  v(
    'ADMIN_TOKEN',
    'admin',
    null,
    'Bootstrap site-admin bearer token for /api/admin (automation, the Helm chart); unset means there is none.',
    text,
    true,
  ),
  v(
    'POLICY_CACHE_TTL_MS',
    'admin',
    '1000',
    'Longest a replica uses a cached org policy; changes reach other replicas at once through Redis, and within this time without it.',
    integer(0, 60_000),
  ),
  v(
    'AUTH_MODES',
    'oauth',
    '(auto)',
    'Comma list of how /mcp callers authenticate: "oauth" (tokens of this server\'s OAuth authorization server; needs GITEA_OAUTH_* and ENCRYPTION_KEY) and "token" (MCP_BEARER_TOKEN). Unset: each mode whose variables are set. Leave "token" out to turn the static bearer token off.',
    (raw: string) => {
      const modes = list(raw).map((m) => m.toLowerCase());
      if (modes.length === 0 || modes.some((m) => m !== 'oauth' && m !== 'token'))
        throw new EnvValueError('must be a comma list of oauth and token');
      return [...new Set(modes)];
    },
  ),
  v(
    'OAUTH_ACCESS_TOKEN_TTL_SECONDS',
    'oauth',
    '3600',
    'Lifetime of the access tokens the authorization server issues.',
    integer(60, 86400),
  ),
  v(
    'OAUTH_REFRESH_TOKEN_TTL_SECONDS',
    'oauth',
    '2592000',
    'Lifetime of a refresh token (each refresh rotates it; reusing an old one revokes the grant).',
    integer(300, 31536000),
  ),
  v(
    'OAUTH_DCR_ENABLED',
    'oauth',
    'true',
    'Offer dynamic client registration (RFC 7591, /oauth/register) for clients without a metadata document.',
    boolean,
  ),
  v(
    'OAUTH_DCR_PER_HOUR',
    'oauth',
    '10',
    'Client registrations allowed per remote address per hour (the whole server allows ten times as many).',
    integer(1, 100000),
  ),
  v(
    'OAUTH_CIMD_ALLOW_HTTP_ORIGINS',
    'oauth',
    '(none)',
    'Origins whose client metadata documents may be fetched over plain HTTP and from private addresses (tests, loopback development only).',
    origins,
  ),
  v(
    'OAUTH_CIMD_CACHE_MAX_SECONDS',
    'oauth',
    '86400',
    'Longest a fetched client metadata document is cached, whatever its Cache-Control says.',
    integer(0, 604800),
  ),
];

export type Env = Record<string, string | undefined>;

/** Parses and validates the environment. Never includes a value in an issue message. */
export function parseConfig(env: Env): ParseResult {
  const issues: ConfigIssue[] = [];
  const values = new Map<string, unknown>();
  for (const spec of ENV_VARS) {
    const raw = env[spec.name];
    // Empty counts as unset: orchestrators often render optional variables as "".
    if (raw === undefined || raw.trim() === '') continue;
    try {
      values.set(spec.name, spec.parse(raw));
    } catch (error) {
      const message = error instanceof EnvValueError ? error.message : 'is invalid';
      issues.push({ variable: spec.name, message });
    }
  }
  const get = <T>(name: string, fallback: T): T => (values.has(name) ? (values.get(name) as T) : fallback);

  if (values.has('GITEA_OAUTH_CLIENT_ID') !== values.has('GITEA_OAUTH_CLIENT_SECRET')) {
    const missing = values.has('GITEA_OAUTH_CLIENT_ID')
      ? 'GITEA_OAUTH_CLIENT_SECRET'
      : 'GITEA_OAUTH_CLIENT_ID';
    if (!issues.some((issue) => issue.variable.startsWith('GITEA_OAUTH_'))) {
      issues.push({
        variable: missing,
        message: 'must be set together with the other GITEA_OAUTH_* variable',
      });
    }
  }
  const explicitModes = values.get('AUTH_MODES') as string[] | undefined;
  const oauthReady = values.has('GITEA_OAUTH_CLIENT_ID') && values.has('ENCRYPTION_KEY');
  if (explicitModes?.includes('oauth') && !oauthReady)
    issues.push({
      variable: 'AUTH_MODES',
      message: 'mode oauth needs GITEA_OAUTH_CLIENT_ID, GITEA_OAUTH_CLIENT_SECRET and ENCRYPTION_KEY',
    });
  if (explicitModes?.includes('token') && !values.has('MCP_BEARER_TOKEN'))
    issues.push({ variable: 'AUTH_MODES', message: 'mode token needs MCP_BEARER_TOKEN' });
  const authModes = explicitModes ?? [
    ...(oauthReady ? ['oauth'] : []),
    ...(values.has('MCP_BEARER_TOKEN') ? ['token'] : []),
  ];
  if (issues.length > 0) return { ok: false, issues };

  const host = get('HOST', '127.0.0.1');
  const port = get<number>('PORT', 8080);
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const config: AppConfig = {
    server: {
      host,
      port,
      publicUrl: get('PUBLIC_URL', `http://${urlHost}:${port}`),
      logLevel: get<LogLevel>('LOG_LEVEL', 'info'),
      shutdownTimeoutMs: get('SHUTDOWN_TIMEOUT_MS', 10_000),
      metricsPort: get('METRICS_PORT', port === 0 ? 0 : 9464),
      metricsToken: get<string | null>('METRICS_TOKEN', null),
    },
    gitea: {
      url: get('GITEA_URL', 'http://localhost:3000'),
      token: get<string | null>('GITEA_TOKEN', null),
      timeoutMs: get('GITEA_TIMEOUT_MS', 30_000),
      oauthClientId: get<string | null>('GITEA_OAUTH_CLIENT_ID', null),
      oauthClientSecret: get<string | null>('GITEA_OAUTH_CLIENT_SECRET', null),
      oauthAdminScopes: get('GITEA_OAUTH_ADMIN_SCOPES', false),
      grantReconcileIntervalMs: get('GITEA_GRANT_RECONCILE_INTERVAL_MS', 300_000),
      tokenRefreshAheadMs: get('GITEA_TOKEN_REFRESH_AHEAD_MS', 600_000),
      offOriginDownloads: get<'follow' | 'refuse'>('GITEA_OFF_ORIGIN_DOWNLOADS', 'follow'),
    },
    mcp: {
      bearerToken: get<string | null>('MCP_BEARER_TOKEN', null),
      allowedOrigins: get<string[]>('MCP_ALLOWED_ORIGINS', []),
      maxBodyBytes: get('MCP_MAX_BODY_BYTES', 1_048_576),
      rateLimitPerMinute: get('RATE_LIMIT_PER_MINUTE', 600),
      authFailuresPerMinute: get('AUTH_FAILURES_PER_MINUTE', 30),
      maxConcurrentPerIdentity: get('MAX_CONCURRENT_PER_IDENTITY', 16),
      maxConcurrentTotal: get('MAX_CONCURRENT_TOTAL', 256),
      requestTimeoutMs: get('REQUEST_TIMEOUT_MS', 60_000),
    },
    tools: {
      specSource: get('SPEC_SOURCE', 'bundled'),
      toolsets: get<string[]>('TOOLSETS', []),
      mode: get<ToolMode>('TOOL_MODE', 'full'),
      readOnly: get('READ_ONLY', false),
      disabledTools: get<string[]>('DISABLED_TOOLS', []),
      allowSudo: get('ALLOW_SUDO', false),
      maxResponseItems: get('MAX_TOOL_RESPONSE_ITEMS', 100),
      maxResponseChars: get('MAX_TOOL_RESPONSE_CHARS', 100_000),
      maxBinaryBytes: get('MAX_BINARY_BYTES', 1_048_576),
      hygieneFileContents: get<'flag' | 'neutralise'>('HYGIENE_FILE_CONTENTS', 'flag'),
      maxTextBodyBytes: get('MAX_TEXT_BODY_BYTES', 4 * get('MAX_TOOL_RESPONSE_CHARS', 100_000)),
      discoveryEmbeddings: get<'on' | 'off'>('DISCOVERY_EMBEDDINGS', 'on'),
    },
    secrets: {
      detectionMode: get<SecretDetectionMode>('SECRET_DETECTION_MODE', 'mask'),
      scanArchives: get<'scan' | 'withhold'>('SECRET_SCAN_ARCHIVES', 'scan'),
      archiveMaxBytes: get('SECRET_SCAN_ARCHIVE_MAX_BYTES', 33_554_432),
      archiveMaxMembers: get('SECRET_SCAN_ARCHIVE_MAX_MEMBERS', 10_000),
      encryptionKey: get<string | null>('ENCRYPTION_KEY', null),
      previousEncryptionKeys: get<string[]>('ENCRYPTION_KEYS_PREVIOUS', []),
      scanWorkers: get('SECRET_SCAN_WORKERS', 1),
      scanWorkerMinBytes: get('SECRET_SCAN_WORKER_MIN_BYTES', 262_144),
    },
    storage: {
      databaseUrl: get<string | null>('DATABASE_URL', null),
      dataDir: get('DATA_DIR', './.data'),
      redisUrl: get<string | null>('REDIS_URL', null),
    },
    audit: {
      retentionDays: get('AUDIT_RETENTION_DAYS', 90),
      batchSize: get('AUDIT_BATCH_SIZE', 100),
      flushIntervalMs: get('AUDIT_FLUSH_INTERVAL_MS', 100),
    },
    admin: {
      token: get<string | null>('ADMIN_TOKEN', null),
      policyCacheTtlMs: get('POLICY_CACHE_TTL_MS', 1000),
    },
    oauth: {
      modes: authModes as Array<'oauth' | 'token'>,
      accessTokenTtlSeconds: get('OAUTH_ACCESS_TOKEN_TTL_SECONDS', 3600),
      refreshTokenTtlSeconds: get('OAUTH_REFRESH_TOKEN_TTL_SECONDS', 2_592_000),
      dcrEnabled: get('OAUTH_DCR_ENABLED', true),
      dcrPerHour: get('OAUTH_DCR_PER_HOUR', 10),
      cimdAllowHttpOrigins: get<string[]>('OAUTH_CIMD_ALLOW_HTTP_ORIGINS', []),
      cimdCacheMaxSeconds: get('OAUTH_CIMD_CACHE_MAX_SECONDS', 86_400),
    },
  };
  return { ok: true, config };
}

/** One human-readable message naming every bad variable (values never included). */
export function formatConfigIssues(issues: readonly ConfigIssue[]): string {
  const lines = issues.map((issue) => `  - ${issue.variable} ${issue.message}`);
  return `Invalid configuration (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${lines.join('\n')}\nSee docs/configuration.md.`;
}

export class ConfigValidationError extends Error {
  constructor(readonly issues: readonly ConfigIssue[]) {
    super(formatConfigIssues(issues));
    this.name = 'ConfigValidationError';
  }
}

/** Parses or throws ConfigValidationError. */
export function loadConfig(env: Env): AppConfig {
  const result = parseConfig(env);
  if (!result.ok) throw new ConfigValidationError(result.issues);
  return result.config;
}

/** A config with every default applied plus the given overrides (tests, demo). */
export function configFromEnv(overrides: Env = {}): AppConfig {
  return loadConfig(overrides);
}
