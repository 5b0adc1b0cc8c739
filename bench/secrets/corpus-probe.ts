// Probe formats (tuning side): uniform draws in the syntaxes Gitea bodies carry and realistic key
// blocks, for bench/secrets/probe.ts. Drawn at run time; prefixes joined from pieces.
import type { NegativeFormat, Rng } from './corpus';
import { A, B, BEGIN, D, END, H, j, L, pk, U, W } from './corpus-kit';

type Pick = (s: string, k: number) => string;
export type ProbeFormat = {
  name: string;
  make: (rng: Rng) => { secret: string; line: string; all?: string[] };
  body?: 'text' | 'json';
};
const p = (
  name: string,
  make: (pick: Pick) => { secret: string; line: string; all?: string[] },
  body?: 'text' | 'json',
): ProbeFormat => ({ name, make: (r) => make((s, k) => pk(r, s, k)), body });
const ch = <T>(pick: Pick, xs: readonly T[]): T => xs[parseInt(pick(H, 4), 16) % xs.length]!;
const SYM = '!@#%^&*-_+=.~';
const BRK = SYM + '()[]{}<>';
const PRINT = A + '!#$%&()*+,-./:;<=>?@[]^_{|}~';
const len = (pick: Pick, lo: number, hi: number): number => lo + (parseInt(pick(H, 2), 16) % (hi - lo + 1));
const NAMES = [
  'DB_PASSWORD',
  'REDIS_PASSWORD',
  'SMTP_PASS',
  'ADMIN_PWD',
  'JWT_SECRET',
  'API_KEY',
  'AUTH_TOKEN',
  'CLIENT_SECRET',
  'SECRET_KEY',
  'ACCESS_TOKEN',
  'PRIVATE_TOKEN',
  'APP_SECRET',
  'WEBHOOK_SECRET',
  'MYSQL_ROOT_PASSWORD',
  'POSTGRES_PASSWORD',
  'SESSION_KEY',
  'ENCRYPTION_KEY',
  'SIGNING_SECRET',
  'RUNNER_TOKEN',
  'DEPLOY_TOKEN',
];
const letters = (pick: Pick, k: number): string => pick(U + L, k);
const val = (pick: Pick, kind: string): string => {
  const k = len(pick, 12, 32);
  switch (kind) {
    case 'uni':
      return pick(A, k);
    case 'letters':
      return letters(pick, len(pick, 12, 20));
    case 'lower':
      return pick(L + D, k);
    case 'sym':
      return pick(A, 1) + pick(A + SYM, k - 1);
    case 'brk':
      return pick(A, 1) + pick(A + BRK, k - 1);
    case 'print':
      return pick(A, 1) + pick(PRINT, k - 1);
    case 'b64':
      return pick(B, 43) + '=';
    case 'hex':
      return pick(H, ch(pick, [32, 40, 64]));
    default:
      return pick(W, k);
  }
};
const KINDS = ['uni', 'letters', 'lower', 'sym', 'brk', 'print', 'b64', 'hex', 'urlsafe'];
const SYNTAX: Array<[string, (n: string, v: string, pick: Pick) => string]> = [
  ['dotenv', (n, v) => `${n}=${v}`],
  ['export', (n, v) => `export ${n}=${v}`],
  ['export-sq', (n, v) => `export ${n}='${v}'`],
  ['export-dq', (n, v) => `export ${n}="${v}"`],
  ['fenced-export', (n, v) => '```sh\nexport ' + n + "='" + v + "'\n```"],
  ['yaml', (n, v) => `env:\n  ${n}: ${v}`],
  ['yaml-lower', (n, v) => `  ${n.toLowerCase()}: ${v}`],
  ['yaml-dq', (n, v) => `  ${n.toLowerCase()}: "${v}"`],
  ['json', (n, v) => `{"${n.toLowerCase()}": "${v.replace(/\\/g, '\\\\')}"}`],
  ['toml', (n, v) => `[app]\n${n.toLowerCase()} = "${v}"`],
  ['ini', (n, v) => `[main]\n${n.toLowerCase()} = ${v}`],
  ['docker-e', (n, v) => `docker run --rm -e ${n}=${v} app:latest`],
  ['docker-e-sq', (n, v) => `docker run --rm -e ${n}='${v}' app:latest`],
  ['k8s-env', (n, v) => `        - name: ${n}\n          value: "${v}"`],
  ['compose', (n, v) => `    environment:\n      ${n}: "${v}"`],
  ['python', (n, v) => `${n} = "${v}"`],
  ['python-lower', (n, v) => `${n.toLowerCase()} = '${v}'`],
  ['js', (n, v) => `const ${n.toLowerCase()} = "${v}";`],
  ['js-obj', (n, v) => `  ${n.toLowerCase().replace(/_(.)/g, (_, c: string) => c.toUpperCase())}: '${v}',`],
  ['powershell', (n, v) => `$env:${n} = "${v}"`],
  ['prose-is', (n, v) => `the ${n.toLowerCase().replace(/_/g, ' ')} is ${v}`],
  ['prose-colon', (n, v) => `${n.toLowerCase().replace(/_/g, ' ')}: ${v}`],
  ['actions-var-text', (n, v) => `{"name": "${n}", "data": "${v}", "description": ""}`],
  ['actions-var-compact', (n, v) => `{"owner_id":0,"repo_id":3,"name":"${n}","data":"${v}"}`],
  ['set-cmd', (n, v) => `set ${n}=${v}`],
  ['cli-flag', (n, v) => `./deploy --${n.toLowerCase().replace(/_/g, '-')}=${v}`],
  ['cli-flag-space', (n, v) => `./deploy --${n.toLowerCase().replace(/_/g, '-')} ${v}`],
  ['md-table', (n, v) => `| name | value |\n|---|---|\n| ${n} | ${v} |`],
  ['md-code', (n, v) => `set \`${n}\` to \`${v}\``],
  ['gh-secret', (n, v) => `gh secret set ${n} --body "${v}"`],
  ['tea-secret', (n, v) => `tea actions secrets create ${n} ${v}`],
  ['helm-set', (n, v) => `helm upgrade app ./chart --set ${n.toLowerCase()}=${v}`],
  ['properties', (n, v) => `app.${n.toLowerCase().replace(/_/g, '.')}=${v}`],
  [
    'xml',
    (n, v) =>
      `<${n.toLowerCase()}>${v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</${n.toLowerCase()}>`,
  ],
  ['hcl', (n, v) => `variable "${n.toLowerCase()}" {\n  default = "${v}"\n}`],
  ['curl-header', (n, v) => `curl -H "X-${n.replace(/_/g, '-')}: ${v}" https://api.example.com`],
  ['log-trace', (n, v) => `+ ${n}=${v}\n+ ./run.sh`],
  ['diff-add', (n, v) => `@@ -1,2 +1,3 @@\n APP_ENV=prod\n+${n}=${v}\n LOG=info`],
  ['diff-remove', (n, v) => `@@ -1,3 +1,2 @@\n APP_ENV=prod\n-${n}=${v}\n LOG=info`],
];
const uniform: ProbeFormat[] = [];
for (const [sn, make] of SYNTAX)
  for (const kind of KINDS)
    uniform.push(
      p(`u-${sn}-${kind}`, (pick) => {
        const v = val(pick, kind);
        return { secret: v, line: make(ch(pick, NAMES), v, pick) };
      }),
    );

