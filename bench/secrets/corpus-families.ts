// Tuning-corpus formats added for issue 12: provider families the first corpus did not have
// (observability, chat, secrets managers, data platforms, PaaS, CI), abbreviated key names,
// credentials in config-file URLs and tool syntax, Gitea 40-hex tokens in context, and name/value
// pairs. Secrets are assembled at run time (prefixes split) so no secret-shaped literal is stored.
import type { Rng, SecretFormat } from './corpus';
import {
  A as ALNUM,
  B as B64,
  D as DIGITS,
  H as HEX,
  j,
  L as LOWER,
  pk as pick,
  U as UPPER,
  W as URLSAFE,
} from './corpus-kit';

const uuid = (r: Rng): string =>
  `${pick(r, HEX, 8)}-${pick(r, HEX, 4)}-4${pick(r, HEX, 3)}-a${pick(r, HEX, 3)}-${pick(r, HEX, 12)}`;
const bare = (name: string, secret: (r: Rng) => string): SecretFormat => ({
  name,
  make: (r) => ({ secret: secret(r), line: '' }),
});
const lined = (name: string, make: (r: Rng) => { secret: string; line: string }): SecretFormat => ({
  name,
  make,
});

export const FAMILY_SECRET_FORMATS: SecretFormat[] = [
  // Observability
  bare('newrelic-user-key', (r) => j('NR', 'AK-', pick(r, UPPER + DIGITS, 27))),
  bare('newrelic-insert-key', (r) => j('NR', 'II-', pick(r, URLSAFE, 32))),
  bare('grafana-cloud-token', (r) => j('gl', 'c_', pick(r, B64, 120), '=')),
  bare('grafana-service-account', (r) => j('gl', 'sa_', pick(r, ALNUM, 32), '_', pick(r, HEX, 8))),
  bare('sentry-user-token', (r) => j('sntr', 'yu_', pick(r, HEX, 64))),
  bare('dynatrace-token', (r) =>
    j('dt0', 'c01.', pick(r, UPPER + DIGITS, 24), '.', pick(r, UPPER + DIGITS, 64)),
  ),
  lined('datadog-api-key', (r) => {
    const s = pick(r, HEX, 32);
    return { secret: s, line: `DD_API_KEY=${s}` };
  }),
  lined('splunk-hec-token', (r) => {
    const s = uuid(r);
    return {
      secret: s,
      line: `curl -H "Authorization: Splunk ${s}" https://splunk.example.com:8088/services/collector`,
    };
  }),
  // Chat
  lined('teams-webhook', (r) => {
    const s = j(uuid(r), '@', uuid(r), '/IncomingWebhook/', pick(r, HEX, 32), '/', uuid(r));
    return { secret: s, line: `WEBHOOK=https://acme.webhook.office.com/webhookb2/${s}` };
  }),
  lined('mattermost-webhook', (r) => {
    const s = pick(r, LOWER + DIGITS, 26);
    return { secret: s, line: `url = "https://chat.example.com/hooks/${s}"` };
  }),
  // Secrets managers
  bare('doppler-token', (r) => j('dp', '.pt.', pick(r, ALNUM, 43))),
  bare('doppler-service-token', (r) => j('dp', '.st.', 'prd.', pick(r, ALNUM, 40))),
  bare('vault-batch-token', (r) => j('hv', 'b.', pick(r, URLSAFE, 100))),
  bare('pulumi-token', (r) => j('pu', 'l-', pick(r, HEX, 40))),
  // Data platforms
  bare('databricks-token', (r) => j('da', 'pi', pick(r, HEX, 32))),
  bare('supabase-token', (r) => j('sb', 'p_', pick(r, HEX, 40))),
  bare('planetscale-token', (r) => j('pscale', '_tkn_', pick(r, URLSAFE, 43))),
  bare('airtable-token', (r) => j('pa', 't', pick(r, ALNUM, 14), '.', pick(r, HEX, 64))),
  bare('notion-token', (r) => j('nt', 'n_', pick(r, ALNUM, 46))),
  bare('linear-key', (r) => j('lin', '_api_', pick(r, ALNUM, 40))),
  bare('contentful-token', (r) => j('CF', 'PAT-', pick(r, URLSAFE, 43))),
  bare('figma-token', (r) => j('fi', 'gd_', pick(r, URLSAFE, 40))),
  bare('hubspot-token', (r) => j('pat', '-na1-', uuid(r))),
  lined('snowflake-password', (r) => {
    const s = pick(r, ALNUM, 14) + '!' + pick(r, DIGITS, 2);
    return { secret: s, line: `SNOWFLAKE_PASSWORD='${s}'` };
  }),
  // PaaS and cloud
  bare('heroku-key', (r) => j('HR', 'KU-', pick(r, URLSAFE, 60))),
  bare('netlify-token', (r) => j('nf', 'p_', pick(r, ALNUM, 36))),
  bare('flyio-token', (r) => j('fo', '1_', pick(r, URLSAFE, 43))),
  bare('render-key', (r) => j('rn', 'd_', pick(r, ALNUM, 32))),
  lined('cloudflare-api-token', (r) => {
    const s = pick(r, URLSAFE, 40);
    return { secret: s, line: `CLOUDFLARE_API_TOKEN=${s}` };
  }),
  lined('vercel-token', (r) => {
    const s = pick(r, ALNUM, 24);
    return { secret: s, line: `vercel deploy --token ${s}` };
  }),
  bare('tencent-secret-id', (r) => j('AK', 'ID', pick(r, ALNUM, 32))),
  // CI, registries, AI, payments
  bare('sonar-token', (r) => j('sq', 'p_', pick(r, HEX, 40))),
  bare('buildkite-token', (r) => j('bk', 'ua_', pick(r, HEX, 40))),
  bare('postman-key', (r) => j('PM', 'AK-', pick(r, HEX, 24), '-', pick(r, HEX, 34))),
  bare('tailscale-key', (r) => j('ts', 'key-auth-', pick(r, ALNUM, 12), '-', pick(r, ALNUM, 33))),
  bare('jfrog-api-key', (r) => j('AK', 'Cp', pick(r, ALNUM, 69))),
  bare('perplexity-key', (r) => j('pp', 'lx-', pick(r, ALNUM, 48))),
  bare('openrouter-key', (r) => j('sk-', 'or-v1-', pick(r, HEX, 64))),
  bare('brevo-key', (r) => j('xkey', 'sib-', pick(r, HEX, 64), '-', pick(r, ALNUM, 16))),
  bare('razorpay-key', (r) => j('rz', 'p_live_', pick(r, ALNUM, 14))),
  // Abbreviated key names and *_KEY
  lined('env-db-pass', (r) => {
    const s = pick(r, ALNUM, 12) + pick(r, DIGITS, 2);
    return { secret: s, line: `DB_PASS=${s}` };
  }),
  lined('env-passwd', (r) => {
    const s = pick(r, ALNUM, 10) + '#' + pick(r, DIGITS, 3);
    return { secret: s, line: `export SMTP_PASSWD="${s}"` };
  }),
  lined('env-pwd', (r) => {
    const s = pick(r, ALNUM, 11) + pick(r, DIGITS, 2);
    return { secret: s, line: `REDIS_PWD: ${s}` };
  }),
  lined('env-key-suffix', (r) => {
    const s = pick(r, ALNUM, 32) + pick(r, DIGITS, 2);
    return { secret: s, line: `STRIPE_SIGNING_KEY=${s}` };
  }),
  lined('laravel-app-key', (r) => {
    const s = 'base64:' + pick(r, B64, 43) + '=';
    return { secret: s, line: `APP_KEY=${s}` };
  }),
  lined('secret-key-base', (r) => {
    const s = pick(r, HEX, 128);
    return { secret: s, line: `SECRET_KEY_BASE=${s}` };
  }),
  lined('yaml-credentials', (r) => {
    const s = pick(r, ALNUM, 20) + pick(r, DIGITS, 3);
    return { secret: s, line: `  credentials: ${s}` };
  }),
  // Credentials in config files and tool syntax
  lined('git-config-url', (r) => {
    const s = pick(r, ALNUM, 20);
    return { secret: s, line: `[remote "origin"]\n\turl = https://ci:${s}@gitea.example.com/org/app.git` };
  }),
  lined('toml-url', (r) => {
    const s = pick(r, ALNUM, 18);
    return { secret: s, line: `[database]\nurl = "mysql://app:${s}@db:3306/app"` };
  }),
  lined('ini-url', (r) => {
    const s = pick(r, ALNUM, 16);
    return { secret: s, line: `[broker]\nbroker_url = amqp://worker:${s}@rabbit:5672//` };
  }),
  lined('netrc', (r) => {
    const s = pick(r, ALNUM, 18);
    return { secret: s, line: `machine gitea.example.com login ci password ${s}` };
  }),
  lined('docker-login-p', (r) => {
    const s = pick(r, ALNUM, 22);
    return { secret: s, line: `docker login registry.example.com -u ci -p ${s}` };
  }),
  lined('mysql-p', (r) => {
    const s = pick(r, ALNUM, 12) + pick(r, DIGITS, 2);
    return { secret: s, line: `mysql -h db -u root -p${s} app < dump.sql` };
  }),
  lined('curl-user', (r) => {
    const s = pick(r, ALNUM, 16);
    return { secret: s, line: `curl -u admin:${s} https://jenkins.example.com/api/json` };
  }),
  lined('cli-password-flag', (r) => {
    const s = pick(r, ALNUM, 18);
    return {
      secret: s,
      line: `helm repo add internal https://charts.example.com --username ci --password ${s}`,
    };
  }),
  lined('redis-requirepass', (r) => {
    const s = pick(r, ALNUM, 24);
    return { secret: s, line: `requirepass ${s}` };
  }),
  lined('pgpass', (r) => {
    const s = pick(r, ALNUM, 16);
    return { secret: s, line: `db.internal:5432:app:app:${s}` };
  }),
  lined('wp-config', (r) => {
    const s = pick(r, ALNUM, 14) + pick(r, DIGITS, 2);
    return { secret: s, line: `define( 'DB_PASSWORD', '${s}' );` };
  }),
  // Gitea tokens (40 hex) in context
  lined('gitea-token-env', (r) => {
    const s = pick(r, HEX, 40);
    return { secret: s, line: `GITEA_TOKEN=${s}` };
  }),
  lined('gitea-token-header', (r) => {
    const s = pick(r, HEX, 40);
    return { secret: s, line: `curl -H "Authorization: token ${s}" https://gitea.example.com/api/v1/user` };
  }),
  lined('gitea-token-query', (r) => {
    const s = pick(r, HEX, 40);
    return { secret: s, line: `https://gitea.example.com/api/v1/repos/org/app?access_token=${s}` };
  }),
  lined('gitea-token-clone-url', (r) => {
    const s = pick(r, HEX, 40);
    return { secret: s, line: `git clone https://${s}@gitea.example.com/org/app.git` };
  }),
  lined('gitea-token-tea', (r) => {
    const s = pick(r, HEX, 40);
    return {
      secret: s,
      line: `logins:\n  - name: work\n    url: https://gitea.example.com\n    token: ${s}`,
    };
  }),
  // Name/value pairs (Actions variables, env lists)
  lined('actions-variable', (r) => {
    const s = pick(r, ALNUM, 24) + pick(r, DIGITS, 2);
    return { secret: s, line: JSON.stringify({ name: 'APP_SECRET', data: s, description: '' }) };
  }),
  lined('env-list-entry', (r) => {
    const s = pick(r, ALNUM, 20) + pick(r, DIGITS, 2);
    return { secret: s, line: JSON.stringify([{ name: 'DB_PASS', value: s }]) };
  }),
];

