// Tuning-corpus additions (issue 12, eighth pass): shapes that generalise rather than name a
// provider, written from the tuning side only (no held-out sample or miss was read). Each group is
// one idea of the pass, in contexts the earlier corpora did not use:
// - compound secret names: the secret word followed by more name segments (DB_PASSWORD_PROD,
//   TOKEN_GITHUB, Terraform's TF_TOKEN_<host>, secret.key.prod);
// - a secret word followed by its value with no verb: `token 'X'`, `**API key**: X`, `client secret -
//   X`, CLI positionals (`secret_access_key X`, `"Smtp:Password" "X"`), a label ending its line with
//   the value on a later line, pass phrases in prose;
// - documents and code: XML elements keyed by a secret-named attribute, CDATA, C# auto-properties,
//   Ruby's ENV.fetch block, sbt's Credentials(...), composer's host maps, Ethereum keys;
// - command lines: openssl enc -k/-K, twine/oc -p, ssh-keygen -N, lftp -u, httpie -a, mc alias set,
//   web-server header syntax, Wi-Fi PSKs;
// - structure: unquoted lists under a plural secret name, URL-encoded credentials, a PuTTY key file as
//   a whole;
// - a vendor prefix nobody enumerated: `<prefix>_[<marker>_]<random base62>`.
// Hard negatives of the same shapes follow: meta names (PASSWORD_MIN_LENGTH), references, labels over
// prose, hints, ids of payment/AI/identity APIs, publishable keys, CamelCase test names, tx hashes,
// addresses, image tags, env-variable references on command lines, public key files.
// Secrets are drawn at run time from the seeded PRNG; prefixes are joined from pieces.
import type { NegativeFormat, SecretFormat } from './corpus';
import { A, B, b64, D, f, H, j, L, mk, n, U, uuid, W } from './corpus-kit';

type Pick = (s: string, k: number) => string;
const text = (sf: SecretFormat): SecretFormat => ({ ...sf, body: 'text' });
const json = (sf: SecretFormat): SecretFormat => ({ ...sf, body: 'json' });
/** Key material with both cases and a digit (never a word). */
const key = (pick: Pick, k: number): string => pick(U, 1) + pick(L, 1) + pick(A, k - 3) + pick(D, 1);
/** A password with both cases and digits. */
const mpw = (pick: Pick): string => pick(U, 1) + pick(L, 1) + pick(A, 10) + pick(D, 2);
const logged = (lines: string[]): string =>
  lines.map((l, i) => `2026-11-21T08:1${i}:0${i}.${i}512345Z ${l}`).join('\n') + '\n';
const diff = (pick: Pick, path: string, added: string[]): string =>
  `diff --git a/${path} b/${path}\nindex ${pick(H, 7)}..${pick(H, 7)} 100644\n--- a/${path}\n+++ b/${path}\n@@ -3,2 +3,${added.length + 2} @@\n context line\n${added.map((a) => '+' + a).join('\n')}\n context end\n`;

