// Tuning-corpus additions (issue 12, second pass): hard negatives for look-alike categories the
// tuning corpus did not have yet (Go pseudo-versions, container ids, checksum files, pip/yarn
// hashes, ULIDs, span ids, object ids of Stripe and Slack, pod names, bundle chunk hashes,
// fingerprints, avatar hashes, base64 of plain text ...), and positives for provider credentials
// named only by the provider (an Actions variable ALGOLIA_ADMIN, a .env map key), which gitleaks'
// `name = value` rules cover. Written from general knowledge of these formats; secrets are
// assembled at run time.
import type { Rng, SecretFormat } from './corpus';
import {
  A as ALNUM,
  B as B64,
  D as DIGITS,
  H as HEX,
  L as LOWER,
  pk as pick,
  U as UPPER,
} from './corpus-kit';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const hexColon = (r: Rng, n: number): string =>
  Array.from({ length: n }, () => pick(r, HEX.toUpperCase(), 2)).join(':');

export const LOOKALIKE_SECRET_FORMATS: SecretFormat[] = [
  {
    name: 'provider-named-variable',
    make: (r) => {
      const s = pick(r, LOWER + DIGITS, 32);
      return { secret: s, line: JSON.stringify({ name: 'ALGOLIA_ADMIN', data: s, description: '' }) };
    },
  },
  {
    name: 'provider-named-env-map',
    make: (r) => {
      const s =
        pick(r, HEX, 8) +
        '-' +
        pick(r, HEX, 4) +
        '-4' +
        pick(r, HEX, 3) +
        '-a' +
        pick(r, HEX, 3) +
        '-' +
        pick(r, HEX, 12);
      return { secret: s, line: JSON.stringify({ env: { HEROKU_API: s, LOG_LEVEL: 'info' } }) };
    },
  },
  {
    name: 'provider-prose-assignment',
    make: (r) => {
      const s = pick(r, LOWER + DIGITS, 32);
      return { secret: s, line: `export ADAFRUIT_IO=${s}` };
    },
  },
  // Credentials in document syntax (Maven settings.xml, Kubernetes env YAML, PowerShell, Terraform,
  // Actions' add-mask command, .npmrc _auth, prose private keys, auth schemes, routing keys).
  {
    name: 'maven-settings-password',
    make: (r) => {
      const s = pick(r, ALNUM, 14) + pick(r, DIGITS, 2);
      return {
        secret: s,
        line: `<server>\n  <id>releases</id>\n  <username>ci</username>\n  <password>${s}</password>\n</server>`,
      };
    },
  },
  {
    name: 'k8s-env-yaml',
    make: (r) => {
      const s = pick(r, ALNUM, 18) + pick(r, DIGITS, 2);
      return {
        secret: s,
        line: `env:\n  - name: API_TOKEN\n    value: "${s}"\n  - name: LOG_LEVEL\n    value: info`,
      };
    },
  },
  {
    name: 'powershell-securestring',
    make: (r) => {
      const s = pick(r, ALNUM, 14) + pick(r, DIGITS, 2);
      return { secret: s, line: `$cred = ConvertTo-SecureString "${s}" -AsPlainText -Force` };
    },
  },
  {
    name: 'terraform-variable-default',
    make: (r) => {
      const s = pick(r, ALNUM, 16) + pick(r, DIGITS, 2);
      return {
        secret: s,
        line: `variable "admin_password" {\n  type      = string\n  sensitive = true\n  default   = "${s}"\n}`,
      };
    },
  },
  {
    name: 'actions-add-mask',
    make: (r) => {
      const s = pick(r, ALNUM, 20) + pick(r, DIGITS, 2);
      return { secret: s, line: `2026-11-30T10:00:01.1234567Z ::add-mask::${s}` };
    },
  },
  {
    name: 'npmrc-auth',
    make: (r) => {
      const s = Buffer.from(`ci:${pick(r, ALNUM, 16)}`).toString('base64');
      return { secret: s, line: `//npm.example.com/:_auth=${s}\nalways-auth=true` };
    },
  },
  {
    name: 'private-key-prose',
    make: (r) => {
      const s = '0x' + pick(r, HEX, 64);
      return { secret: s, line: `Wallet private key: ${s} (testnet)` };
    },
  },
  {
    name: 'opsgenie-geniekey',
    make: (r) => {
      const s = `${pick(r, HEX, 8)}-${pick(r, HEX, 4)}-4${pick(r, HEX, 3)}-a${pick(r, HEX, 3)}-${pick(r, HEX, 12)}`;
      return {
        secret: s,
        line: `curl -X POST https://api.opsgenie.com/v2/alerts -H "Authorization: GenieKey ${s}"`,
      };
    },
  },
  {
    name: 'pagerduty-routing-key',
    make: (r) => {
      const s = pick(r, HEX, 32);
      return { secret: s, line: JSON.stringify({ routing_key: s, event_action: 'trigger' }) };
    },
  },
];

