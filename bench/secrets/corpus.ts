// Labelled corpus for the secret masking engine. Every secret is generated at run time from pieces
// and a seeded PRNG, so no secret-shaped literal sits in the repository (secret scanners must not
// fire on it); literals that scanners look for are split (e.g. 'gh' + 'p_').

export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Character sets and the seeded picker are corpus-kit.ts's, shared by every tuning-corpus file.
import {
  A as ALNUM,
  B as B64,
  b64,
  D as DIGITS,
  H as HEX,
  j,
  L as LOWER,
  pk,
  U as UPPER,
  W as URLSAFE,
} from './corpus-kit';

/** Draws `n` characters of `set` from the PRNG (corpus-kit.ts's `pk`). */
export const pick = pk;
const choice = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const b64url = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');

/** One secret format: `make` returns the secret value and a line of realistic text that holds it. */
export type SecretFormat = {
  name: string;
  make: (rng: Rng) => { secret: string; line: string };
  /** The line is the whole body (raw text, or JSON text that is parsed), not embedded in one. */
  body?: 'text' | 'json';
};

const env = (name: string, secret: string): { secret: string; line: string } => ({
  secret,
  line: `${name}=${secret}`,
});

function pemBlock(rng: Rng, label: string, bodyLines: number): string {
  const lines: string[] = [];
  for (let i = 0; i < bodyLines; i++) lines.push(pick(rng, B64, 64));
  return [j('-----BEG', 'IN ', label, '-----'), ...lines, j('-----EN', 'D ', label, '-----')].join('\n');
}

function jwt(rng: Rng): string {
  const header = b64url(JSON.stringify({ alg: choice(rng, ['HS256', 'RS256', 'ES256']), typ: 'JWT' }));
  const payload = b64url(
    JSON.stringify({
      sub: pick(rng, DIGITS, 8),
      name: 'svc-' + pick(rng, LOWER, 5),
      iat: 1700000000 + Math.floor(rng() * 1e7),
    }),
  );
  return `${header}.${payload}.${pick(rng, URLSAFE, 43)}`;
}

import { FAMILY_NEGATIVE_FORMATS, FAMILY_SECRET_FORMATS } from './corpus-families';
import { LOOKALIKE_NEGATIVE_FORMATS, LOOKALIKE_SECRET_FORMATS } from './corpus-lookalikes';
import { CONTEXT_NEGATIVE_FORMATS, CONTEXT_SECRET_FORMATS } from './corpus-contexts';
import { GENERALISE_NEGATIVE_FORMATS, GENERALISE_SECRET_FORMATS } from './corpus-generalise';
import { RECALL_NEGATIVE_FORMATS, RECALL_SECRET_FORMATS } from './corpus-recall';
import { BODY_NEGATIVE_FORMATS, BODY_SECRET_FORMATS } from './corpus-bodies';
import { SHAPE_NEGATIVE_FORMATS, SHAPE_SECRET_FORMATS } from './corpus-shapes';
import { GENERIC_NEGATIVE_FORMATS, GENERIC_SECRET_FORMATS } from './corpus-generic';
import { STRUCTURE_NEGATIVE_FORMATS, STRUCTURE_SECRET_FORMATS } from './corpus-structure';
import { DRAWS_NEGATIVE_FORMATS, DRAWS_SECRET_FORMATS } from './corpus-draws';
import { SYNTAX_NEGATIVE_FORMATS, SYNTAX_SECRET_FORMATS } from './corpus-syntax';