const b64of = (pick: Pick, bytes: number): string =>
  Buffer.from(pick(H, bytes * 2), 'hex').toString('base64');
const wrap = (s: string, w: number): string[] => s.match(new RegExp(`.{1,${w}}`, 'g'))!;
const blockLines = (
  pick: Pick,
  label: string,
  bytes: number,
  w = 64,
  headers: string[] = [],
): { lines: string[]; body: string[] } => {
  const body = wrap(b64of(pick, bytes), w);
  return { lines: [BEGIN(label), ...headers, ...body, END(label)], body };
};
const KEY_KINDS: Array<[string, string, number, number, string[]]> = [
  ['rsa', j('RSA PRIV', 'ATE KEY'), 1191, 64, []],
  ['pkcs8', j('PRIV', 'ATE KEY'), 1218, 64, []],
  ['ec', j('EC PRIV', 'ATE KEY'), 121, 64, []],
  ['ed25519-pkcs8', j('PRIV', 'ATE KEY'), 48, 64, []],
  ['encrypted', j('ENCRYPTED PRIV', 'ATE KEY'), 1298, 64, []],
  [
    'rsa-proc',
    j('RSA PRIV', 'ATE KEY'),
    1192,
    64,
    ['Proc-Type: 4,ENCRYPTED', 'DEK-Info: AES-128-CBC,0123456789ABCDEF0123456789ABCDEF', ''],
  ],
  ['openssh', j('OPENSSH PRIV', 'ATE KEY'), 399, 70, []],
  ['openssh-rsa', j('OPENSSH PRIV', 'ATE KEY'), 1823, 70, []],
  ['dsa', j('DSA PRIV', 'ATE KEY'), 444, 64, []],
  ['pgp', j('PGP PRIV', 'ATE KEY BLOCK'), 900, 64, ['']],
  ['pgp-ver', j('PGP PRIV', 'ATE KEY BLOCK'), 900, 64, ['Version: GnuPG v2', 'Comment: deploy key', '']],
];
const WRAPS: Array<[string, (ls: string[]) => string]> = [
  ['plain', (ls) => ls.join('\n')],
  ['crlf', (ls) => ls.join('\r\n')],
  ['indent', (ls) => ls.map((l) => '    ' + l).join('\n')],
  ['quote', (ls) => ls.map((l) => '> ' + l).join('\n')],
  ['diff', (ls) => '@@ -0,0 +1,' + ls.length + ' @@\n' + ls.map((l) => '+' + l).join('\n')],
  ['diff-rm', (ls) => '@@ -1,' + ls.length + ' +0,0 @@\n' + ls.map((l) => '-' + l).join('\n')],
  ['yaml-block', (ls) => 'ssh_key: |\n' + ls.map((l) => '  ' + l).join('\n')],
  ['yaml-block-deep', (ls) => 'deploy:\n  secrets:\n    key: |-\n' + ls.map((l) => '      ' + l).join('\n')],
  ['json-escaped', (ls) => `{"private_key": "${ls.join('\\n')}\\n"}`],
  ['env-escaped', (ls) => `PRIVATE_KEY="${ls.join('\\n')}"`],
  ['log', (ls) => ls.map((l) => '2026-11-04T08:15:02.4471230Z ' + l).join('\n')],
  ['fenced', (ls) => '```\n' + ls.join('\n') + '\n```'],
  ['hcl-heredoc', (ls) => 'private_key = <<EOF\n' + ls.join('\n') + '\nEOF'],
  ['list-item', (ls) => ls.map((l, i) => (i === 0 ? '- ' : '  ') + l).join('\n')],
  ['python-concat', (ls) => 'KEY = (\n' + ls.map((l) => `    "${l}\\n"`).join('\n') + '\n)'],
  ['trailing-space', (ls) => ls.map((l) => l + ' ').join('\n')],
];
const keys: ProbeFormat[] = [];
for (const [kn, label, bytes, w, hdr] of KEY_KINDS)
  for (const [wn, wr] of WRAPS)
    keys.push(
      p(`k-${kn}-${wn}`, (pick) => {
        const { lines, body } = blockLines(pick, label, bytes, w, hdr);
        if (kn.startsWith('pgp')) lines.splice(lines.length - 1, 0, '=' + pick(B, 4));
        return { secret: body[0]!, line: wr(lines), all: body.filter((l) => l.length >= 8) };
      }),
    );
