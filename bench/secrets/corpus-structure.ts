// Tuning-corpus additions (issue 12, ninth pass): JSON structure and names, written from the tuning
// side only (no held-out sample or miss was read):
// - arrays under a name that says secrets in a parsed JSON body (`"api_keys": [...]`, `"signingKeys":
//   [...]`, nested `"tokens"`), where the string walk scans each item apart from its key;
// - a private key written one line per array item in a parsed JSON body (pretty or compact, at the
//   top or under any key, with `Proc-Type:` headers), and as a YAML list of quoted lines;
// - Actions variables whose name puts the secret word first (`TOKEN_PROD`, `PASSWORD_DB`) or names
//   keying material (`HMAC_KEY`, `PEPPER`, `SALT`, `PAT`);
// - a Gitea token handed to a client in code (`SetToken("...")`, `f"token ..."`);
// - a password of lower-case letters then 3+ digits in prose (`the password is hunter2024`).
// Hard negatives of the same shapes follow: arrays of ids, scopes and public keys under key-like
// names, public keys and certificates as arrays of lines, meta-named variables (TOKEN_TTL,
// PASSWORD_MIN_LENGTH) and SHAs handed to code.
// Secrets are drawn at run time from the seeded PRNG; armour and prefixes are joined from pieces.
import type { NegativeFormat, SecretFormat } from './corpus';
import { A, B, BEGIN, D, END, f, H, j, L, mk, n, U, uuid, W } from './corpus-kit';

type Pick = (s: string, k: number) => string;
const json = (sf: SecretFormat): SecretFormat => ({ ...sf, body: 'json' });
const jsonNeg = (nf: NegativeFormat): NegativeFormat => ({ ...nf, body: 'json' });
/** Key material with both cases and a digit (never a word). */
const key = (pick: Pick, k: number): string => pick(U, 1) + pick(L, 1) + pick(A, k - 3) + pick(D, 1);
const mpw = (pick: Pick): string => pick(U, 1) + pick(L, 1) + pick(A, 10) + pick(D, 2);
const lines = (pick: Pick, k: number): string[] => {
  const out: string[] = [];
  for (let i = 0; i < k; i++) out.push(pick(B, 64));
  out.push(pick(B, 22) + '==');
  return out;
};
const variable = (name: string, data: string): string =>
  JSON.stringify({ owner_id: 0, repo_id: 7, name, data, description: '' });

