// Hard negatives: look-alikes that a masking engine must leave unchanged.
import type { Kind } from './formats';
import { pemBlock } from './formats';
import {
  AN,
  B32,
  B58,
  B64,
  B64U,
  BECH32,
  DIG,
  HEX,
  HEXU,
  J,
  LAN,
  LOW,
  Rng,
  UAN,
  UP,
  b64,
  b64url,
  uuid,
} from './util';

export type NegDef = {
  kind: string;
  names: string[];
  lk: Kind;
  gen: (r: Rng) => { value: string; keep: string[] };
  own?: string[];
};
const k1 = (value: string): { value: string; keep: string[] } => ({ value, keep: [value] });
function neg(kind: string, names: string[], g: (r: Rng) => string, own?: string[]): NegDef {
  return { kind, names, lk: 'token', gen: (r) => k1(g(r)), own };
}
const REPO = 'gitea.example.org/acme/api';
const ulid = (r: Rng): string =>
  r.pick(['01H', '01J', '01K']) + r.str(23, '0123456789ABCDEFGHJKMNPQRSTVWXYZ');

function cert(r: Rng, label: string, n: number, lead: number[]): { value: string; keep: string[] } {
  const p = pemBlock(r, label, n, lead);
  return { value: p.value, keep: p.secrets };
}