keys.push(
  p('k-putty-v3', (pick) => {
    const priv = wrap(b64of(pick, 340), 64);
    const ppk = [
      'PuTTY-User-Key-File-3: ssh-rsa',
      'Encryption: none',
      'Comment: rsa-key-20261104',
      'Public-Lines: 6',
      ...wrap(b64of(pick, 279), 64),
      `Private-Lines: ${priv.length}`,
      ...priv,
      `Private-MAC: ${pick(H, 64)}`,
    ];
    return { secret: priv[0]!, line: ppk.join('\n'), all: priv.filter((l) => l.length >= 8) };
  }),
  p('k-putty-v2-ed', (pick) => {
    const priv = wrap(b64of(pick, 36), 64);
    const ppk = [
      'PuTTY-User-Key-File-2: ssh-ed25519',
      'Encryption: none',
      'Comment: ed25519-key',
      'Public-Lines: 2',
      ...wrap(b64of(pick, 51), 64),
      `Private-Lines: ${priv.length}`,
      ...priv,
      `Private-MAC: ${pick(H, 40)}`,
    ];
    return { secret: priv[0]!, line: ppk.join('\n'), all: priv.filter((l) => l.length >= 8) };
  }),
);

export const PROBE_SECRET_FORMATS: ProbeFormat[] = [...uniform, ...keys];
export const PROBE_NEGATIVE_FORMATS: NegativeFormat[] = [];
void D;