const BASE_SECRET_FORMATS: SecretFormat[] = [
  {
    name: 'aws-access-key-id',
    make: (r) => env('AWS_ACCESS_KEY_ID', j('AK', 'IA', pick(r, UPPER + DIGITS, 16))),
  },
  { name: 'aws-sts-key-id', make: (r) => ({ secret: j('AS', 'IA', pick(r, UPPER + DIGITS, 16)), line: '' }) },
  { name: 'aws-secret-access-key', make: (r) => env('aws_secret_access_key ', pick(r, B64, 40)) },
  { name: 'google-api-key', make: (r) => ({ secret: j('AI', 'za', pick(r, URLSAFE, 35)), line: '' }) },
  {
    name: 'google-oauth-client-secret',
    make: (r) => env('GOOGLE_CLIENT_SECRET', j('GOC', 'SPX-', pick(r, URLSAFE, 28))),
  },
  {
    name: 'google-oauth-access-token',
    make: (r) => ({ secret: j('ya', '29.', pick(r, URLSAFE, 120)), line: '' }),
  },
  {
    name: 'gcp-service-account-key',
    make: (r) => {
      const key = pemBlock(r, 'PRIVATE KEY', 12);
      return {
        secret: key.split('\n')[3]!,
        line: JSON.stringify(
          { type: 'service_account', project_id: 'proj-' + pick(r, LOWER, 6), private_key: key + '\n' },
          null,
          2,
        ),
      };
    },
  },
  {
    name: 'azure-client-secret',
    make: (r) => ({
      secret: j(pick(r, ALNUM, 3), pick(r, DIGITS, 1), 'Q', '~', pick(r, ALNUM + '_~.-', 34)),
      line: '',
    }),
  },
  {
    name: 'azure-storage-connection-string',
    make: (r) => {
      const key = pick(r, B64, 86) + '==';
      return {
        secret: key,
        line: `DefaultEndpointsProtocol=https;AccountName=st${pick(r, LOWER, 8)};AccountKey=${key};EndpointSuffix=core.windows.net`,
      };
    },
  },
  {
    name: 'azure-sas-signature',
    make: (r) => {
      const sig = encodeURIComponent(pick(r, B64, 43) + '=');
      return {
        secret: sig,
        line: `https://st${pick(r, LOWER, 6)}.blob.core.windows.net/c/f.zip?sv=2022-11-02&se=2026-01-01&sp=r&sig=${sig}`,
      };
    },
  },
  { name: 'github-classic-pat', make: (r) => ({ secret: j('gh', 'p_', pick(r, ALNUM, 36)), line: '' }) },
  { name: 'github-oauth-token', make: (r) => ({ secret: j('gh', 'o_', pick(r, ALNUM, 36)), line: '' }) },
  { name: 'github-app-token', make: (r) => ({ secret: j('gh', 's_', pick(r, ALNUM, 36)), line: '' }) },
  {
    name: 'github-fine-grained-pat',
    make: (r) => ({ secret: j('github', '_pat_', pick(r, ALNUM, 22), '_', pick(r, ALNUM, 59)), line: '' }),
  },
  { name: 'gitlab-pat', make: (r) => ({ secret: j('gl', 'pat-', pick(r, URLSAFE, 20)), line: '' }) },
  { name: 'gitlab-runner-token', make: (r) => ({ secret: j('gl', 'rt-', pick(r, URLSAFE, 20)), line: '' }) },
  {
    name: 'gitea-oauth-client-secret',
    make: (r) => ({ secret: j('gt', 'o_', pick(r, LOWER + '234567', 52)), line: '' }),
  },
  { name: 'bitbucket-app-password', make: (r) => ({ secret: j('AT', 'BB', pick(r, ALNUM, 32)), line: '' }) },
  {
    name: 'atlassian-api-token',
    make: (r) => ({ secret: j('ATA', 'TT3', pick(r, URLSAFE, 180)), line: '' }),
  },
  {
    name: 'slack-bot-token',
    make: (r) => ({
      secret: j('xo', 'xb-', pick(r, DIGITS, 12), '-', pick(r, DIGITS, 13), '-', pick(r, ALNUM, 24)),
      line: '',
    }),
  },
  {
    name: 'slack-user-token',
    make: (r) => ({
      secret: j(
        'xo',
        'xp-',
        pick(r, DIGITS, 12),
        '-',
        pick(r, DIGITS, 12),
        '-',
        pick(r, DIGITS, 13),
        '-',
        pick(r, HEX, 32),
      ),
      line: '',
    }),
  },
  {
    name: 'slack-webhook-url',
    make: (r) => {
      const s = j(
        'T',
        pick(r, UPPER + DIGITS, 10),
        '/B',
        pick(r, UPPER + DIGITS, 10),
        '/',
        pick(r, ALNUM, 24),
      );
      return {
        secret: s,
        line: `curl -X POST https://hooks.slack.com/ser${'vices'}/${s} -d '{"text":"deploy done"}'`,
      };
    },
  },
  {
    name: 'discord-bot-token',
    make: (r) => ({
      secret: j(
        choice(r, ['MT', 'Nz', 'OD']),
        pick(r, ALNUM, 24),
        '.',
        pick(r, URLSAFE, 6),
        '.',
        pick(r, URLSAFE, 38),
      ),
      line: '',
    }),
  },
  {
    name: 'discord-webhook-url',
    make: (r) => {
      const s = pick(r, URLSAFE, 68);
      return { secret: s, line: `webhook: https://discord.com/api/webhooks/${pick(r, DIGITS, 18)}/${s}` };
    },
  },
  {
    name: 'telegram-bot-token',
    make: (r) => ({ secret: j(pick(r, DIGITS, 10), ':A', 'A', pick(r, URLSAFE, 33)), line: '' }),
  },
  { name: 'twilio-api-key', make: (r) => ({ secret: j('S', 'K', pick(r, HEX, 32)), line: '' }) },
  {
    name: 'sendgrid-api-key',
    make: (r) => ({ secret: j('S', 'G.', pick(r, URLSAFE, 22), '.', pick(r, URLSAFE, 43)), line: '' }),
  },
  { name: 'mailgun-api-key', make: (r) => ({ secret: j('ke', 'y-', pick(r, HEX, 32)), line: '' }) },
  {
    name: 'mailchimp-api-key',
    make: (r) => ({ secret: j(pick(r, HEX, 32), '-us', String(1 + Math.floor(r() * 20))), line: '' }),
  },
  { name: 'stripe-secret-key', make: (r) => ({ secret: j('sk', '_live_', pick(r, ALNUM, 99)), line: '' }) },
  {
    name: 'stripe-restricted-key',
    make: (r) => ({ secret: j('rk', '_live_', pick(r, ALNUM, 99)), line: '' }),
  },
  { name: 'stripe-webhook-secret', make: (r) => ({ secret: j('wh', 'sec_', pick(r, ALNUM, 32)), line: '' }) },
  {
    name: 'paypal-braintree-token',
    make: (r) => ({
      secret: j('access_token', '$production$', pick(r, LOWER + DIGITS, 16), '$', pick(r, HEX, 32)),
      line: '',
    }),
  },
  { name: 'square-access-token', make: (r) => ({ secret: j('EA', 'AA', pick(r, URLSAFE, 60)), line: '' }) },
  {
    name: 'square-oauth-secret',
    make: (r) => ({ secret: j('sq0', 'csp-', pick(r, URLSAFE, 43)), line: '' }),
  },
  { name: 'npm-token', make: (r) => ({ secret: j('np', 'm_', pick(r, ALNUM, 36)), line: '' }) },
  {
    name: 'pypi-token',
    make: (r) => ({ secret: j('pypi-', 'AgEIcHlwaS5vcmc', pick(r, URLSAFE, 70)), line: '' }),
  },
  { name: 'nuget-api-key', make: (r) => ({ secret: j('oy', '2', pick(r, LOWER + DIGITS, 43)), line: '' }) },
  { name: 'dockerhub-pat', make: (r) => ({ secret: j('dckr', '_pat_', pick(r, URLSAFE, 27)), line: '' }) },
  { name: 'rubygems-api-key', make: (r) => ({ secret: j('rubygems', '_', pick(r, HEX, 48)), line: '' }) },
  {
    name: 'openai-project-key',
    make: (r) => ({ secret: j('sk-', 'proj-', pick(r, URLSAFE, 120)), line: '' }),
  },
  {
    name: 'openai-legacy-key',
    make: (r) => ({ secret: j('sk-', pick(r, ALNUM, 20), 'T3Blbk', 'FJ', pick(r, ALNUM, 20)), line: '' }),
  },
  {
    name: 'anthropic-api-key',
    make: (r) => ({ secret: j('sk-', 'ant-', 'api03-', pick(r, URLSAFE, 93), 'AA'), line: '' }),
  },
  { name: 'huggingface-token', make: (r) => ({ secret: j('h', 'f_', pick(r, ALNUM, 34)), line: '' }) },
  { name: 'vault-token', make: (r) => ({ secret: j('hv', 's.', pick(r, URLSAFE, 90)), line: '' }) },
  { name: 'digitalocean-token', make: (r) => ({ secret: j('do', 'p_v1_', pick(r, HEX, 64)), line: '' }) },
  { name: 'shopify-token', make: (r) => ({ secret: j('shp', 'at_', pick(r, HEX, 32)), line: '' }) },
  { name: 'jwt', make: (r) => ({ secret: jwt(r), line: '' }) },
  {
    name: 'rsa-private-key',
    make: (r) => {
      const k = pemBlock(r, 'RSA PRIVATE KEY', 10);
      return { secret: k.split('\n')[4]!, line: k };
    },
  },
  {
    name: 'ec-private-key',
    make: (r) => {
      const k = pemBlock(r, 'EC PRIVATE KEY', 4);
      return { secret: k.split('\n')[2]!, line: k };
    },
  },
  {
    name: 'pkcs8-private-key',
    make: (r) => {
      const k = pemBlock(r, 'PRIVATE KEY', 10);
      return { secret: k.split('\n')[5]!, line: k };
    },
  },
  {
    name: 'encrypted-private-key',
    make: (r) => {
      const k = pemBlock(r, 'ENCRYPTED PRIVATE KEY', 10);
      return { secret: k.split('\n')[5]!, line: k };
    },
  },
  {
    name: 'openssh-private-key',
    make: (r) => {
      const k = pemBlock(r, 'OPENSSH PRIVATE KEY', 6);
      return { secret: k.split('\n')[3]!, line: k };
    },
  },
  {
    name: 'pgp-private-key',
    make: (r) => {
      const k = pemBlock(r, 'PGP PRIVATE KEY BLOCK', 8);
      return { secret: k.split('\n')[3]!, line: k };
    },
  },
  {
    name: 'url-credentials',
    make: (r) => {
      const p = pick(r, ALNUM, 14);
      return { secret: p, line: `git clone https://deploy:${p}@git.example.org/team/app.git` };
    },
  },
  {
    name: 'postgres-connection-string',
    make: (r) => {
      const p = pick(r, ALNUM, 18);
      return { secret: p, line: `DATABASE_URL=postgres://app:${p}@db.internal:5432/app?sslmode=require` };
    },
  },
  {
    name: 'mongodb-connection-string',
    make: (r) => {
      const p = pick(r, ALNUM, 16);
      return { secret: p, line: `mongodb+srv://admin:${p}@cluster0.ab1cd.mongodb.net/prod` };
    },
  },
  {
    name: 'redis-url',
    make: (r) => {
      const p = pick(r, ALNUM, 24);
      return { secret: p, line: `REDIS_URL=redis://:${p}@cache:6379/0` };
    },
  },
  {
    name: 'ado-connection-string',
    make: (r) => {
      const p = pick(r, ALNUM, 12) + '!9';
      return {
        secret: p,
        line: `Server=tcp:db.example.net,1433;Database=app;User ID=sa;Password=${p};Encrypt=True;`,
      };
    },
  },
  { name: 'env-password', make: (r) => env('DB_PASSWORD', pick(r, ALNUM, 10) + pick(r, DIGITS, 2)) },
  {
    name: 'yaml-api-key',
    make: (r) => {
      const s = pick(r, ALNUM, 32);
      return { secret: s, line: `  api_key: "${s}"` };
    },
  },
  {
    name: 'json-client-secret',
    make: (r) => {
      const s = pick(r, URLSAFE, 40);
      return { secret: s, line: `{"client_id": "app-${pick(r, LOWER, 5)}", "client_secret": "${s}"}` };
    },
  },
  {
    name: 'generic-token-assignment',
    make: (r) => {
      const s = pick(r, HEX, 40);
      return { secret: s, line: `const token = '${s}';` };
    },
  },
  {
    name: 'authorization-bearer',
    make: (r) => {
      const s = pick(r, URLSAFE, 40);
      return { secret: s, line: `curl -H "Authorization: Bearer ${s}" https://api.example.com/v1/me` };
    },
  },
  {
    name: 'authorization-token',
    make: (r) => {
      const s = pick(r, HEX, 40);
      return { secret: s, line: `Authorization: token ${s}` };
    },
  },
  {
    name: 'authorization-basic',
    make: (r) => {
      const s = b64(`ci:${pick(r, ALNUM, 16)}`);
      return { secret: s, line: `-H 'Authorization: Basic ${s}'` };
    },
  },
  {
    name: 'age-secret-key',
    make: (r) => ({ secret: j('AGE-SECRET', '-KEY-1', pick(r, UPPER + DIGITS, 58)), line: '' }),
  },
];