export const GENERIC_SECRET_FORMATS: SecretFormat[] = [
  // ---- Compound secret names ------------------------------------------------------------------------
  f('env-compound-password-prod', (pick) => {
    const s = mpw(pick);
    return mk(s, `DB_PASSWORD_PROD=${s}\nDB_HOST_PROD=db-1.internal`);
  }),
  f('yaml-compound-token-first', (pick) => {
    const s = key(pick, 40);
    return mk(s, `ci:\n  TOKEN_GITHUB: ${s}\n  TOKEN_TTL: 3600`);
  }),
  f('json-compound-secret-key-suffix', (pick) => {
    const s = key(pick, 50);
    return mk(s, `{"SECRET_KEY_DJANGO": "${s}", "DEBUG": false}`);
  }),
  f('terraform-host-token-env', (pick) => {
    const s = key(pick, 40);
    return mk(s, `export TF_TOKEN_app_terraform_io=${s}`);
  }),
  f('properties-dotted-secret-env', (pick) => {
    const s = key(pick, 32);
    return mk(s, `# staging\nsecret.key.staging=${s}`);
  }),
  text(
    f('diff-pass-db-compound', (pick) => {
      const s = mpw(pick);
      return mk(s, diff(pick, 'deploy/.env', [`PASS_DB=${s}`, `PWD_ROOT=${mpw(pick)}`]));
    }),
  ),
  // ---- A secret word, then its value, no verb -------------------------------------------------------
  f('prose-token-single-quoted', (pick) => {
    const s = key(pick, 36);
    return mk(s, `I regenerated it, new token '${s}' works now`);
  }),
  f('prose-bold-api-key-colon', (pick) => {
    const s = key(pick, 32);
    return mk(s, `**API key**: ${s}\n**Region**: eu-central`);
  }),
  f('prose-client-secret-dash', (pick) => {
    const s = key(pick, 40);
    return mk(s, `client id - app-portal, client secret - ${s}`);
  }),
  f('prose-token-parenthesised', (pick) => {
    const s = key(pick, 44);
    return mk(s, `the bot (token ${s}) still posts to #builds`);
  }),
  f('prose-bold-password-colon', (pick) => {
    const s = mpw(pick);
    return mk(s, `**username**: admin\n**password**: ${s}`);
  }),
  f('rclone-positional-secret', (pick) => {
    const s = key(pick, 40);
    return mk(
      s,
      `rclone config create s3remote s3 provider AWS access_key_id ${j('AK', 'IA')}${pick(U + D, 16)} secret_access_key ${s}`,
    );
  }),
  f('dotnet-user-secrets-set', (pick) => {
    const s = mpw(pick);
    return mk(s, `dotnet user-secrets set "Smtp:Password" "${s}" --project src/Api`);
  }),
  json(
    f('issue-label-token-next-line', (pick) => {
      const s = key(pick, 40);
      return mk(
        s,
        JSON.stringify({
          id: 77,
          number: 31,
          title: 'bot token',
          body: `New token:\n\n    ${s}\n\nold one revoked`,
        }),
      );
    }),
  ),
  f('label-fenced-api-key', (pick) => {
    const s = key(pick, 32);
    return mk(s, `**API key:**\n\`\`\`\n${s}\n\`\`\``);
  }),
  f('prose-passphrase-for-the', (pick) => {
    const s = mpw(pick);
    return mk(s, `the passphrase for the backup archive is ${s} (ask ops to rotate it)`);
  }),
  f('header-variable-with-scheme', (pick) => {
    const s = pick(H, 40);
    return mk(s, `GITEA_AUTH_HEADER: token ${s}`);
  }),
  // ---- XML and code -----------------------------------------------------------------------------------
  f('xml-properties-entry-key', (pick) => {
    const s = mpw(pick);
    return mk(
      s,
      `<properties>\n  <entry key="db.user">app</entry>\n  <entry key="db.password">${s}</entry>\n</properties>`,
    );
  }),
  f('android-strings-api-key', (pick) => {
    const s = key(pick, 39);
    return mk(
      s,
      `<resources>\n    <string name="app_name">Shop</string>\n    <string name="api_key">${s}</string>\n</resources>`,
    );
  }),
  f('dotnet-settings-value', (pick) => {
    const s = key(pick, 40);
    return mk(s, `<setting name="ClientSecret" serializeAs="String">\n  <value>${s}</value>\n</setting>`);
  }),
  f('xml-cdata-password', (pick) => {
    const s = mpw(pick);
    return mk(s, `<datasource>\n  <password><![CDATA[${s}]]></password>\n</datasource>`);
  }),
  f('csharp-auto-property-secret', (pick) => {
    const s = key(pick, 36);
    return mk(s, `public string ApiSecret { get; set; } = "${s}";`);
  }),
  f('ruby-env-fetch-block', (pick) => {
    const s = key(pick, 32);
    return mk(s, `token = ENV.fetch("API_TOKEN") { "${s}" }`);
  }),
  f('sbt-credentials-four-args', (pick) => {
    const s = mpw(pick);
    return mk(
      s,
      `credentials += Credentials("Sonatype Nexus Repository Manager", "nexus.example.com", "deploy", "${s}")`,
    );
  }),
  f('composer-auth-bearer-host', (pick) => {
    const s = key(pick, 40);
    return mk(s, `{\n  "bearer": {\n    "repo.example.com": "${s}"\n  }\n}`);
  }),
  f('composer-auth-github-oauth', (pick) => {
    const s = pick(H, 40);
    return mk(s, `{"github-oauth": {"github.com": "${s}"}}`);
  }),
  f('ethers-wallet-key', (pick) => {
    const s = pick(H, 64);
    return mk(s, `const wallet = new ethers.Wallet("0x${s}", provider);`);
  }),
  f('hardhat-accounts-key', (pick) => {
    const s = pick(H, 64);
    return mk(s, `networks: {\n  sepolia: {\n    url: RPC_URL,\n    accounts: ["0x${s}"],\n  },\n}`);
  }),
  // ---- Command lines ----------------------------------------------------------------------------------
  f('openssl-enc-k-password', (pick) => {
    const s = mpw(pick);
    return mk(s, `openssl enc -aes-256-cbc -salt -pbkdf2 -in backup.sql -out backup.enc -k ${s}`);
  }),
  f('openssl-enc-K-hex-key', (pick) => {
    const s = pick(H, 64);
    return mk(s, `openssl enc -aes-256-cbc -K ${s} -iv ${pick(H, 32)} -in a.bin -out a.enc`);
  }),
  text(
    f('log-twine-upload-p', (pick) => {
      const s = mpw(pick);
      return mk(
        s,
        logged([
          '##[group]Run twine',
          `+ twine upload --repository internal -u ci -p ${s} dist/*`,
          '##[endgroup]',
        ]),
      );
    }),
  ),
  f('oc-login-password', (pick) => {
    const s = mpw(pick);
    return mk(s, `oc login https://api.ocp.example.com:6443 -u admin -p ${s}`);
  }),
  f('ssh-keygen-new-passphrase', (pick) => {
    const s = mpw(pick);
    return mk(s, `ssh-keygen -t ed25519 -N '${s}' -f deploy_key -C ci@runner`);
  }),
  f('lftp-user-comma-password', (pick) => {
    const s = mpw(pick);
    return mk(s, `lftp -u deploy,${s} sftp://files.example.com -e "mirror -R dist /www; quit"`);
  }),
  f('httpie-auth-flag', (pick) => {
    const s = mpw(pick);
    return mk(s, `http -a admin:${s} POST https://api.example.com/v1/jobs name=nightly`);
  }),
  f('minio-mc-alias-set', (pick) => {
    const s = key(pick, 40);
    return mk(s, `mc alias set backup https://s3.example.com ${pick(U + D, 20)} ${s}`);
  }),
  f('nginx-authorization-basic', (pick) => {
    const s = b64(`ci:${mpw(pick)}`);
    return mk(s, `location /api/ {\n  proxy_set_header Authorization "Basic ${s}";\n}`);
  }),
  f('wpa-supplicant-psk', (pick) => {
    const s = mpw(pick);
    return mk(s, `network={\n  ssid="office"\n  psk="${s}"\n}`);
  }),
  // ---- Structure --------------------------------------------------------------------------------------
  f('env-plural-keys-comma', (pick) => {
    const s = key(pick, 32);
    return mk(s, `API_KEYS=${s},${key(pick, 32)}`);
  }),
  f('yaml-flow-sequence-tokens', (pick) => {
    const s = key(pick, 36);
    return mk(s, `auth:\n  tokens: [${s}, ${key(pick, 36)}]`);
  }),
  f('toml-spaced-token-array', (pick) => {
    const s = key(pick, 40);
    return mk(s, `[bot]\ntokens = ["${s}", "${key(pick, 40)}"]`);
  }),
  f('yaml-upper-plural-sequence', (pick) => {
    const s = key(pick, 32);
    return mk(s, `TOKENS:\n  - ${s}\n  - ${key(pick, 32)}`);
  }),
  f('url-encoded-redirect-credentials', (pick) => {
    const s = mpw(pick);
    return mk(
      s,
      `https://gitea.example.com/user/login?redirect_to=https%3A%2F%2Fdeploy%3A${s}%40internal.example.com%2Fadmin`,
    );
  }),
  ...(['public', 'mac'] as const).map((part) =>
    f(`putty-key-file-${part}`, (pick) => {
      const pub = [pick(B, 64), pick(B, 64), pick(B, 40)];
      const priv = [pick(B, 64), pick(B, 64), pick(B, 64), pick(B, 20) + '=='];
      const mac = pick(H, 64);
      const file = [
        j('PuTTY-User-Key-', 'File-3: ssh-rsa'),
        'Encryption: none',
        'Comment: deploy-20261121',
        `Public-Lines: ${pub.length}`,
        ...pub,
        `Private-Lines: ${priv.length}`,
        ...priv,
        `Private-MAC: ${mac}`,
      ].join('\n');
      return mk(part === 'public' ? pub[1]! : mac, file);
    }),
  ),
  // ---- Capability URLs -------------------------------------------------------------------------------
  json(
    f('hook-config-integration-path', (pick) => {
      const s = pick(L + D, 32);
      return mk(
        s,
        JSON.stringify([
          {
            id: 11,
            type: 'gitea',
            config: { url: `https://events.example.net/integration/${s}/enqueue`, content_type: 'json' },
            events: ['push', 'release'],
            authorization_header: '',
            active: true,
          },
        ]),
      );
    }),
  ),
  f('triggers-path-key', (pick) => {
    const s = key(pick, 40);
    return mk(s, `curl -X POST https://api.example.com/v1/triggers/${s} -d '{"ref":"main"}'`);
  }),
  f('function-key-custom-domain', (pick) => {
    const s = pick(W, 54) + '==';
    return mk(s, `DEPLOY_HOOK=https://functions.example.com/api/DeployHook?code=${s}`);
  }),
  f('vendor-token-check-segment', (pick) => {
    const s = j('mtx', '_') + key(pick, 32) + '_' + pick(A, 6);
    return mk(s, `the relay logged in as bot with ${s} yesterday`);
  }),
  // ---- UUID keys said to be keys ----------------------------------------------------------------
  f('prose-provider-uuid-key', (pick) => {
    const s = uuid(pick);
    return mk(s, `FYI the Heroku API key is ${s}, please move it to the vault`);
  }),
  f('prose-api-key-is-uuid', (pick) => {
    const s = uuid(pick);
    return mk(s, `The API key is ${s} (Postmark server)`);
  }),
  text(
    f('log-aligned-token-output', (pick) => {
      const s = uuid(pick);
      return mk(
        s,
        logged([
          '+ heroku authorizations:create -d ci',
          `ID:          ${uuid(pick)}`,
          'Description: ci',
          `Token:       ${s}`,
        ]),
      );
    }),
  ),
  // ---- A vendor prefix nobody enumerated ------------------------------------------------------------
  f('vendor-live-marker-prose', (pick) => {
    const s = j('acme', '_live_') + key(pick, 32);
    return mk(s, `deploying with ${s} now, will rotate after the release`);
  }),
  f('vendor-short-prefix-env', (pick) => {
    const s = j('zqx', '_') + key(pick, 40);
    return mk(s, `VENDOR_CONFIG=${s}`);
  }),
  json(
    f('vendor-kebab-key-variable', (pick) => {
      const s = j('vnd', '-key-') + key(pick, 36);
      return mk(s, JSON.stringify([{ owner_id: 0, repo_id: 4, name: 'UPLOADER', data: s, description: '' }]));
    }),
  ),
  text(
    f('vendor-sk-marker-log', (pick) => {
      const s = j('orbit', '_sk_') + key(pick, 40);
      return mk(s, logged(['##[group]Run upload', `Using credentials ${s} for the upload`, '##[endgroup]']));
    }),
  ),
  f('vendor-prefix-in-yaml-value', (pick) => {
    const s = j('lumen', '_') + key(pick, 48);
    return mk(s, `integrations:\n  lumen: ${s}`);
  }),
];

