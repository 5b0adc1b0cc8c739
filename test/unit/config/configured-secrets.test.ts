// One list of secrets to redact (issue 11): every variable env.schema.ts marks sensitive reaches
// configuredSecrets(), which both the executor's exact redaction and the audit records use.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configuredSecrets } from '../../../src/config/configured-secrets';
import { ENV_VARS, parseConfig } from '../../../src/config/env.schema';

const key = (n: number) => n.toString(16).padStart(2, '0').repeat(32);
// A value for each sensitive variable, and the part of it that is the secret.
const SAMPLES: Record<string, { value: string; secret: string }> = {
  METRICS_TOKEN: { value: 'metrics-token-0123456789abcdef', secret: 'metrics-token-0123456789abcdef' },
  GITEA_TOKEN: { value: 'gitea-token-0123456789abcdef', secret: 'gitea-token-0123456789abcdef' },
  GITEA_OAUTH_CLIENT_SECRET: {
    value: 'oauth-client-secret-0123456789',
    secret: 'oauth-client-secret-0123456789',
  },
  MCP_BEARER_TOKEN: {
    value: 'mcp-bearer-token-0123456789abcdefghij',
    secret: 'mcp-bearer-token-0123456789abcdefghij',
  },
  ENCRYPTION_KEY: { value: key(0xab), secret: key(0xab) },
  ENCRYPTION_KEYS_PREVIOUS: { value: key(0xcd), secret: key(0xcd) },
  DATABASE_URL: {
    value: 'postgresql://aegis:db-pass-0123456789@db:5432/aegis',
    secret: 'db-pass-0123456789',
  },
  REDIS_URL: { value: 'redis://:redis-pass-0123456789@redis:6379', secret: 'redis-pass-0123456789' },
  ADMIN_TOKEN: {
    value: 'admin-token-0123456789abcdefghijklmnop',
    secret: 'admin-token-0123456789abcdefghijklmnop',
  },
};

describe('configuredSecrets', () => {
  it('holds every variable marked sensitive in env.schema.ts', () => {
    const sensitive = ENV_VARS.filter((v) => v.sensitive).map((v) => v.name);
    // A new sensitive variable needs a sample here, and then a place in configuredSecrets.
    expect(sensitive.filter((name) => !SAMPLES[name])).toEqual([]);
    const env: Record<string, string> = {
      GITEA_URL: 'http://gitea:3000',
      GITEA_OAUTH_CLIENT_ID: 'client-id',
    };
    for (const name of sensitive) env[name] = SAMPLES[name]!.value;
    const parsed = parseConfig(env);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const secrets = configuredSecrets(parsed.config);
    expect(sensitive.filter((name) => !secrets.includes(SAMPLES[name]!.secret))).toEqual([]);
  });

  it('is the list the executor and the audit trail are built with', () => {
    const root = join(__dirname, '../../..');
    for (const file of ['src/modules/tools/tools.module.ts', 'src/modules/audit/audit.module.ts'])
      expect([
        file,
        /exactSecrets: configuredSecrets\(config\)/.test(readFileSync(join(root, file), 'utf8')),
      ]).toEqual([file, true]);
  });
});
