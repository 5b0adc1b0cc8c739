// Tuning-corpus additions (issue 12, tenth pass): uniform draws and the look-alikes found on main,
// written from the tuning side only (no held-out sample or miss was read).
// The earlier corpora draw their values through helpers that force both cases and a digit (`key`,
// `mpw`, `pw`: "never a word"), so a rule that asks for a digit or for `[A-Za-z0-9]` only never met a
// value that lacks one. A writer who draws a password as N characters of one alphabet gets a
// letters-only value one time in twenty (16 of base62) and an `&`, a `!` or a `%` in most draws of a
// symbol alphabet. The secret formats here draw uniformly, in the syntaxes Gitea bodies carry.
// The look-alikes are values under a secret-sounding name that are not secrets (fingerprints, digests,
// go.sum lines of a module named `api`, CI cache keys), which the engine on main masked.
// Secrets are drawn at run time from the seeded PRNG; prefixes are joined from pieces.
import type { NegativeFormat, SecretFormat } from './corpus';
import { A, B, D, f, H, L, mk, n, U } from './corpus-kit';

type Pick = (s: string, k: number) => string;
/** Symbols a password generator draws from (no quotes, brackets or `$`, which shells and templates read). */
const SYM = '!@#%^&*-_+=.~';
/** The same with brackets, as `pwgen -y` and password managers draw them. */
const BRK = SYM + '()[]{}<>';
/** A password drawn uniformly from letters, digits and symbols; the first character is not a symbol. */
const symPw = (pick: Pick, k: number): string => pick(A, 1) + pick(A + SYM, k - 1);
/** N characters of base62, uniformly: letters only in some draws. */
const uni = (pick: Pick, k: number): string => pick(A, k);
const choose = <T>(pick: Pick, xs: readonly T[]): T =>
  xs[parseInt(pick(D + D.slice(0, 6), 2), 16) % xs.length]!;
const PW_NAMES = [
  'DB_PASSWORD',
  'REDIS_PASSWORD',
  'SMTP_PASS',
  'ADMIN_PWD',
  'MYSQL_PASSWD',
  'LDAP_BIND_PASSWORD',
];
const SECRET_NAMES = [
  'JWT_SECRET',
  'AUTH_TOKEN',
  'SESSION_SECRET',
  'CLIENT_SECRET',
  'WEBHOOK_SECRET',
  'API_TOKEN',
];

