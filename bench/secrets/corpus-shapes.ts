// Tuning-corpus additions (issue 12, seventh pass): real-world shapes the rules did not yet catch,
// written from public facts (the providers' webhook and key-format documentation, the public
// detector lists of gitleaks and trufflehog) as our own samples: webhook URLs whose path holds the
// token (generic /hooks/<token>, /webhooks/<id>/<token>, Teams' IncomingWebhook path, Feishu/Lark
// bot hooks, WeCom's `webhook/send?key=`, IFTTT's `/with/key/`), SMTP DSNs whose user is an e-mail
// address, Oracle's thin JDBC URL, a `bearer` JSON key, `apikey X` and backticked values in prose,
// `Header.Set("Authorization", "Token X")`, Python's `auth=(user, password)` and `HTTPBasicAuth`,
// `docker secret create` from a pipe, `[secrets]`/`[tokens]` sections and YAML `secrets:` maps, keys
// of providers without a prefix named only by the variable (`HETZNER_API`, `LINODE_CLI`, an Actions
// variable `OPSGENIE`), JSON files parsed as bodies with camelCase key names (`authKey`,
// `signingKey`, `masterKey`), a wiki page whose last line is the key (no newline after it), a
// Kubernetes Secret pasted in an issue and a Dockerfile `ENV` line as a comment.
// Hard negatives of the same shapes follow. Secrets are drawn at run time from the seeded PRNG;
// prefixes are joined from pieces.
import type { NegativeFormat, SecretFormat } from './corpus';
import { A, B, b64, D, f, H, j, L, mk, n, pw, uuid, W } from './corpus-kit';

const text = (sf: SecretFormat): SecretFormat => ({ ...sf, body: 'text' });
const json = (sf: SecretFormat): SecretFormat => ({ ...sf, body: 'json' });
/** A key with letters and digits (never a plain word). */
const key = (pick: (s: string, k: number) => string, k: number): string =>
  pick(A, k - 2) + pick(D, 1) + pick(L, 1);
const jsonNeg = (neg: NegativeFormat): NegativeFormat => ({ ...neg, body: 'json' });
const wiki = (content: string): string =>
  JSON.stringify({
    title: 'Operations',
    html_url: 'https://gitea.example.com/org/app/wiki/Operations',
    content_base64: b64(content),
    commit_count: 4,
  });

