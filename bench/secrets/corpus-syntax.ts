// Tuning-corpus additions (issue 12, eleventh pass): syntaxes a probe of uniform draws found missed
// (bench/secrets/probe.ts over bench/secrets/corpus-probe.ts, tuning side only; no held-out sample
// or miss was read):
// - a prose or table value of random letters only, which the prose check's digit test passed by;
// - JSON name/value pairs in text with white space (`"name": "X", "data": "..."`, pretty-printed);
// - a private key written one string per line whose first strings are headers or blank (encrypted
//   PEM, PGP's `Version:`), and a PGP block (armour `PRIVATE KEY BLOCK`) written so;
// - command-line flags with a compound name or `pwd` (`--smtp-pass`, `--admin-pwd`) and a base64
//   value whose `=` padding had it read as `name=value` pairs;
// - `pass` and `pwd` in prose and tables ("the smtp pass is X", `| ADMIN_PWD | X |`);
// - a URL-safe draw without a digit (letters with `_` or `-`) under a secret name, unquoted;
// - a Terraform variable's default in a .tf file quoted in a JSON string (escaped quotes);
// - a Kubernetes env value that is quoted and starts with `#` (unquoted, `#` starts a comment);
// - a URL password written raw with the `/` of base64 (`openssl rand -base64`);
// - a connection string's `;Password=` value holding `&` or brackets among a generator's symbols.
// Hard negatives of the same shapes follow. Secrets are drawn at run time from the seeded PRNG;
// armour and prefixes are joined from pieces.
import type { NegativeFormat, SecretFormat } from './corpus';
import { A, B, BEGIN, D, END, f, H, j, L, mk, n, U } from './corpus-kit';

type Pick = (s: string, k: number) => string;
const choose = <T>(pick: Pick, xs: readonly T[]): T => xs[parseInt(pick(H, 4), 16) % xs.length]!;
/**
 * 20 letters of both cases (a draw of base62 without a digit), whose case changes as a draw's do
 * (capitals after small letters twice, capitals together twice) wherever the rest falls.
 */
const letters20 = (pick: Pick): string =>
  pick(U, 1) + pick(L, 1) + pick(U, 3) + pick(L, 2) + pick(U, 1) + pick(U + L, 12);
const b64key = (pick: Pick): string => pick(B, 43) + '=';
const keyLines = (pick: Pick, k: number): string[] => Array.from({ length: k }, () => pick(B, 64));

