// Tuning-corpus additions (issue 12, sixth pass): the bodies Gitea returns where secrets sit and
// the earlier corpora had few samples: raw diffs and patches (`repoDownloadPullDiffOrPatch`: hunks,
// `+`/`-` pairs, a secret only on the removed line), Actions variables and secrets listings (arrays
// of `{name, data}`), Actions job logs (timestamp prefixes, `env:` dumps, `+ ` traces), webhook
// definitions (`config.url`, `authorization_header`) and deliveries, and the files people commit:
// `.env`, ini, TOML, git config with credentials in URLs, Kubernetes Secret manifests, docker config
// auths, npmrc/pypirc, properties, shell history, Gitea's own app.ini and runner files. Also
// provider keys that only a provider name nearby makes secret (positional SDK arguments, auth
// schemes in headers), from the providers' documented key shapes and the public detector lists of
// trufflehog and gitleaks (written here as our own samples). A format with `body` is the whole
// response body (raw text or JSON), not a line embedded in one. Hard negatives of the same shapes
// follow. Secrets are drawn at run time from the seeded PRNG; prefixes are joined from pieces.
import type { NegativeFormat, SecretFormat } from './corpus';
import { A, B, b64, D, f, H, j, L, mk, n, pem, pw, U, uuid, W } from './corpus-kit';

const TS = (k: number): string => `2026-11-${10 + (k % 18)}T0${k % 10}:1${k % 6}:0${k % 10}.${k}4471230Z`;
/** Prefixes every line with an Actions log timestamp. */
const logged = (lines: string[]): string => lines.map((l, i) => `${TS(i + 3)} ${l}`).join('\n') + '\n';
const DJANGO = L + D + '!@#$%^&*(-_=+)';
const text = (sf: SecretFormat): SecretFormat => ({ ...sf, body: 'text' });
const json = (sf: SecretFormat): SecretFormat => ({ ...sf, body: 'json' });
const diffHead = (pick: (s: string, k: number) => string, path: string): string =>
  `diff --git a/${path} b/${path}\nindex ${pick(H, 7)}..${pick(H, 7)} 100644\n--- a/${path}\n+++ b/${path}`;
const variable = (name: string, data: string, id: number): Record<string, unknown> => ({
  owner_id: 0,
  repo_id: 12,
  name,
  data,
  description: '',
  id,
});