export const SHAPE_SECRET_FORMATS: SecretFormat[] = [
  // ---- Webhook URLs whose path is the credential --------------------------------------------------
  f('webhook-path-hooks-token', (pick) => {
    const s = key(pick, 40);
    return mk(s, `NOTIFY_URL=https://ci.example.com/hooks/${s}`);
  }),
  f('webhook-path-id-token', (pick) => {
    const s = key(pick, 32);
    return mk(s, `curl -X POST -d @event.json https://hooks.example.io/webhooks/${pick(D, 6)}/${s}`);
  }),
  json(
    f('webhook-config-webhook-token', (pick) => {
      const s = key(pick, 48);
      return mk(
        s,
        JSON.stringify({
          id: 7,
          type: 'gitea',
          config: { url: `https://deploy.example.net/webhook/${pick(D, 4)}/${s}`, content_type: 'json' },
          events: ['push'],
          active: true,
        }),
      );
    }),
  ),
  f('teams-incoming-webhook-outlook', (pick) => {
    const s = pick(H, 32);
    return mk(
      s,
      `TEAMS_WEBHOOK: ${j('https://outlook.office', '.com/webhook/')}${uuid(pick)}@${uuid(pick)}/IncomingWebhook/${s}/${uuid(pick)}`,
    );
  }),
  f('feishu-bot-hook', (pick) => {
    const s = uuid(pick);
    return mk(s, `lark_webhook = "https://open.feishu.cn/open-apis/bot/v2/hook/${s}"`);
  }),
  f('wecom-bot-key', (pick) => {
    const s = uuid(pick);
    return mk(s, `curl 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=${s}' -d '{"msgtype":"text"}'`);
  }),
  f('ifttt-maker-key', (pick) => {
    const s = key(pick, 22);
    return mk(s, `POST https://maker.ifttt.com/trigger/deploy_done/with/key/${s}`);
  }),
  // ---- Credentials in URLs and connection strings -------------------------------------------------
  f('smtp-dsn-email-user', (pick) => {
    const s = pw(pick);
    return mk(s, `EMAIL_URL=smtp://alerts@example.com:${s}@smtp.example.com:587`);
  }),
  f('jdbc-oracle-thin', (pick) => {
    const s = pw(pick);
    return mk(s, `spring.datasource.url=jdbc:oracle:thin:app_user/${s}@db.internal:1521/ORCLPDB1`);
  }),
  // ---- Keys and headers in code --------------------------------------------------------------------
  f('json-bearer-key', (pick) => {
    const s = pick(W, 40);
    return mk(s, `{"auth": {"bearer": "${s}"}}`);
  }),
  f('go-header-set-authorization', (pick) => {
    const s = key(pick, 40);
    return mk(s, `req.Header.Set("Authorization", "Token ${s}")`);
  }),
  f('python-requests-auth-tuple', (pick) => {
    const s = pw(pick);
    return mk(s, `r = requests.get(url, auth=("deploy", "${s}"), timeout=10)`);
  }),
  f('python-httpbasicauth', (pick) => {
    const s = pw(pick);
    return mk(s, `session.auth = HTTPBasicAuth('admin', '${s}')`);
  }),
  f('docker-secret-create-pipe', (pick) => {
    const s = pw(pick);
    return mk(s, `printf '${s}' | docker secret create postgres_password -`);
  }),
  // ---- Prose ---------------------------------------------------------------------------------------
  f('prose-apikey-next-word', (pick) => {
    const s = key(pick, 32);
    return mk(s, `Calls with apikey ${s} get 401 since the upgrade`);
  }),
  f('prose-secret-backticked', (pick) => {
    const s = key(pick, 32);
    return mk(s, `I think the secret \`${s}\` ended up in the build log, please rotate it`);
  }),
  // ---- Sections and maps of secrets ----------------------------------------------------------------
  text(
    f('toml-tokens-table', (pick) => {
      const s = key(pick, 40);
      return mk(s, `[server]\nport = 8080\n\n[tokens]\ngithub = "${s}"\n`);
    }),
  ),
  text(
    f('ini-secrets-section', (pick) => {
      const s = key(pick, 36);
      return mk(s, `[general]\nname = billing\n\n[secrets]\nstripe = ${s}\nsendgrid = ${key(pick, 36)}\n`);
    }),
  ),
  f('yaml-secrets-map', (pick) => {
    const s = key(pick, 40);
    return mk(s, `app:\n  name: billing\nsecrets:\n  payments: ${s}\n  mailer: ${key(pick, 40)}`);
  }),
  // ---- Provider keys named only by the variable ---------------------------------------------------
  f('hetzner-api-env', (pick) => {
    const s = pick(A, 64);
    return mk(s, `HETZNER_API=${s}`);
  }),
  f('linode-cli-yaml', (pick) => {
    const s = pick(H, 64);
    return mk(s, `linode_cli: "${s}"`);
  }),
  json(
    f('opsgenie-actions-variable', (pick) => {
      const s = uuid(pick);
      return mk(s, JSON.stringify([{ owner_id: 0, repo_id: 3, name: 'OPSGENIE', data: s, description: '' }]));
    }),
  ),
  f('snowflake-prose-colon', (pick) => {
    const s = key(pick, 24);
    return mk(s, `Snowflake: ${s} (service user, read only)`);
  }),
  // ---- Bodies: JSON files parsed, wiki pages -------------------------------------------------------
  json(
    f('json-file-camel-auth-key', (pick) => {
      const s = key(pick, 40);
      return mk(
        s,
        JSON.stringify({ service: { name: 'push', endpoint: 'https://push.example.com', authKey: s } }),
      );
    }),
  ),
  json(
    f('json-file-camel-signing-key', (pick) => {
      const s = pick(B, 44);
      return mk(s, JSON.stringify({ jwt: { issuer: 'app', signingKey: s, ttl: 3600 } }));
    }),
  ),
  json(
    f('json-file-camel-master-key', (pick) => {
      const s = key(pick, 32);
      return mk(s, JSON.stringify({ search: { host: 'http://search:7700', masterKey: s } }));
    }),
  ),
  json(
    f('wiki-key-last-line', (pick) => {
      const s = key(pick, 40);
      return mk(s, wiki(`## Staging\n\nThe dashboard reads its data with this one.\n\nAPI KEY: ${s}`));
    }),
  ),
  json(
    f('wiki-token-last-line', (pick) => {
      const s = key(pick, 36);
      return mk(s, wiki(`# Deploy\n\n1. log in\n2. export the token\n\nexport DEPLOY_TOKEN=${s}`));
    }),
  ),
  // A Kubernetes Secret pasted in an issue (gitleaks' rule takes the value's optional closing quote,
  // which in a JSON body is the string's own), a Dockerfile line that starts a comment.
  json(
    f('k8s-secret-in-issue-body', (pick) => {
      const s = b64(pw(pick));
      return mk(
        s,
        JSON.stringify({
          id: 41,
          number: 12,
          title: 'deploy fails',
          body: `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ndata:\n  DB_PASSWORD: ${s}`,
        }),
      );
    }),
  ),
  json(
    f('dockerfile-env-comment', (pick) => {
      const s = key(pick, 32);
      return mk(s, JSON.stringify({ id: 9, body: `ENV API_TOKEN ${s}`, user: { login: 'dev' } }));
    }),
  ),
];

