// Tuning-corpus additions (issue 12, fifth pass): shapes the tuning corpus still lacked, from the
// providers' own key-format documentation (Cloudflare's scannable cfk_/cfut_/cfat_ credentials,
// Vercel's prefixed tokens, Elastic's essu_ keys and ApiKey scheme, Okta's SSWS scheme), the public
// detector lists of trufflehog and gitleaks (PostHog, Harness, Mailgun's newer keys, ngrok, Azure
// Container Registry, Azure App Configuration, Sentry DSNs, Airtable's legacy keys, PagerDuty), and
// from the ways secrets are written in what Gitea returns: split across lines and strings (PEM lines
// as a JSON array or as concatenated literals), C# object initialisers and constructor arguments,
// HCL heredocs, Python triple-quoted strings, `pwd`/`creds` in prose, arrays under secret names,
// and command lines (kubectl --from-literal, helm --set, gh secret set, ldapsearch -w, net user,
// cmdkey, SQL CREATE USER ... PASSWORD). Hard negatives of the same shapes follow. Secrets are
// assembled at run time from a seeded PRNG; prefixes are split so no secret-shaped literal is here.
import type { Rng, SecretFormat } from './corpus';
import { A, B, BEGIN, D, END, f, H, j, L, mk, n, pw, U, W } from './corpus-kit';