export const BODY_SECRET_FORMATS: SecretFormat[] = [
  // ---- Raw diffs and patches ---------------------------------------------------------------------
  text(
    f('diff-env-added', (pick) => {
      const s = pw(pick);
      return mk(
        s,
        `${diffHead(pick, '.env.production')}\n@@ -1,3 +1,4 @@\n APP_ENV=production\n-DB_PASSWORD=\n+DB_PASSWORD=${s}\n LOG_LEVEL=info\n`,
      );
    }),
  ),
  text(
    f('diff-secret-removed', (pick) => {
      const s = pick(B, 40);
      return mk(
        s,
        `${diffHead(pick, 'deploy/aws.sh')}\n@@ -2,5 +2,4 @@ set -e\n export AWS_REGION=eu-west-1\n-export AWS_SECRET_ACCESS_KEY=${s}\n+# credentials come from the runner now\n aws s3 sync dist s3://bucket\n`,
      );
    }),
  ),
  text(
    f('patch-yaml-password', (pick) => {
      const s = pw(pick);
      return mk(
        s,
        `From ${pick(H, 40)} Mon Sep 17 00:00:00 2001\nFrom: Dev <dev@example.org>\nDate: Tue, 3 Nov 2026 10:00:00 +0100\nSubject: [PATCH] database settings\n\n---\n config/database.yml | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\n${diffHead(pick, 'config/database.yml')}\n@@ -4,7 +4,7 @@ production:\n   adapter: postgresql\n   username: app\n-  password: <%= ENV['DB_PASSWORD'] %>\n+  password: ${s}\n   host: db.internal\n--\n2.47.0\n`,
      );
    }),
  ),
  text(
    f('diff-django-secret-key', (pick) => {
      const s = pick(DJANGO, 50);
      return mk(
        s,
        `${diffHead(pick, 'app/settings.py')}\n@@ -20,6 +20,6 @@ BASE_DIR = Path(__file__).resolve().parent.parent\n # SECURITY WARNING: keep the secret key used in production secret!\n-SECRET_KEY = os.environ["SECRET_KEY"]\n+SECRET_KEY = '${s}'\n DEBUG = False\n`,
      );
    }),
  ),
  text(
    f('diff-toml-token', (pick) => {
      const s = pick(A, 32);
      return mk(
        s,
        `${diffHead(pick, 'config.toml')}\n@@ -8,3 +8,6 @@ name = "api"\n [server]\n port = 8080\n+\n+[registry]\n+token = "${s}"\n`,
      );
    }),
  ),
  text(
    f('diff-properties-password', (pick) => {
      const s = pw(pick);
      return mk(
        s,
        `${diffHead(pick, 'src/main/resources/application.properties')}\n@@ -1,4 +1,4 @@\n spring.datasource.url=jdbc:postgresql://db:5432/app\n spring.datasource.username=app\n-spring.datasource.password=\${DB_PASSWORD}\n+spring.datasource.password=${s}\n`,
      );
    }),
  ),
  text(
    f('diff-k8s-secret-data', (pick) => {
      const raw = pw(pick);
      const s = b64(raw);
      return mk(
        s,
        `${diffHead(pick, 'k8s/secret.yaml')}\n@@ -5,4 +5,5 @@ metadata:\n type: Opaque\n data:\n   username: ${b64('app')}\n+  password: ${s}\n`,
      );
    }),
  ),
  text(
    f('diff-json-client-secret', (pick) => {
      const s = pick(W, 40);
      return mk(
        s,
        `${diffHead(pick, 'appsettings.json')}\n@@ -3,6 +3,6 @@\n   "AzureAd": {\n     "TenantId": "${uuid(pick)}",\n-    "ClientSecret": "",\n+    "ClientSecret": "${s}",\n     "Instance": "https://login.microsoftonline.com/"\n`,
      );
    }),
  ),
  text(
    f('diff-ini-gitea-passwd', (pick) => {
      const s = pw(pick);
      return mk(
        s,
        `${diffHead(pick, 'custom/conf/app.ini')}\n@@ -30,7 +30,7 @@ [database]\n DB_TYPE = postgres\n HOST = db:5432\n NAME = gitea\n USER = gitea\n-PASSWD =\n+PASSWD = ${s}\n SSL_MODE = disable\n`,
      );
    }),
  ),
  text(
    f('diff-hunk-docker-auth', (pick) => {
      const s = b64(`deploy:${pw(pick)}`);
      return mk(
        s,
        `${diffHead(pick, '.docker/config.json')}\n@@ -1,5 +1,7 @@\n {\n   "auths": {\n+    "registry.example.com": {\n+      "auth": "${s}"\n+    }\n   }\n }\n`,
      );
    }),
  ),
  // ---- Actions variables and secrets listings ------------------------------------------------------
  json(
    f('actions-variables-app-secret', (pick) => {
      const s = pick(A, 48);
      return mk(
        s,
        JSON.stringify([
          variable('NODE_VERSION', '20', 1),
          variable('APP_SECRET', s, 2),
          variable('IMAGE', 'registry.example.com/app', 3),
        ]),
      );
    }),
  ),
  json(
    f('actions-variables-smtp-pass', (pick) => {
      const s = pw(pick);
      return mk(
        s,
        JSON.stringify([variable('SMTP_HOST', 'mail.example.com', 4), variable('SMTP_PASS', s, 5)]),
      );
    }),
  ),
  json(
    f('actions-variables-provider-name', (pick) => {
      const s = pick(H, 32);
      return mk(
        s,
        JSON.stringify([variable('ROLLBAR_ACCESS', s, 6), variable('ROLLBAR_ENV', 'production', 7)]),
      );
    }),
  ),
  json(
    f('actions-variables-ssh-key', (pick) => {
      const body = [pick(B, 64), pick(B, 64), pick(B, 40) + '=='];
      return mk(
        body[1]!,
        JSON.stringify([variable('DEPLOY_SSH', pem(j('OPENSSH PRI', 'VATE KEY'), body), 8)]),
      );
    }),
  ),
  json(
    f('actions-variables-dsn', (pick) => {
      const s = pw(pick);
      return mk(s, JSON.stringify([variable('DATABASE_URL', `postgres://app:${s}@db.internal:5432/app`, 9)]));
    }),
  ),
  json(
    f('actions-variables-webhook', (pick) => {
      const s = pick(A, 24);
      return mk(
        s,
        JSON.stringify([
          variable(
            'SLACK_WEBHOOK',
            j('https://hooks.sl', 'ack.com/services/T', pick(U + D, 10), '/B', pick(U + D, 10), '/', s),
            10,
          ),
        ]),
      );
    }),
  ),
  json(
    f('actions-variables-registry', (pick) => {
      const s = pick(A, 36);
      return mk(
        s,
        JSON.stringify({
          variables: [variable('REGISTRY_LOGIN', 'ci', 11), variable('REGISTRY_PAT', s, 12)],
          total_count: 2,
        }),
      );
    }),
  ),
  // ---- Actions job logs ---------------------------------------------------------------------------
  text(
    f('actions-log-env-dump', (pick) => {
      const s = pw(pick);
      return mk(
        s,
        logged([
          '##[group]Run ./scripts/deploy.sh',
          './scripts/deploy.sh',
          'shell: bash -e {0}',
          'env:',
          '  DEPLOY_HOST: app.example.com',
          `  DEPLOY_PASSWORD: ${s}`,
          '##[endgroup]',
          'deploying...',
        ]),
      );
    }),
  ),
  text(
    f('actions-log-trace-header', (pick) => {
      const s = pick(A, 40);
      return mk(
        s,
        logged([
          "+ curl -fsS -X POST -H 'Content-Type: application/json' -H 'X-Api-Token: " +
            s +
            "' https://api.example.com/deploy",
          '{"status":"queued"}',
        ]),
      );
    }),
  ),
  text(
    f('actions-log-add-mask-late', (pick) => {
      const s = pick(W, 32);
      return mk(s, logged(['+ TOKEN=' + s, '+ echo ::add-mask::$TOKEN', '::add-mask::' + s, 'done']));
    }),
  ),
  text(
    f('actions-log-docker-login', (pick) => {
      const s = pw(pick);
      return mk(
        s,
        logged([
          `+ docker login registry.example.com -u ci --password ${s}`,
          'WARNING! Using --password via the CLI is insecure.',
          'Login Succeeded',
        ]),
      );
    }),
  ),
  text(
    f('actions-log-export', (pick) => {
      const s = pick(A, 40);
      return mk(
        s,
        logged([
          '+ set -x',
          `+ export SONAR_LOGIN=${s}`,
          '+ sonar-scanner -Dsonar.host.url=https://sonar.example.com',
        ]),
      );
    }),
  ),
  // ---- Webhooks -------------------------------------------------------------------------------------
  json(
    f('webhook-authorization-header', (pick) => {
      const s = pick(A, 40);
      return mk(
        s,
        JSON.stringify({
          id: 7,
          type: 'gitea',
          branch_filter: '*',
          config: { content_type: 'json', url: 'https://ci.example.com/hooks/gitea', http_method: 'post' },
          events: ['push', 'pull_request'],
          authorization_header: `Bearer ${s}`,
          active: true,
          updated_at: '2026-11-02T10:00:00Z',
          created_at: '2026-11-01T10:00:00Z',
        }),
      );
    }),
  ),
  json(
    f('webhook-url-token-query', (pick) => {
      const s = pick(A, 32);
      return mk(
        s,
        JSON.stringify([
          {
            id: 8,
            type: 'gitea',
            config: {
              content_type: 'json',
              url: `https://jenkins.example.com/generic-webhook-trigger/invoke?token=${s}`,
            },
            events: ['push'],
            authorization_header: '',
            active: true,
          },
        ]),
      );
    }),
  ),
  json(
    f('webhook-url-credentials', (pick) => {
      const s = pw(pick);
      return mk(
        s,
        JSON.stringify({
          id: 9,
          type: 'gitea',
          config: { content_type: 'form', url: `https://builder:${s}@ci.example.com/job/app/build` },
          events: ['push'],
          active: true,
        }),
      );
    }),
  ),
  json(
    f('webhook-basic-header', (pick) => {
      const s = b64(`hook:${pw(pick)}`);
      return mk(
        s,
        JSON.stringify({
          id: 10,
          type: 'gitea',
          config: { url: 'https://ci.example.com/hook', content_type: 'json' },
          authorization_header: `Basic ${s}`,
          active: true,
        }),
      );
    }),
  ),
  json(
    f('webhook-delivery-commit-message', (pick) => {
      const s = pw(pick);
      return mk(
        s,
        JSON.stringify({
          ref: 'refs/heads/main',
          before: pick(H, 40),
          after: pick(H, 40),
          commits: [
            {
              id: pick(H, 40),
              message: `fix login\n\nadmin password for staging is now ${s}\n`,
              url: 'https://gitea.example.com/org/app/commit/x',
            },
          ],
          repository: { full_name: 'org/app' },
        }),
      );
    }),
  ),
  json(
    f('webhook-authorization-other-scheme', (pick) => {
      const s = pick(A, 32);
      const scheme = ['Api-Key', 'Key', 'OAuth', ''][s.charCodeAt(0) % 4]!;
      return mk(
        s,
        JSON.stringify({
          id: 12,
          type: 'gitea',
          config: { content_type: 'json', url: 'https://alerts.example.com/v2/events' },
          authorization_header: scheme ? `${scheme} ${s}` : s,
          active: true,
        }),
      );
    }),
  ),
  text(
    f('actions-log-curl-vendor-scheme', (pick) => {
      const s = pick(A, 40);
      return mk(
        s,
        logged([
          `+ curl -sS -H 'Authorization: Klaviyo-API-Key ${s}' https://a.klaviyo.com/api/lists/`,
          '{"data":[]}',
        ]),
      );
    }),
  ),
  // ---- Files people commit ----------------------------------------------------------------------------
  f('dotenv-quoted', (pick) => {
    const s = pick(A, 20) + pick('!#%&*+-.=?@^_~', 2) + pick(D, 2);
    return mk(s, `# production\nexport MAIL_PASSWORD="${s}"\nMAIL_FROM=noreply@example.com`);
  }),
  f('ini-section-password', (pick) => {
    const s = pw(pick);
    return mk(s, `[smtp]\nhost = mail.example.com\nuser = bot\npassword = ${s}\n`);
  }),
  f('toml-nested-token', (pick) => {
    const s = pick(A, 40);
    return mk(s, `[tool.poetry.http-basic.private]\nusername = "ci"\npassword = "${s}"`);
  }),
  f('gitconfig-remote-url', (pick) => {
    const s = pick(H, 40);
    return mk(
      s,
      `[remote "origin"]\n\turl = https://deploy:${s}@gitea.example.com/org/app.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*`,
    );
  }),
  f('gitconfig-extraheader', (pick) => {
    const s = b64(`x-access-token:${pick(A, 36)}`);
    return mk(s, `[http "https://gitea.example.com/"]\n\textraheader = AUTHORIZATION: basic ${s}`);
  }),
  f('k8s-secret-short-b64', (pick) => {
    const s = b64(pick(A, 10) + pick(D, 2));
    return mk(
      s,
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\ndata:\n  DB_PASSWORD: ${s}`,
    );
  }),
  f('k8s-secret-stringdata', (pick) => {
    const s = pw(pick);
    return mk(s, `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  password: "${s}"`);
  }),
  f('docker-config-auths', (pick) => {
    const s = b64(`robot$ci:${pick(A, 32)}`);
    return mk(s, JSON.stringify({ auths: { 'harbor.example.com': { auth: s } } }, null, 2));
  }),
  f('npmrc-gitea-registry', (pick) => {
    const s = pick(H, 40);
    return mk(
      s,
      `@org:registry=https://gitea.example.com/api/packages/org/npm/\n//gitea.example.com/api/packages/org/npm/:_authToken=${s}`,
    );
  }),
  f('npmrc-password-b64', (pick) => {
    const s = b64(pw(pick));
    return mk(
      s,
      `registry=https://npm.example.com/\n//npm.example.com/:username=ci\n//npm.example.com/:_password=${s}`,
    );
  }),
  f('pypirc-gitea', (pick) => {
    const s = pw(pick);
    return mk(
      s,
      `[distutils]\nindex-servers = gitea\n\n[gitea]\nrepository = https://gitea.example.com/api/packages/org/pypi\nusername = ci\npassword = ${s}`,
    );
  }),
  f('properties-mail', (pick) => {
    const s = pw(pick);
    return mk(s, `mail.smtp.host=smtp.example.com\nmail.smtp.user=bot\nmail.smtp.password=${s}`);
  }),
  f('shell-history-psql', (pick) => {
    const s = pw(pick);
    return mk(s, `  501  cd app\n  502  PGPASSWORD=${s} psql -h db -U app app\n  503  exit`);
  }),
  f('shell-history-aws-configure', (pick) => {
    const s = pick(B, 40);
    return mk(s, `  88  aws configure set aws_secret_access_key ${s}\n  89  aws s3 ls`);
  }),
  f('shell-history-heroku', (pick) => {
    const s = pick(A, 40);
    return mk(s, `$ heroku config:set STRIPE_SIGNING=${s} -a app`);
  }),
  f('gitea-app-ini-security', (pick) => {
    const s = pick(A, 64);
    return mk(
      s,
      `[security]\nINSTALL_LOCK = true\nSECRET_KEY = ${s}\nINTERNAL_TOKEN_URI = file:/data/internal_token`,
    );
  }),
  f('gitea-app-ini-lfs-jwt', (pick) => {
    const s = pick(W, 43);
    return mk(s, `[server]\nLFS_START_SERVER = true\nLFS_JWT_SECRET = ${s}`);
  }),
  f('gitea-app-ini-mailer', (pick) => {
    const s = pw(pick);
    return mk(
      s,
      `[mailer]\nENABLED = true\nPROTOCOL = smtps\nSMTP_ADDR = smtp.example.com\nUSER = gitea@example.com\nPASSWD = \`${s}\``,
    );
  }),
  f('act-runner-file', (pick) => {
    const s = pick(H, 40);
    return mk(
      s,
      JSON.stringify(
        {
          WARNING:
            'This file is automatically generated by act-runner. Do not edit it manually unless you know what you are doing.',
          id: 3,
          uuid: uuid(pick),
          name: 'runner-1',
          token: s,
          address: 'https://gitea.example.com',
        },
        null,
        2,
      ),
    );
  }),
  f('tea-config', (pick) => {
    const s = pick(H, 40);
    return mk(
      s,
      `logins:\n  - name: work\n    url: https://gitea.example.com\n    token: ${s}\n    default: true\n    user: dev`,
    );
  }),
  // ---- Provider names next to a generic key shape -------------------------------------------------------
  f('mailjet-positional', (pick) => {
    const s = pick(H, 32);
    return mk(s, `const mailjet = Mailjet.apiConnect('${pick(H, 32)}', '${s}');`);
  }),
  f('twilio-positional', (pick) => {
    const s = pick(H, 32);
    return mk(s, `from twilio.rest import Client\nclient = Client("AC${pick(H, 32)}", "${s}")`);
  }),
  f('rollbar-positional', (pick) => {
    const s = pick(H, 32);
    return mk(s, `import rollbar\nrollbar.init('${s}', 'production')`);
  }),
  f('pusher-positional', (pick) => {
    const s = pick(H, 20);
    return mk(
      s,
      `pusher = Pusher(app_id='${pick(D, 7)}', key='${pick(H, 20)}', secret='${s}', cluster='eu')`,
    );
  }),
  f('splunk-hec-header', (pick) => {
    const s = uuid(pick).toUpperCase();
    return mk(
      s,
      `curl -k https://splunk.example.com:8088/services/collector -H "Authorization: Splunk ${s}" -d '{"event":"hi"}'`,
    );
  }),
  f('pagerduty-token-scheme', (pick) => {
    const s = pick(W + '+', 20);
    return mk(s, `curl -H 'Authorization: Token token=${s}' https://api.pagerduty.com/incidents`);
  }),
  f('fcm-server-key', (pick) => {
    const s = j('AAAA', pick(W, 7), ':APA91b', pick(W, 134));
    return mk(s, `FCM server key: ${s}`);
  }),
  f('azure-apim-subscription', (pick) => {
    const s = pick(H, 32);
    return mk(
      s,
      `curl -H "Ocp-Apim-Subscription-Key: ${s}" https://api.cognitive.microsoft.com/sts/v1.0/issueToken`,
    );
  }),
  f('postmark-server-header', (pick) => {
    const s = uuid(pick);
    return mk(s, `curl "https://api.postmarkapp.com/email" -H "X-Postmark-Server-Token: ${s}" -d @mail.json`);
  }),
  f('openshift-sha256-token', (pick) => {
    const s = j('sha256', '~', pick(W, 43));
    return mk(s, `oc login https://api.ocp.example.com:6443 ${s}`);
  }),
  f('cloudinary-url', (pick) => {
    const s = pick(W, 27);
    return mk(s, `CLOUDINARY_URL=cloudinary://${pick(D, 15)}:${s}@demo-cloud`);
  }),
  f('gitea-oauth-client-secret-json', (pick) => {
    const s = j('gt', 'o_', pick(L + '234567', 52));
    return mk(
      s,
      JSON.stringify({
        id: 4,
        name: 'ci',
        client_id: uuid(pick),
        client_secret: s,
        redirect_uris: ['https://ci.example.com/cb'],
      }),
    );
  }),
];

