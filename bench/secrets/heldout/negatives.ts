// Hard negatives: strings that look like secrets (high entropy, hex, base64, key-like names) but
// are not. `keep` lists the look-alikes, which a masker must leave exactly as they are.
import {
  ALNUM,
  B64,
  B64URL,
  DIGITS,
  HEX,
  HEX_UP,
  LOWER,
  LOWER_ALNUM,
  UPPER,
  UPPER_ALNUM,
  b64,
  b64url,
  j,
  uuid,
  wrap,
  type Rng,
} from './random';

export type NegKind = 'line' | 'value';
export type NegMade = { value: string; keep: string[] };
export type NegativeFormat = {
  id: string;
  /** value: a bare look-alike that can be a variable's data or sit in a webhook URL; line: a snippet. */
  kind: NegKind;
  names: string[];
  make(r: Rng): NegMade;
};

const sha = (r: Rng): string => r.str(HEX, 40);
const host = (r: Rng): string => r.pick(['git.example.org', 'gitea.acme.io', 'code.internal.lan']);
const slugRepo = (r: Rng): string =>
  `${r.pick(['acme', 'platform', 'web'])}/${r.pick(['api', 'website', 'infra-live', 'etl'])}`;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const val = (id: string, names: string[], gen: (r: Rng) => string): NegativeFormat => ({
  id,
  kind: 'value',
  names,
  make: (r) => {
    const v = gen(r);
    return { value: v, keep: [v] };
  },
});
const ln = (id: string, gen: (r: Rng) => NegMade): NegativeFormat => ({
  id,
  kind: 'line',
  names: [],
  make: gen,
});

function pemPublic(label: string, lead: string, r: Rng, bytes: number): NegMade {
  const lines = wrap(lead + b64(r.bytes(bytes)).slice(lead.length), 64);
  return { value: [`-----BEGIN ${label}-----`, ...lines, `-----END ${label}-----`].join('\n'), keep: lines };
}