export const SHAPE_NEGATIVE_FORMATS: NegativeFormat[] = [
  n(
    'webhook-paths-ids',
    (pick) =>
      `GET /api/v1/repos/org/app/hooks/${pick(D, 3)} then POST /api/v1/repos/org/app/hooks/${pick(D, 2)}/tests; hooks live in .git/hooks/pre-commit and src/hooks/useAuthentication.ts`,
  ),
  n(
    'webhook-delivery-uuid',
    (pick) =>
      `redelivered https://gitea.example.com/org/app/settings/webhooks/deliveries/${uuid(pick)} (200 OK)`,
  ),
  n(
    'webhook-placeholder',
    () => 'set NOTIFY_URL=https://ci.example.com/hooks/<your-hook-token> in the runner',
  ),
  n(
    'provider-lookups',
    (pick) =>
      `JENKINS_URL=https://ci.example.com/jenkins2\nSNYK_ORG_ID=${uuid(pick)}\nOPSGENIE_TEAM_ID=${uuid(pick)}\nSPLUNK_INDEX=main\nLINODE_IMAGE_SHA256=${pick(H, 64)}\nSENDGRID_TEMPLATE=d-${pick(H, 32)}\nMAILGUN_DOMAIN=mg.example.com`,
  ),
  n(
    'provider-versions',
    (pick) => `jenkins: 2.${pick(D, 3)}.3-lts\nsplunk: splunk-enterprise-9.1.${pick(D, 1)}`,
  ),
  n(
    'splunk-hec-host-port',
    () =>
      'curl -k https://splunk.example.com:8088/services/collector/event -H "Authorization: Splunk ${HEC_TOKEN}"',
  ),
  n(
    'secrets-sections-plain',
    (pick) =>
      `[tokens]\nexpiry = 3600\nissuer = gitea\n\n[ssh_keys]\nadmin = ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${pick(B, 43)} admin@host\n`,
  ),
  n(
    'yaml-secrets-refs',
    () =>
      'secrets:\n  db_password:\n    file: ./secrets/db_password.txt\njobs:\n  build:\n    secrets:\n      token: ${{ secrets.GITEA_TOKEN }}',
  ),
  jsonNeg(
    n('json-camel-lookup-keys', (pick) =>
      JSON.stringify({
        primaryKey: 'id',
        cacheKey: `user:${pick(D, 4)}:profile`,
        sortKey: 'created_at',
        idempotencyKey: uuid(pick),
        signingKeyId: `kid-${pick(D, 4)}`,
      }),
    ),
  ),
  n('json-bearer-type', () => '{"access_token": "<redacted>", "token_type": "bearer", "bearer": true}'),
  n(
    'smtp-dsn-no-password',
    (pick) =>
      `MAILER_URL=smtp://alerts@example.com@smtp.example.com:${pick(D, 3)}\nsmtp://mail.example.com:587`,
  ),
  n(
    'prose-backticked-names',
    (pick) =>
      `set the secret \`MY_SECRET_${pick(D, 1)}\` in the repo settings; the token \`GITEA_TOKEN_V2\` is read from env; see secret \`prod/db/password${pick(D, 1)}\``,
  ),
  n('prose-apikey-header-name', (pick) => `send the apikey header X-Api-Key${pick(D, 1)} with every call`),
  jsonNeg(
    n('wiki-last-line-sha', (pick) => wiki(`## Releases\n\nThe last good build.\n\ncommit ${pick(H, 40)}`)),
  ),
  jsonNeg(
    n('dockerfile-env-comment-plain', () => JSON.stringify({ id: 9, body: 'ENV NODE_ENV production' })),
  ),
  n('docker-secret-create-file', () => 'docker secret create postgres_password ./secrets/pg.txt'),
  n('auth-tuple-env', () => 'r = requests.get(url, auth=(user, os.environ["DEPLOY_PASSWORD"]))'),
];
