// Tuning-corpus additions (issue 12, fourth pass): provider families and syntaxes the tuning corpus
// lacked, listed from the public detector lists (trufflehog's and gitleaks' keyword + pattern per
// provider) and the providers' own key-format documentation, and from the syntaxes secrets are
// written in: newer prefixes (Matrix, GitLab's other token kinds, New Relic licence keys, Axiom,
// Infisical, Bitwarden, Asana, Intercom, ClickUp, Dropbox, Deno, NVIDIA, Tavily, Cerebras, Paddle,
// Azure DevOps ...), tokens in URLs (Telegram, Rocket.Chat, Azure Functions, presigned S3/GCS/
// CloudFront URLs, URL-encoded JWTs, Go DSNs), other key armour (SSH2), Gitea's token response, YAML
// block scalars, Dockerfile ENV, #define, setx/fish, XML key/value attributes, setters, indexed and
// typed assignments, session cookies, CLI passwords (sqlcmd -P, keytool, openssl pass:, gpg,
// smbclient, sqlplus, az login), abbreviations (_PAT, _SALT, PASSCODE, PSWD), and many connection
// strings and languages that already passed (kept so they stay passing). Hard negatives of the same
// shapes follow. Secrets are assembled at run time from a seeded PRNG; prefixes are split.
import type { Rng, SecretFormat } from './corpus';
import { A, B, b64, D, f, H, j, L, mk, n, pem, pw, U, uuid, W } from './corpus-kit';

