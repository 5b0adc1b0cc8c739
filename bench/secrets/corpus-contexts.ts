// Tuning-corpus additions (issue 12, third pass): secrets in the shapes and encodings a writer who
// never read the rules would reach for, and which the tuning corpus lacked: prose without an
// assignment operator ("the admin password is X"), Markdown tables, YAML env lists and .netrc
// entries whose lines carry diff markers, quote markers or Actions log timestamps, commands at the
// start of a string or a diff line, redis-cli -a, URL-safe signatures in signed URLs, URL passwords
// with '#', secrets re-encoded as base64 or hex runs inside text (a Kubernetes Secret's data, a
// base64 .env), and a few newer token prefixes (Slack configuration tokens, Docker organisation
// tokens, Together keys). Hard negatives for the prose rule: secret words followed by ids, counts,
// fingerprints, names and hashes. Written from general knowledge of these syntaxes; secrets are
// assembled at run time from a seeded PRNG.
import type { Rng, SecretFormat } from './corpus';
import {
  A as ALNUM,
  B as B64,
  b64,
  D as DIGITS,
  H as HEX,
  j,
  L as LOWER,
  pk as pick,
  W as URLSAFE,
} from './corpus-kit';

/** A password-like value: letters, then digits, so it is never a plain word. */
const pw = (r: Rng, n = 14): string => pick(r, ALNUM, n) + pick(r, DIGITS, 2);
const ts = (): string => '2026-11-04T08:15:02.4471230Z ';
const diff = (lines: string[]): string =>
  `diff --git a/deploy/.env b/deploy/.env\n--- a/deploy/.env\n+++ b/deploy/.env\n@@ -1,2 +1,${lines.length + 1} @@\n APP_ENV=production\n${lines.map((l) => '+' + l).join('\n')}`;

export const CONTEXT_SECRET_FORMATS: SecretFormat[] = [
  // Prose: the secret word, no operator, then the value.
  {
    name: 'prose-password-is',
    make: (r) => {
      const s = pw(r);
      return { secret: s, line: `The admin password is ${s} (please rotate after the demo).` };
    },
  },
  {
    name: 'prose-password-for-is',
    make: (r) => {
      const s = pw(r);
      return { secret: s, line: `password for the staging database is ${s}` };
    },
  },
  {
    name: 'prose-gitea-token-is',
    make: (r) => {
      const s = pick(r, HEX, 40);
      return { secret: s, line: `my gitea token is ${s}, I will revoke it tomorrow` };
    },
  },
  {
    name: 'prose-use-password',
    make: (r) => {
      const s = pw(r);
      return { secret: s, line: `log in as ops and use password ${s} for now` };
    },
  },
  {
    name: 'prose-secret-set-to',
    make: (r) => {
      const s = pw(r, 24);
      return { secret: s, line: `I changed the webhook secret to \`${s}\` yesterday` };
    },
  },
  {
    name: 'markdown-table-password',
    make: (r) => {
      const s = pw(r);
      return { secret: s, line: `| field | value |\n|---|---|\n| user | deploy |\n| password | \`${s}\` |` };
    },
  },
  {
    name: 'ngrok-add-authtoken',
    make: (r) => {
      const s = j('2', pick(r, ALNUM, 26), '_', pick(r, ALNUM, 21));
      return { secret: s, line: `ngrok config add-authtoken ${s}` };
    },
  },
  // Multi-line syntaxes whose lines carry prefixes (diff markers, Actions log timestamps).
  {
    name: 'k8s-env-list-log',
    make: (r) => {
      const s = pw(r, 18);
      return {
        secret: s,
        line: [`- name: DB_PASSWORD`, `  value: ${s}`, `- name: LOG_LEVEL`, `  value: info`]
          .map((l) => ts() + l)
          .join('\n'),
      };
    },
  },
  {
    name: 'k8s-env-list-diff',
    make: (r) => {
      const s = pw(r, 18);
      return { secret: s, line: diff([`        - name: API_TOKEN`, `          value: "${s}"`]) };
    },
  },
  {
    name: 'netrc-multiline-diff',
    make: (r) => {
      const s = pw(r);
      return { secret: s, line: diff(['machine gitea.example.com', '  login ci-bot', `  password ${s}`]) };
    },
  },
  {
    name: 'netrc-multiline-log',
    make: (r) => {
      const s = pw(r);
      return {
        secret: s,
        line: ['machine gitea.example.com', 'login ci-bot', `password ${s}`].map((l) => ts() + l).join('\n'),
      };
    },
  },
  {
    name: 'mysql-p-diff',
    make: (r) => {
      const s = pw(r);
      return { secret: s, line: diff([`mysql -u root -p${s} -h db app < dump.sql`]) };
    },
  },
  {
    name: 'sshpass-diff',
    make: (r) => {
      const s = pw(r);
      return { secret: s, line: diff([`sshpass -p '${s}' rsync -a dist/ deploy@web:/srv`]) };
    },
  },
  {
    name: 'redis-cli-a',
    make: (r) => {
      const s = pw(r);
      return { secret: s, line: `redis-cli -h cache.internal -a ${s} ping` };
    },
  },
  {
    name: 'signed-url-urlsafe-sig',
    make: (r) => {
      const s = pick(r, URLSAFE, 43);
      return {
        secret: s,
        line: `https://prod-27.westeurope.logic.azure.com:443/workflows/${pick(r, HEX, 32)}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${s}`,
      };
    },
  },
  {
    name: 'url-password-with-hash',
    make: (r) => {
      const s = j(pick(r, ALNUM, 6), '#', pick(r, ALNUM, 5), '!', pick(r, DIGITS, 3));
      return { secret: s, line: `DATABASE_URL=postgres://app:${s}@db.internal:5432/app` };
    },
  },
  // Re-encoded secrets.
  {
    name: 'base64-env-blob',
    make: (r) => {
      const s = b64(`GITHUB_TOKEN=${j('gh', 'p_')}${pick(r, ALNUM, 36)}\nLOG_LEVEL=debug\n`);
      return { secret: s, line: `ENV_FILE_B64=${s}` };
    },
  },
  {
    name: 'k8s-secret-data-env',
    make: (r) => {
      const s = b64(`DB_PASSWORD=${pw(r)}\n`);
      return {
        secret: s,
        line: `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-env\ntype: Opaque\ndata:\n  .env: ${s}`,
      };
    },
  },
  {
    name: 'hex-encoded-assignment',
    make: (r) => {
      const s = Buffer.from(`api_key=${pick(r, ALNUM, 28)}7`, 'utf8').toString('hex');
      return { secret: s, line: `payload (hex): ${s}` };
    },
  },
  {
    name: 'echo-base64-decode',
    make: (r) => {
      const s = b64(`password: ${pw(r)}`);
      return { secret: s, line: `echo ${s} | base64 -d > secrets.yml` };
    },
  },
  // Newer prefixes.
  {
    name: 'slack-config-token',
    make: (r) => ({ secret: j('xoxe.', 'xoxp-1-', pick(r, ALNUM, 140)), line: '' }),
  },
  {
    name: 'docker-org-access-token',
    make: (r) => ({ secret: j('dckr', '_oat_', pick(r, URLSAFE, 32)), line: '' }),
  },
  {
    name: 'together-key-v1',
    make: (r) => ({ secret: j('tgp', '_v1_', pick(r, URLSAFE, 43)), line: '' }),
  },
];