export const SECRET_FORMATS: SecretFormat[] = [
  ...BASE_SECRET_FORMATS,
  ...FAMILY_SECRET_FORMATS,
  ...LOOKALIKE_SECRET_FORMATS,
  ...CONTEXT_SECRET_FORMATS,
  ...GENERALISE_SECRET_FORMATS,
  ...RECALL_SECRET_FORMATS,
  ...BODY_SECRET_FORMATS,
  ...SHAPE_SECRET_FORMATS,
  ...GENERIC_SECRET_FORMATS,
  ...STRUCTURE_SECRET_FORMATS,
  ...DRAWS_SECRET_FORMATS,
  ...SYNTAX_SECRET_FORMATS,
];

/** Hard negatives: things agents need intact. Each returns a line of text. */
const BASE_NEGATIVE_FORMATS: Array<{ name: string; make: (rng: Rng) => string }> = [
  { name: 'git-sha', make: (r) => `Merge commit ${pick(r, HEX, 40)} into main` },
  { name: 'short-sha', make: (r) => `Fixed in ${pick(r, HEX, 7)} and ${pick(r, HEX, 10)}` },
  { name: 'sha256-digest', make: (r) => `${pick(r, HEX, 64)}  dist/app-linux-amd64.tar.gz` },
  { name: 'docker-digest', make: (r) => `image: registry.example.com/app@sha256:${pick(r, HEX, 64)}` },
  {
    name: 'uuid',
    make: (r) =>
      `request id ${pick(r, HEX, 8)}-${pick(r, HEX, 4)}-4${pick(r, HEX, 3)}-a${pick(r, HEX, 3)}-${pick(r, HEX, 12)}`,
  },
  { name: 'data-image', make: (r) => `![logo](data:image/png;base64,iVBORw0KGgo${pick(r, B64, 400)}=)` },
  { name: 'sri-integrity', make: (r) => `"integrity": "sha512-${pick(r, B64, 86)}=="` },
  { name: 'go-sum', make: (r) => `github.com/pkg/errors v0.9.1 h1:${pick(r, B64, 43)}=` },
  { name: 'cargo-checksum', make: (r) => `checksum = "${pick(r, HEX, 64)}"` },
  { name: 'placeholder-your-key', make: () => 'export OPENAI_API_KEY=YOUR_API_KEY' },
  { name: 'placeholder-template', make: (r) => `password: \${${pick(r, UPPER, 6)}_PASSWORD}` },
  { name: 'placeholder-actions', make: () => 'token: ${{ secrets.GITEA_TOKEN }}' },
  {
    name: 'placeholder-angle',
    make: () => 'curl -H "Authorization: Bearer <token>" https://gitea.example.com/api/v1/user',
  },
  { name: 'placeholder-xxxx', make: (r) => `api_key = "${'x'.repeat(8 + Math.floor(r() * 30))}"` },
  { name: 'placeholder-changeme', make: () => 'DB_PASSWORD=changeme' },
  { name: 'placeholder-stars', make: () => 'password: "********"' },
  { name: 'placeholder-env-ref', make: () => 'const token = process.env.GITEA_TOKEN;' },
  { name: 'aws-docs-example', make: () => j('aws_access_key_id = AK', 'IAIOSFODNN7EXAMPLE') },
  {
    name: 'prefix-mention',
    make: () => 'GitHub tokens start with gh' + 'p_ and GitLab ones with gl' + 'pat-, see docs.',
  },
  {
    name: 'token-prose',
    make: () => 'The token expired, please generate a new token in Settings > Applications.',
  },
  { name: 'password-prose', make: () => 'Password: must be at least 8 characters long' },
  { name: 'token-type', make: () => '{"token_type": "bearer", "expires_in": 3600}' },
  {
    name: 'token-last-eight',
    make: (r) =>
      `{"id": 12, "name": "ci", "token_last_eight": "${pick(r, HEX, 8)}", "scopes": ["read:repository"]}`,
  },
  { name: 'code-token-call', make: () => 'token = tokenizer.encode(text)' },
  { name: 'tokenizer', make: () => 'tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")' },
  {
    name: 'url-without-password',
    make: (r) =>
      `https://gitea.example.com/${pick(r, LOWER, 6)}/${pick(r, LOWER, 8)}/pulls/${Math.floor(r() * 999)}`,
  },
  {
    name: 'ssh-clone-url',
    make: (r) => `git@gitea.example.com:${pick(r, LOWER, 6)}/${pick(r, LOWER, 8)}.git`,
  },
  { name: 'url-user-only', make: (r) => `ssh://git@gitea.example.com:2222/${pick(r, LOWER, 5)}/repo.git` },
  {
    name: 'email',
    make: (r) => `Signed-off-by: Dev ${pick(r, UPPER, 1)} <${pick(r, LOWER, 7)}@example.org>`,
  },
  {
    name: 'ssh-public-key',
    make: (r) => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${pick(r, B64, 43)} dev@laptop`,
  },
  {
    name: 'rsa-public-key',
    make: (r) => `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ${pick(r, B64, 300)} ci@runner`,
  },
  { name: 'certificate', make: (r) => pemBlock(r, 'CERTIFICATE', 8) },
  { name: 'pgp-public-key', make: (r) => pemBlock(r, 'PGP PUBLIC KEY BLOCK', 6) },
  { name: 'pgp-signature', make: (r) => pemBlock(r, 'PGP SIGNATURE', 4) },
  { name: 'random-base64-blob', make: (r) => pick(r, B64, 600) },
  {
    name: 'camel-identifiers',
    make: () => 'const accessTokenRefreshScheduler = new TokenRefreshScheduler(secretManagerClient);',
  },
  { name: 'secret-ref-k8s', make: () => 'secretKeyRef:\n  name: db-credentials\n  key: password' },
  {
    name: 'hex-color-version',
    make: (r) => `color: #${pick(r, HEX, 6)}; version: 1.${Math.floor(r() * 30)}.${Math.floor(r() * 9)}`,
  },
  {
    name: 'timestamp-ids',
    make: (r) =>
      `2026-10-${10 + Math.floor(r() * 18)}T12:34:56Z run #${Math.floor(r() * 99999)} job ${pick(r, DIGITS, 10)}`,
  },
  { name: 'jwt-mention', make: () => 'A JWT starts with eyJ because the header is base64 of {"' },
  { name: 'sk-learn', make: () => 'pip install scikit-learn; import sklearn; see sk-learn docs' },
  {
    name: 'password-hash-key',
    make: (r) => `password_hash: "$argon2id$v=19$m=65536,t=3,p=4$${pick(r, B64, 22)}$${pick(r, B64, 43)}"`,
  },
  {
    name: 'lockfile-resolved',
    make: (r) =>
      `"resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.${Math.floor(r() * 9)}.0.tgz"`,
  },
  { name: 'gitea-commit-url', make: (r) => `https://gitea.example.com/org/repo/commit/${pick(r, HEX, 40)}` },
  { name: 'go-getenv', make: () => 'token := os.Getenv("GITEA_TOKEN")' },
  { name: 'python-input', make: () => 'password = getpass.getpass("Password: ")' },
  {
    name: 'html-password-input',
    make: () => '<input type="password" name="password" value="" autocomplete="off">',
  },
  {
    name: 'k8s-secret-name',
    make: () => 'kind: Secret\nmetadata:\n  name: app\nspec:\n  secretName: tls-cert',
  },
  {
    name: 'compose-default',
    make: () => 'environment:\n  POSTGRES_PASSWORD: postgres\n  POSTGRES_USER: app',
  },
  {
    name: 'markdown-table',
    make: () => '| field | type | description |\n| password | string | the user password |',
  },
  { name: 'ansible-vault-tag', make: () => 'db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256' },
  {
    name: 'oauth-metadata',
    make: () => '"token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"]',
  },
  {
    name: 'clone-urls',
    make: (r) =>
      `{"clone_url": "https://gitea.example.com/org/${pick(r, LOWER, 6)}.git", "ssh_url": "git@gitea.example.com:org/x.git"}`,
  },
  { name: 'secret-name-field', make: () => '{"name": "DEPLOY_KEY", "created_at": "2026-10-01T10:00:00Z"}' },
];