export const GENERALISE_SECRET_FORMATS: SecretFormat[] = [
  f('slack-workflow', (pick) => {
    const s = j('T', pick(U + D, 10), '/A', pick(U + D, 10), '/', pick(D, 18), '/', pick(A, 24));
    return mk(s, `https://hooks.slack.com/workflows/${s}`);
  }),
  f('slack-trigger', (pick) => {
    const s = j('T', pick(U + D, 10), '/', pick(D, 13), '/', pick(H, 32));
    return mk(s, `https://hooks.slack.com/triggers/${s}`);
  }),
  f('rocketchat-hook', (pick) => {
    const s = pick(A, 17) + '/' + pick(A, 48);
    return mk(s, `https://chat.example.com/hooks/${s}`);
  }),
  f('matrix-syt', (pick) => {
    const s = j('sy', 't_', b64('bot').replace(/=/g, ''), '_', pick(A, 20), '_', pick(A, 6));
    return mk(s, `use ${s} now`);
  }),
  f('gitlab-glimt', (pick) => {
    const s = j('gl', 'imt-', pick(W, 25));
    return mk(s, s);
  }),
  f('gitlab-glagent', (pick) => {
    const s = j('gl', 'agent-', pick(W, 50));
    return mk(s, s);
  }),
  f('gitlab-glffct', (pick) => {
    const s = j('gl', 'ffct-', pick(W, 20));
    return mk(s, s);
  }),
  f('gitlab-glsoat', (pick) => {
    const s = j('gl', 'soat-', pick(W, 20));
    return mk(s, s);
  }),
  f('gitlab-glwt', (pick) => {
    const s = j('gl', 'wt-', pick(W, 20));
    return mk(s, s);
  }),
  f('gitlab-session', (pick) => {
    const s = pick(H, 32);
    return mk(s, `Cookie: _gitlab_session=${s}`);
  }),
  f('atlassian-atctt', (pick) => {
    const s = j('ATC', 'TT3xFfGN0', pick(W, 180));
    return mk(s, s);
  }),
  f('do-refresh', (pick) => {
    const s = j('do', 'r_v1_', pick(H, 64));
    return mk(s, s);
  }),
  f('newrelic-license', (pick) => {
    const s = 'eu01xx' + pick(H, 30) + 'NRAL';
    return mk(s, `license_key: ${s}`);
  }),
  f('newrelic-license-bare', (pick) => {
    const s = pick(H, 36) + 'NRAL';
    return mk(s, `use ${s}`);
  }),
  f('newrelic-nriq', (pick) => {
    const s = j('NR', 'IQ-', pick(W, 32));
    return mk(s, s);
  }),
  f('newrelic-nrra', (pick) => {
    const s = j('NR', 'RA-', pick(H, 42));
    return mk(s, s);
  }),
  f('axiom', (pick) => {
    const s = j('xa', 'at-', uuid(pick));
    return mk(s, s);
  }),
  f('axiom-xapt', (pick) => {
    const s = j('xa', 'pt-', uuid(pick));
    return mk(s, s);
  }),
  f('infisical-st', (pick) => {
    const s = j('st.', uuid(pick), '.', pick(H, 32), '.', pick(H, 32));
    return mk(s, s);
  }),
  f('bitwarden-bws', (pick) => {
    const s = j('0.', uuid(pick), '.', pick(A, 30), ':', pick(A, 22), '==');
    return mk(s, `BWS_ACCESS_TOKEN=${s}`);
  }),
  f('bitwarden-bws-bare', (pick) => {
    const s = j('0.', uuid(pick), '.', pick(A, 30), ':', pick(A, 22), '==');
    return mk(s, `use ${s}`);
  }),
  f('asana-pat', (pick) => {
    const s = j('1/', pick(D, 16), ':', pick(H, 32));
    return mk(s, `asana token ${s}`);
  }),
  f('asana-pat2', (pick) => {
    const s = j('2/', pick(D, 16), '/', pick(D, 16), ':', pick(H, 32));
    return mk(s, s);
  }),
  f('intercom', (pick) => {
    const s = b64('tok:' + uuid(pick)) + '';
    return mk(s, s);
  }),
  f('clickup', (pick) => {
    const s = j('pk_', pick(D, 8), '_', pick(U + D, 32));
    return mk(s, s);
  }),
  f('shippo', (pick) => {
    const s = j('shippo', '_live_', pick(H, 40));
    return mk(s, s);
  }),
  f('easypost', (pick) => {
    const s = j('EZ', 'AK', pick(H, 54));
    return mk(s, s);
  }),
  f('dropbox', (pick) => {
    const s = j('sl.', pick(W, 135));
    return mk(s, s);
  }),
  f('okta-ssws', (pick) => {
    const s = '00' + pick(W, 40);
    return mk(s, `Authorization: SSWS ${s}`);
  }),
  f('cloudflare-origin-ca', (pick) => {
    const s = j('v1.0-', pick(H, 24), '-', pick(H, 146));
    return mk(s, s);
  }),
  f('deno-deploy', (pick) => {
    const s = j('dd', 'p_', pick(A, 36));
    return mk(s, s);
  }),
  f('nvidia', (pick) => {
    const s = j('nv', 'api-', pick(W, 64));
    return mk(s, s);
  }),
  f('tavily', (pick) => {
    const s = j('tv', 'ly-', pick(A, 32));
    return mk(s, s);
  }),
  f('fireworks', (pick) => {
    const s = j('fw', '_', pick(A, 24));
    return mk(s, s);
  }),
  f('cerebras', (pick) => {
    const s = j('cs', 'k-', pick(L + D, 48));
    return mk(s, s);
  }),
  f('firecrawl', (pick) => {
    const s = j('fc', '-', pick(H, 32));
    return mk(s, s);
  }),
  f('jina', (pick) => {
    const s = j('ji', 'na_', pick(W, 60));
    return mk(s, s);
  }),
  f('voyage', (pick) => {
    const s = j('pa', '-', pick(W, 43));
    return mk(s, s);
  }),
  f('anthropic-admin', (pick) => {
    const s = j('sk-ant-', 'admin01-', pick(W, 93), 'AA');
    return mk(s, s);
  }),
  f('telnyx', (pick) => {
    const s = j('KEY', pick(U + D, 26), '_', pick(A, 22));
    return mk(s, s);
  }),
  f('paddle', (pick) => {
    const s = j('pdl_', 'live_apikey_', pick(L + D, 26), '_', pick(A, 22), '_', pick(A, 3));
    return mk(s, s);
  }),
  f('gocardless-sandbox', (pick) => {
    const s = j('sand', 'box_', pick(W, 40));
    return mk(s, s);
  }),
  f('adyen', (pick) => {
    const s = j('AQE', pick(A, 10), '.', pick(W, 60));
    return mk(s, `ADYEN_API_KEY=${s}`);
  }),
  f('checkout-sbox', (pick) => {
    const s = j('sk_', 'sbox_', pick(L + D, 26));
    return mk(s, s);
  }),
  f('jenkins-token', (pick) => {
    const s = '11' + pick(H, 32);
    return mk(s, `curl -u admin:${s} https://ci/job/x/build`);
  }),
  f('jenkins-env', (pick) => {
    const s = '11' + pick(H, 32);
    return mk(s, `JENKINS_API_TOKEN=${s}`);
  }),
  f('azure-devops-pat', (pick) => {
    const s = pick(L + '234567', 52);
    return mk(s, `AZURE_DEVOPS_EXT_PAT=${s}`);
  }),
  f('gh-pat-suffix', (pick) => {
    const s = pick(A, 40);
    return mk(s, `GITEA_PAT=${s}`);
  }),
  f('yaml-block', (pick) => {
    const s = pw(pick);
    return mk(s, `db:\n  password: |\n    ${s}\n  user: app`);
  }),
  f('yaml-folded', (pick) => {
    const s = pick(A, 30) + '1';
    return mk(s, `api_token: >-\n  ${s}\n`);
  }),
  f('dockerfile-env', (pick) => {
    const s = pick(A, 30) + '1';
    return mk(s, `ENV API_TOKEN ${s}`);
  }),
  f('dockerfile-arg', (pick) => {
    const s = pw(pick);
    return mk(s, `ARG DB_PASSWORD=${s}`);
  }),
  f('c-define', (pick) => {
    const s = pick(A, 30) + '1';
    return mk(s, `#define API_KEY "${s}"`);
  }),
  f('ruby-env-index', (pick) => {
    const s = pw(pick);
    return mk(s, `ENV['DB_PASSWORD'] = '${s}'`);
  }),
  f('py-dict-index', (pick) => {
    const s = pick(A, 30) + '1';
    return mk(s, `config["api_token"] = "${s}"`);
  }),
  f('py-getenv-default', (pick) => {
    const s = pw(pick);
    return mk(s, `password = os.getenv("DB_PASSWORD", "${s}")`);
  }),
  f('py-environ-get', (pick) => {
    const s = pick(A, 30) + '1';
    return mk(s, `os.environ.get('API_TOKEN', '${s}')`);
  }),
  f('js-env-or', (pick) => {
    const s = pick(A, 30) + '1';
    return mk(s, `const key = process.env.API_KEY || "${s}";`);
  }),
  f('make-qeq', (pick) => {
    const s = pw(pick);
    return mk(s, `DB_PASSWORD ?= ${s}`);
  }),
  f('webconfig-add', (pick) => {
    const s = pick(A, 30) + '1';
    return mk(s, `<add key="ApiKey" value="${s}" />`);
  }),
  f('ant-property', (pick) => {
    const s = pw(pick);
    return mk(s, `<property name="db.password" value="${s}"/>`);
  }),
  f('mysql-identified', (pick) => {
    const s = pw(pick);
    return mk(s, `CREATE USER 'app'@'%' IDENTIFIED BY '${s}';`);
  }),
  f('pg-with-password', (pick) => {
    const s = pw(pick);
    return mk(s, `ALTER ROLE app WITH PASSWORD '${s}';`);
  }),
  f('sqlcmd-P', (pick) => {
    const s = pw(pick);
    return mk(s, `sqlcmd -S db -U sa -P ${s} -Q "select 1"`);
  }),
  f('openssl-passout', (pick) => {
    const s = pw(pick);
    return mk(s, `openssl pkcs12 -export -in c.pem -out c.p12 -passout pass:${s}`);
  }),
  f('keytool-storepass', (pick) => {
    const s = pw(pick);
    return mk(s, `keytool -importkeystore -srckeystore a.p12 -storepass ${s}`);
  }),
  f('gpg-passphrase', (pick) => {
    const s = pw(pick);
    return mk(s, `gpg --batch --passphrase ${s} -d secrets.gpg`);
  }),
  f('flag-prefixed', (pick) => {
    const s = pw(pick);
    return mk(s, `./install.sh --admin-password ${s}`);
  }),
  f('flag-db-password', (pick) => {
    const s = pw(pick);
    return mk(s, `app migrate --db-password=${s}`);
  }),
  f('az-login-p', (pick) => {
    const s = pw(pick);
    return mk(s, `az login --service-principal -u ${uuid(pick)} -p ${s} --tenant t`);
  }),
  f('smbclient', (pick) => {
    const s = pw(pick);
    return mk(s, `smbclient //nas/share -U backup%${s}`);
  }),
  f('cookie-session', (pick) => {
    const s = pick(A, 32);
    return mk(s, `Cookie: sessionid=${s}; csrftoken=abc`);
  }),
  f('set-cookie-sid', (pick) => {
    const s = 's%3A' + pick(W, 32) + '.' + pick(A, 43);
    return mk(s, `Set-Cookie: connect.sid=${s}; Path=/; HttpOnly`);
  }),
  f('curl-cookie', (pick) => {
    const s = pick(H, 16);
    return mk(s, `curl -b "i_like_gitea=${s}" https://gitea.example.com/`);
  }),
  f('amz-signature', (pick) => {
    const s = pick(H, 64);
    return mk(
      s,
      `https://bucket.s3.amazonaws.com/f.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=x%2F20260101&X-Amz-Signature=${s}`,
    );
  }),
  f('amz-security-token', (pick) => {
    const s = 'IQoJb3JpZ2luX2Vj' + pick(B, 200);
    return mk(s, `https://b.s3.amazonaws.com/f?X-Amz-Security-Token=${encodeURIComponent(s)}&X-Amz-Date=1`);
  }),
  f('goog-signature', (pick) => {
    const s = pick(H, 256);
    return mk(
      s,
      `https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=${s}`,
    );
  }),
  f('cloudfront-signature', (pick) => {
    const s = pick(A + '~-_', 170);
    return mk(s, `https://d1.cloudfront.net/v.mp4?Expires=1&Signature=${s}&Key-Pair-Id=K2JCJMDEHXQW5F`);
  }),
  f('gitea-sha1-created', (pick) => {
    const s = pick(H, 40);
    return mk(s, `{"id":3,"name":"ci","sha1":"${s}","token_last_eight":"${s.slice(-8)}","scopes":["all"]}`);
  }),
  f('ssh2-armor', (pick) => {
    const lines = [0, 1, 2, 3].map(() => pick(B, 70));
    return mk(
      lines[1]!,
      [
        '---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----',
        'Comment: "rsa-key"',
        ...lines,
        '---- END SSH2 ENCRYPTED PRIVATE KEY ----',
      ].join('\n'),
    );
  }),
  f('wireguard', (pick) => {
    const s = pick(B, 43) + '=';
    return mk(s, `[Interface]\nPrivateKey = ${s}\nAddress = 10.0.0.2/32`);
  }),
  f('wireguard-psk', (pick) => {
    const s = pick(B, 43) + '=';
    return mk(s, `[Peer]\nPresharedKey = ${s}`);
  }),
  f('eth-key', (pick) => {
    const s = pick(H, 64);
    return mk(s, `PRIVATE_KEY=${s}`);
  }),
  f('jwt-urlencoded', (pick) => {
    const s = j('eyJ', pick(W, 30), '.eyJ', pick(W, 40), '.', pick(W, 43));
    return mk(s, `redirect=https%3A%2F%2Fapp%2Fcb%3Ftoken%3D${s}`);
  }),
  f('jwt-none', (pick) => {
    const s = j('eyJ', pick(W, 30), '.eyJ', pick(W, 40), '.');
    return mk(s, `token: ${s}`);
  }),
  f('k8s-dockerconfigjson', (pick) => {
    const s = b64(
      JSON.stringify({
        auths: {
          'registry.example.com': { username: 'ci', password: pw(pick), auth: b64('ci:' + pw(pick)) },
        },
      }),
    );
    return mk(s, `data:\n  .dockerconfigjson: ${s}`);
  }),
  f('k8s-data-password', (pick) => {
    const s = b64(pw(pick));
    return mk(s, `data:\n  password: ${s}`);
  }),
  f('k8s-data-short', (pick) => {
    const s = b64(pw(pick));
    return mk(s, `data:\n  db-pass: ${s}`);
  }),
  f('docker-auth', (pick) => {
    const s = b64('ci:' + pw(pick));
    return mk(s, `{"auths":{"ghcr.io":{"auth":"${s}"}}}`);
  }),
  f('kubeconfig-client-key', (pick) => {
    const s = b64(
      [
        '-----BEG' + 'IN RSA PRIV' + 'ATE KEY-----',
        pick(B, 64),
        pick(B, 64),
        '-----EN' + 'D RSA PRIV' + 'ATE KEY-----',
      ].join('\n'),
    );
    return mk(s, `users:\n- name: a\n  user:\n    client-key-data: ${s}`);
  }),
  f('npmrc-authtoken-uuid', (pick) => {
    const s = uuid(pick);
    return mk(s, `//registry.npmjs.org/:_authToken=${s}`);
  }),
  f('pypirc', (pick) => {
    const s = pw(pick);
    return mk(s, `[pypi]\nusername = __token__\npassword = ${s}`);
  }),
  f('git-extraheader', (pick) => {
    const s = b64('x:' + pw(pick));
    return mk(s, `[http "https://gitea.example.com/"]\n\textraHeader = AUTHORIZATION: basic ${s}`);
  }),
  f('basic-proxy', (pick) => {
    const s = b64('x:' + pw(pick));
    return mk(s, `Proxy-Authorization: Basic ${s}`);
  }),
  f('x-api-key', (pick) => {
    const s = pick(A, 32);
    return mk(s, `curl -H "X-API-Key: ${s}" https://api/`);
  }),
  f('private-token', (pick) => {
    const s = pick(W, 20) + '1';
    return mk(s, `curl --header "PRIVATE-TOKEN: ${s}" https://gitlab/api`);
  }),
  f('gitea-token-lower-header', (pick) => {
    const s = pick(H, 40);
    return mk(s, `authorization: token ${s}`);
  }),
  f('gitea-token-ini', (pick) => {
    const s = pick(H, 40);
    return mk(s, `[gitea]\ntoken = ${s}`);
  }),
  f('gitea-token-toml', (pick) => {
    const s = pick(H, 40);
    return mk(s, `[gitea]\ntoken = "${s}"`);
  }),
  f('gitea-token-flag', (pick) => {
    const s = pick(H, 40);
    return mk(s, `tea login add --name w --url https://g --token ${s}`);
  }),
  f('gitea-token-basic', (pick) => {
    const s = pick(H, 40);
    return mk(s, `git clone https://ci-bot:${s}@gitea.example.com/org/app.git`);
  }),
  f('gitea-token-sudo', (pick) => {
    const s = pick(H, 40);
    return mk(s, `curl "https://gitea.example.com/api/v1/user?token=${s}"`);
  }),
  f('gitea-token-json', (pick) => {
    const s = pick(H, 40);
    return mk(s, `{"gitea_token": "${s}"}`);
  }),
  f('gitea-token-prose', (pick) => {
    const s = pick(H, 40);
    return mk(s, `Use this access token: ${s}`);
  }),
  f('gitea-runner-token', (pick) => {
    const s = pick(A, 40);
    return mk(s, `act_runner register --no-interactive --instance https://g --token ${s}`);
  }),
  f('gitea-internal-token', (pick) => {
    const s = j('eyJ', pick(W, 30), '.eyJ', pick(W, 40), '.', pick(W, 43));
    return mk(s, `INTERNAL_TOKEN = ${s}`);
  }),
  f('gitea-lfs-jwt', (pick) => {
    const s = pick(W, 43);
    return mk(s, `LFS_JWT_SECRET = ${s}`);
  }),
  f('mssql-conn', (pick) => {
    const s = pw(pick);
    return mk(s, `Server=db;Database=x;User Id=sa;Pwd=${s};`);
  }),
  f('jdbc-url', (pick) => {
    const s = pw(pick);
    return mk(s, `jdbc:mysql://db:3306/app?user=app&password=${s}&useSSL=true`);
  }),
  f('kafka-jaas', (pick) => {
    const s = pw(pick);
    return mk(
      s,
      `sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="${s}";`,
    );
  }),
  f('amqp-url', (pick) => {
    const s = pw(pick);
    return mk(s, `amqps://user:${s}@rabbit.example.com/vhost`);
  }),
  f('mongo-multi', (pick) => {
    const s = pw(pick);
    return mk(s, `mongodb://app:${s}@h1:27017,h2:27017/db?replicaSet=rs0`);
  }),
  f('es-url', (pick) => {
    const s = pw(pick);
    return mk(s, `ELASTICSEARCH_URL=https://elastic:${s}@es.example.com:9200`);
  }),
  f('odbc-pwd', (pick) => {
    const s = pw(pick);
    return mk(s, `Driver={ODBC Driver 18};Server=db;UID=sa;PWD=${s}`);
  }),
  f('oracle-conn', (pick) => {
    const s = pw(pick);
    return mk(s, `sqlplus system/${s}@//db:1521/ORCL`);
  }),
  f('redis-conn-stackexchange', (pick) => {
    const s = pw(pick);
    return mk(s, `cache.redis.cache.windows.net:6380,password=${s},ssl=True`);
  }),
  f('azure-sb-conn', (pick) => {
    const s = pick(B, 43) + '=';
    return mk(s, `Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=${s}`);
  }),
  f('azure-func-code', (pick) => {
    const s = pick(W, 54) + '==';
    return mk(s, `https://app.azurewebsites.net/api/hook?code=${s}`);
  }),
  f('ado-pwd-lower', (pick) => {
    const s = pw(pick);
    return mk(s, `password=${s};`);
  }),
  f('secret-pat-env', (pick) => {
    const s = pick(A, 36);
    return mk(s, `GH_PAT: ${s}`);
  }),
  f('salt', (pick) => {
    const s = pick(A + '!@#$%^&*', 40);
    return mk(s, `AUTH_SALT='${s}'`);
  }),
  f('passcode', (pick) => {
    const s = pw(pick);
    return mk(s, `VPN_PASSCODE=${s}`);
  }),
  f('pswd', (pick) => {
    const s = pw(pick);
    return mk(s, `ADMIN_PSWD=${s}`);
  }),
  f('psk', (pick) => {
    const s = pw(pick);
    return mk(s, `wpa_passphrase=${s}`);
  }),
  f('signing-secret', (pick) => {
    const s = pick(H, 32);
    return mk(s, `SLACK_SIGNING_SECRET=${s}`);
  }),
  f('env-auth', (pick) => {
    const s = pick(A, 30) + '1';
    return mk(s, `NPM_AUTH=${s}`);
  }),
  f('conn-str', (pick) => {
    const s = pw(pick);
    return mk(s, `DB_CONNECTION_STRING="Host=db;Username=app;Password=${s}"`);
  }),
  f('dsn-env', (pick) => {
    const s = pw(pick);
    return mk(s, `DSN=mysql://u:${s}@tcp(db:3306)/app`);
  }),
  f('go-mysql-dsn', (pick) => {
    const s = pw(pick);
    return mk(s, `dsn := "app:${s}@tcp(db:3306)/app?parseTime=true"`);
  }),
  f('powershell-env', (pick) => {
    const s = pick(A, 30) + '1';
    return mk(s, `$env:API_TOKEN = "${s}"`);
  }),
  f('elixir-config', (pick) => {
    const s = pick(A, 64);
    return mk(s, `config :app, AppWeb.Endpoint, secret_key_base: "${s}"`);
  }),
  f('kotlin-val', (pick) => {
    const s = pick(A, 30) + '1';
    return mk(s, `val apiSecret = "${s}"`);
  }),
  f('rust-const', (pick) => {
    const s = pick(A, 30) + '1';
    return mk(s, `const API_TOKEN: &str = "${s}";`);
  }),
  f('java-setter', (pick) => {
    const s = pw(pick);
    return mk(s, `ds.setPassword("${s}");`);
  }),
  f('js-object', (pick) => {
    const s = pick(A, 30) + '1';
    return mk(s, `new Client({ accessToken: '${s}' })`);
  }),
  f('php-array', (pick) => {
    const s = pw(pick);
    return mk(s, `'password' => '${s}',`);
  }),
  f('triple-quoted', (pick) => {
    const s = pw(pick);
    return mk(s, `PASSWORD = """${s}"""`);
  }),
  f('yaml-quoted-key', (pick) => {
    const s = pw(pick);
    return mk(s, `"db.password": "${s}"`);
  }),
  f('ini-spaces', (pick) => {
    const s = pw(pick);
    return mk(s, `[mysql]\npassword   =   ${s}`);
  }),
  f('helm-set', (pick) => {
    const s = pw(pick);
    return mk(s, `helm upgrade app ./chart --set postgresql.auth.password=${s}`);
  }),
  f('from-literal', (pick) => {
    const s = pw(pick);
    return mk(s, `kubectl create secret generic db --from-literal=password=${s}`);
  }),
  f('docker-e', (pick) => {
    const s = pw(pick);
    return mk(s, `docker run -e POSTGRES_PASSWORD=${s} postgres`);
  }),
  f('setx', (pick) => {
    const s = pick(A, 30) + '1';
    return mk(s, `setx API_TOKEN "${s}"`);
  }),
  f('fish-set', (pick) => {
    const s = pick(A, 30) + '1';
    return mk(s, `set -gx API_TOKEN ${s}`);
  }),
  f('mysqladmin-password', (pick) => {
    const s = pw(pick);
    return mk(s, `mysqladmin -u root password ${s}`);
  }),
  f('vault-login', (pick) => {
    const s = j('hv', 's.', pick(W, 90));
    return mk(s, `vault login ${s}`);
  }),
  f('vault-legacy', (pick) => {
    const s = 's.' + pick(A, 24);
    return mk(s, `VAULT_TOKEN=${s}`);
  }),
  f('vault-legacy-header', (pick) => {
    const s = 's.' + pick(A, 24);
    return mk(s, `curl -H "X-Vault-Token: ${s}" https://vault/v1/secret`);
  }),
  f('pagerduty-token', (pick) => {
    const s = 'u+' + pick(W, 18);
    return mk(s, `Authorization: Token token=${s}`);
  }),
  f('datadog-header', (pick) => {
    const s = pick(H, 32);
    return mk(s, `-H "DD-API-KEY: ${s}"`);
  }),
  f('datadog-appkey', (pick) => {
    const s = pick(H, 40);
    return mk(s, `DD_APPLICATION_KEY=${s}`);
  }),
  f('datadog-bare-prose', (pick) => {
    const s = pick(H, 32);
    return mk(s, `datadog api key ${s}`);
  }),
  f('sentry-dsn', (pick) => {
    const s = pick(H, 32);
    return mk(s, `SENTRY_DSN=https://${s}@o123.ingest.sentry.io/456`);
  }),
  f('grafana-legacy', (pick) => {
    const s = b64(JSON.stringify({ k: pick(A, 32), n: 'ci', id: 1 }));
    return mk(s, `GRAFANA_API_KEY=${s}`);
  }),
  f('honeycomb-legacy', (pick) => {
    const s = pick(H, 32);
    return mk(s, `x-honeycomb-team: ${s}`);
  }),
  f('splunk-token-env', (pick) => {
    const s = uuid(pick);
    return mk(s, `SPLUNK_HEC_TOKEN=${s}`);
  }),
  f('rollbar', (pick) => {
    const s = pick(H, 32);
    return mk(s, `"access_token": "${s}"`);
  }),
  f('algolia-header', (pick) => {
    const s = pick(H, 32);
    return mk(s, `X-Algolia-API-Key: ${s}`);
  }),
  f('sendgrid-env', (pick) => {
    const s = j('S', 'G.', pick(W, 22), '.', pick(W, 43));
    return mk(s, `SENDGRID_API_KEY=${s}`);
  }),
  f('mailgun-new', (pick) => {
    const s = pick(H, 32) + '-' + pick(H, 8) + '-' + pick(H, 8);
    return mk(s, `MAILGUN_API_KEY=${s}`);
  }),
  f('postmark-header', (pick) => {
    const s = uuid(pick);
    return mk(s, `X-Postmark-Server-Token: ${s}`);
  }),
  f('vonage', (pick) => {
    const s = pick(A, 16);
    return mk(s, `VONAGE_API_SECRET=${s}`);
  }),
  f('smtp-url', (pick) => {
    const s = pw(pick);
    return mk(s, `EMAIL_URL=smtp://apikey:${s}@smtp.sendgrid.net:587`);
  }),
  f('snowflake-conn', (pick) => {
    const s = pw(pick);
    return mk(s, `snowflake://user:${s}@acct/db/schema?warehouse=wh`);
  }),
  f('databricks-host', (pick) => {
    const s = j('da', 'pi', pick(H, 32));
    return mk(s, `DATABRICKS_TOKEN=${s}`);
  }),
  f('mongo-atlas-private', (pick) => {
    const s = uuid(pick);
    return mk(s, `MONGODB_ATLAS_PRIVATE_KEY=${s}`);
  }),
  f('upstash', (pick) => {
    const s = 'A' + pick(A, 60) + '=';
    return mk(s, `UPSTASH_REDIS_REST_TOKEN="${s}"`);
  }),
  f('railway', (pick) => {
    const s = uuid(pick);
    return mk(s, `RAILWAY_TOKEN=${s}`);
  }),
  f('hcloud', (pick) => {
    const s = pick(A, 64);
    return mk(s, `HCLOUD_TOKEN=${s}`);
  }),
  f('linode', (pick) => {
    const s = pick(H, 64);
    return mk(s, `linode-cli --token ${s}`);
  }),
  f('ibm-apikey', (pick) => {
    const s = pick(W, 44);
    return mk(s, `{"apikey": "${s}"}`);
  }),
  f('alibaba-secret', (pick) => {
    const s = pick(A, 30);
    return mk(s, `AccessKeySecret: ${s}`);
  }),
  f('tencent-secretkey', (pick) => {
    const s = pick(A, 32);
    return mk(s, `TENCENTCLOUD_SECRET_KEY=${s}`);
  }),
  f('yandex-iam', (pick) => {
    const s = 't1.' + pick(W, 80) + '.' + pick(W, 86);
    return mk(s, s);
  }),
  f('scaleway-secret', (pick) => {
    const s = uuid(pick);
    return mk(s, `SCW_SECRET_KEY=${s}`);
  }),
  f('aws-session', (pick) => {
    const s = 'IQoJb3JpZ2luX2Vj' + pick(B, 300);
    return mk(s, `aws_session_token = ${s}`);
  }),
  f('aws-secret-json', (pick) => {
    const s = pick(B, 40);
    return mk(s, `{"SecretAccessKey": "${s}", "AccessKeyId": "AS${'IA'}${pick(U + D, 16)}"}`);
  }),
  f('azure-storage-env', (pick) => {
    const s = pick(B, 86) + '==';
    return mk(s, `AZURE_STORAGE_KEY=${s}`);
  }),
  f('azure-cosmos', (pick) => {
    const s = pick(B, 86) + '==';
    return mk(s, `AccountEndpoint=https://x.documents.azure.com:443/;AccountKey=${s};`);
  }),
  f('apim-key', (pick) => {
    const s = pick(H, 32);
    return mk(s, `Ocp-Apim-Subscription-Key: ${s}`);
  }),
  f('circleci-legacy', (pick) => {
    const s = pick(H, 40);
    return mk(s, `CIRCLE_TOKEN=${s}`);
  }),
  f('travis', (pick) => {
    const s = pick(A, 22);
    return mk(s, `travis login --github-token ${s}`);
  }),
  f('drone', (pick) => {
    const s = pick(A, 32);
    return mk(s, `DRONE_TOKEN=${s}`);
  }),
  f('buildkite-agent', (pick) => {
    const s = pick(H, 50);
    return mk(s, `BUILDKITE_AGENT_TOKEN=${s}`);
  }),
  f('codecov', (pick) => {
    const s = uuid(pick);
    return mk(s, `bash <(curl -s https://codecov.io/bash) -t ${s}`);
  }),
  f('snyk', (pick) => {
    const s = uuid(pick);
    return mk(s, `snyk auth ${s}`);
  }),
  f('openshift', (pick) => {
    const s = 'sha256~' + pick(W, 43);
    return mk(s, `oc login --token=${s} --server=https://api`);
  }),
  f('harness', (pick) => {
    const s = j('pat.', pick(W, 22), '.', pick(A, 24), '.', pick(A, 20));
    return mk(s, s);
  }),
  f('ngrok-yml', (pick) => {
    const s = j('2', pick(A, 26), '_', pick(A, 21));
    return mk(s, `authtoken: ${s}`);
  }),
  f('ngrok-api', (pick) => {
    const s = j('2', pick(A, 26), '_', pick(A, 21));
    return mk(s, `NGROK_API_KEY=${s}`);
  }),
  f('terraform-cloud', (pick) => {
    const s = j(pick(A, 14), '.atlasv1.', pick(W, 67));
    return mk(s, s);
  }),
  f('sourcegraph-legacy', (pick) => {
    const s = pick(H, 40);
    return mk(s, `SRC_ACCESS_TOKEN=${s}`);
  }),
  f('discord-bot-header', (pick) => {
    const s = j('MT', pick(A, 24), '.', pick(W, 6), '.', pick(W, 38));
    return mk(s, `Authorization: Bot ${s}`);
  }),
  f('telegram-url', (pick) => {
    const s = j(pick(D, 10), ':AA', pick(W, 33));
    return mk(s, `https://api.telegram.org/bot${s}/sendMessage`);
  }),
  f('teams-workflow', (pick) => {
    const s = pick(W, 43);
    return mk(
      s,
      `https://prod-12.westus.logic.azure.com/workflows/${pick(H, 32)}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers&sv=1.0&sig=${s}`,
    );
  }),
  f('google-chat', (pick) => {
    const s = pick(W, 43) + '%3D';
    return mk(
      s,
      `https://chat.googleapis.com/v1/spaces/AAAA${pick(A, 7)}/messages?key=AIza${pick(W, 35)}&token=${s}`,
    );
  }),
  f('zulip', (pick) => {
    const s = pick(A, 32);
    return mk(s, `[api]\nemail=bot@zulip\nkey=${s}\nsite=https://z`);
  }),
  f('webex', (pick) => {
    const s = pick(A, 64) + '_' + pick(A, 4) + '_' + uuid(pick);
    return mk(s, `WEBEX_BOT_TOKEN=${s}`);
  }),
  f('braintree-private', (pick) => {
    const s = pick(H, 32);
    return mk(s, `BRAINTREE_PRIVATE_KEY=${s}`);
  }),
  f('paypal-secret', (pick) => {
    const s = 'E' + pick(W, 79);
    return mk(s, `PAYPAL_CLIENT_SECRET=${s}`);
  }),
  f('square-env', (pick) => {
    const s = 'EAAA' + pick(W, 60);
    return mk(s, `SQUARE_ACCESS_TOKEN=${s}`);
  }),
  f('plaid-secret', (pick) => {
    const s = pick(H, 30);
    return mk(s, `PLAID_SECRET=${s}`);
  }),
  f('docker-pat-login', (pick) => {
    const s = j('dckr', '_pat_', pick(W, 27));
    return mk(s, `echo ${s} | docker login -u ci --password-stdin`);
  }),
  f('gradle-props', (pick) => {
    const s = pw(pick);
    return mk(s, `signing.password=${s}\nossrhPassword=${s}`);
  }),
  f('composer-auth', (pick) => {
    const s = pick(A, 40);
    return mk(s, `{"http-basic":{"repo.packagist.com":{"username":"token","password":"${s}"}}}`);
  }),
  f('cargo-cred', (pick) => {
    const s = j('ci', 'o', pick(A, 32));
    return mk(s, `[registry]\ntoken = "${s}"`);
  }),
  f('gem-cred', (pick) => {
    const s = j('rubygems', '_', pick(H, 48));
    return mk(s, `---\n:rubygems_api_key: ${s}`);
  }),
  f('nuget-config', (pick) => {
    const s = pw(pick);
    return mk(s, `<add key="ClearTextPassword" value="${s}" />`);
  }),
  f('hf-env', (pick) => {
    const s = j('h', 'f_', pick(A, 34));
    return mk(s, `HF_TOKEN=${s}`);
  }),
  f('cohere', (pick) => {
    const s = pick(A, 40);
    return mk(s, `CO_API_KEY=${s}`);
  }),
  f('mistral', (pick) => {
    const s = pick(A, 32);
    return mk(s, `MISTRAL_API_KEY=${s}`);
  }),
  f('pinecone-uuid', (pick) => {
    const s = uuid(pick);
    return mk(s, `PINECONE_API_KEY=${s}`);
  }),
  f('langsmith', (pick) => {
    const s = j('lsv2_', 'pt_', pick(H, 32), '_', pick(H, 10));
    return mk(s, s);
  }),
  f('replicate-env', (pick) => {
    const s = j('r8', '_', pick(A, 37));
    return mk(s, `REPLICATE_API_TOKEN=${s}`);
  }),
  f('openai-org-header', (pick) => {
    const s = j('sk-', pick(A, 48));
    return mk(s, `Authorization: Bearer ${s}`);
  }),
  f('wandb', (pick) => {
    const s = pick(H, 40);
    return mk(s, `wandb login ${s}`);
  }),
  f('assemblyai', (pick) => {
    const s = pick(H, 32);
    return mk(s, `aai.settings.api_key = "${s}"`);
  }),
  f('deepgram', (pick) => {
    const s = pick(H, 40);
    return mk(s, `Authorization: Token ${s}`);
  }),
  // Private keys in the places and armour they come in.
  f('pem-in-diff', (pick) => {
    const body = [0, 1, 2, 3, 4].map(() => pick(B, 64));
    const k = pem(j('RSA PRIV', 'ATE KEY'), body);
    return mk(
      body[2]!,
      `diff --git a/deploy/id_rsa b/deploy/id_rsa\nnew file mode 100600\n--- /dev/null\n+++ b/deploy/id_rsa\n@@ -0,0 +1,7 @@\n${k
        .split('\n')
        .map((l) => '+' + l)
        .join('\n')}`,
    );
  }),
  f('pem-yaml-block', (pick) => {
    const body = [0, 1, 2, 3].map(() => pick(B, 64));
    const k = pem(j('EC PRIV', 'ATE KEY'), body);
    return mk(
      body[1]!,
      `tls:\n  key: |\n${k
        .split('\n')
        .map((l) => '    ' + l)
        .join('\n')}\n  cert: ./tls.crt`,
    );
  }),
  f('pem-env-escaped', (pick) => {
    const body = [0, 1, 2, 3].map(() => pick(B, 64));
    const k = pem(j('PRIV', 'ATE KEY'), body);
    return mk(body[2]!, `JWT_PRIVATE_KEY="${k.split('\n').join('\\n')}"`);
  }),
  f('pem-json-file', (pick) => {
    const body = [0, 1, 2, 3, 4].map(() => pick(B, 64));
    const k = pem(j('PRIV', 'ATE KEY'), body);
    return mk(
      body[3]!,
      JSON.stringify(
        { type: 'service_account', private_key_id: pick(H, 40), private_key: k + '\n' },
        null,
        2,
      ),
    );
  }),
  f('pem-encrypted-headers', (pick) => {
    const body = [0, 1, 2, 3].map(() => pick(B, 64));
    const k = pem(j('RSA PRIV', 'ATE KEY'), [
      'Proc-Type: 4,ENCRYPTED',
      `DEK-Info: AES-256-CBC,${pick(H, 32).toUpperCase()}`,
      '',
      ...body,
    ]);
    return mk(body[1]!, k);
  }),
  f('openssh-actions-variable', (pick) => {
    const body = [0, 1, 2, 3, 4].map(() => pick(B, 70));
    return mk(
      body[2]!,
      JSON.stringify({ name: 'DEPLOY_SSH_KEY', data: pem(j('OPENSSH PRIV', 'ATE KEY'), body) }),
    );
  }),
  f('pgp-armor-headers', (pick) => {
    const body = [0, 1, 2, 3].map(() => pick(B, 64));
    return mk(
      body[1]!,
      pem(j('PGP PRIV', 'ATE KEY BLOCK'), ['Version: GnuPG v2', '', ...body, '=' + pick(B, 4)]),
    );
  }),
  f('putty-in-diff', (pick) => {
    const priv = [0, 1, 2].map(() => pick(B, 64));
    const ppk = [
      'PuTTY-User-Key-File-3: ssh-rsa',
      'Encryption: none',
      'Comment: deploy',
      'Public-Lines: 2',
      pick(B, 64),
      pick(B, 20),
      'Private-Lines: 3',
      ...priv,
      `Private-MAC: ${pick(H, 64)}`,
    ];
    return mk(priv[1]!, ppk.map((l) => '+' + l).join('\n'));
  }),
  f('pem-log-timestamps', (pick) => {
    const body = [0, 1, 2, 3].map(() => pick(B, 64));
    return mk(
      body[2]!,
      pem(j('PRIV', 'ATE KEY'), body)
        .split('\n')
        .map((l) => '2026-11-04T08:15:02.4471230Z ' + l)
        .join('\n'),
    );
  }),
  f('wireguard-conf', (pick) => {
    const s = pick(B, 43) + '=';
    return mk(s, `[Interface]\nPrivateKey = ${s}\nAddress = 10.8.0.2/32\nDNS = 1.1.1.1`);
  }),
  f('k8s-tls-secret-key', (pick) => {
    const s = b64(pem(j('RSA PRIV', 'ATE KEY'), [pick(B, 64), pick(B, 64), pick(B, 40)]));
    return mk(
      s,
      `apiVersion: v1\nkind: Secret\ntype: kubernetes.io/tls\ndata:\n  tls.crt: ${b64('not a key, a certificate placeholder')}\n  tls.key: ${s}`,
    );
  }),
  // Second wave: more tool syntax and prefixes.
  f('gitlab-session-bare', (pick) => {
    const s = pick(H, 32);
    return mk(s, `_gitlab_session=${s}`);
  }),
  f('databricks-oauth-secret', (pick) => {
    const s = j('do', 'se', pick(H, 32));
    return mk(s, `DATABRICKS_CLIENT_SECRET=${s}`);
  }),
  f('databricks-oauth-bare', (pick) => {
    const s = j('do', 'se', pick(H, 32));
    return mk(s, `use ${s} for the service principal`);
  }),
  f('yandex-static-secret', (pick) => {
    const s = j('Y', 'C', pick(W, 38));
    return mk(s, `aws_secret_access_key = ${s}`);
  }),
  f('yandex-static-bare', (pick) => {
    const s = j('Y', 'C', pick(A, 38));
    return mk(s, s);
  }),
  f('azure-cask-key', (pick) => {
    const s = j(pick(A, 52), 'JQQ', 'J9', pick(A, 27));
    return mk(s, s);
  }),
  f('kubeconfig-client-key-data', (pick) => {
    const s = b64(pem(j('RSA PRIV', 'ATE KEY'), [pick(B, 64), pick(B, 64), pick(B, 32)]));
    return mk(
      s,
      `users:\n- name: admin\n  user:\n    client-certificate-data: ${b64('certificate ' + pick(A, 40))}\n    client-key-data: ${s}`,
    );
  }),
  f('kubeconfig-b64-variable', (pick) => {
    const inner = b64(pem(j('EC PRIV', 'ATE KEY'), [pick(B, 64), pick(B, 40)]));
    const s = b64(
      `apiVersion: v1\nkind: Config\nusers:\n- name: ci\n  user:\n    client-key-data: ${inner}\n`,
    );
    return mk(s, JSON.stringify({ name: 'KUBECONFIG', data: s, description: '' }));
  }),
  f('echo-docker-login-stdin', (pick) => {
    const s = pw(pick);
    return mk(s, `echo "${s}" | docker login registry.example.com -u ci --password-stdin`);
  }),
  f('echo-gh-with-token', (pick) => {
    const s = pick(A, 36);
    return mk(s, `echo ${s} | gh auth login --with-token`);
  }),
  f('chpasswd', (pick) => {
    const s = pw(pick);
    return mk(s, `echo 'deploy:${s}' | sudo chpasswd`);
  }),
  f('mongosh-p', (pick) => {
    const s = pw(pick);
    return mk(s, `mongosh --host db -u admin -p ${s} --authenticationDatabase admin`);
  }),
  f('zip-P', (pick) => {
    const s = pw(pick);
    return mk(s, `zip -r -P ${s} backup.zip data/`);
  }),
  f('7z-p', (pick) => {
    const s = pw(pick);
    return mk(s, `7z a -p${s} -mhe=on backup.7z data/`);
  }),
  f('htpasswd-b', (pick) => {
    const s = pw(pick);
    return mk(s, `htpasswd -b -c /etc/nginx/.htpasswd admin ${s}`);
  }),
  f('rabbitmqctl', (pick) => {
    const s = pw(pick);
    return mk(s, `rabbitmqctl add_user worker ${s}`);
  }),
  f('actions-variable-salt', (pick) => {
    const s = pick(A, 40);
    return mk(s, JSON.stringify({ name: 'HASH_SALT', data: s, description: '' }));
  }),
];