export const SYNTAX_SECRET_FORMATS: SecretFormat[] = [
  f('prose-letters-only-is', (pick) => {
    const v = letters20(pick);
    const what = choose(pick, [
      'runner token',
      'admin password',
      'client secret',
      'API key',
      'webhook secret',
    ]);
    return mk(v, `FYI the ${what} is ${v} until we rotate it`);
  }),
  f('md-table-letters-only', (pick) => {
    const v = letters20(pick);
    const name = choose(pick, ['MYSQL_ROOT_PASSWORD', 'RUNNER_TOKEN', 'CLIENT_SECRET', 'API_KEY']);
    return mk(v, `| name | value |\n|---|---|\n| ${name} | ${v} |`);
  }),
  f('json-text-name-data-spaced', (pick) => {
    const v = choose(pick, [b64key(pick), pick(A, 32), pick(H, 40)]);
    const name = choose(pick, ['APP_SECRET', 'DEPLOY_TOKEN', 'SMTP_PASSWORD', 'API_KEY']);
    return mk(v, `{"name": "${name}", "data": "${v}", "description": ""}`);
  }),
  f('json-text-name-value-pretty', (pick) => {
    const v = choose(pick, [b64key(pick), pick(A, 28), pick(H, 64)]);
    const name = choose(pick, ['DB_PASSWORD', 'JWT_SECRET', 'GITEA_TOKEN', 'ENCRYPTION_KEY']);
    return mk(v, `[\n  {\n    "name": "${name}",\n    "value": "${v}"\n  }\n]`);
  }),
  f('pem-strings-encrypted-headers', (pick) => {
    const body = keyLines(pick, 4);
    const lines = [
      BEGIN(j('RSA PRIV', 'ATE KEY')),
      'Proc-Type: 4,ENCRYPTED',
      `DEK-Info: AES-128-CBC,${pick(H, 32).toUpperCase()}`,
      '',
      ...body,
      END(j('RSA PRIV', 'ATE KEY')),
    ];
    return mk(body[1]!, 'KEY = (\n' + lines.map((l) => `    "${l}\\n"`).join('\n') + '\n)');
  }),
  f('pgp-strings-concatenated', (pick) => {
    const body = keyLines(pick, 4);
    const label = j('PGP PRIV', 'ATE KEY BLOCK');
    const lines = [BEGIN(label), 'Version: GnuPG v2', '', ...body, '=' + pick(B, 4), END(label)];
    return mk(body[2]!, 'String key =\n' + lines.map((l) => `    "${l}\\n"`).join(' +\n') + ';');
  }),
  f('flag-compound-name-base64', (pick) => {
    const v = b64key(pick);
    const flag = choose(pick, ['--smtp-pass', '--admin-pwd', '--mysql-root-password', '--db-pass']);
    return mk(v, `./deploy.sh ${flag} ${v} --host db.internal`);
  }),
  f('prose-pass-pwd', (pick) => {
    const v = pick(A, 18) + pick(D, 2);
    return mk(
      v,
      choose(pick, [
        `the smtp pass is ${v}`,
        `| ADMIN_PWD | ${v} |`,
        `| SMTP_PASS | \`${v}\` |`,
        `vpn pass: ${v}`,
      ]),
    );
  }),
  f('urlsafe-letters-assignment', (pick) => {
    const v = letters20(pick).slice(0, 7) + '_' + letters20(pick).slice(0, 9) + '-' + pick(U + L, 6);
    const name = choose(pick, ['JWT_SECRET', 'PRIVATE_TOKEN', 'SESSION_SECRET', 'API_TOKEN']);
    return mk(v, choose(pick, [`${name}=${v}`, `  ${name}: ${v}`, `+ export ${name}=${v}`]));
  }),
  f('terraform-default-escaped', (pick) => {
    const v = pick(A, 28) + pick(D, 1);
    const name = choose(pick, ['client_secret', 'db_password', 'api_token']);
    const tf = `variable "${name}" {\n  type    = string\n  default = "${v}"\n}`;
    return mk(v, JSON.stringify({ message: 'plan failed', file: tf }));
  }),
  f('k8s-env-quoted-hash', (pick) => {
    const v = '#' + pick(A, 1) + pick(A + '!@%^&*-_+=.~', 15);
    const name = choose(pick, ['DB_PASSWORD', 'SMTP_PASS', 'JWT_SECRET']);
    return mk(v, `        env:\n        - name: ${name}\n          value: "${v}"`);
  }),
  f('url-password-raw-base64', (pick) => {
    const v = pick(B, 20) + '/' + pick(B, 22) + '=';
    const scheme = choose(pick, ['postgres', 'mysql', 'redis', 'amqp', 'mongodb']);
    return mk(v, `DATABASE_URL=${scheme}://app:${v}@db.internal:5432/app`);
  }),
  f('connection-string-password-symbols', (pick) => {
    const v = pick(A, 3) + pick(A + '!@#%^&*-_+=.~()[]', 14) + pick(D, 1);
    return mk(v, `Server=tcp:db.internal,1433;Database=app;User ID=app;Password=${v};Encrypt=True;`);
  }),
];