export const DRAWS_SECRET_FORMATS: SecretFormat[] = [
  // ---- Passwords with symbols, unquoted and quoted ----------------------------------------------------
  f('dotenv-password-symbols', (pick) => {
    const v = symPw(pick, 16);
    return mk(v, `${choose(pick, PW_NAMES)}=${v}`);
  }),
  f('yaml-password-symbols', (pick) => {
    const v = symPw(pick, 14);
    return mk(v, `database:\n  host: db.internal\n  password: ${v}`);
  }),
  f('ini-password-symbols', (pick) => {
    const v = symPw(pick, 18);
    return mk(v, `[mysql]\nuser = app\npassword = ${v}`);
  }),
  f('docker-run-password-symbols', (pick) => {
    const v = symPw(pick, 16);
    return mk(v, `docker run -d -e ${choose(pick, PW_NAMES)}=${v} -p 5432:5432 postgres:16`);
  }),
  f('json-password-leading-symbol', (pick) => {
    const v = pick('!@#%^&*', 1) + pick(A + SYM, 15);
    return mk(v, `{"user": "svc", "password": "${v}"}`);
  }),
  f('quoted-password-symbols', (pick) => {
    const v = pick(A + SYM, 20);
    return mk(v, `export ${choose(pick, PW_NAMES)}="${v}"`);
  }),
  // A generator's full symbol set has brackets: a bracket inside a value is one of its symbols, not a
  // placeholder's mark (which wraps the value, or follows a call's or an index's name).
  f('json-password-brackets', (pick) => {
    const v = pick(A, 2) + pick(A + BRK, 14);
    return mk(v, `{"user": "svc", "password": "${v}"}`);
  }),
  f('unquoted-password-brackets', (pick) => {
    const v = pick(A, 2) + pick(A + BRK, 14);
    return mk(
      v,
      choose(pick, [
        `${choose(pick, PW_NAMES)}=${v}`,
        `database:\n  password: ${v}`,
        `[mysql]\nuser = app\npassword = ${v}`,
        `docker run -d -e ${choose(pick, PW_NAMES)}=${v} postgres:16`,
      ]),
    );
  }),
  // ---- Base62 drawn uniformly (letters only in some draws) ------------------------------------------
  f('dotenv-secret-uniform', (pick) => {
    const v = uni(pick, 12 + (parseInt(pick(D, 1), 10) % 3) * 4);
    return mk(v, `${choose(pick, [...PW_NAMES, ...SECRET_NAMES])}=${v}`);
  }),
  f('compose-secret-uniform', (pick) => {
    const v = uni(pick, 16);
    return mk(v, `    environment:\n      - ${choose(pick, SECRET_NAMES)}=${v}`);
  }),
  f('yaml-secret-letters', (pick) => {
    const v = pick(U + L, 20);
    return mk(v, `  ${choose(pick, ['jwt_secret', 'client_secret', 'auth_token', 'password'])}: ${v}`);
  }),
  // ---- Lines of a JSON string: `pw:` at a line's start (after a `\n` escape), prose at its end -----
  f('pw-line-in-body', (pick) => {
    const v = uni(pick, 20) + pick(D, 1);
    return mk(v, `Staging access for the demo:\nuser: demo\npw: ${v}\n\nplease rotate after`);
  }),
  f('prose-is-now-at-string-end', (pick) => {
    const v = uni(pick, 23) + pick(D, 1);
    return mk(
      v,
      `Rotated the credentials today, the ${choose(pick, ['access token', 'deploy token', 'admin password'])} is now ${v}`,
    );
  }),
  // ---- Base64 that starts with `/` (one draw in 64), not a path ----------------------------------------
  f('base64-key-leading-slash', (pick) => {
    const v = '/' + pick(B, 42) + '=';
    return mk(
      v,
      choose(pick, [
        `ENCRYPTION_KEY=${v}`,
        `  signing_key: "${v}"`,
        `secret = os.getenv("APP_SECRET", "${v}")`,
        `the API secret is ${v}`,
      ]),
    );
  }),
  // ---- Python: a default in the environment lookup ------------------------------------------------
  f('python-environ-default', (pick) => {
    const v = uni(pick, 24);
    const name = choose(pick, [...PW_NAMES, ...SECRET_NAMES, 'API_KEY', 'SECRET_KEY', 'SIGNING_KEY']);
    const call = pick('ab', 1) === 'a' ? 'os.environ.get' : 'os.getenv';
    return mk(v, `${name.toLowerCase()} = ${call}("${name}", "${v}")`);
  }),
];