export const NEGATIVE_FORMATS: NegativeFormat[] = [
  ln('git-sha-revert', (r) => {
    const s = sha(r);
    return { value: `Revert "cache: drop the warm-up on boot"\n\nThis reverts commit ${s}.`, keep: [s] };
  }),
  ln('git-sha-commit-url', (r) => {
    const s = sha(r);
    return { value: `Fixed in https://${host(r)}/${slugRepo(r)}/commit/${s}, please retest.`, keep: [s] };
  }),
  ln('git-compare-url', (r) => {
    const a = r.str(HEX, 12);
    const b = r.str(HEX, 12);
    return { value: `Full changelog: https://${host(r)}/${slugRepo(r)}/compare/${a}...${b}`, keep: [a, b] };
  }),
  ln('git-short-shas', (r) => {
    const a = r.str(HEX, 7);
    const b = r.str(HEX, 10);
    return { value: `Bisected it to ${a}; ${b} is the last good one.`, keep: [a, b] };
  }),
  ln('git-log-entry', (r) => {
    const s = sha(r);
    return {
      value: `commit ${s}\nAuthor: Dana Weber <dana@example.org>\nDate:   Mon Nov 30 10:12:44 2026 +0100\n\n    fix(api): retry on 503`,
      keep: [s],
    };
  }),
  val('git-sha-env', ['GITHUB_SHA', 'CI_COMMIT_SHA', 'GITEA_SHA', 'COMMIT_SHA', 'DRONE_COMMIT'], sha),
  val(
    'go-pseudo-version',
    ['GO_MODULE_VERSION'],
    (r) => `v0.0.0-2026${r.int(10, 12)}${r.int(10, 28)}${r.str(DIGITS, 6)}-${r.str(HEX, 12)}`,
  ),
  val(
    'docker-image-digest',
    ['IMAGE_DIGEST', 'IMAGE_REF'],
    (r) => `ghcr.io/acme/api@sha256:${r.str(HEX, 64)}`,
  ),
  ln('docker-container-id', (r) => {
    const id = r.str(HEX, 64);
    return {
      value: `$ docker inspect --format '{{.Id}}' api\n${id}\n$ docker ps\nCONTAINER ID   IMAGE          STATUS\n${id.slice(0, 12)}   acme/api:1.9   Up 3 hours`,
      keep: [id],
    };
  }),
  ln('sha256-checksums-file', (r) => {
    const a = r.str(HEX, 64);
    const b = r.str(HEX, 64);
    return { value: `${a}  aegis-linux-amd64.tar.gz\n${b}  aegis-darwin-arm64.tar.gz`, keep: [a, b] };
  }),
  ln('md5-checksum', (r) => {
    const m = r.str(HEX, 32);
    return { value: `MD5 (backup-2026-11-30.tar.zst) = ${m}`, keep: [m] };
  }),
  ln('sha1-checksum', (r) => {
    const m = sha(r);
    return { value: `sha1sum dist/app.js\n${m}  dist/app.js`, keep: [m] };
  }),
  ln('sha512-checksum', (r) => {
    const m = r.str(HEX, 128);
    return { value: `SHA512: ${m}`, keep: [m] };
  }),
  ln('npm-integrity', (r) => {
    const h = `sha512-${b64(r.bytes(64))}`;
    return {
      value: `"node_modules/lodash": {\n  "version": "4.17.21",\n  "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz",\n  "integrity": "${h}",\n  "license": "MIT"\n}`,
      keep: [h],
    };
  }),
  ln('sri-script-integrity', (r) => {
    const h = `sha384-${b64(r.bytes(48))}`;
    return {
      value: `<script src="https://cdn.jsdelivr.net/npm/htmx.org@2.0.4/dist/htmx.min.js" integrity="${h}" crossorigin="anonymous"></script>`,
      keep: [h],
    };
  }),
  ln('yarn-lock-resolved', (r) => {
    const s = sha(r);
    return {
      value: `lodash@^4.17.21:\n  version "4.17.21"\n  resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#${s}"`,
      keep: [s],
    };
  }),
  ln('go-sum-hash', (r) => {
    const h = `h1:${b64(r.bytes(32))}`;
    return {
      value: `golang.org/x/net v0.31.0 ${h}\ngolang.org/x/net v0.31.0/go.mod h1:${b64(r.bytes(32))}`,
      keep: [h],
    };
  }),
  ln('cargo-lock-checksum', (r) => {
    const h = r.str(HEX, 64);
    return {
      value: `[[package]]\nname = "serde"\nversion = "1.0.215"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "${h}"`,
      keep: [h],
    };
  }),
  ln('pip-hash', (r) => {
    const h = r.str(HEX, 64);
    return { value: `requests==2.32.3 \\\n    --hash=sha256:${h}`, keep: [h] };
  }),
  val('uuid-request-id', ['REQUEST_ID', 'CORRELATION_ID', 'DEPLOYMENT_ID'], uuid),
  ln('uuid-ids-in-text', (r) => {
    const a = uuid(r);
    const b = uuid(r);
    return { value: `Deployment ${a} failed; attachment https://${host(r)}/attachments/${b}`, keep: [a, b] };
  }),
  ln('otel-traceparent', (r) => {
    const t = `00-${r.str(HEX, 32)}-${r.str(HEX, 16)}-01`;
    return { value: `traceparent: ${t}`, keep: [t] };
  }),
  ln('trace-and-span-ids', (r) => {
    const t = r.str(HEX, 32);
    const s = r.str(HEX, 16);
    return {
      value: `level=error msg="upstream timeout" trace_id=${t} span_id=${s} duration=30.002s`,
      keep: [t, s],
    };
  }),
  ln('base64-png-image', (r) => {
    const d = 'iVBORw0KGgoAAAANSUhEUgAAA' + b64(r.bytes(r.int(180, 400)));
    return { value: `![chart](data:image/png;base64,${d})`, keep: [d] };
  }),
  ln('base64-gif-image', (r) => {
    const d = 'R0lGODlhAQABAIAAAP' + b64(r.bytes(r.int(40, 90)));
    return { value: `background: url("data:image/gif;base64,${d}");`, keep: [d] };
  }),
  ln('ssh-ed25519-public-key', (r) => {
    const k = 'AAAAC3NzaC1lZDI1NTE5AAAAI' + b64(r.bytes(33)).slice(0, 43);
    return {
      value: `ssh-ed25519 ${k} ${r.pick(['dana', 'ci', 'deploy'])}@${r.pick(['laptop', 'runner-01'])}`,
      keep: [k],
    };
  }),
  ln('ssh-rsa-public-key', (r) => {
    const k = 'AAAAB3NzaC1yc2EAAAADAQABAAABAQ' + b64(r.bytes(256)).slice(0, 342);
    return { value: `ssh-rsa ${k} deploy@ci`, keep: [k] };
  }),
  ln('pem-public-key', (r) =>
    pemPublic('PUBLIC KEY', 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA', r, 294),
  ),
  ln('pem-certificate', (r) =>
    pemPublic('CERTIFICATE', 'MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa', r, 890),
  ),
  ln('pgp-public-key-block', (r) => pemPublic('PGP PUBLIC KEY BLOCK', 'mQINBGV', r, 1100)),
  ln('jwks-public-modulus', (r) => {
    const n = b64url(r.bytes(256));
    return {
      value: `{"keys":[{"kty":"RSA","use":"sig","kid":"${r.str(HEX, 16)}","alg":"RS256","n":"${n}","e":"AQAB"}]}`,
      keep: [n],
    };
  }),
  ln('placeholder-your-key', (r) => {
    const p = r.pick([
      'YOUR_API_KEY',
      'your-api-key-here',
      'YOUR_TOKEN_HERE',
      'INSERT_KEY_HERE',
      'REPLACE_ME',
      'your_password',
    ]);
    const n = r.pick(['OPENAI_API_KEY', 'GITEA_TOKEN', 'DD_API_KEY', 'STRIPE_SECRET_KEY', 'DB_PASSWORD']);
    return { value: `${n}=${p}`, keep: [p] };
  }),
  ln('placeholder-xxxx', (r) => {
    const p = r.pick([
      'x'.repeat(40),
      j('gh', 'p_') + 'x'.repeat(36),
      j('sk', '_live_') + 'x'.repeat(24),
      'X'.repeat(32),
      j('xo', 'xb-') + 'xxxxxxxxxx-xxxxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx',
      '*'.repeat(12),
    ]);
    return { value: `token: ${p}`, keep: [p] };
  }),
  ln('placeholder-angle-brackets', (r) => {
    const p = r.pick(['<token>', '<your-token>', '<password>', '<API_KEY>', '<redacted>']);
    return { value: `curl -H "Authorization: token ${p}" https://${host(r)}/api/v1/user`, keep: [p] };
  }),
  ln('placeholder-env-reference', (r) => {
    const p = r.pick([
      '${DB_PASSWORD}',
      '${{ secrets.GITEA_TOKEN }}',
      '{{ .Values.db.password }}',
      '$(cat /run/secrets/db_password)',
      '%(ENV_SMTP_PASSWORD)s',
      '${SECRET}',
      '$API_KEY',
    ]);
    const n = r.pick(['password', 'token', 'api_key', 'secret']);
    return { value: `${n}: "${p}"`, keep: [p] };
  }),
  ln('placeholder-masked-value', (r) => {
    const p = r.pick(['********', '***', '[REDACTED]', '<hidden>', '••••••••']);
    return { value: `DB_PASSWORD=${p}\nSMTP_PASSWORD=${p}`, keep: [p] };
  }),
  ln('aws-documented-example-keys', () => {
    const id = j('AKIA', 'IOSFODNN7', 'EXAMPLE');
    const key = j('wJalrXUtnFEMI', '/K7MDENG/bPxRfiCY', 'EXAMPLEKEY');
    return {
      value: `# from the AWS docs\naws_access_key_id = ${id}\naws_secret_access_key = ${key}`,
      keep: [id, key],
    };
  }),
  ln('stripe-object-ids', (r) => {
    const a = `cus_${r.str(ALNUM, 14)}`;
    const b = `pi_${r.str(ALNUM, 24)}`;
    const c = `evt_${r.str(ALNUM, 24)}`;
    return {
      value: `Customer ${a} was charged twice (payment intent ${b}, webhook event ${c}).`,
      keep: [a, b, c],
    };
  }),
  ln('slack-object-ids', (r) => {
    const c = `C0${r.str(UPPER_ALNUM, 9)}`;
    const u = `U0${r.str(UPPER_ALNUM, 9)}`;
    return { value: `Posting to channel ${c} as user ${u} fails with not_in_channel.`, keep: [c, u] };
  }),
  ln('test-fixture-ids', (r) => {
    const a = `usr_test_${r.str(LOWER_ALNUM, 16)}`;
    const b = `ord_${r.str(LOWER_ALNUM, 20)}`;
    return { value: `TEST_USER_ID=${a}\nTEST_ORDER_ID=${b}`, keep: [a, b] };
  }),
  ln('version-strings', (r) => {
    const a = `${r.int(1, 3)}.${r.int(0, 30)}.${r.int(0, 9)}-rc.${r.int(1, 5)}+build.${r.str(HEX, 7)}`;
    const b = `v${r.int(1, 3)}.${r.int(0, 20)}.0-beta.${r.int(1, 9)}.0.2026${r.int(10, 12)}${r.str(DIGITS, 8)}-${r.str(HEX, 12)}`;
    return { value: `Upgraded from ${a} to ${b}.`, keep: [a, b] };
  }),
  ln('kubernetes-pod-names', (r) => {
    const a = `api-${r.str(LOWER_ALNUM, 10)}-${r.str(LOWER_ALNUM, 5)}`;
    const b = `worker-${r.str(LOWER_ALNUM, 9)}-${r.str(LOWER_ALNUM, 5)}`;
    return {
      value: `NAME                     READY   STATUS             RESTARTS\n${a}   1/1     Running            0\n${b}   0/1     CrashLoopBackOff   7`,
      keep: [a, b],
    };
  }),
  ln('random-slugs-in-urls', (r) => {
    const a = r.str(B64URL, 21);
    const b = `renovate/npm-${r.pick(['lodash', 'axios', 'express'])}-vulnerability-${r.str(LOWER_ALNUM, 4)}`;
    return { value: `Repro: https://paste.example.com/p/${a} (branch ${b})`, keep: [a, b] };
  }),
  val('gitea-avatar-hash', ['AVATAR_URL'], (r) => `https://${host(r)}/avatars/${r.str(HEX, 32)}`),
  ln('gpg-fingerprint', (r) => {
    const f = r.str(HEX_UP, 40);
    return {
      value: `gpg --keyserver keys.openpgp.org --recv-keys ${f}\nPrimary key fingerprint: ${f.match(/.{4}/g)?.join(' ')}`,
      keep: [f],
    };
  }),
  ln('ssh-host-fingerprint', (r) => {
    const f = `SHA256:${b64(r.bytes(32)).replace(/=+$/, '')}`;
    return {
      value: `ED25519 key fingerprint is ${f}.\nAre you sure you want to continue connecting (yes/no/[fingerprint])?`,
      keep: [f],
    };
  }),
  ln('tls-cert-fingerprint', (r) => {
    const f = Array.from({ length: 32 }, () => r.str(HEX_UP, 2)).join(':');
    return { value: `sha256 Fingerprint=${f}`, keep: [f] };
  }),
  val('placeholder-ci-expression', ['DEPLOY_TOKEN', 'API_KEY', 'DB_PASSWORD'], (r) =>
    r.pick([
      '${{ secrets.DEPLOY_TOKEN }}',
      '${{ vars.API_URL }}',
      '${{ secrets.DB_PASSWORD }}',
      '${CI_JOB_TOKEN}',
    ]),
  ),
  val('ulid-ids', ['JOB_ID', 'EVENT_ID'], (r) => '01J' + r.str(CROCKFORD, 23)),
  ln('network-addresses', (r) => {
    const a = `fe80::${r.str(HEX, 4)}:${r.str(HEX, 4)}:${r.str(HEX, 4)}:${r.str(HEX, 4)}`;
    const m = Array.from({ length: 6 }, () => r.str(HEX, 2)).join(':');
    return { value: `eth0: inet6 ${a}/64 scope link\n      ether ${m}`, keep: [a, m] };
  }),
  ln('key-names-without-secrets', (r) => {
    const pairs = r.pick([
      ['password_min_length', '12'],
      ['token_ttl', '3600s'],
      ['secret_name', 'db-credentials'],
      ['api_key_header', 'X-Api-Key'],
      ['PASSWORD_RESET_TIMEOUT', '259200'],
      ['auth_method', 'oauth2'],
      ['TOKEN_ENDPOINT', 'https://auth.example.org/oauth/token'],
      ['secret_store', 'vault-kv-v2'],
    ]) as [string, string];
    return { value: `${pairs[0]}: ${pairs[1]}`, keep: [pairs[1]] };
  }),
  ln('kubernetes-secret-key-ref', (r) => {
    const n = `${r.pick(['app', 'api', 'billing'])}-secrets`;
    const k = r.pick(['db-password', 'api-key', 'gitea-token']);
    return {
      value: `env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: ${n}\n        key: ${k}`,
      keep: [n, k],
    };
  }),
  ln('ci-cache-keys', (r) => {
    const a = `node-modules-${r.str(HEX, 64)}`;
    return { value: `Cache restored from key: ${a}`, keep: [a] };
  }),
  ln('git-lfs-pointer', (r) => {
    const h = r.str(HEX, 64);
    return {
      value: `version https://git-lfs.github.com/spec/v1\noid sha256:${h}\nsize ${r.int(1000, 9000000)}`,
      keep: [h],
    };
  }),
  ln('sentry-event-id', (r) => {
    const e = r.str(HEX, 32);
    return { value: `The error was reported to Sentry, event ID ${e}.`, keep: [e] };
  }),
  ln('bundle-chunk-hashes', (r) => {
    const a = `main.${r.str(HEX, 20)}.js`;
    const b = `vendor.${r.str(HEX, 8)}.css`;
    return { value: `dist/assets/${a}   412.3 kB\ndist/assets/${b}    31.0 kB`, keep: [a, b] };
  }),
  ln('base64-plain-text', (r) => {
    const text = r.pick([
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-config\n',
      'Hello from the staging environment, build ' + r.int(100, 999),
      '{"feature":"search","enabled":true,"rollout":' + r.int(1, 100) + '}',
    ]);
    const e = b64(text);
    return { value: `echo "${e}" | base64 -d`, keep: [e] };
  }),
  ln('npm-shasum', (r) => {
    const s = sha(r);
    return {
      value: `"dist": {\n  "shasum": "${s}",\n  "tarball": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz"\n}`,
      keep: [s],
    };
  }),
  ln('hex-colour-and-css', (r) => {
    const c = `#${r.str(HEX, 6)}`;
    const k = `css-${r.str(LOWER_ALNUM, 6)}`;
    return { value: `.btn-primary { color: ${c}; } /* emotion class ${k} */`, keep: [c, k] };
  }),
  ln('random-build-ids', (r) => {
    const a = `${r.str(UPPER, 3)}-${r.str(DIGITS, 5)}`;
    const b = r.str(LOWER + DIGITS, 26);
    return {
      value: `Ticket ${a}; build ${b} on runner ${r.pick(['linux-amd64-01', 'arm64-03'])}`,
      keep: [a, b],
    };
  }),
  val(
    'gitea-commit-status-context',
    ['STATUS_TARGET_URL'],
    (r) =>
      `https://ci.${r.pick(['acme', 'example'])}.io/${slugRepo(r)}/builds/${r.int(1000, 99999)}?sha=${sha(r)}`,
  ),
  ln('base64-encoded-public-cert-in-env', (r) => {
    const c = b64(
      `-----BEGIN CERTIFICATE-----\n${wrap(b64(r.bytes(300)), 64).join('\n')}\n-----END CERTIFICATE-----\n`,
    );
    return { value: `CA_BUNDLE_B64=${c}`, keep: [c] };
  }),
  ln('random-words-passphrase-docs', (r) => {
    const w = `${r.pick(['correct', 'purple', 'tiger'])}-horse-battery-staple`;
    return { value: `Example of a good passphrase format (do not use this one): ${w}`, keep: [w] };
  }),
  ln('b64url-state-param', (r) => {
    const s = r.str(B64URL, 43);
    return {
      value: `GET /login/oauth/authorize?client_id=${uuid(r)}&redirect_uri=https%3A%2F%2Fapp.example.org%2Fcb&response_type=code&state=${s}`,
      keep: [s],
    };
  }),
  ln('b64-image-hash-avatar', (r) => {
    const d = b64(r.bytes(24));
    return { value: `blurhash: "${r.str(B64.replace('/', '#'), 28)}"\nthumbhash: "${d}"`, keep: [d] };
  }),
];