export const SYNTAX_NEGATIVE_FORMATS: NegativeFormat[] = [
  n('prose-letters-words', (pick) =>
    choose(pick, [
      'the token is KubernetesClusterName, the password is ReadFromVaultPlease',
      `| SESSION_KEY | UserSessionKey${pick(D, 0)} |`,
      `the page token is ${pick(U + L, 20)}`,
      'the API key is DeprecatedSinceVersionTwo',
      'client secret: StoredInTheVaultOnly',
    ]),
  ),
  n('json-text-name-value-meta', (pick) =>
    choose(pick, [
      `{"name": "DB_PASSWORD_LENGTH", "value": "${pick(D, 2)}"}`,
      `{"name": "TOKEN_TTL", "data": "${pick(D, 4)}s", "description": ""}`,
      '[\n  {\n    "name": "SECRET_NAME",\n    "value": "db-credentials"\n  }\n]',
      '{"name": "API_TOKEN", "value": "${{ secrets.API_TOKEN }}"}',
      `{"name": "DEPLOY_KEY_ID", "data": "${pick(D, 6)}"}`,
    ]),
  ),
  n('public-key-strings-concatenated', (pick) => {
    const label = choose(pick, [j('PGP PUB', 'LIC KEY BLOCK'), j('PUB', 'LIC KEY'), j('CERTIFI', 'CATE')]);
    const lines = [BEGIN(label), 'Version: GnuPG v2', '', ...keyLines(pick, 3), END(label)];
    return 'KEY = (\n' + lines.map((l) => `    "${l}\\n"`).join('\n') + '\n)';
  }),
  n('flag-pairs-and-files', (pick) =>
    choose(pick, [
      'docker build --secret id=npmrc,src=$HOME/.npmrc .',
      `./deploy.sh --db-pass-file /run/secrets/db_${pick(L, 4)}`,
      `./deploy.sh --token-ttl ${pick(D, 4)} --smtp-pass-env SMTP_PASSWORD`,
      `buildx build --secret id=gitea,env=GITEA_TOKEN${pick(D, 0)} .`,
    ]),
  ),
  n('assigned-title-snake-words', (pick) =>
    choose(pick, [
      `DB_PASSWORD_SECRET=Prod_Db_Password_${choose(pick, ['Main', 'Replica'])}`,
      `  api_token: Billing-Api-Token`,
      `SESSION_SECRET=KEEP_IN_VAULT_ONLY`,
      `PRIVATE_TOKEN=read_from_env-file`,
    ]),
  ),
  n('k8s-env-value-comment', (pick) =>
    choose(pick, [
      `        - name: DB_PASSWORD\n          value: # set by the pipeline (run ${pick(D, 4)})`,
      `        - name: SMTP_PASS\n          value: "#"`,
      `        - name: JWT_SECRET\n          value: "#{jwt_secret}"`,
    ]),
  ),
  n('url-port-path-at', (pick) =>
    choose(pick, [
      `see https://gitea.example.com:3000/org/repo/src/branch/main/docs@v${pick(D, 1)}`,
      `http://registry.internal:5000/v2/app/manifests/sha256@latest`,
      `https://cdn.example.com:8443/npm/@scope/pkg@1.${pick(D, 1)}.0/dist/index.js`,
    ]),
  ),
  n('connection-string-next-pair', (pick) =>
    choose(pick, [
      `https://api.example.com/x?user=a;password=&next=${pick(D, 2)}`,
      `Server=db;User ID=app;Password=;Encrypt=True;TrustServerCertificate=False`,
      `jdbc:sqlserver://db:1433;user=app;password=\${DB_PASSWORD};encrypt=true`,
    ]),
  ),
  n('prose-pass-not-password', (pick) =>
    choose(pick, [
      'the boarding pass is ready',
      `| pass | ${pick(D, 2)}/${pick(D, 2)} tests |`,
      `pass: ${pick(D, 2)} of ${pick(D, 2)} checks (run ${pick(H, 7)})`,
      `the mountain pass is closed until 2026-12-${pick(D, 1)}0`,
    ]),
  ),
];