export const GENERALISE_NEGATIVE_FORMATS: Array<{ name: string; make: (rng: Rng) => string }> = [
  n('cookie-not-session', (pick) => `Cookie: lang=en-US; theme=dark; _ga=GA1.2.${pick(D, 9)}.${pick(D, 10)}`),
  n('session-id-outside-cookie', (pick) => `analytics event page=/home session_id=${pick(H, 32)} took 12ms`),
  n('define-header-name', () => '#define TOKEN_HEADER "X-Auth-Token"\n#define API_KEY_LEN 32'),
  n(
    'dockerfile-env-path',
    () => 'ENV API_KEY_FILE /run/secrets/api_key\nENV TOKEN_URL https://auth.example.com/token',
  ),
  n('setx-path', () => 'setx API_TOKEN_FILE "C:/secrets/token.txt"'),
  n('xml-header-name', () => '<add key="ApiKeyHeader" value="X-Api-Key" />'),
  n('xml-property-ref', () => '<property name="db.password" value="${env.DB_PASSWORD}"/>'),
  n('setter-from-env', () => 'ds.setPassword(System.getenv("DB_PASSWORD"));\nclient.token("YOUR_TOKEN");'),
  n('keytool-storepass-env', () => 'keytool -list -keystore ks.p12 -storepass:env STOREPASS'),
  n('openssl-passin-env', () => 'openssl pkcs12 -in c.p12 -passin env:P12_PASS -nokeys -out c.pem'),
  n(
    'scp-rsync-capital-p',
    (pick) => `scp -P 2222 dist-${pick(D, 4)}.tar.gz deploy@web:/srv\nrsync -P -a dist/ web:/srv`,
  ),
  n('sha1-checksum-json', (pick) => JSON.stringify({ name: 'app.tar.gz', sha1: pick(H, 40), size: 1234 })),
  n('identified-with-plugin', () => "CREATE USER 'app'@'localhost' IDENTIFIED WITH auth_socket;"),
  n(
    'presigned-url-no-signature',
    (pick) =>
      `https://bucket.s3.amazonaws.com/f-${pick(D, 4)}.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-SignedHeaders=host&X-Amz-Expires=3600`,
  ),
  n('signature-version-param', () => 'https://api.example.com/v1/upload?signature_version=4&region=eu'),
  n(
    'yaml-block-no-secret',
    () =>
      'description: |\n  Deploys the app to staging; see docs.\npassword: |\n  ${{ secrets.DB_PASSWORD }}',
  ),
  n('typed-no-value', () => 'apiKey: string = process.env.API_KEY ?? \'\';\nval token: String = ""'),
  n('pat-url', () => 'GITEA_PAT_URL=https://gitea.example.com/user/settings/applications'),
  n('salt-rounds', () => 'BCRYPT_SALT_ROUNDS=12\nSALT_LENGTH=16'),
  n('passcode-prose', () => 'passcode: required for the VPN'),
  n('go-dsn-no-password', () => 'dsn := "app@tcp(db:3306)/app?parseTime=true"'),
  n('datadog-version', (pick) => `datadog-agent 7.52.${pick(D, 1)} sha256:${pick(H, 64)}`),
  n('matrix-ids', (pick) => `joined !${pick(A, 18)}:matrix.org as @bot:matrix.org`),
  n('asana-task-url', (pick) => `https://app.asana.com/0/${pick(D, 16)}/${pick(D, 16)}`),
  n('sl-filename', () => 'ls -l sl.txt sl.json'),
  n('telegram-placeholder', () => 'curl https://api.telegram.org/bot<token>/getMe'),
  n('yaml-folded-prose', () => 'summary: >-\n  The token rotation runs nightly.'),
  n('echo-without-login', (pick) => `echo ${pick(A, 20)} | base64 -d > build-id.txt`),
  n('docker-login-stdin-file', () => 'cat ~/.docker/token | docker login -u ci --password-stdin'),
  n('zip-without-password', () => 'zip -r -q backup.zip data/\nunzip -o backup.zip'),
  n('mongosh-port', () => 'mongosh --port 27017 --eval "db.stats()"'),
  n(
    'client-certificate-data',
    (pick) => `client-certificate-data: ${b64('certificate body ' + pick(A, 60))}`,
  ),
  n('yc-word', () => 'Yc cache warmed, recycled 12 workers'),
];