export const BODY_NEGATIVE_FORMATS: NegativeFormat[] = [
  {
    ...n(
      'diff-index-shas',
      (pick) =>
        `${diffHead(pick, 'src/app.ts')}\n@@ -10,7 +10,7 @@ export function main() {\n-  const sha = '${pick(H, 40)}';\n+  const sha = process.env.GITHUB_SHA;\n   run(sha);\n`,
    ),
    body: 'text',
  },
  {
    ...n(
      'diff-placeholders',
      (pick) =>
        `${diffHead(pick, '.env.example')}\n@@ -1,3 +1,4 @@\n-DB_PASSWORD=changeme\n+DB_PASSWORD=\n+API_TOKEN=<your-token>\n+SECRET_KEY=\${SECRET_KEY}\n`,
    ),
    body: 'text',
  },
  {
    ...n(
      'diff-lockfile-integrity',
      (pick) =>
        `${diffHead(pick, 'package-lock.json')}\n@@ -100,7 +100,7 @@\n     "node_modules/left-pad": {\n-      "integrity": "sha512-${pick(B, 86)}==",\n+      "integrity": "sha512-${pick(B, 86)}==",\n       "version": "1.3.0"\n`,
    ),
    body: 'text',
  },
  {
    ...n('actions-variables-plain', (pick) =>
      JSON.stringify([
        variable('NODE_VERSION', '20.11.1', 1),
        variable('IMAGE_DIGEST', `sha256:${pick(H, 64)}`, 2),
        variable('RELEASE_SHA', pick(H, 40), 3),
        variable('DEPLOY_ENV', 'staging', 4),
      ]),
    ),
    body: 'json',
  },
  {
    ...n('actions-secrets-names-only', () =>
      JSON.stringify([
        { name: 'APP_SECRET', created_at: '2026-11-01T10:00:00Z' },
        { name: 'DEPLOY_TOKEN', created_at: '2026-11-02T10:00:00Z' },
      ]),
    ),
    body: 'json',
  },
  {
    ...n('actions-log-masked', (pick) =>
      logged([
        '##[group]Run ./deploy.sh',
        'env:',
        '  DEPLOY_PASSWORD: ***',
        `  GITHUB_SHA: ${pick(H, 40)}`,
        `  RUN_ID: ${pick(D, 9)}`,
        '##[endgroup]',
        '::add-mask::***',
        `cache key: node-cache-Linux-${pick(H, 64)}`,
      ]),
    ),
    body: 'text',
  },
  {
    ...n('webhook-no-credentials', () =>
      JSON.stringify({
        id: 11,
        type: 'gitea',
        config: { content_type: 'json', url: 'https://ci.example.com/hooks/gitea', http_method: 'post' },
        events: ['push'],
        authorization_header: '',
        active: true,
      }),
    ),
    body: 'json',
  },
  {
    ...n('webhook-delivery-shas', (pick) =>
      JSON.stringify({
        ref: 'refs/heads/main',
        before: pick(H, 40),
        after: pick(H, 40),
        compare_url: `https://gitea.example.com/org/app/compare/${pick(H, 12)}...${pick(H, 12)}`,
        commits: [
          {
            id: pick(H, 40),
            message: 'rotate the deploy token (stored in the runner now)',
            url: 'https://gitea.example.com/org/app/commit/x',
          },
        ],
      }),
    ),
    body: 'json',
  },
  n(
    'authorization-sigv4-and-signature',
    (pick) =>
      `Authorization: AWS4-HMAC-SHA256 Credential=${j('AKID', 'EXAMPLE')}/20261104/eu-west-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=${pick(H, 64)}\nAuthorization: Signature keyId="hmac-key-1",algorithm="hmac-sha256",signature="${pick(B, 44)}"`,
  ),
  n(
    'authorization-placeholders',
    () =>
      'Authorization: Bearer ${TOKEN}\nAuthorization: Api-Key <your-api-key>\n{"authorization_header":""}',
  ),
  n(
    'k8s-configmap-b64-plain',
    () => `kind: ConfigMap\ndata:\n  motd: ${b64('Welcome to the staging cluster, be nice')}`,
  ),
  n(
    'k8s-secret-ref',
    () =>
      'env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db-credentials\n        key: password',
  ),
  n('docker-config-creds-store', () =>
    JSON.stringify({ auths: { 'registry.example.com': {} }, credsStore: 'desktop' }, null, 2),
  ),
  n(
    'npmrc-env-reference',
    () => '//gitea.example.com/api/packages/org/npm/:_authToken=${NPM_TOKEN}\nalways-auth=true',
  ),
  n(
    'gitconfig-no-password',
    () => '[remote "origin"]\n\turl = https://gitea.example.com/org/app.git\n[user]\n\tname = Dev',
  ),
  n(
    'shell-history-prompts',
    () =>
      '  12  mysql -u root -p\n  13  psql -h db -U app -W\n  14  docker login -u ci --password-stdin < token.txt',
  ),
  n(
    'splunk-placeholder',
    () => 'curl -H "Authorization: Splunk ${HEC_TOKEN}" https://splunk.example.com:8088/services/collector',
  ),
  n('openshift-digest', (pick) => `image: quay.io/org/app@sha256:${pick(H, 64)}`),
  n('pusher-public-key-only', (pick) => `const pusher = new Pusher('${pick(H, 20)}', { cluster: 'eu' });`),
  n(
    'gitea-app-ini-uris',
    () =>
      '[security]\nINSTALL_LOCK = true\nSECRET_KEY_URI = file:/data/secret_key\nINTERNAL_TOKEN_URI = file:/data/internal_token',
  ),
];