export const CONTEXT_NEGATIVE_FORMATS: Array<{ name: string; make: (rng: Rng) => string }> = [
  { name: 'prose-token-count', make: (r) => `the token count is ${pick(r, DIGITS, 4)} for this prompt` },
  {
    name: 'prose-key-fingerprint',
    make: (r) => `The key fingerprint is SHA256:${pick(r, B64, 43)} (ED25519)`,
  },
  { name: 'prose-cache-key', make: (r) => `cache key v1-deps-${pick(r, HEX, 12)} restored` },
  { name: 'prose-key-id', make: (r) => `The signing key id is ${pick(r, HEX.toUpperCase(), 16)}` },
  { name: 'prose-token-expired', make: () => 'the token expired at 12:00, please sign in again' },
  { name: 'prose-secret-name', make: (r) => `the secret name is deploy-${pick(r, LOWER, 5)}-2` },
  { name: 'prose-password-reset', make: (r) => `password reset link sent to user${pick(r, DIGITS, 3)}` },
  {
    name: 'prose-token-sha',
    make: (r) => `token rotation landed in ${pick(r, HEX, 40)}, see the changelog`,
  },
  {
    name: 'prose-public-key-is',
    make: (r) => `the public key is ${pick(r, B64, 43)}= (safe to share)`,
  },
  {
    name: 'base64-of-prose-long',
    make: () => `notes: ${b64('the deploy worked after we restarted the runner twice')}`,
  },
  { name: 'hex-of-binary', make: (r) => `blob ${pick(r, HEX, 64)} written` },
  // Look-alikes next to the words the prose and encoded-blob rules read.
  {
    name: 'actions-cache-key-log',
    make: (r) =>
      `Cache restored from key: Linux-node-modules-${pick(r, HEX, 64)}\nCache saved with key: node-cache-Linux-x64-npm-${pick(r, HEX, 40)}`,
  },
  {
    name: 'cache-key-query',
    make: (r) =>
      `GET https://cache.example.com/_apis/artifactcache/cache?keys=node-deps-${pick(r, HEX, 12)}&key=Linux-build-${pick(r, HEX, 40)}&version=${pick(r, HEX, 64)}`,
  },
  {
    name: 'stripe-token-object-id',
    make: (r) => `charged with token tok_${pick(r, ALNUM, 24)} and payment method pm_${pick(r, ALNUM, 24)}`,
  },
  {
    name: 'oauth-state-base64-json',
    make: (r) =>
      `https://gitea.example.com/login/oauth/authorize?client_id=${pick(r, HEX, 8)}-${pick(r, HEX, 4)}-4${pick(r, HEX, 3)}-a${pick(r, HEX, 3)}-${pick(r, HEX, 12)}&state=${Buffer.from(JSON.stringify({ csrf_token: pick(r, URLSAFE, 32), return_to: '/org/app/settings' })).toString('base64url')}`,
  },
  {
    name: 'prose-oauth-state-is',
    make: (r) =>
      `the OAuth state is ${pick(r, URLSAFE, 32)} and the access log is /var/log/${pick(r, LOWER, 5)}2.log`,
  },
  {
    name: 'markdown-table-no-secret',
    make: (r) => `| name | value |\n|---|---|\n| password | (see vault) |\n| build | ${pick(r, DIGITS, 4)} |`,
  },
];