export const DRAWS_NEGATIVE_FORMATS: NegativeFormat[] = [
  // Of the shapes the draws above read: identifiers and words (CamelCase, with acronyms), YAML tags,
  // dotted references, query strings whose next parameter follows the `&`, shell `&&` and entities.
  n('assigned-identifier-words', (pick) => {
    const w = ['getUserByIdAndName', 'KubernetesClusterName', 'ReadFromVaultPlease', 'parseHttpResponseBody'];
    return `${choose(pick, ['token', 'password', 'client_secret', 'AUTH_TOKEN'])}: ${choose(pick, w)}`;
  }),
  n('assigned-yaml-tag', (pick) =>
    choose(pick, [
      `DbPassword: !Ref DatabasePassword${pick(D, 1)}`,
      `  password: !vault |\n    $ANSIBLE_VAULT;1.1;AES256`,
      `"client_secret": "!Sub '\${ClientSecret}'"`,
      `  token: !ENV \${GITEA_TOKEN}`,
    ]),
  ),
  n('assigned-dotted-reference', (pick) =>
    choose(pick, [
      'password: settings.DatabasePassword',
      'token = config.smtp.token',
      `secret: ctx.Secrets.ApiKey`,
      `PASSWORD=Rails.application.credentials.db`,
    ]),
  ),
  n('secret-named-absolute-path', (pick) =>
    choose(pick, [
      `ENCRYPTION_KEY=/etc/app/keys/enc${pick(D, 1)}.key`,
      '  token: /run/secrets/GITEA_TOKEN',
      `secret = os.getenv("APP_SECRET", "/var/lib/app/secret${pick(D, 1)}")`,
      'the API secret is /run/secrets/api',
    ]),
  ),
  n('pw-line-not-a-password', (pick) =>
    choose(pick, [
      `Steps:\npwd: /home/runner/work/app${pick(D, 1)}\nls: ok`,
      `user: demo\npw: ask in #ops (1Password, vault item ${pick(D, 3)})`,
      `user: demo\npw: see the vault\nport: 80${pick(D, 2)}`,
      `the build token is now expired (run ${pick(D, 4)})`,
    ]),
  ),
  n('query-ampersand-next-parameter', (pick) =>
    choose(pick, [
      `curl "https://api.example.com/v1/export?token=&format=csv&page=${pick(D, 2)}"`,
      `https://gitea.example.com/user/login?redirect_to=%2F&password_reset=1&lang=en`,
      `PASSWORD=required&&echo configured`,
      `<a href="/settings?secret=off&amp;tab=keys">keys</a>`,
    ]),
  ),
  // Brackets where code or a template puts them: a call, an index, an interpolation, a wrapped slot.
  n('assigned-call-index-interpolation', (pick) =>
    choose(pick, [
      `password = getpass.getpass("Password for ${pick(L, 5)}: ")`,
      `  "password": "#{ENV['DB_PASSWORD_${pick(D, 1)}']}",`,
      `token: %{gitea_token_${pick(L, 4)}}`,
      `client_secret = request.form["client_secret_${pick(D, 1)}"]`,
    ]),
  ),
  // A bracket that ends an unquoted value is a delimiter: the slot is a word or a reference.
  n('assigned-bracket-delimiter', (pick) =>
    choose(pick, [
      `env: {DB_PASSWORD: required, PORT: 54${pick(D, 2)}}`,
      `(see TOKEN=none) and retry ${pick(D, 2)} times`,
      `[[ -n $PASSWORD ]] && echo set${pick(D, 1)}`,
      `password: <redacted> # rotated ${pick(D, 2)} days ago`,
    ]),
  ),
  // A fingerprint, digest or checksum of a key is public: it identifies the key, it does not open anything.
  n('key-fingerprint-hex', (pick) =>
    pick('ab', 1) === 'a'
      ? `API_KEY_FINGERPRINT=${pick(H, 64)}`
      : `export DEPLOY_KEY_FINGERPRINT="${pick(H, 40)}"`,
  ),
  n('token-sha256-hex', (pick) =>
    pick('ab', 1) === 'a' ? `TOKEN_SHA256=${pick(H, 64)}` : `api_token_sha256: ${pick(H, 64)}`,
  ),
  n('secret-digest-hex', (pick) =>
    pick('ab', 1) === 'a' ? `SECRET_DIGEST=${pick(H, 32)}` : `client_secret_checksum = "${pick(H, 64)}"`,
  ),
  // go.sum: a module whose path holds `api` (the generic rule's keyword) and its h1: hash.
  n('go-sum-api-module', (pick) => {
    const v = `v1.${pick(D, 1)}.${pick(D, 1)}`;
    const mod = pick('ab', 1) === 'a' ? 'github.com/acme/api-client' : 'google.golang.org/api';
    return `${mod} ${v} h1:${pick(B, 43)}=\n${mod} ${v}/go.mod h1:${pick(B, 43)}=`;
  }),
  // CI cache keys: a tool, `cache`, and a random or hashed suffix (actions/cache, Gitea runners).
  n('ci-cache-key', (pick) => {
    const tool = ['npm', 'yarn', 'pnpm', 'pip', 'gradle', 'cargo'][Math.floor(Number(pick(D, 1)) / 2)]!;
    return pick('ab', 1) === 'a'
      ? `Cache restored from key: ${tool}-cache-${pick(A, 32)}`
      : `  key: ${tool}-cache-${pick(A, 40)}`;
  }),
];
