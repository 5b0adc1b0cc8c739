// parseConfig: defaults, typing, every problem at once, secrets never echoed, and
// docs/configuration.md kept in step with the schema.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENV_VARS, formatConfigIssues, parseConfig } from '../../../src/config/env.schema';

const ok = (env: Record<string, string>) => {
  const result = parseConfig(env);
  if (!result.ok) throw new Error(formatConfigIssues(result.issues));
  return result.config;
};
const issues = (env: Record<string, string>) => {
  const result = parseConfig(env);
  if (result.ok) throw new Error('expected problems');
  return result.issues;
};

describe('parseConfig', () => {
  it('applies every default on an empty environment', () => {
    const config = ok({});
    expect(config.server).toEqual({
      host: '127.0.0.1',
      port: 8080,
      publicUrl: 'http://127.0.0.1:8080',
      logLevel: 'info',
      shutdownTimeoutMs: 10000,
      metricsPort: 9464,
      metricsToken: null,
    });
    // A free port for the service means a free one for the metrics listener too (tests, demo).
    expect(ok({ PORT: '0' }).server.metricsPort).toBe(0);
    expect(config.gitea).toMatchObject({ url: 'http://localhost:3000', token: null, timeoutMs: 30000 });
    expect(config.mcp).toEqual({
      bearerToken: null,
      allowedOrigins: [],
      maxBodyBytes: 1048576,
      rateLimitPerMinute: 600,
      authFailuresPerMinute: 30,
      maxConcurrentPerIdentity: 16,
      maxConcurrentTotal: 256,
      requestTimeoutMs: 60000,
    });
    expect(config.tools).toEqual({
      specSource: 'bundled',
      toolsets: [],
      mode: 'full',
      readOnly: false,
      disabledTools: [],
      allowSudo: false,
      maxResponseItems: 100,
      maxResponseChars: 100000,
      maxBinaryBytes: 1048576,
      hygieneFileContents: 'flag',
      maxTextBodyBytes: 400000,
      discoveryEmbeddings: 'on',
    });
    expect(config.secrets).toEqual({
      detectionMode: 'mask',
      encryptionKey: null,
      previousEncryptionKeys: [],
      scanArchives: 'scan',
      archiveMaxBytes: 33554432,
      archiveMaxMembers: 10000,
      scanWorkers: 1,
      scanWorkerMinBytes: 262144,
    });
    expect(config.gitea).toMatchObject({
      oauthAdminScopes: false,
      grantReconcileIntervalMs: 300000,
      tokenRefreshAheadMs: 600000,
    });
    expect(config.storage).toEqual({ databaseUrl: null, dataDir: './.data', redisUrl: null });
    expect(config.audit).toEqual({ retentionDays: 90, batchSize: 100, flushIntervalMs: 100 });
  });

  it('types and normalises given values', () => {
    const config = ok({
      HOST: '0.0.0.0',
      PORT: '9090',
      GITEA_URL: 'https://git.example.com/',
      READ_ONLY: 'TRUE',
      ALLOW_SUDO: '0',
      TOOLSETS: ' repository, issue ,,',
      DISABLED_TOOLS: 'admin_*',
      MCP_ALLOWED_ORIGINS: 'https://a.example.com, http://localhost:5173',
      SECRET_DETECTION_MODE: 'Block',
      TOOL_MODE: 'discovery',
      DATABASE_URL: 'postgresql://u:p@db:5432/aegis',
      REDIS_URL: 'redis://cache:6379',
      ENCRYPTION_KEY: 'a'.repeat(64),
      GITEA_OAUTH_CLIENT_ID: 'id',
      GITEA_OAUTH_CLIENT_SECRET: 'secret',
      AUDIT_RETENTION_DAYS: '0',
    });
    expect(config.server.publicUrl).toBe('http://0.0.0.0:9090');
    expect(config.gitea.url).toBe('https://git.example.com');
    expect(config.tools).toMatchObject({
      readOnly: true,
      allowSudo: false,
      toolsets: ['repository', 'issue'],
      mode: 'discovery',
    });
    expect(config.mcp.allowedOrigins).toEqual(['https://a.example.com', 'http://localhost:5173']);
    expect(config.secrets.detectionMode).toBe('block');
    expect(config.storage).toMatchObject({
      databaseUrl: 'postgresql://u:p@db:5432/aegis',
      redisUrl: 'redis://cache:6379',
    });
    expect(config.audit.retentionDays).toBe(0);
  });

  it('accepts a base64 encryption key of 32 bytes and treats empty strings as unset', () => {
    expect(
      ok({ ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') }).secrets.encryptionKey,
    ).not.toBeNull();
    expect(ok({ GITEA_TOKEN: '', PORT: '  ' }).gitea.token).toBeNull();
  });

  it('keeps PUBLIC_URL when given, without a trailing slash', () => {
    expect(ok({ PUBLIC_URL: 'https://mcp.example.com/' }).server.publicUrl).toBe('https://mcp.example.com');
  });

  it('reports every bad variable at once', () => {
    const found = issues({
      MAX_BINARY_BYTES: 'abc',
      SECRET_DETECTION_MODE: 'loud',
      PORT: '70000',
      READ_ONLY: 'maybe',
      LOG_LEVEL: 'chatty',
      GITEA_URL: 'ftp://x',
      MCP_ALLOWED_ORIGINS: 'https://ok.example.com,https://bad.example.com/path',
      AUDIT_BATCH_SIZE: '0',
      RATE_LIMIT_PER_MINUTE: '-1',
      TOOL_MODE: 'some',
    });
    expect(found.map((i) => i.variable).sort()).toEqual(
      [
        'AUDIT_BATCH_SIZE',
        'GITEA_URL',
        'LOG_LEVEL',
        'MAX_BINARY_BYTES',
        'MCP_ALLOWED_ORIGINS',
        'PORT',
        'RATE_LIMIT_PER_MINUTE',
        'READ_ONLY',
        'SECRET_DETECTION_MODE',
        'TOOL_MODE',
      ].sort(),
    );
    const message = formatConfigIssues(found);
    expect(message).toContain('10 problems');
    expect(message).toMatch(/SECRET_DETECTION_MODE must be one of: off, mask, block/);
  });

  it('never echoes a value in its messages, secret or not', () => {
    const env = {
      ENCRYPTION_KEY: 'topsecret-key-material',
      DATABASE_URL: 'mysql://admin:hunter2@db/x',
      REDIS_URL: 'http://:pw-redis@cache',
      MAX_BINARY_BYTES: 'abc-visible',
    };
    const message = formatConfigIssues(issues(env));
    for (const value of ['topsecret', 'hunter2', 'pw-redis', 'abc-visible'])
      expect(message).not.toContain(value);
  });

  it('requires the OAuth client id and secret together', () => {
    expect(issues({ GITEA_OAUTH_CLIENT_ID: 'id' })).toEqual([
      { variable: 'GITEA_OAUTH_CLIENT_SECRET', message: expect.stringContaining('together') },
    ]);
  });

  it('marks every secret-bearing variable sensitive', () => {
    const sensitive = ENV_VARS.filter((v) => v.sensitive).map((v) => v.name);
    expect(sensitive.sort()).toEqual(
      [
        'ADMIN_TOKEN',
        'DATABASE_URL',
        'ENCRYPTION_KEY',
        'ENCRYPTION_KEYS_PREVIOUS',
        'GITEA_OAUTH_CLIENT_SECRET',
        'GITEA_TOKEN',
        'MCP_BEARER_TOKEN',
        'METRICS_TOKEN',
        'REDIS_URL',
      ].sort(),
    );
  });

  it('parses ENCRYPTION_KEYS_PREVIOUS as a list of 32-byte keys and rejects a bad one without echoing it', () => {
    const a = '11'.repeat(32);
    const b = Buffer.alloc(32, 7).toString('base64');
    const ok = parseConfig({ ENCRYPTION_KEYS_PREVIOUS: `${a}, ${b}` });
    expect(ok.ok && ok.config.secrets.previousEncryptionKeys).toEqual([a, b]);
    const bad = parseConfig({ ENCRYPTION_KEYS_PREVIOUS: `${a},not-a-key-xyz` });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.issues[0]!.variable).toBe('ENCRYPTION_KEYS_PREVIOUS');
      expect(JSON.stringify(bad.issues)).not.toContain('not-a-key-xyz');
    }
  });

  it('names each variable once', () => {
    const names = ENV_VARS.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('docs/configuration.md', () => {
  const doc = readFileSync(join(__dirname, '../../../docs/configuration.md'), 'utf8');
  const rows = new Map(
    doc
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => {
        const cells = line.split('|').map((cell) => cell.trim());
        return [cells[1]!.replace(/`/g, ''), cells] as const;
      }),
  );

  it.each(ENV_VARS.map((v) => [v.name, v] as const))('documents %s with its default', (name, spec) => {
    const cells = rows.get(name);
    expect(cells).toBeDefined();
    expect(cells![2]).toBe(spec.defaultText === null ? '(unset)' : `\`${spec.defaultText}\``);
    expect(cells![3]).toBe(spec.sensitive ? 'yes' : '');
  });

  it('documents no variable the schema does not know', () => {
    expect([...rows.keys()].filter((name) => !ENV_VARS.some((v) => v.name === name))).toEqual([]);
  });
});