export const NEGATIVES: NegDef[] = [
  neg('commit-sha-prose', ['commit', 'sha', 'GIT_SHA'], (r) => r.str(40, HEX), [
    'Fixed in {v}.',
    'Regression introduced by commit {v}, reverting.',
    'git revert --no-edit {v}',
    'bisect says the first bad commit is {v}',
  ]),
  neg('short-sha', ['rev', 'short_sha'], (r) => r.str(r.pick([7, 8, 10, 12]), HEX), [
    'Fixes #412 (see {v})',
    'cherry-picked from {v}',
    'HEAD is now at {v} chore: bump deps',
    '* {v} (HEAD -> main, origin/main) Merge pull request #88',
  ]),
  neg('commit-url', ['commit_url'], (r) => r.str(40, HEX), [
    `https://${REPO}/commit/{v}`,
    `https://${REPO}/src/commit/{v}/config/app.yaml#L12`,
    `https://${REPO}/compare/main...{v}`,
  ]),
  neg('git-log-output', ['commit'], (r) => r.str(40, HEX), [
    'commit {v}\nAuthor: Marta K <marta@acme.io>\nDate:   Tue Feb 3 10:12:44 2026 +0100\n\n    fix: retry webhook delivery',
    '{v} refs/heads/main',
    '{v}\trefs/tags/v1.4.0',
  ]),
  neg('rev-parse-in-log', ['GITHUB_SHA', 'GITEA_SHA', 'CI_COMMIT_SHA'], (r) => r.str(40, HEX), [
    '+ git rev-parse HEAD\n{v}',
    'Checking out ref {v}',
    'HEAD is now at {v}',
  ]),
  neg('diff-index-line', ['index'], (r) => r.str(7, HEX) + '..' + r.str(7, HEX), ['index {v} 100644']),
  neg('merge-commit-message', ['merge'], (r) => r.str(40, HEX), [
    "Merge commit '{v}' into release/2.4",
    "Merge branch 'main' into feature/x ({v})",
  ]),
  neg('docker-digest', ['image', 'digest'], (r) => 'sha256:' + r.str(64, HEX), [
    'image: ghcr.io/acme/api@{v}',
    'FROM node:22-alpine@{v}',
    'Digest: {v}',
    'docker pull registry.acme.io/worker@{v}',
  ]),
  neg('sha256sum-output', ['checksum', 'sha256'], (r) => r.str(64, HEX), [
    '{v}  acme-cli_2.3.1_linux_amd64.tar.gz',
    'echo "{v}  kubectl" | sha256sum --check',
    'SHA256 ({n}.zip) = {v}',
  ]),
  neg('md5-checksum', ['md5', 'etag'], (r) => r.str(32, HEX), [
    'MD5 (backup.tar) = {v}',
    'ETag: "{v}"',
    '{v}  installer.exe',
  ]),
  neg('sha1-checksum', ['sha1'], (r) => r.str(40, HEX), ['sha1sum: {v}  release.zip', '<sha1>{v}</sha1>']),
  neg('sha512-hex', ['sha512'], (r) => r.str(128, HEX), ['sha512: {v}', '{v}  firmware.bin']),
  neg(
    'sri-integrity',
    ['integrity'],
    (r) => 'sha' + r.pick(['384', '512']) + '-' + b64(r.bytes(r.pick([48, 64]))),
    [
      '<script src="https://cdn.jsdelivr.net/npm/bootstrap@5.3.3/dist/js/bootstrap.bundle.min.js" integrity="{v}" crossorigin="anonymous"></script>',
      '<link rel="stylesheet" href="/assets/app.css" integrity="{v}">',
    ],
  ),
  neg('package-lock-integrity', ['integrity'], (r) => 'sha512-' + b64(r.bytes(64)), [
    '"node_modules/lodash": {\n  "version": "4.17.21",\n  "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz",\n  "integrity": "{v}"\n}',
  ]),
  neg('yarn-lock-checksum', ['checksum'], (r) => r.str(128, HEX), [
    '"typescript@npm:^5.6.0":\n  version: 5.6.3\n  resolution: "typescript@npm:5.6.3"\n  checksum: 10c0/{v}\n  languageName: node',
  ]),
  neg('go-sum-hash', ['h1'], (r) => 'h1:' + b64(r.bytes(32)), [
    'github.com/google/uuid v1.6.0 {v}',
    'golang.org/x/net v0.30.0/go.mod {v}',
  ]),
  neg('cargo-lock-checksum', ['checksum'], (r) => r.str(64, HEX), [
    '[[package]]\nname = "serde"\nversion = "1.0.210"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{v}"',
  ]),
  neg('pip-hash', ['hash'], (r) => 'sha256:' + r.str(64, HEX), [
    'requests==2.32.3 \\\n    --hash={v}',
    '{name = "urllib3-2.2.3-py3-none-any.whl", hash = "{v}"}',
  ]),
  neg('uuid-object-id', ['id', 'uuid', 'run_id', 'correlation_id'], (r) => uuid(r), [
    '{"id":"{v}","status":"queued"}',
    'Created deployment {v}',
    'GET /api/orders/{v} 200 14ms',
  ]),
  neg('ulid-id', ['event_id', 'ulid'], (r) => ulid(r), ['event {v} processed', '"event_id": "{v}"']),
  neg('w3c-traceparent', ['traceparent'], (r) => `00-${r.str(32, HEX)}-${r.str(16, HEX)}-01`, [
    'traceparent: {v}',
    '"traceparent":"{v}"',
  ]),
  neg(
    'request-id',
    ['X-Request-Id', 'request_id'],
    (r) => r.pick([uuid(r), r.str(32, HEX), 'req_' + r.str(24, AN)]),
    [
      '< x-request-id: {v}',
      'upstream error, request id {v}',
      'Please include the request ID {v} when contacting support.',
    ],
  ),
  neg('trace-span-ids', ['trace_id', 'span_id'], (r) => r.str(32, HEX), [
    'trace_id={v} span_id=' + '5f3c1a2b9d8e7f60',
    '{"trace_id":"{v}","level":"info"}',
  ]),
  neg('k8s-pod-name', ['pod'], (r) => `api-${r.str(10, LAN).replace(/[aeiou]/g, 'x')}-${r.str(5, LAN)}`, [
    'pod/{v} condition met',
    'Error from server (NotFound): pods "{v}" not found',
  ]),
  {
    kind: 'ssh-public-key',
    names: ['authorized_keys', 'ssh_public_key'],
    lk: 'token',
    gen: (r) =>
      k1(
        r.pick([
          'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI' + r.str(43, B64),
          'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ' + r.str(508, B64) + '=',
        ]) +
          ' ' +
          r.pick(['marta@laptop', 'ci@runner', 'deploy']),
      ),
    own: ['{v}', 'ssh_authorized_keys:\n  - {v}'],
  },
  {
    kind: 'pem-certificate',
    names: ['tls.crt', 'ca_cert', 'certificate'],
    lk: 'pem',
    gen: (r) =>
      cert(
        r,
        'CERTIFICATE',
        900,
        [0x30, 0x82, 0x03, 0x80, 0x30, 0x82, 0x02, 0x68, 0xa0, 0x03, 0x02, 0x01, 0x02],
      ),
  },
  {
    kind: 'pem-public-key',
    names: ['public_key', 'JWT_PUBLIC_KEY'],
    lk: 'pem',
    gen: (r) =>
      cert(
        r,
        'PUBLIC KEY',
        294,
        [
          0x30, 0x82, 0x01, 0x22, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01,
          0x01, 0x05, 0x00,
        ],
      ),
  },
  {
    kind: 'pgp-public-key',
    names: ['gpg_public_key'],
    lk: 'pem',
    gen: (r) => cert(r, 'PGP PUBLIC KEY BLOCK', 520, [0x99, 0x01, 0x0d, 0x04]),
  },
  {
    kind: 'csr',
    names: ['csr'],
    lk: 'pem',
    gen: (r) => cert(r, 'CERTIFICATE REQUEST', 640, [0x30, 0x82, 0x02, 0x7c]),
  },
  neg('ssh-fingerprint', ['fingerprint'], (r) => 'SHA256:' + b64(r.bytes(32)).replace(/=+$/, ''), [
    'The ED25519 key fingerprint is {v}.',
    '256 {v} deploy@ci (ED25519)',
    'Server host key: ssh-ed25519 {v}',
  ]),
  neg(
    'gpg-fingerprint',
    ['fingerprint', 'signingkey'],
    (r) => Array.from({ length: 10 }, () => r.str(4, HEXU)).join(' '),
    ['      Key fingerprint = {v}', 'Primary key fingerprint: {v}'],
  ),
  neg('gpg-key-id', ['signingkey'], (r) => r.str(16, HEXU), [
    '[user]\n\tsigningkey = {v}',
    'gpg: Signature made Tue Feb  3 10:12:44 2026 CET using RSA key ID {v}',
  ]),
  neg(
    'tls-fingerprint-colon',
    ['sha256_fingerprint'],
    (r) => Array.from({ length: 32 }, () => r.str(2, HEXU)).join(':'),
    ['SHA256 Fingerprint={v}', 'pinned cert: {v}'],
  ),
  neg('data-uri-png', ['logo'], (r) => 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA' + b64(r.bytes(180)), [
    '![logo]({v})',
    '<img src="{v}" alt="badge">',
    'background-image: url({v});',
  ]),
  neg('data-uri-font', ['font'], (r) => 'data:font/woff2;base64,d09GMgABAAAAA' + b64(r.bytes(240)), [
    "@font-face { font-family: 'Inter'; src: url({v}) format('woff2'); }",
  ]),
  neg(
    'actions-secret-placeholder',
    ['token', 'password', 'GITEA_TOKEN', 'NPM_TOKEN'],
    (r) =>
      '${{ secrets.' +
      r.pick(['GITEA_TOKEN', 'NPM_TOKEN', 'DEPLOY_KEY', 'REGISTRY_PASSWORD', 'SLACK_WEBHOOK']) +
      ' }}',
    [
      '      - run: npm publish\n        env:\n          NODE_AUTH_TOKEN: {v}',
      '        with:\n          password: {v}',
      'curl -H "Authorization: token {v}" https://gitea.example.org/api/v1/user',
    ],
  ),
  neg(
    'helm-template-placeholder',
    ['password'],
    (r) => '{{ .Values.' + r.pick(['db.password', 'auth.token', 'smtp.pass', 'global.apiKey']) + ' }}',
    ['  password: {v}', '  DB_PASSWORD: {v}'],
  ),
  neg(
    'python-format-placeholder',
    ['password'],
    (r) => r.pick(['%(password)s', '%(db_pass)s', '{password}', '{0}']),
    ['DATABASE_URL = "postgresql://app:{v}@db:5432/app"', 'dsn = "host=db user=app password={v}"'],
  ),
  neg(
    'angle-bracket-placeholder',
    ['token', 'API_KEY', 'password'],
    (r) => r.pick(['<your-token>', '<YOUR_API_KEY>', '<password>', '<insert key here>', '<PAT>']),
    ['curl -H "Authorization: Bearer {v}" https://api.acme.io/v1/me', 'export API_KEY={v}', 'password: {v}'],
  ),
  neg(
    'masked-stars',
    ['token', 'password'],
    (r) => r.pick(['***', '********', '****', '[MASKED]', '[REDACTED]', '<redacted>']),
    ['+ docker login -u ci -p {v} registry.acme.io', 'Using token {v}', 'DB_PASSWORD={v}'],
  ),
  neg(
    'replace-me-placeholder',
    ['API_KEY', 'SECRET_KEY', 'password'],
    (r) =>
      r.pick([
        'REPLACE_ME',
        'CHANGE_ME',
        'your_api_key_here',
        'xxxxxxxxxxxxxxxxxxxx',
        'TODO_SET_ME',
        'dummy-token-for-tests',
        'example-secret-do-not-use',
        'test-key-000000',
        'insert-your-key',
      ]),
    ['{n}={v}', '{n}: "{v}"', '"{n}": "{v}"'],
  ),
  neg(
    'env-var-reference',
    ['password', 'token'],
    (r) =>
      r.pick([
        '$DB_PASSWORD',
        '${API_TOKEN}',
        '${env:GITEA_TOKEN}',
        'process.env.STRIPE_KEY',
        'os.environ["SECRET_KEY"]',
        '%API_KEY%',
        '$(cat /run/secrets/db_password)',
        'env("MAIL_PASSWORD")',
      ]),
    ['password = {v}', 'token: {v}', 'headers: { Authorization: `Bearer ` + {v} }', 'mysql -u root -p"{v}"'],
  ),
  neg(
    'secret-manager-reference',
    ['password'],
    (r) =>
      r.pick([
        `arn:aws:secretsmanager:eu-west-1:${r.str(12, DIG)}:secret:prod/db-${r.str(6, AN)}`,
        'op://Engineering/Postgres/password',
        'vault:secret/data/app#db_password',
        'projects/acme-prod/secrets/api-key/versions/latest',
        `akv://kv-acme-prod/${r.pick(['db', 'smtp'])}-password`,
        'ref+sops://secrets.enc.yaml#/db/password',
      ]),
    ['{n}: {v}', 'valueFrom: {v}'],
  ),
  {
    kind: 'aws-documented-example',
    names: ['AWS_ACCESS_KEY_ID', 'aws_secret_access_key'],
    lk: 'token',
    gen: (r) =>
      k1(
        r.pick([
          J('AK', 'IA', 'IOSFODNN7', 'EXAMPLE'),
          J('wJalrXUtnFEMI', '/K7MDENG/', 'bPxRfiCY', 'EXAMPLEKEY'),
        ]),
      ),
    own: [
      '# example from the AWS docs\naws configure set aws_access_key_id {v}',
      '{n} = {v}  # documentation example',
    ],
  },
  neg(
    'stripe-object-id',
    ['customer', 'payment_intent', 'id'],
    (r) =>
      r.pick(['cus_', 'pi_', 'ch_', 'in_', 'sub_', 'price_', 'prod_', 'evt_', 'txn_', 'acct_']) +
      r.str(r.pick([14, 24]), AN),
    [
      '{"id":"{v}","object":"payment_intent","amount":2000}',
      'Refunded {v} per customer request',
      'stripe events resend {v}',
    ],
  ),
  neg(
    'stripe-publishable-key',
    ['STRIPE_PUBLISHABLE_KEY', 'publishableKey'],
    (r) => J('pk', '_live_') + r.str(99, AN),
    ['<script>Stripe("{v}")</script>', 'NEXT_PUBLIC_STRIPE_KEY={v}'],
  ),
  neg(
    'slack-object-ids',
    ['channel', 'user'],
    (r) => r.pick(['C', 'U', 'G', 'D', 'W']) + r.str(r.pick([8, 10]), UAN),
    ['<#{v}|deployments>', '{"channel":"{v}","text":"deploy done"}', 'invited <@{v}> to the channel'],
  ),
  neg('discord-snowflake', ['guild_id', 'channel_id'], (r) => String(r.range(1, 9)) + r.str(17, DIG), [
    'https://discord.com/channels/{v}/' + '1190000000000000000',
    '{"guild_id":"{v}"}',
  ]),
  neg(
    's3-bucket-and-arn',
    ['bucket'],
    (r) =>
      r.pick([
        `acme-prod-artifacts-${r.str(8, LAN)}`,
        `arn:aws:s3:::acme-logs-${r.str(12, LAN)}`,
        `arn:aws:iam::${r.str(12, DIG)}:role/gitea-runner-${r.str(6, LAN)}`,
      ]),
    ['aws s3 sync dist/ s3://{v}/site/', '{n}: {v}', 'Resource: "{v}"'],
  ),
  neg('aws-request-ids', ['x-amz-request-id'], (r) => r.pick([r.str(16, UAN), uuid(r)]), [
    'An error occurred (AccessDenied) when calling the PutObject operation: Access Denied (Request ID: {v})',
    'x-amz-request-id: {v}',
  ]),
  neg(
    'bundle-hash-filenames',
    ['asset'],
    (r) =>
      `${r.pick(['main', 'vendor', 'runtime', 'chunk-vendors'])}.${r.str(r.pick([8, 20]), HEX)}.${r.pick(['js', 'css'])}`,
    ['<script src="/static/js/{v}"></script>', 'dist/{v}   142.3 kB │ gzip: 45.9 kB'],
  ),
  neg(
    'actions-cache-key',
    ['key'],
    (r) =>
      `${r.pick(['Linux', 'node-cache-Linux', 'setup-go-Linux-ubuntu24'])}-${r.pick(['npm', 'go', 'pip'])}-${r.str(64, HEX)}`,
    ['Cache restored from key: {v}', 'Cache saved with key: {v}', '        key: {v}'],
  ),
  neg(
    'semver-build-metadata',
    ['version'],
    (r) =>
      `${r.range(0, 5)}.${r.range(0, 30)}.${r.range(0, 9)}-${r.pick(['rc.1', 'beta.3', 'dev'])}+${r.pick(['g', 'sha.', ''])}${r.str(r.pick([7, 12]), HEX)}`,
    ['{n}: {v}', 'Gitea version {v} built with GNU Make 4.3, go1.23.4'],
  ),
  neg(
    'go-pseudo-version',
    ['require'],
    (r) =>
      `v0.0.0-2025${String(r.range(1, 12)).padStart(2, '0')}${String(r.range(10, 28))}${r.str(6, DIG)}-${r.str(12, HEX)}`,
    ['require github.com/acme/lib {v}', '\tgolang.org/x/exp {v} // indirect'],
  ),
  neg(
    'base64-ordinary-text',
    ['message', 'data'],
    (r) =>
      b64(
        r.pick([
          'Hello, world! This is just a test message.',
          '{"user":"marta","theme":"dark","lang":"de"}',
          'The quick brown fox jumps over the lazy dog',
          'Build #' + r.range(100, 999) + ' finished successfully on runner-02',
        ]),
      ),
    ['echo {v} | base64 -d', '{n}: {v}', '"payload": "{v}"'],
  ),
  neg(
    'minified-js',
    ['bundle'],
    (r) =>
      `!function(${r.str(1, LOW)},${r.str(1, LOW)}){"use strict";var ${r.str(2, LOW)}=${r.str(1, LOW)}.${r.str(6, LOW)}||{};return ${r.str(2, AN)}(${r.str(1, LOW)},"${r.str(12, AN)}")}(window,document);`,
    ['{v}'],
  ),
  neg(
    'key-name-without-value',
    ['API_KEY'],
    (r) =>
      r.pick([
        'API_KEY=',
        'password:',
        '"client_secret": ""',
        'SECRET_KEY=""',
        'token = ',
        'AWS_SECRET_ACCESS_KEY=',
      ]),
    ['# fill in before running\n{v}', '{v}\n# ask ops for the value'],
  ),
  neg(
    'mapbox-public-token',
    ['MAPBOX_ACCESS_TOKEN', 'mapboxgl.accessToken'],
    (r) =>
      J('p', 'k.') +
      b64url(JSON.stringify({ u: 'acme-maps', a: r.str(25, LAN) })) +
      '.' +
      r.str(22, AN + '-_'),
    ["mapboxgl.accessToken = '{v}';"],
  ),
  neg('posthog-project-key', ['POSTHOG_KEY'], (r) => J('ph', 'c_') + r.str(43, AN), [
    "posthog.init('{v}', { api_host: 'https://eu.posthog.com' })",
  ]),
  neg(
    'analytics-measurement-id',
    ['measurement_id'],
    (r) =>
      r.pick(['G-' + r.str(10, UAN), 'UA-' + r.str(8, DIG) + '-' + r.range(1, 9), 'GTM-' + r.str(7, UAN)]),
    ["gtag('config', '{v}');", '<!-- Google tag ({v}) -->'],
  ),
  neg('container-ids', ['container'], (r) => r.str(12, HEX), [
    '{v}   nginx:1.27   "/docker-entrypoint.…"   2 hours ago   Up 2 hours   0.0.0.0:80->80/tcp   web',
    'docker logs -f {v}',
    ' ---> {v}\nStep 4/9 : RUN npm ci',
  ]),
  neg('git-lfs-pointer', ['oid'], (r) => 'sha256:' + r.str(64, HEX), [
    'version https://git-lfs.github.com/spec/v1\noid {v}\nsize ' + '1048576',
  ]),
  neg('ipfs-cid', ['cid'], (r) => r.pick(['Qm' + r.str(44, B58), 'bafy' + r.str(55, B32.toLowerCase())]), [
    'ipfs://{v}',
    'https://ipfs.io/ipfs/{v}/metadata.json',
  ]),
  neg('eth-address', ['address', 'contract'], (r) => '0x' + r.str(40, HEX), [
    'Contract deployed at {v}',
    '"to": "{v}"',
    'https://etherscan.io/address/{v}',
  ]),
  neg('bitcoin-address', ['address'], (r) => 'bc1q' + r.str(38, BECH32), [
    'Donations: {v}',
    'payout address {v}',
  ]),
  neg('tx-hash', ['tx'], (r) => '0x' + r.str(64, HEX), [
    'https://etherscan.io/tx/{v}',
    'transaction {v} confirmed in block 19234411',
  ]),
  neg('csp-nonce', ['nonce'], (r) => b64(r.bytes(16)), [
    "Content-Security-Policy: script-src 'nonce-{v}' 'strict-dynamic'",
    '<script nonce="{v}">',
  ]),
  neg(
    'azure-resource-id',
    ['subscription'],
    (r) => `/subscriptions/${uuid(r)}/resourceGroups/rg-prod/providers/Microsoft.Web/sites/acme-api`,
    ['az webapp show --ids {v}', '"id": "{v}"'],
  ),
  neg(
    'google-oauth-client-id',
    ['client_id', 'GOOGLE_CLIENT_ID'],
    (r) => `${r.str(12, DIG)}-${r.str(32, LAN)}.apps.googleusercontent.com`,
    ['<meta name="google-signin-client_id" content="{v}">', '{n}={v}'],
  ),
  neg(
    'aws-account-arn',
    ['role_arn'],
    (r) => `arn:aws:iam::${r.str(12, DIG)}:role/${r.pick(['deploy', 'ReadOnly', 'gitea-oidc'])}`,
    ['role-to-assume: {v}', 'aws sts assume-role --role-arn {v} --role-session-name ci'],
  ),
  neg('github-app-client-id', ['client_id'], (r) => 'Iv1.' + r.str(16, HEX), [
    'GITHUB_CLIENT_ID={v}',
    '"client_id": "{v}"',
  ]),
  neg('terraform-state-lineage', ['lineage'], (r) => uuid(r), [
    '{\n  "version": 4,\n  "terraform_version": "1.9.8",\n  "serial": 42,\n  "lineage": "{v}"\n}',
  ]),
  neg(
    'gravatar-url',
    ['avatar'],
    (r) => `https://www.gravatar.com/avatar/${r.str(32, HEX)}?s=80&d=identicon`,
    ['![avatar]({v})', '"avatar_url": "{v}"'],
  ),
  neg(
    'nix-store-path',
    ['path'],
    (r) =>
      `/nix/store/${r.str(32, '0123456789abcdfghijklmnpqrsvwxyz')}-${r.pick(['nodejs-22.11.0', 'openssl-3.3.2', 'bash-5.2p37'])}`,
    ["copying path '{v}' from 'https://cache.nixos.org'...", '{v}/bin/node'],
  ),
  neg(
    'redacted-key-preview',
    ['key'],
    (r) =>
      r.pick([
        J('sk', '-...') + r.str(4, AN),
        J('gh', 'p_') + '****' + r.str(4, AN),
        '••••' + r.str(4, AN),
        J('xox', 'b-') + '…' + r.str(4, DIG),
      ]),
    ['Key {v} was revoked.', 'Last used: 3 days ago ({v})', '| prod | {v} | active |'],
  ),
  neg('k8s-uid-resourceversion', ['uid'], (r) => uuid(r), [
    'metadata:\n  name: api\n  uid: {v}\n  resourceVersion: "' + '48213377' + '"',
  ]),
  neg('css-module-class', ['class'], (r) => `_${r.str(5, AN)}_${r.str(5, AN)}`, [
    '<div class="{v}">',
    '.{v} { display: flex; }',
  ]),
  neg('hex-color-and-guid-csproj', ['ProjectGuid'], (r) => '{' + uuid(r).toUpperCase() + '}', [
    '<ProjectGuid>{v}</ProjectGuid>',
    'Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "Acme.Api", "src\\Acme.Api.csproj", "{v}"',
  ]),
  neg(
    'gitea-run-artifact-url',
    ['artifact'],
    (r) =>
      `https://gitea.example.org/acme/api/actions/runs/${r.range(100, 9999)}/artifacts/${r.pick(['dist', 'coverage'])}`,
    ['Artifact download URL: {v}'],
  ),
  neg('webhook-delivery-uuid', ['X-Gitea-Delivery'], (r) => uuid(r), [
    'X-Gitea-Delivery: {v}',
    'X-GitHub-Delivery: {v}',
  ]),
  neg('hmac-signature-header', ['X-Gitea-Signature'], (r) => r.str(64, HEX), [
    'X-Gitea-Signature: {v}',
    'X-Hub-Signature-256: sha256={v}',
  ]),
  neg('youtube-and-short-ids', ['video'], (r) => r.str(11, AN + '-_'), [
    'https://www.youtube.com/watch?v={v}',
    'https://youtu.be/{v}',
  ]),
  neg('bcrypt-test-fixture-label', ['salt'], (r) => r.str(22, AN + './'), [
    '# salt for unit tests only: {v}',
  ]),
  neg('jwt-header-only', ['header'], () => b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' })), [
    'JWT header {v} decodes to {"alg":"RS256","typ":"JWT"}',
  ]),
  neg(
    'npm-package-tarball-url',
    ['resolved'],
    (r) => `https://registry.npmjs.org/@acme/ui/-/ui-${r.range(1, 9)}.${r.range(0, 20)}.${r.range(0, 9)}.tgz`,
    ['"resolved": "{v}"'],
  ),
  neg('ulid-and-ksuid-in-urls', ['order'], (r) => r.str(27, AN), [
    'https://shop.acme.io/orders/{v}',
    'Order {v} shipped',
  ]),
  neg(
    'public-ssh-host-keys-known-hosts',
    ['known_hosts'],
    (r) =>
      'gitea.example.org ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB' +
      r.str(86, B64) +
      '=',
    ['{v}', 'echo "{v}" >> ~/.ssh/known_hosts'],
  ),
  neg(
    'base32-totp-doc-example',
    ['issuer'],
    (r) => `otpauth://totp/Acme:demo?issuer=Acme&algorithm=SHA1&digits=6&period=30&label=${r.str(6, LOW)}`,
    ['Scan this test URI in the docs: {v}'],
  ),
  neg(
    'dependabot-branch-hash',
    ['branch'],
    (r) => `renovate/${r.pick(['lodash', 'go-deps', 'docker-node'])}-${r.str(8, HEX)}`,
    ['Branch {v} was force-pushed', 'git push origin {v}'],
  ),
  neg('wireguard-public-key', ['PublicKey'], (r) => b64(r.bytes(32)), [
    '[Peer]\nPublicKey = {v}\nEndpoint = vpn.acme.io:51820\nAllowedIPs = 10.8.0.0/24',
    'wg show wg0\npeer: {v}\n  endpoint: 203.0.113.7:51820',
  ]),
  neg('age-public-key', ['recipient'], (r) => 'age1' + r.str(58, BECH32), [
    'age -r {v} -o secrets.enc.yaml secrets.yaml',
    'creation_rules:\n  - path_regex: .*\\.enc\\.yaml$\n    age: {v}',
  ]),
  neg('minisign-public-key', ['pubkey'], (r) => 'RWQ' + r.str(53, B64), [
    'minisign -Vm acme-cli.tar.gz -P {v}',
    'untrusted comment: minisign public key\n{v}',
  ]),
  {
    kind: 'pgp-signature-block',
    names: ['signature'],
    lk: 'pem',
    gen: (r) => cert(r, 'PGP SIGNATURE', 300, [0x89, 0x02, 0x33, 0x04]),
  },
  {
    kind: 'jwks-public-modulus',
    names: ['jwks'],
    lk: 'token',
    gen: (r) => {
      const n = r.str(342, B64U);
      return {
        value: JSON.stringify({
          keys: [{ kty: 'RSA', use: 'sig', kid: r.str(16, HEX), alg: 'RS256', n, e: 'AQAB' }],
        }),
        keep: [n],
      };
    },
    own: ['{v}', 'GET /.well-known/jwks.json -> {v}'],
  },
  neg('saml-metadata-certificate', ['X509Certificate'], (r) => 'MIIC' + r.str(800, B64) + '=', [
    '<ds:KeyInfo><ds:X509Data><ds:X509Certificate>{v}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>',
  ]),
  neg('solana-address', ['pubkey'], (r) => r.str(44, B58), ['solana balance {v}', 'Program Id: {v}']),
  neg('sigstore-rekor-uuid', ['rekor'], (r) => r.str(80, HEX), [
    'tlog entry created with index: 112233445\nhttps://search.sigstore.dev/?uuid={v}',
  ]),
  neg('x5c-chain', ['x5c'], (r) => 'MIID' + r.str(1100, B64) + '==', [
    '{"kty":"RSA","x5c":["{v}"],"x5t":"' + 'kzMPdMgZyxmYp8aAfyjY9Pb3xOk' + '"}',
  ]),
  neg('public-ed25519-hex', ['verify_key'], (r) => r.str(64, HEX), [
    'Ed25519 public key (hex): {v}',
    'trusted-public-keys = cache.acme.io-1:{v}',
  ]),
  neg(
    'prefixed-dummy-token',
    ['GITHUB_TOKEN', 'OPENAI_API_KEY', 'SLACK_BOT_TOKEN', 'AWS_ACCESS_KEY_ID', 'NPM_TOKEN'],
    (r) =>
      r.pick([
        J('gh', 'p_') + 'x'.repeat(36),
        J('gh', 'p_') + 'X'.repeat(36),
        J('gl', 'pat-') + 'x'.repeat(20),
        J('sk', '-') + 'x'.repeat(48),
        J('sk', '-proj-') + '...',
        J('xo', 'xb-') + 'your-bot-token',
        J('AK', 'IA') + 'X'.repeat(16),
        J('np', 'm_') + '0'.repeat(36),
        J('sk', '_test_') + 'X'.repeat(24),
        J('hf', '_') + 'x'.repeat(34),
      ]),
    [
      '{n}={v}',
      '# replace with your own token\nexport {n}="{v}"',
      '| `{n}` | `{v}` | required |',
      '    env:\n      {n}: {v}  # placeholder',
    ],
  ),
  neg(
    'zero-and-sequential-values',
    ['id', 'key'],
    (r) =>
      r.pick([
        '00000000-0000-0000-0000-000000000000',
        '0x' + '0'.repeat(40),
        '0'.repeat(40),
        'ffffffff-ffff-ffff-ffff-ffffffffffff',
        '0123456789abcdef0123456789abcdef',
        'abcdefghijklmnopqrstuvwxyz012345',
      ]),
    ['{n}: {v}', 'null address {v}', 'default {n} is {v} until configured'],
  ),
];
void B64U;
void UP;