export const RECALL_SECRET_FORMATS: SecretFormat[] = [
  // ---- Provider prefixes ---------------------------------------------------------------------
  f('cloudflare-cfut', (pick) => {
    const s = j('cf', 'ut_', pick(A, 40), pick(H, 8));
    return mk(s, `wrangler: using ${s}`);
  }),
  f('cloudflare-cfat', (pick) => {
    const s = j('cf', 'at_', pick(A, 40), pick(H, 8));
    return mk(s, `CF_TOKEN="${s}"`);
  }),
  f('cloudflare-cfk', (pick) => {
    const s = j('cf', 'k_', pick(A, 40), pick(H, 8));
    return mk(s, `global key ${s}`);
  }),
  f('vercel-vcp', (pick) => {
    const s = j('vc', 'p_', pick(A, 56));
    return mk(s, `vercel deploy --prod --token ${s}`);
  }),
  f('vercel-vci', (pick) => {
    const s = j('vc', 'i_', pick(A, 56));
    return mk(s, s);
  }),
  f('vercel-vca', (pick) => {
    const s = j('vc', 'a_', pick(A, 56));
    return mk(s, `use ${s}`);
  }),
  f('elastic-essu', (pick) => {
    const s = j('es', 'su_', pick(B, 76), '==');
    return mk(s, `cloud key ${s}`);
  }),
  f('elastic-apikey-header', (pick) => {
    const s = Buffer.from(`${pick(A, 20)}:${pick(W, 22)}`).toString('base64');
    return mk(s, `curl -H "Authorization: ApiKey ${s}" https://es.example.com:9200/_cat/indices`);
  }),
  f('okta-ssws', (pick) => {
    const s = j('00', pick(W, 40));
    return mk(s, `-H 'Authorization: SSWS ${s}'`);
  }),
  f('posthog-personal', (pick) => {
    const s = j('ph', 'x_', pick(A, 47));
    return mk(s, s);
  }),
  f('harness-pat', (pick) => {
    const s = j('pa', 't.', pick(A, 22), '.', pick(H, 24), '.', pick(A, 20));
    return mk(s, `x-api-key: ${s}`);
  }),
  f('harness-pat-bare', (pick) => {
    const s = j('pa', 't.', pick(A, 22), '.', pick(H, 24), '.', pick(A, 20));
    return mk(s, `harness token ${s}`);
  }),
  f('mailgun-hex-key', (pick) => {
    const s = `${pick(H, 32)}-${pick(H, 8)}-${pick(H, 8)}`;
    return mk(s, `mailgun: ${s}`);
  }),
  f('ngrok-authtoken', (pick) => {
    const s = `2${pick(A, 26)}_${pick(D, 1)}${pick(A, 20)}`;
    return mk(s, `ngrok config add-authtoken ${s}`);
  }),
  f('acr-password', (pick) => {
    const s = j(pick(B, 42), '+AC', 'R', pick(A, 6));
    return mk(s, `docker login myreg.azurecr.io -u myreg --password-stdin <<< ${s}`);
  }),
  f('acr-password-bare', (pick) => {
    const s = j(pick(A, 42), '+AC', 'R', pick(A, 6));
    return mk(s, `registry pw ${s}`);
  }),
  f('azure-appconfig', (pick) => {
    const s = pick(B, 43) + '=';
    return mk(
      s,
      `Endpoint=https://cfg-${pick(L, 6)}.azconfig.io;Id=${pick(A, 4)}-l0-s0:${pick(A, 20)};Secret=${s}`,
    );
  }),
  f('sentry-dsn', (pick) => {
    const s = pick(H, 32);
    return mk(s, `SENTRY_DSN_URL=https://${s}@o${pick(D, 6)}.ingest.sentry.io/${pick(D, 7)}`);
  }),
  f('sentry-dsn-js', (pick) => {
    const s = pick(H, 32);
    return mk(s, `Sentry.init({ dsn: "https://${s}@o${pick(D, 6)}.ingest.us.sentry.io/${pick(D, 7)}" });`);
  }),
  f('airtable-legacy', (pick) => {
    const s = j('ke', 'y', pick(A, 14));
    return mk(s, `const base = new Airtable({ apiKey: '${s}' }).base('app${pick(A, 14)}');`);
  }),
  f('pagerduty-user-token', (pick) => {
    const s = j('u', '+', pick(W, 18));
    return mk(s, `pagerduty token: ${s}`);
  }),
  // ---- Split across lines and strings ----------------------------------------------------------
  f('pem-json-array', (pick) => {
    const body = Array.from({ length: 6 }, () => pick(B, 64));
    const text = JSON.stringify(
      { name: 'deploy', key_lines: [BEGIN('RSA PRIVATE KEY'), ...body, END('RSA PRIVATE KEY')] },
      null,
      2,
    );
    return mk(body[2]!, text);
  }),
  f('pem-concatenated-literals', (pick) => {
    const body = Array.from({ length: 5 }, () => pick(B, 64));
    const lines = [BEGIN('PRIVATE KEY'), ...body, END('PRIVATE KEY')].map((l) => `  "${l}\\n" +`);
    return mk(body[1]!, `const key =\n${lines.join('\n')}\n  "";`);
  }),
  f('pem-python-tuple', (pick) => {
    const body = Array.from({ length: 5 }, () => pick(B, 64));
    const lines = [BEGIN('EC PRIVATE KEY'), ...body, END('EC PRIVATE KEY')].map((l) => `    "${l}\\n"`);
    return mk(body[3]!, `KEY = (\n${lines.join('\n')}\n)`);
  }),
  // ---- Language syntax ---------------------------------------------------------------------------
  f('csharp-network-credential', (pick) => {
    const s = pw(pick);
    return mk(s, `var cred = new NetworkCredential("deploy", "${s}");`);
  }),
  f('csharp-object-initialiser', (pick) => {
    const s = pw(pick);
    return mk(
      s,
      `var b = new SqlConnectionStringBuilder\n{\n    UserID = "app",\n    Password = "${s}",\n};`,
    );
  }),
  f('csharp-basic-aws', (pick) => {
    const s = pick(B, 40);
    return mk(s, `var creds = new BasicAWSCredentials("${j('AK', 'IA', pick(U + D, 16))}", "${s}");`);
  }),
  f('java-password-authentication', (pick) => {
    const s = pw(pick);
    return mk(s, `return new PasswordAuthentication("mailer", "${s}".toCharArray());`);
  }),
  f('hcl-heredoc', (pick) => {
    const s = pw(pick);
    return mk(s, `resource "x" "y" {\n  password = <<EOT\n${s}\nEOT\n}`);
  }),
  f('hcl-heredoc-indented', (pick) => {
    const s = pick(A, 32);
    return mk(s, `  api_token = <<-EOF\n    ${s}\n  EOF`);
  }),
  f('python-triple-quoted', (pick) => {
    const s = pw(pick);
    return mk(s, `DB_PASSWORD = """${s}"""`);
  }),
  f('python-triple-single', (pick) => {
    const s = pick(A, 32);
    return mk(s, `api_key = '''${s}'''`);
  }),
  f('python-triple-multiline', (pick) => {
    const s = pick(A, 40);
    return mk(s, `SECRET_TOKEN = """\n${s}\n"""`);
  }),
  f('yaml-folded-scalar', (pick) => {
    const s = pick(A, 36);
    return mk(s, `auth:\n  token: >-\n    ${s}\n  user: ci`);
  }),
  f('json-array-under-secret-name', (pick) => {
    const s = pick(A, 32);
    return mk(s, JSON.stringify({ api_keys: [s, pick(A, 32)], region: 'eu' }));
  }),
  f('yaml-list-under-secret-name', (pick) => {
    const s = pick(A, 32);
    return mk(s, `tokens:\n  - ${s}\n  - ${pick(A, 32)}\nregion: eu`);
  }),
  // ---- Prose -------------------------------------------------------------------------------------
  f('pwd-prose', (pick) => {
    const s = pw(pick);
    return mk(s, `login is admin, pwd ${s} (rotate after the demo)`);
  }),
  f('pwd-colon-prose', (pick) => {
    const s = pw(pick);
    return mk(s, `VPN user: jdoe pwd: ${s}`);
  }),
  f('creds-slash', (pick) => {
    const s = pw(pick);
    return mk(s, `creds: admin / ${s}`);
  }),
  f('password-next-line', (pick) => {
    const s = pw(pick);
    return mk(s, `**Password:**\n\`${s}\``);
  }),
  f('password-is-quoted', (pick) => {
    const s = pw(pick);
    return mk(s, `The staging password is "${s}", please do not share.`);
  }),
  // ---- Command lines -------------------------------------------------------------------------------
  f('kubectl-from-literal', (pick) => {
    const s = pw(pick);
    return mk(s, `kubectl create secret generic db --from-literal=username=app --from-literal=password=${s}`);
  }),
  f('helm-set', (pick) => {
    const s = pw(pick);
    return mk(s, `helm upgrade --install pg bitnami/postgresql --set auth.postgresPassword=${s}`);
  }),
  f('gh-secret-set', (pick) => {
    const s = pick(A, 36);
    return mk(s, `gh secret set DEPLOY_TOKEN --body "${s}"`);
  }),
  f('ldapsearch-w', (pick) => {
    const s = pw(pick);
    return mk(s, `ldapsearch -x -D "cn=admin,dc=example,dc=org" -w ${s} -b dc=example,dc=org`);
  }),
  f('net-user', (pick) => {
    const s = pw(pick);
    return mk(s, `net user svc_backup ${s} /add /domain`);
  }),
  f('cmdkey-pass', (pick) => {
    const s = pw(pick);
    return mk(s, `cmdkey /generic:TERMSRV/host01 /user:admin /pass:${s}`);
  }),
  f('sql-create-user-password', (pick) => {
    const s = pw(pick);
    return mk(s, `CREATE USER app WITH PASSWORD '${s}';`);
  }),
  f('sql-alter-role-password', (pick) => {
    const s = pw(pick);
    return mk(s, `ALTER ROLE reporting WITH LOGIN PASSWORD '${s}' VALID UNTIL 'infinity';`);
  }),
  f('vault-kv-put', (pick) => {
    const s = pw(pick);
    return mk(s, `vault kv put secret/app db_password=${s}`);
  }),
  f('redis-cli-a', (pick) => {
    const s = pw(pick);
    return mk(s, `redis-cli -h cache.internal -a ${s} ping`);
  }),
  f('act-runner-register-token', (pick) => {
    const s = pick(A, 40);
    return mk(s, `act_runner register --no-interactive --instance https://gitea.example.com --token ${s}`);
  }),
  f('tea-login-token', (pick) => {
    const s = pick(H, 40);
    return mk(s, `tea login add --name ci --url https://gitea.example.com --token ${s}`);
  }),
];