// ---- Provider keys without a prefix: UUIDs, hex and base62 under the provider's own names -------------
const uuidv = (pick: Pick): string =>
  `${pick(H, 8)}-${pick(H, 4)}-4${pick(H, 3)}-${ch(pick, ['8', '9', 'a', 'b'])}${pick(H, 3)}-${pick(H, 12)}`;
const PROVIDER_VALUES: Array<[string, string[], (pick: Pick) => string]> = [
  ['heroku', ['HEROKU_API_KEY'], uuidv],
  ['snyk', ['SNYK_TOKEN'], uuidv],
  ['codecov', ['CODECOV_TOKEN'], uuidv],
  ['railway', ['RAILWAY_TOKEN'], uuidv],
  ['opsgenie', ['OPSGENIE_API_KEY'], uuidv],
  ['postmark', ['POSTMARK_SERVER_TOKEN', 'POSTMARK_API_TOKEN'], uuidv],
  ['splunk', ['SPLUNK_HEC_TOKEN'], uuidv],
  ['newrelic-uuid', ['NEW_RELIC_API_KEY'], uuidv],
  ['datadog', ['DD_API_KEY', 'DATADOG_API_KEY'], (pick) => pick(H, 32)],
  ['datadog-app', ['DD_APP_KEY', 'DATADOG_APP_KEY'], (pick) => pick(H, 40)],
  ['bugsnag', ['BUGSNAG_API_KEY'], (pick) => pick(H, 32)],
  ['rollbar', ['ROLLBAR_ACCESS_TOKEN'], (pick) => pick(H, 32)],
  ['algolia', ['ALGOLIA_ADMIN_KEY', 'ALGOLIA_API_KEY'], (pick) => pick(H, 32)],
  ['linode', ['LINODE_TOKEN', 'LINODE_CLI_TOKEN'], (pick) => pick(H, 64)],
  ['hetzner', ['HCLOUD_TOKEN'], (pick) => pick(A, 64)],
  ['together', ['TOGETHER_API_KEY'], (pick) => pick(H, 64)],
  ['mistral', ['MISTRAL_API_KEY'], (pick) => pick(A, 32)],
  ['cohere', ['COHERE_API_KEY', 'CO_API_KEY'], (pick) => pick(A, 40)],
  ['zendesk', ['ZENDESK_API_TOKEN'], (pick) => pick(A, 40)],
  ['twilio-auth', ['TWILIO_AUTH_TOKEN'], (pick) => pick(H, 32)],
  ['mailchimp', ['MAILCHIMP_API_KEY'], (pick) => pick(H, 32) + '-us' + (1 + (parseInt(pick(H, 1), 16) % 20))],
  ['plaid', ['PLAID_SECRET'], (pick) => pick(H, 30)],
  ['travis', ['TRAVIS_TOKEN', 'TRAVIS_API_TOKEN'], (pick) => pick(A + '_-', 22)],
  ['drone', ['DRONE_TOKEN'], (pick) => pick(A, 32)],
  ['cloudflare', ['CLOUDFLARE_API_TOKEN', 'CF_API_TOKEN'], (pick) => pick(A + '_-', 40)],
  ['cloudflare-global', ['CLOUDFLARE_API_KEY', 'CF_API_KEY'], (pick) => pick(H, 37)],
  ['vercel', ['VERCEL_TOKEN'], (pick) => pick(A, 24)],
  ['netlify', ['NETLIFY_AUTH_TOKEN'], (pick) => pick(W, 43)],
  ['messagebird', ['MESSAGEBIRD_API_KEY'], (pick) => pick(A, 25)],
  ['vonage', ['VONAGE_API_SECRET', 'NEXMO_API_SECRET'], (pick) => pick(A, 16)],
  ['pagerduty', ['PAGERDUTY_TOKEN'], (pick) => pick(A + '+_-', 20)],
  ['pagerduty-routing', ['PAGERDUTY_ROUTING_KEY', 'PD_INTEGRATION_KEY'], (pick) => pick(H, 32)],
  ['mapbox-public', ['MAPBOX_TOKEN'], (pick) => pick(W, 60)],
  ['ibm', ['IBMCLOUD_API_KEY', 'IC_API_KEY'], (pick) => pick(W, 44)],
  ['alibaba-secret', ['ALIBABA_CLOUD_ACCESS_KEY_SECRET', 'ALICLOUD_SECRET_KEY'], (pick) => pick(A, 30)],
  ['tencent-secret', ['TENCENTCLOUD_SECRET_KEY'], (pick) => pick(A, 32)],
  ['scaleway-secret', ['SCW_SECRET_KEY'], uuidv],
  ['dbt', ['DBT_CLOUD_API_KEY'], (pick) => pick(A, 40)],
  ['sourcegraph', ['SRC_ACCESS_TOKEN'], (pick) => pick(H, 40)],
  ['sonar', ['SONAR_TOKEN'], (pick) => pick(H, 40)],
  ['jenkins', ['JENKINS_API_TOKEN'], (pick) => '11' + pick(H, 32)],
  ['octopus', ['OCTOPUS_API_KEY'], (pick) => 'API-' + pick(U + D, 26)],
  ['circleci', ['CIRCLECI_TOKEN', 'CIRCLE_TOKEN'], (pick) => pick(H, 40)],
  ['buildkite', ['BUILDKITE_AGENT_TOKEN'], (pick) => pick(H, 50)],
  ['gitea', ['GITEA_TOKEN', 'GITEA_ACCESS_TOKEN'], (pick) => pick(H, 40)],
  ['gitea-runner', ['GITEA_RUNNER_REGISTRATION_TOKEN'], (pick) => pick(A, 40)],
  ['braintree', ['BRAINTREE_PRIVATE_KEY'], (pick) => pick(H, 32)],
  ['elastic', ['ELASTIC_PASSWORD', 'ES_PASSWORD'], (pick) => pick(A, 20)],
  ['redis', ['REDIS_AUTH'], (pick) => pick(A, 32)],
  ['smtp', ['SMTP_PASSWORD', 'MAIL_PASSWORD', 'EMAIL_HOST_PASSWORD'], (pick) => pick(A, 16)],
];
const PROVIDER_SYNTAX: Array<[string, (n: string, v: string) => string]> = [
  ['env', (n, v) => `${n}=${v}`],
  ['yaml', (n, v) => `  ${n}: ${v}`],
  ['yaml-q', (n, v) => `  ${n}: "${v}"`],
  ['json', (n, v) => `{"${n}": "${v}"}`],
  ['lower-yaml', (n, v) => `${n.toLowerCase()}: ${v}`],
  ['gh-actions', (n, v) => `    env:\n      ${n}: ${v}`],
  ['k8s', (n, v) => `- name: ${n}\n  value: "${v}"`],
  ['docker', (n, v) => `docker run -e ${n}=${v} img`],
  ['prose', (n, v) => `${n} is ${v}`],
  ['actions-var', (n, v) => `{"name":"${n}","data":"${v}"}`],
];
for (const [pn, names, make] of PROVIDER_VALUES)
  for (const [sn, syn] of PROVIDER_SYNTAX)
    PROBE_SECRET_FORMATS.push(
      p(`pv-${pn}-${sn}`, (pick) => {
        const v = make(pick);
        return { secret: v, line: syn(ch(pick, names), v) };
      }),
    );