export const GENERIC_NEGATIVE_FORMATS: NegativeFormat[] = [
  n(
    'compound-meta-names',
    (pick) =>
      `PASSWORD_MIN_LENGTH=12\nTOKEN_TTL_SECONDS=3600\nSECRET_KEY_FILE=/run/secrets/key${pick(D, 1)}\nTOKEN_TYPE=Bearer\nPASSWORD_HASH_ALGO=argon2id\nTOKEN_ISSUER=https://auth.example.com\nSECRET_NAME=db-credentials-${pick(D, 2)}\nTOKEN_HEADER_NAME=X-Auth-Token\nPASSWORD_RESET_URL=https://app.example.com/reset`,
  ),
  n(
    'compound-meta-ids',
    (pick) =>
      `DB_PASSWORD_SECRET_ID=${uuid(pick)}\nTOKEN_CACHE_DIR=/var/cache/tokens${pick(D, 1)}\nTOKEN_VERSION=v${pick(D, 1)}`,
  ),
  n(
    'image-and-path-names',
    (pick) =>
      `image: registry.example.com/token-svc:main-${pick(H, 7)}\nvolume: /srv/secret-store/v${pick(D, 1)}/data`,
  ),
  n(
    'prose-labels-over-references',
    (pick) =>
      `**Password:** see the 1Password item "Prod DB ${pick(D, 1)}"\nclient secret - stored in Vault\ntoken 'GITEA_TOKEN_V${pick(D, 1)}' missing\ntoken ProductionConfigValue${pick(D, 1)} loaded`,
  ),
  n('label-next-line-path', (pick) => `Token:\n\n    see the vault path secret/ci/token${pick(D, 1)}`),
  n('passphrase-prose-no-value', () => 'the passphrase for the key is stored in Vault, ask ops'),
  n(
    'xml-secret-named-hints',
    (pick) =>
      `<string name="password_hint">Enter your password</string>\n<entry key="token.ttl">${pick(D, 4)}</entry>\n<string name="api_key_label">API key</string>\n<description><![CDATA[Set the password here]]></description>`,
  ),
  n(
    'cli-flags-with-references',
    (pick) =>
      `openssl enc -d -aes-256-cbc -kfile /run/secrets/key -in a.enc\nopenssl enc -aes-256-cbc -k "$BACKUP_PASSPHRASE" -in db${pick(D, 1)}.sql\nssh-keygen -t ed25519 -N '' -f ~/.ssh/id_ed25519\ntwine upload -u __token__ -p "$PYPI_TOKEN" dist/*\nmc alias set minio http://minio:9000 "$MINIO_USER" "$MINIO_PASSWORD"\noc login https://api.cluster:6443 -u admin -p $OC_PASS`,
  ),
  n('eth-tx-hash', (pick) => `tx hash 0x${pick(H, 64)} confirmed in block ${pick(D, 7)}`),
  n('eth-accounts-addresses', (pick) => `accounts: ["0x${pick(H, 40)}", "0x${pick(H, 40)}"]`),
  n(
    'url-encoded-no-credentials',
    (pick) => `redirect_to=https%3A%2F%2Fgitea.example.com%2Forg%2Frepo${pick(D, 2)}`,
  ),
  n(
    'composer-repositories-map',
    () => '{"repositories": {"repo.example.com": {"type": "composer", "url": "https://repo.example.com"}}}',
  ),
  n(
    'plural-names-lists',
    (pick) =>
      `API_KEYS=stripe,sendgrid,mailgun\nsort_keys=True, keys=[id, name, created_at]\ntokens: [prompt, completion]\nTOKENS=${pick(D, 4)},${pick(D, 4)}`,
  ),
  n('nginx-authorization-variable', () => 'proxy_set_header Authorization "Bearer $http_x_token";'),
  n('psk-placeholder', () => 'psk="<your wifi password>"'),
  n(
    'ssh2-public-key-file',
    (pick) =>
      `${j('---- BEGIN SSH2 ', 'PUBLIC KEY ----')}\nComment: "rsa-key-2026"\n${pick(B, 64)}\n${pick(B, 40)}\n${j('---- END SSH2 ', 'PUBLIC KEY ----')}`,
  ),
  n(
    'payment-object-ids',
    (pick) =>
      `charged pi_${pick(A, 24)} in session cs_test_${pick(A, 58)} for invoice in_${pick(A, 24)} (evt_${pick(A, 24)})`,
  ),
  n(
    'ai-api-object-ids',
    (pick) =>
      `call_${pick(A, 24)} msg_${pick(A, 24)} asst_${pick(A, 24)} thread_${pick(A, 24)} file-${pick(A, 24)} chatcmpl-${pick(A, 29)} batch_${pick(A, 24)}`,
  ),
  n('identity-object-ids', (pick) => `user_${pick(A, 27)} joined org_${pick(A, 27)} (sess_${pick(A, 27)})`),
  n(
    'publishable-keys',
    (pick) =>
      `<script>Stripe("${j('pk', '_live_')}${pick(A, 24)}"); posthog.init("${j('phc', '_')}${pick(A, 43)}")</script>`,
  ),
  n(
    'camelcase-test-names',
    (pick) =>
      `test_shouldReturn401WhenTokenIsMissing${pick(D, 1)} and spec_rejectsExpiredTokenWithin30Seconds passed`,
  ),
  n(
    'kebab-ids-and-tags',
    (pick) => `feature-${pick(L, 6)}-${pick(L, 5)}-${pick(D, 4)} built token-svc:main-${pick(H, 7)}`,
  ),
  n(
    'oauth-callback-long-code',
    (pick) =>
      `GET /api/login/oauth/callback?code=${pick(A, 50)}&state=${pick(W, 32)} 302\nGET /api/auth/return?state=${pick(W, 32)}&code=${pick(A, 48)}`,
  ),
  n(
    'integration-paths-ids',
    (pick) =>
      `https://app.example.com/integrations/github/${uuid(pick)}\nhttps://ci.example.com/triggers/${pick(H, 40)}\nhttps://chat.example.com/integration/slack/install`,
  ),
  n(
    'uuid-ids-near-key-words',
    (pick) =>
      `heroku[router]: at=info request_id=${uuid(pick)} fwd="10.0.0.${pick(D, 1)}"\nheroku request id ${uuid(pick)}\nthe request token is ${uuid(pick)} (for tracing)\nthe idempotency key is ${uuid(pick)}\nID:          ${uuid(pick)}`,
  ),
  n(
    'random-state-values',
    (pick) =>
      `state=${pick(L, 3)}_${pick(A, 30)}&nonce=${pick(L, 4)}-${pick(A, 28)}; the login used ${pick(L, 2)}_${pick(A, 30)} as its state`,
  ),
  n('pkce-and-csrf', (pick) => `code_challenge=${pick(W, 43)}&code_challenge_method=S256`),
];