export const RECALL_NEGATIVE_FORMATS: Array<{ name: string; make: (rng: Rng) => string }> = [
  n('pem-public-json-array', (pick) =>
    JSON.stringify({
      name: 'verify',
      key_lines: [BEGIN('PUBLIC KEY'), pick(B, 64), pick(B, 64), pick(B, 20) + '==', END('PUBLIC KEY')],
    }),
  ),
  n('certificate-concatenated', (pick) =>
    [BEGIN('CERTIFICATE'), pick(B, 64), pick(B, 64), END('CERTIFICATE')]
      .map((l) => `  "${l}\\n" +`)
      .join('\n'),
  ),
  n(
    'csharp-credential-from-config',
    () => 'var cred = new NetworkCredential(user, Configuration["Smtp:Password"]);',
  ),
  n(
    'hcl-heredoc-description',
    () => 'description = <<EOT\nDeploys the web tier.\nEOT\npassword = var.db_password',
  ),
  n(
    'python-docstring',
    () => 'def rotate(password):\n    """Rotates the password of the service account."""',
  ),
  n(
    'yaml-folded-description',
    () => 'token:\n  description: >-\n    The token used for the upload.\n  required: true',
  ),
  n('json-array-key-names', () => JSON.stringify({ secret_names: ['DB_PASSWORD', 'API_TOKEN'], count: 2 })),
  n('pwd-command', () => 'run `pwd` to print the working directory, then `ls -la`'),
  n('creds-prose', () => 'creds: see the team vault entry "staging db"'),
  n('kubectl-from-file', () => 'kubectl create secret generic db --from-file=password=./db-password.txt'),
  n('helm-set-flag-name', () => 'helm upgrade app ./chart --set auth.existingSecret=app-db --set replicas=3'),
  n('gh-secret-list', () => 'gh secret list --repo org/app\ngh secret set DEPLOY_TOKEN < token.txt'),
  n('ldapsearch-W-prompt', () => 'ldapsearch -x -D "cn=admin,dc=example,dc=org" -W -b dc=example,dc=org'),
  n('net-user-list', () => 'net user svc_backup /domain\nnet user /add guest *'),
  n('sql-password-expire', () => 'ALTER USER app PASSWORD EXPIRE;\nCREATE USER app WITH PASSWORD NULL;'),
  n('sentry-dsn-placeholder', () => 'SENTRY_DSN=https://<key>@o0.ingest.sentry.io/<project>'),
  n('cloudflare-zone-id', (pick) => `CF_ZONE_ID=${pick(H, 32)}\nzone_id = "${pick(H, 32)}"`),
  n('okta-domain', () => 'OKTA_ORG_URL=https://dev-123456.okta.com\nOKTA_CLIENT_ID=0oa1bcdefgh2IJKLMN3o4'),
  n(
    'elastic-cloud-id',
    (pick) =>
      `ELASTIC_CLOUD_ID=deployment:${Buffer.from(`eu-west-1.aws.found.io$${pick(H, 32)}`).toString('base64')}`,
  ),
  n('harness-account-id', (pick) => `harness account ${pick(A, 22)} org default project web`),
];