export const LOOKALIKE_NEGATIVE_FORMATS: Array<{ name: string; make: (rng: Rng) => string }> = [
  {
    name: 'go-pseudo-version',
    make: (r) => `require example.com/lib v0.0.0-2026${pick(r, DIGITS, 10)}-${pick(r, HEX, 12)}`,
  },
  { name: 'container-id', make: (r) => `container ${pick(r, HEX, 64)} exited with code 0` },
  { name: 'sha256sum-file', make: (r) => `${pick(r, HEX, 64)}  gitea-1.27.1-linux-amd64` },
  { name: 'md5sum-file', make: (r) => `${pick(r, HEX, 32)}  release.tar.gz` },
  { name: 'sha512-checksum', make: (r) => `sha512: ${pick(r, HEX, 128)}` },
  {
    name: 'pip-hash',
    make: (r) => `requests==2.32.3 \\\n    --hash=sha256:${pick(r, HEX, 64)}`,
  },
  {
    name: 'yarn-lock-integrity',
    make: (r) =>
      `"lodash@^4.17.21":\n  resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#${pick(r, HEX, 40)}"\n  integrity sha512-${pick(r, B64, 86)}==`,
  },
  { name: 'ulid-id', make: (r) => `event_id: 01${pick(r, CROCKFORD, 24)}` },
  { name: 'span-id', make: (r) => `trace_id=${pick(r, HEX, 32)} span_id=${pick(r, HEX, 16)}` },
  {
    name: 'stripe-object-ids',
    make: (r) => `customer cus_${pick(r, ALNUM, 14)} paid ch_${pick(r, ALNUM, 24)}`,
  },
  {
    name: 'slack-channel-ids',
    make: (r) => `posted to C${pick(r, UPPER + DIGITS, 10)} by U${pick(r, UPPER + DIGITS, 10)}`,
  },
  {
    name: 'pod-name',
    make: (r) => `pod/app-${pick(r, LOWER + DIGITS, 10)}-${pick(r, LOWER + DIGITS, 5)} restarted`,
  },
  { name: 'bundle-chunk', make: (r) => `dist/assets/index-${pick(r, ALNUM, 8)}.js  142.31 kB` },
  { name: 'ssh-fingerprint', make: (r) => `ED25519 key fingerprint is SHA256:${pick(r, B64, 43)}.` },
  { name: 'tls-fingerprint', make: (r) => `SHA256 Fingerprint=${hexColon(r, 32)}` },
  {
    name: 'avatar-hash-url',
    make: (r) => `"avatar_url":"https://secure.gravatar.com/avatar/${pick(r, HEX, 32)}?d=identicon"`,
  },
  {
    name: 'base64-plain-text',
    make: () =>
      `data: ${Buffer.from('The deploy finished without errors on every runner.').toString('base64')}`,
  },
  {
    name: 'version-string',
    make: (r) => `version: 1.27.${pick(r, DIGITS, 1)}+dev-${pick(r, DIGITS, 3)}-g${pick(r, HEX, 9)}`,
  },
  { name: 'fixture-id', make: (r) => `fixture_id: test_${pick(r, LOWER + DIGITS, 24)}` },
  { name: 'slug', make: (r) => `slug: fix-login-redirect-${pick(r, DIGITS, 4)}` },
  {
    name: 'key-name-no-value',
    make: () => 'set ALGOLIA_API_KEY and SENTRY_AUTH_TOKEN in the repository secrets',
  },
  { name: 'maven-password-property', make: () => '<password>${env.DEPLOY_PASSWORD}</password>' },
  {
    name: 'k8s-env-valuefrom',
    make: () =>
      'env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db\n        key: password',
  },
  {
    name: 'terraform-variable-no-default',
    make: () => 'variable "db_password" {\n  type      = string\n  sensitive = true\n}',
  },
  { name: 'add-mask-variable', make: () => 'echo "::add-mask::${{ steps.login.outputs.token }}"' },
  { name: 'rabbitmq-routing-key', make: () => '{"routing_key": "orders.created", "exchange": "events"}' },
  {
    name: 'git-log-oneline',
    make: (r) => `${pick(r, HEX, 7)} fix(auth): token refresh\n${pick(r, HEX, 7)} chore: bump deps`,
  },
];