/** A hard-negative format; `body` as for secret formats. */
export type NegativeFormat = { name: string; make: (rng: Rng) => string; body?: 'text' | 'json' };

export const NEGATIVE_FORMATS: NegativeFormat[] = [
  ...BASE_NEGATIVE_FORMATS,
  ...FAMILY_NEGATIVE_FORMATS,
  ...LOOKALIKE_NEGATIVE_FORMATS,
  ...CONTEXT_NEGATIVE_FORMATS,
  ...GENERALISE_NEGATIVE_FORMATS,
  ...RECALL_NEGATIVE_FORMATS,
  ...BODY_NEGATIVE_FORMATS,
  ...SHAPE_NEGATIVE_FORMATS,
  ...GENERIC_NEGATIVE_FORMATS,
  ...STRUCTURE_NEGATIVE_FORMATS,
  ...DRAWS_NEGATIVE_FORMATS,
  ...SYNTAX_NEGATIVE_FORMATS,
];

/** Realistic Gitea payloads that carry a line of text in the places where secrets leak. */
export type Payload = { kind: 'json'; value: unknown } | { kind: 'text'; value: string };

export function embed(rng: Rng, line: string, variant: number): Payload {
  const sha = pick(rng, HEX, 40);
  const user = {
    id: 1 + Math.floor(rng() * 900),
    login: pick(rng, LOWER, 6),
    full_name: 'Dev',
    email: `${pick(rng, LOWER, 5)}@example.org`,
    avatar_url: `https://gitea.example.com/avatars/${pick(rng, HEX, 32)}`,
  };
  const repoUrl = `https://gitea.example.com/org/${pick(rng, LOWER, 7)}`;
  switch (variant % 10) {
    case 0:
      return {
        kind: 'json',
        value: {
          id: 101,
          number: 7,
          title: 'Deploy fails on staging',
          user,
          html_url: `${repoUrl}/issues/7`,
          body: `Steps:\n\n\`\`\`\n${line}\n\`\`\`\n\nCommit ${sha}`,
          labels: [{ id: 1, name: 'bug', color: 'ee0701' }],
          state: 'open',
          created_at: '2026-10-01T10:00:00Z',
        },
      };
    case 1:
      return {
        kind: 'json',
        value: [
          {
            id: 9001,
            user,
            body: `I tried this:\n${line}\nand it still returns 401.`,
            html_url: `${repoUrl}/issues/7#issuecomment-9001`,
            created_at: '2026-10-02T11:00:00Z',
          },
        ],
      };
    case 2: {
      const text = `# config\nAPP_ENV=production\n${line}\nLOG_LEVEL=info\n`;
      return {
        kind: 'json',
        value: {
          name: 'config.txt',
          path: 'deploy/config.txt',
          sha,
          type: 'file',
          size: text.length,
          encoding: 'base64',
          content: b64(text),
          url: `${repoUrl}/contents/deploy/config.txt?ref=main`,
          _links: { self: `${repoUrl}/contents/deploy/config.txt` },
        },
      };
    }
    case 3:
      return {
        kind: 'json',
        value: {
          sha,
          commit: {
            message: `chore: update deploy script\n\n${line}\n`,
            author: { name: 'Dev', email: user.email, date: '2026-10-03T09:00:00Z' },
          },
          author: user,
          parents: [{ sha: pick(rng, HEX, 40) }],
        },
      };
    case 4:
      return {
        kind: 'text',
        value: `2026-10-03T09:00:01Z Run actions/checkout@v4\n2026-10-03T09:00:02Z ${line.split('\n').join('\n2026-10-03T09:00:02Z ')}\n2026-10-03T09:00:03Z Job succeeded\n`,
      };
    case 5:
      return {
        kind: 'json',
        value: {
          title: 'Operations',
          content_base64: b64(`## Access\n\n${line}\n`),
          commit_count: 3,
          last_commit: { sha, message: 'edit page' },
        },
      };
    case 6:
      return {
        kind: 'text',
        value: `{"message":"git push failed: ${JSON.stringify(line).slice(1, -1)}","url":"https://gitea.example.com/api/swagger"}`,
      };
    case 7:
      return {
        kind: 'json',
        value: {
          id: 55,
          number: 12,
          title: 'Add CI',
          body: `This PR adds CI.\n\n> ${line.split('\n').join('\n> ')}\n`,
          head: { ref: 'feature/ci', sha },
          base: { ref: 'main', sha: pick(rng, HEX, 40) },
          user,
        },
      };
    case 8: {
      const text = `${line}\n`;
      return {
        kind: 'json',
        value: {
          sha,
          size: text.length,
          url: `${repoUrl}/git/blobs/${sha}`,
          encoding: 'base64',
          content: b64(text),
        },
      };
    }
    default:
      return {
        kind: 'json',
        value: {
          id: 3,
          tag_name: 'v1.2.0',
          name: 'v1.2.0',
          body: `### Notes\n- rotated credentials\n- ${line}\n`,
          author: user,
          assets: [],
        },
      };
  }
}