// ---- Webhook configs (Gitea Hook JSON): a credential in the URL's query or path, or the auth header ----
const HOOK_VALUES: Array<[string, (pick: Pick) => string]> = [
  ['uni', (pick) => pick(A, 32)],
  ['hex', (pick) => pick(H, 40)],
  ['urlsafe', (pick) => pick(W, 43)],
  ['uuid', uuidv],
  ['letters', (pick) => pick(U + L, 24)],
];
const HOOK_SHAPES: Array<[string, (v: string, pick: Pick) => string]> = [
  ['q-token', (v) => `https://ci.example.com/hooks/gitea?token=${v}`],
  ['q-key', (v) => `https://ci.example.com/generic-webhook-trigger/invoke?key=${v}`],
  ['q-access-token', (v) => `https://api.example.com/v1/hook?access_token=${v}`],
  ['q-api-key', (v) => `https://notify.example.com/send?api_key=${v}&channel=ops`],
  ['q-apikey', (v) => `https://notify.example.com/send?channel=ops&apikey=${v}`],
  ['q-secret', (v) => `https://deploy.example.com/hook?secret=${v}`],
  ['q-code', (v) => `https://fn-deploy.azurewebsites.net/api/Deploy?code=${v}`],
  ['q-auth', (v) => `https://hooks.example.com/trigger?auth=${v}`],
  [
    'q-sig',
    (v) =>
      `https://prod-01.westeurope.logic.azure.com:443/workflows/${'0'.repeat(0)}abc/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${v}`,
  ],
  ['path-token', (v) => `https://ci.example.com/project/deploy/hooks/${v}`],
  ['path-jenkins', (v) => `https://jenkins.example.com/buildByToken/build?job=deploy&token=${v}`],
  ['userinfo', (v) => `https://deploy:${v}@ci.example.com/hook`],
  ['drone', (v) => `https://drone.example.com/hook?secret=${v}`],
];
for (const [vn, mkv] of HOOK_VALUES)
  for (const [sn, shape] of HOOK_SHAPES) {
    PROBE_SECRET_FORMATS.push(
      p(
        `wh-${sn}-${vn}`,
        (pick) => {
          const v = mkv(pick);
          const hook = {
            id: 7,
            type: ch(pick, ['gitea', 'slack', 'msteams', 'discord', 'matrix']),
            branch_filter: '*',
            config: { content_type: 'json', url: shape(v, pick), http_method: 'post' },
            events: ['push'],
            authorization_header: '',
            active: true,
            updated_at: '2026-11-02T10:00:00Z',
            created_at: '2026-11-02T10:00:00Z',
          };
          return { secret: v, line: JSON.stringify([hook]) };
        },
        'json',
      ),
    );
  }