export const FAMILY_NEGATIVE_FORMATS: Array<{ name: string; make: (rng: Rng) => string }> = [
  { name: 'cache-key', make: (r) => `CACHE_KEY=user:${pick(r, DIGITS, 6)}:profile` },
  { name: 'primary-key', make: () => 'primary_key = "id"' },
  { name: 'idempotency-key', make: (r) => `Idempotency_Key: ${uuid(r)}` },
  {
    name: 'public-key-var',
    make: (r) => `PUBLIC_KEY=ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${pick(r, B64, 43)}`,
  },
  { name: 'publishable-key', make: (r) => `STRIPE_PUBLISHABLE_KEY=pk_live_${pick(r, ALNUM, 24)}` },
  { name: 'key-id', make: (r) => `AWS_KMS_KEY_ID=${uuid(r)}` },
  { name: 'sort-key', make: () => 'sort_key: created_at' },
  { name: 'bypass-flag', make: () => 'bypass=true' },
  { name: 'pass-prose', make: () => 'Tests pass: all 42 suites green' },
  { name: 'var-name-only', make: () => '{"name": "DB_PASSWORD", "data": ""}' },
  { name: 'var-plain-value', make: () => '{"name": "LOG_LEVEL", "data": "info"}' },
  { name: 'password-flag-env', make: () => 'docker login -u ci --password-stdin < token.txt' },
  { name: 'mysql-prompt', make: () => 'mysql -u root -p app' },
  { name: 'netrc-placeholder', make: () => 'machine example.com login me password <password>' },
  { name: 'credentials-ref', make: () => 'credentials: ${{ secrets.REGISTRY_CREDENTIALS }}' },
  { name: 'redis-url-nopass', make: () => 'REDIS_URL=redis://cache:6379/0' },
  { name: 'define-constant', make: () => "define( 'WP_DEBUG', false );" },
  { name: 'gpg-key-id', make: (r) => `GPG_SIGNING_KEY_ID=${pick(r, HEX.toUpperCase(), 16)}` },
  {
    name: 'jwks-modulus',
    make: (r) =>
      JSON.stringify({
        keys: [{ kty: 'RSA', kid: pick(r, HEX, 16), use: 'sig', n: pick(r, URLSAFE, 342), e: 'AQAB' }],
      }),
  },
  {
    name: 'lfs-pointer',
    make: (r) =>
      `version https://git-lfs.github.com/spec/v1\noid sha256:${pick(r, HEX, 64)}\nsize ${pick(r, DIGITS, 6)}`,
  },
  {
    name: 'oauth-state',
    make: (r) =>
      `https://gitea.example.com/user/oauth2/callback?code=${pick(r, HEX, 20)}&state=${pick(r, URLSAFE, 32)}`,
  },
  { name: 'traceparent', make: (r) => `traceparent: 00-${pick(r, HEX, 32)}-${pick(r, HEX, 16)}-01` },
  { name: 'ci-commit-sha', make: (r) => `CI_COMMIT_SHA=${pick(r, HEX, 40)}` },
  { name: 'mysql-database-arg', make: () => 'mysql -u root -p appdb < schema.sql' },
  { name: 'docker-build-secret', make: () => 'docker build --secret id=npmrc,src=$HOME/.npmrc .' },
  { name: 'docker-run-port', make: () => 'docker run -p 8080:80 -u 1000:1000 nginx' },
  { name: 'token-url', make: () => 'TOKEN_URL=https://auth.example.com/oauth/token' },
  { name: 'var-header-name', make: () => '{"name":"API_KEY_HEADER","data":"X-Api-Key"}' },
  {
    name: 'k8s-env-secretref',
    make: () => '{"name":"DB_PASSWORD","valueFrom":{"secretKeyRef":{"name":"db","key":"password"}}}',
  },
  { name: 'gitea-sha-in-context', make: (r) => `commit ${pick(r, HEX, 40)}\nAuthor: Dev <dev@example.org>` },
];