/** A format that is a whole body: raw text as Gitea sends a diff or a log, or JSON parsed. */
function whole(body: 'text' | 'json', text: string): Payload {
  return body === 'text'
    ? { kind: 'text', value: text }
    : { kind: 'json', value: JSON.parse(text) as unknown };
}

export type CorpusItem = { format: string; payload: Payload; secret: string | null };

/** Builds the labelled corpus: `perFormat` positives per secret format, `negPerFormat` per negative format. */
export function buildCorpus(
  seed = 20261014,
  perFormat = 6,
  negPerFormat = 9,
): { positives: CorpusItem[]; negatives: CorpusItem[] } {
  const rng = mulberry32(seed);
  const positives: CorpusItem[] = [];
  const negatives: CorpusItem[] = [];
  let v = 0;
  for (const f of SECRET_FORMATS) {
    for (let i = 0; i < perFormat; i++) {
      const { secret, line } = f.make(rng);
      const text =
        line === ''
          ? choice(rng, [
              `token: ${secret}`,
              `export KEY=${secret}`,
              `use ${secret} for the upload`,
              `"${secret}"`,
              secret,
            ])
          : line;
      positives.push({
        format: f.name,
        payload: f.body ? whole(f.body, text) : embed(rng, text, v++),
        secret,
      });
    }
  }
  for (const f of NEGATIVE_FORMATS) {
    for (let i = 0; i < negPerFormat; i++) {
      const text = f.make(rng);
      negatives.push({
        format: f.name,
        payload: f.body ? whole(f.body, text) : embed(rng, text, v++),
        secret: null,
      });
    }
  }
  return { positives, negatives };
}