export const STRUCTURE_SECRET_FORMATS: SecretFormat[] = [
  // ---- Arrays under a secret name in a parsed JSON body ---------------------------------------------
  json(
    f('json-body-api-keys-array', (pick) => {
      const a = [key(pick, 32), key(pick, 32)];
      return mk(a.join(''), JSON.stringify({ service: 'billing', api_keys: a }, null, 2));
    }),
  ),
  json(
    f('json-body-signing-keys-camel', (pick) => {
      const a = [key(pick, 40), key(pick, 40)];
      return mk(a.join(''), JSON.stringify({ jwt: { issuer: 'app', signingKeys: a } }));
    }),
  ),
  json(
    f('json-body-nested-tokens', (pick) => {
      const a = [key(pick, 36)];
      return mk(a.join(''), JSON.stringify({ bots: { deploy: { tokens: a, scopes: ['repo'] } } }, null, 4));
    }),
  ),
  json(
    f('json-body-passwords-array', (pick) => {
      const a = [mpw(pick), mpw(pick), mpw(pick)];
      return mk(a.join(''), JSON.stringify({ users: ['ci', 'ops', 'dev'], passwords: a }));
    }),
  ),
  // ---- A private key as an array of lines -------------------------------------------------------------
  json(
    f('json-body-pem-lines-pretty', (pick) => {
      const b = lines(pick, 5);
      const label = 'RSA PRIVATE KEY';
      return mk(b.join(''), JSON.stringify({ tls: { key: [BEGIN(label), ...b, END(label)] } }, null, 2));
    }),
  ),
  json(
    f('json-body-pem-lines-top-level', (pick) => {
      const b = lines(pick, 4);
      return mk(b.join(''), JSON.stringify([BEGIN('PRIVATE KEY'), ...b, END('PRIVATE KEY')]));
    }),
  ),
  json(
    f('json-body-pem-lines-encrypted-headers', (pick) => {
      const b = lines(pick, 4);
      const label = 'EC PRIVATE KEY';
      const arr = [
        BEGIN(label),
        'Proc-Type: 4,ENCRYPTED',
        `DEK-Info: AES-256-CBC,${pick('0123456789ABCDEF', 32)}`,
        '',
        ...b,
        END(label),
      ];
      return mk(b.join(''), JSON.stringify({ name: 'edge', lines: arr }, null, 2));
    }),
  ),
  json(
    f('json-body-pem-lines-newline-items', (pick) => {
      const b = lines(pick, 4);
      const label = 'OPENSSH PRIVATE KEY';
      const arr = [BEGIN(label), ...b, END(label)].map((l) => l + '\n');
      return mk(b.join(''), JSON.stringify({ deploy_key_lines: arr }));
    }),
  ),
  f('yaml-pem-quoted-list', (pick) => {
    const b = lines(pick, 4);
    const label = 'PRIVATE KEY';
    return mk(
      b.join(''),
      'signer:\n  key:\n' + [BEGIN(label), ...b, END(label)].map((l) => `    - "${l}"`).join('\n'),
    );
  }),
  // ---- Actions variables named secret-first or by keying material -----------------------------------
  json(
    f('actions-variable-token-first-hex', (pick) => {
      const s = pick(H, 40);
      return mk(s, variable('TOKEN_PROD', s));
    }),
  ),
  json(
    f('actions-variable-password-first', (pick) => {
      const s = mpw(pick);
      return mk(s, variable('PASSWORD_REPLICA', s));
    }),
  ),
  json(
    f('actions-variable-hmac-key', (pick) => {
      const s = pick(H, 64);
      return mk(s, variable('HMAC_KEY', s));
    }),
  ),
  json(
    f('actions-variable-pepper', (pick) => {
      const s = key(pick, 32);
      return mk(s, variable('PEPPER', s));
    }),
  ),
  json(
    f('actions-variable-bare-salt', (pick) => {
      const s = pick(W, 22);
      return mk(s, variable('SALT', s + pick(D, 2)));
    }),
  ),
  json(
    f('actions-variable-bare-pat', (pick) => {
      const s = key(pick, 40);
      return mk(s, variable('PAT', s));
    }),
  ),
  // ---- A Gitea token handed to a client in code -------------------------------------------------------
  f('go-sdk-set-token', (pick) => {
    const s = pick(H, 40);
    return mk(s, `client, err := gitea.NewClient(url, gitea.${j('Set', 'Token')}("${s}"))`);
  }),
  f('python-fstring-token-header', (pick) => {
    const s = pick(H, 40);
    return mk(s, `headers = {"Authorization": f"token ${s}", "Accept": "application/json"}`);
  }),
  // ---- Prose: a password of lower-case letters then digits ---------------------------------------------
  f('prose-password-letters-then-digits', (pick) => {
    const s = pick(L, 9) + pick(D, 4);
    return mk(s, `the admin password is ${s} until Friday`);
  }),
];

export const STRUCTURE_NEGATIVE_FORMATS: NegativeFormat[] = [
  jsonNeg(
    n('json-body-key-named-id-arrays', (pick) =>
      JSON.stringify({
        keys: ['id', 'name', 'created_at'],
        token_scopes: ['read:repository', 'write:issue'],
        api_keys_ids: [uuid(pick), uuid(pick)],
        publicKeys: [`ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${pick(A, 43)} ci@example.com`],
        cache_keys: [`build-${pick(H, 12)}`, `deps-${pick(H, 12)}`],
      }),
    ),
  ),
  jsonNeg(
    n('json-body-public-key-lines', (pick) => {
      const b = [pick(B, 64), pick(B, 64), pick(B, 20) + '=='];
      return JSON.stringify({
        pub: [BEGIN('PUBLIC KEY'), ...b, END('PUBLIC KEY')],
        cert: [BEGIN('CERTIFICATE'), ...b, END('CERTIFICATE')],
      });
    }),
  ),
  jsonNeg(n('actions-variable-token-ttl', (pick) => variable('TOKEN_TTL', `${pick(D, 4)}`))),
  jsonNeg(
    n('actions-variable-password-min-length', (pick) => variable('PASSWORD_MIN_LENGTH', `1${pick(D, 1)}`)),
  ),
  jsonNeg(
    n('actions-variable-secret-name-ref', (pick) => variable('SECRET_NAME', `db-credentials-${pick(D, 2)}`)),
  ),
  jsonNeg(n('actions-variable-salt-rounds', (pick) => variable('SALT_ROUNDS', `1${pick(D, 1)}`))),
  n(
    'prose-names-with-short-numbers',
    (pick) => `the token is node1${pick(D, 1)} now; the password is staging-${pick(D, 1)}`,
  ),
  n('go-sdk-commit-sha-call', (pick) => `c.GetCommit(owner, repo, "${pick(H, 40)}") // token-free read`),
];