for (const [vn, mkv] of HOOK_VALUES)
  for (const scheme of ['Bearer', 'token', 'Basic', 'Token', 'ApiKey', 'Key', '']) {
    PROBE_SECRET_FORMATS.push(
      p(
        `wh-authz-${scheme || 'bare'}-${vn}`,
        (pick) => {
          const v = scheme === 'Basic' ? Buffer.from(`deploy:${mkv(pick)}`).toString('base64') : mkv(pick);
          const hook = {
            id: 7,
            type: 'gitea',
            config: { content_type: 'json', url: 'https://ci.example.com/hook', http_method: 'post' },
            events: ['push'],
            authorization_header: scheme ? `${scheme} ${v}` : v,
            active: true,
          };
          return { secret: v, line: JSON.stringify(hook) };
        },
        'json',
      ),
    );
  }

// ---- Actions job logs: traces, env dumps, commands --------------------------------------------------
const LOG_SHAPES: Array<[string, (n: string, v: string) => string]> = [
  ['trace-export', (n, v) => `+ export ${n}=${v}`],
  [
    'trace-curl-bearer',
    (_n, v) => `+ curl -sf -H 'Authorization: Bearer ${v}' https://api.example.com/v1/deploy`,
  ],
  [
    'trace-curl-token',
    (_n, v) => `+ curl -H "Authorization: token ${v}" https://gitea.example.com/api/v1/user`,
  ],
  ['trace-docker-login', (_n, v) => `+ docker login -u ci -p ${v} registry.example.com`],
  [
    'env-dump',
    (n, v) =>
      `##[group]Run ./deploy.sh\n./deploy.sh\nshell: /usr/bin/bash -e {0}\nenv:\n  ${n}: ${v}\n##[endgroup]`,
  ],
  ['printenv', (n, v) => `+ printenv\nHOME=/root\n${n}=${v}\nPATH=/usr/bin`],
  ['set-x-assign', (n, v) => `++ ${n}=${v}`],
  ['echo', (n, v) => `+ echo ${n}=${v}\n${n}=${v}`],
  ['helm-set', (n, v) => `+ helm upgrade --install app ./chart --set secrets.${n.toLowerCase()}=${v}`],
  ['kubectl-literal', (n, v) => `+ kubectl create secret generic app --from-literal=${n}=${v}`],
  ['gh-output', (n, v) => `::set-output name=${n.toLowerCase()}::${v}`],
  ['npm-config', (_n, v) => `+ npm config set //registry.example.com/:_authToken ${v}`],
  ['git-clone-url', (_n, v) => `+ git clone https://oauth2:${v}@gitea.example.com/org/app.git`],
  ['mysql', (_n, v) => `+ mysql -h db -u root -p${v} app < dump.sql`],
  ['psql-url', (_n, v) => `+ psql postgresql://app:${v}@db:5432/app -c 'select 1'`],
];
const LOG_KINDS = ['uni', 'sym', 'b64', 'hex', 'letters', 'urlsafe'];
for (const [sn, shape] of LOG_SHAPES)
  for (const kind of LOG_KINDS)
    PROBE_SECRET_FORMATS.push(
      p(`log-${sn}-${kind}`, (pick) => {
        const v = val(pick, kind);
        return { secret: v, line: shape(ch(pick, NAMES), v) };
      }),
    );

// ---- Values that start with a symbol (a uniform draw over letters, digits and symbols) -----------------
for (const lead of '!@#$%^&*-_+=.~?/:'.split(''))
  for (const [sn, make] of SYNTAX.filter(([s]) =>
    [
      'dotenv',
      'yaml',
      'yaml-dq',
      'json',
      'ini',
      'export-sq',
      'docker-e',
      'k8s-env',
      'python',
      'prose-is',
    ].includes(s),
  ))
    PROBE_SECRET_FORMATS.push(
      p(`lead-${sn}-${lead}`, (pick) => {
        const v = lead + pick(A, 1) + pick(A + SYM, 14);
        return { secret: v, line: make(ch(pick, NAMES), v, pick) };
      }),
    );
