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

// ---- Provider token formats by prefix (public format facts), standalone in a line -------------------
const AL = L + D;
const UD = U + D;
const PREFIXED: Array<[string, (pick: Pick) => string]> = [
  ['honeycomb-ingest', (pick) => j('hca', 'ik_') + '01' + pick(L + D, 24) + pick(AL, 32)],
  ['honeycomb-config', (pick) => pick(A, 22)],
  ['supabase-sbp', (pick) => j('sb', 'p_') + pick(H, 40)],
  ['supabase-secret', (pick) => j('sb_se', 'cret_') + pick(W, 31)],
  ['pinecone', (pick) => j('pc', 'sk_') + pick(A, 5) + '_' + pick(A, 64)],
  ['langsmith-pt', (pick) => j('lsv2', '_pt_') + pick(H, 32) + '_' + pick(H, 10)],
  ['langsmith-sk', (pick) => j('lsv2', '_sk_') + pick(H, 32) + '_' + pick(H, 10)],
  ['groq', (pick) => j('gs', 'k_') + pick(A, 52)],
  ['xai', (pick) => j('xa', 'i-') + pick(A, 80)],
  ['perplexity', (pick) => j('pp', 'lx-') + pick(A, 48)],
  ['replicate', (pick) => j('r', '8_') + pick(A, 37)],
  ['openrouter', (pick) => j('sk-', 'or-v1-') + pick(H, 64)],
  ['deepseek', (pick) => j('s', 'k-') + pick(H, 32)],
  ['anthropic-admin', (pick) => j('sk-an', 't-admin01-') + pick(W, 93) + 'AA'],
  ['openai-svcacct', (pick) => j('sk-sv', 'cacct-') + pick(W, 58) + j('T3Blb', 'kFJ') + pick(W, 58)],
  ['openai-admin', (pick) => j('sk-ad', 'min-') + pick(W, 58) + j('T3Blb', 'kFJ') + pick(W, 58)],
  ['elevenlabs', (pick) => j('s', 'k_') + pick(H, 48)],
  ['together-tgp', (pick) => j('tg', 'p_v1_') + pick(W, 43)],
  ['hf-org', (pick) => j('api', '_org_') + pick(U + L, 34)],
  ['ops-1password', (pick) => j('op', 's_') + j('eyJ', 'zaWduSW5BZGRyZXNzIjoi') + pick(W, 300)],
  ['infisical-st', (pick) => j('s', 't.') + uuidv(pick) + '.' + pick(H, 32) + '.' + pick(H, 32)],
  ['doppler-scim', (pick) => j('dp.s', 'cim.') + pick(A, 43)],
  ['doppler-audit', (pick) => j('dp.a', 'udit.') + pick(A, 43)],
  ['doppler-sa', (pick) => j('dp.s', 'a.') + pick(A, 43)],
  ['doppler-ct', (pick) => j('dp.c', 't.') + pick(A, 43)],
  ['vault-hvr', (pick) => j('hv', 'r.') + pick(W, 90)],
  ['vault-hvb', (pick) => j('hv', 'b.') + pick(W, 138)],
  ['tailscale-api', (pick) => j('tskey', '-api-') + pick(A, 12) + '-' + pick(A, 33)],
  ['tailscale-client', (pick) => j('tskey', '-client-') + pick(A, 12) + '-' + pick(A, 33)],
  ['tailscale-webhook', (pick) => j('tskey', '-webhook-') + pick(A, 12) + '-' + pick(A, 33)],
  ['scalingo', (pick) => j('tk-', 'us-') + pick(W, 48)],
  ['render', (pick) => j('rn', 'd_') + pick(A, 32)],
  ['fly-fo1', (pick) => j('fo', '1_') + pick(W, 43)],
  ['fly-fm2', (pick) => j('FlyV1 ', 'fm2_') + pick(B, 200)],
  ['vercel-vck', (pick) => j('vc', 'k_') + pick(A, 56)],
  ['vercel-vcr', (pick) => j('vc', 'r_') + pick(A, 56)],
  ['netlify-nfc', (pick) => j('nf', 'c_') + pick(A, 36)],
  ['netlify-nfo', (pick) => j('nf', 'o_') + pick(A, 36)],
  ['do-doo', (pick) => j('do', 'o_v1_') + pick(H, 64)],
  ['heroku-hrku', (pick) => j('HRK', 'U-AA') + pick(W, 58)],
  ['linear-oauth', (pick) => j('lin_', 'oauth_') + pick(H, 64)],
  ['notion-ntn', (pick) => j('nt', 'n_') + pick(D, 11) + pick(A, 35)],
  ['figma-figu', (pick) => j('fi', 'gu_') + pick(W, 40)],
  ['hubspot-eu', (pick) => j('pat-', 'eu1-') + uuidv(pick)],
  ['asana-2', (pick) => '2/' + pick(D, 16) + '/' + pick(D, 16) + ':' + pick(H, 32)],
  ['sourcegraph-sgph', (pick) => j('sg', 'ph_') + pick(H, 16) + '_' + pick(H, 40)],
  ['harness-sat', (pick) => j('sa', 't.') + pick(W, 22) + '.' + pick(W, 24) + '.' + pick(A, 20)],
  ['circleci-prj', (pick) => j('CCIP', 'RJ_') + pick(A, 22) + '_' + pick(H, 40)],
  ['buildkite-bkat', (pick) => j('bk', 'at_') + pick(A, 40)],
  ['gitlab-routable', (pick) => j('glp', 'at-') + pick(W, 27) + '.01.' + pick(L + D, 9)],
  ['gitlab-glrtr', (pick) => j('glr', 'tr-') + pick(W, 20)],
  ['gitlab-gloas', (pick) => j('glo', 'as-') + pick(H, 64)],
  ['gitlab-glcbt', (pick) => j('glc', 'bt-') + pick(H, 2) + '_' + pick(W, 20)],
  ['gitlab-glptt', (pick) => j('glp', 'tt-') + pick(H, 40)],
  ['gitlab-glft', (pick) => j('gl', 'ft-') + pick(W, 20)],
  ['gitlab-gldt', (pick) => j('gl', 'dt-') + pick(W, 20)],
  ['stripe-sk-test', (pick) => j('sk_', 'test_') + pick(A, 99)],
  ['stripe-rk-test', (pick) => j('rk_', 'test_') + pick(A, 99)],
  ['square-sq0idp', (pick) => j('sq0', 'atp-') + pick(W, 22)],
  ['shopify-shpss', (pick) => j('sh', 'pss_') + pick(H, 32)],
  ['shopify-shppa', (pick) => j('sh', 'ppa_') + pick(H, 32)],
  ['shopify-shpca', (pick) => j('sh', 'pca_') + pick(H, 32)],
  ['flutterwave-test', (pick) => j('FLWSE', 'CK_TEST-') + pick(H, 32) + '-X'],
  ['flutterwave-enc', (pick) => j('FLWSE', 'CK_TEST') + pick(H, 12)],
  ['mollie-test', (pick) => j('te', 'st_') + pick(A, 30)],
  ['plaid-access', (pick) => j('access-', 'production-') + uuidv(pick)],
  ['gocardless', (pick) => j('liv', 'e_') + pick(W, 40)],
  ['paypal-braintree', (pick) => j('access_tok', 'en$production$') + pick(L + D, 16) + '$' + pick(H, 32)],
  ['mailgun-pubkey', (pick) => j('pubk', 'ey-') + pick(H, 32)],
  ['mandrill', (pick) => j('m', 'd-') + pick(W, 22)],
  ['resend', (pick) => j('r', 'e_') + pick(A, 8) + '_' + pick(A, 24)],
  ['brevo-smtp', (pick) => j('xsmt', 'psib-') + pick(H, 64) + '-' + pick(A, 16)],
  ['twilio-sk', (pick) => j('S', 'K') + pick(H, 32)],
  ['sendgrid', (pick) => j('S', 'G.') + pick(W, 22) + '.' + pick(W, 43)],
  ['dockerhub-oat', (pick) => j('dckr', '_oat_') + pick(W, 32)],
  ['nuget', (pick) => j('oy', '2') + pick(L + D, 43)],
  ['artifactory-ref', (pick) => j('cmVmdG', 'tuOjAxOj') + pick(A, 56)],
  ['clojars', (pick) => j('CLOJ', 'ARS_') + pick(L + D, 60)],
  ['pypi', (pick) => j('pypi-', 'AgEIcHlwaS5vcmc') + pick(W, 70)],
  ['rubygems', (pick) => j('rubyg', 'ems_') + pick(H, 48)],
  ['npm', (pick) => j('np', 'm_') + pick(A, 36)],
  ['grafana-glsa', (pick) => j('gl', 'sa_') + pick(A, 32) + '_' + pick(H, 8)],
  ['sentry-org', (pick) => j('sntr', 'ys_') + j('eyJ', 'pYXQiOjE3') + pick(B, 120) + '_' + pick(B, 43)],
  ['sentry-user', (pick) => j('sntr', 'yu_') + pick(H, 64)],
  ['newrelic-nrjs', (pick) => j('NR', 'JS-') + pick(H, 19)],
  ['dynatrace', (pick) => j('dt0', 'c01.') + pick(UD, 24) + '.' + pick(UD, 64)],
  ['dynatrace-s', (pick) => j('dt0', 's01.') + pick(UD, 24) + '.' + pick(UD, 64)],
  ['elastic-essu', (pick) => j('es', 'su_') + pick(B, 60)],
  ['age', (pick) => j('AGE-SECRET', '-KEY-1') + pick(UD, 58)],
  ['yandex-aqvn', (pick) => j('AQV', 'N') + pick(W, 36)],
  ['yandex-t1', (pick) => j('t', '1.') + pick(W, 80)],
  ['alibaba', (pick) => j('LT', 'AI') + pick(A, 20)],
  ['tencent', (pick) => j('AK', 'ID') + pick(A, 32)],
  ['scaleway', (pick) => j('SC', 'W') + pick(UD, 17)],
  ['azure-client-secret', (pick) => pick(A, 3) + pick(D, 1) + j('Q', '~') + pick(W + '.~', 34)],
  [
    'azure-sas',
    (pick) =>
      'sv=2022-11-02&ss=b&srt=co&sp=rl&se=2027-01-01T00:00:00Z&spr=https&sig=' +
      encodeURIComponent(pick(B, 43) + '='),
  ],
  ['gcp-refresh', (pick) => j('1', '//0') + pick(W, 100)],
  ['gcp-ya29', (pick) => j('ya', '29.') + pick(W, 150)],
  ['gcp-oauth-secret', (pick) => j('GOCS', 'PX-') + pick(W, 28)],
  ['aws-asia', (pick) => j('AS', 'IA') + pick(UD, 16)],
  ['discord-bot', (pick) => pick(A, 24) + '.' + pick(W, 6) + '.' + pick(W, 38)],
  ['telegram', (pick) => pick(D, 10) + ':' + 'AA' + pick(W, 33)],
  ['slack-xoxe', (pick) => j('xo', 'xe.xoxp-1-') + pick(A, 146)],
  ['slack-xapp', (pick) => j('xa', 'pp-1-') + 'A' + pick(UD, 10) + '-' + pick(D, 13) + '-' + pick(H, 64)],
  ['slack-xoxb', (pick) => j('xo', 'xb-') + pick(D, 12) + '-' + pick(D, 13) + '-' + pick(A, 24)],
  ['github-ghs', (pick) => j('gh', 's_') + pick(A, 36)],
  ['github-ghr', (pick) => j('gh', 'r_') + pick(A, 36)],
  ['github-fine', (pick) => j('github', '_pat_') + pick(A, 22) + '_' + pick(A, 59)],
  ['atlassian', (pick) => j('ATAT', 'T3xFfGF0') + pick(W, 180) + '=' + pick(H, 8).toUpperCase()],
  ['bitbucket', (pick) => j('ATB', 'B') + pick(A, 32)],
  ['postman', (pick) => j('PM', 'AK-') + pick(H, 24) + '-' + pick(H, 34)],
  ['contentful', (pick) => j('CFP', 'AT-') + pick(W, 43)],
  ['mapbox', (pick) => j('s', 'k.eyJ') + pick(W, 60) + '.' + pick(W, 22)],
  ['octopus', (pick) => j('AP', 'I-') + pick(UD, 26)],
  ['pulumi', (pick) => j('pu', 'l-') + pick(H, 40)],
  ['tfc', (pick) => pick(A, 14) + j('.atl', 'asv1.') + pick(W, 67)],
  ['openshift', (pick) => j('sha2', '56~') + pick(W, 43)],
  ['dbt', (pick) => j('dbt', 'c_') + pick(W, 40)],
  ['databricks-dose', (pick) => j('do', 'se') + pick(H, 32)],
  ['databricks-dapi', (pick) => j('da', 'pi') + pick(H, 32) + '-2'],
  ['snowflake-pat', (pick) => j('ver:', '1-hint:') + pick(D, 10) + '-ETMsDgAAAZ' + pick(W, 100)],
];
const PREFIX_CONTEXTS: Array<[string, (v: string) => string]> = [
  ['bare', (v) => v],
  ['prose', (v) => `I used ${v} to test, will rotate`],
  ['json-field', (v) => `{"value": "${v}"}`],
  ['query', (v) => `https://api.example.com/v1/x?key=${v}&x=1`],
  ['header', (v) => `X-Api-Key: ${v}`],
  ['backticks', (v) => `the credential \`${v}\` leaked`],
];
for (const [pn, make] of PREFIXED)
  for (const [cn, ctxf] of PREFIX_CONTEXTS)
    PROBE_SECRET_FORMATS.push(
      p(`px-${pn}-${cn}`, (pick) => {
        const v = make(pick);
        return { secret: v, line: ctxf(v) };
      }),
    );

// ---- Credential files and commands with drawn passwords --------------------------------------------
const CRED_SHAPES: Array<[string, (v: string) => string]> = [
  ['git-credentials', (v) => `https://deploy:${encodeURIComponent(v)}@gitea.example.com`],
  ['url-raw', (v) => `DATABASE_URL=postgres://app:${v}@db.internal:5432/app`],
  ['netrc', (v) => `machine gitea.example.com\n  login deploy\n  password ${v}`],
  ['netrc-inline', (v) => `machine gitea.example.com login deploy password ${v}`],
  ['pgpass', (v) => `db.internal:5432:app:app:${v}`],
  ['curl-u', (v) => `curl -u deploy:${v} https://api.example.com/v1/x`],
  ['curl-u-q', (v) => `curl -u 'deploy:${v}' https://api.example.com/v1/x`],
  ['docker-login', (v) => `docker login -u ci -p '${v}' registry.example.com`],
  ['mysql-p', (v) => `mysql -u root -p'${v}' app`],
  ['sshpass', (v) => `sshpass -p '${v}' ssh deploy@10.0.0.5`],
  [
    'extraheader',
    (v) =>
      `git -c http.extraHeader="Authorization: Basic ${Buffer.from('ci:' + v).toString('base64')}" clone https://gitea.example.com/o/r.git`,
  ],
  ['wp-config', (v) => `define( 'DB_PASSWORD', '${v}' );`],
  ['spring', (v) => `spring.datasource.password=${v}`],
  ['ansible', (v) => `ansible_become_password: "${v}"`],
  ['redis-requirepass', (v) => `requirepass ${v}`],
  ['tf-var', (v) => `db_password = "${v}"`],
  ['powershell-secure', (v) => `$pw = ConvertTo-SecureString "${v}" -AsPlainText -Force`],
  [
    'kafka-jaas',
    (v) =>
      `sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="app" password="${v}";`,
  ],
  ['jdbc', (v) => `jdbc:mysql://db:3306/app?user=app&password=${encodeURIComponent(v)}`],
  ['mssql', (v) => `Server=tcp:db,1433;Database=app;User ID=app;Password=${v};Encrypt=True;`],
];
for (const [sn, shape] of CRED_SHAPES)
  for (const kind of ['uni', 'sym', 'brk', 'letters', 'b64'])
    PROBE_SECRET_FORMATS.push(
      p(`cred-${sn}-${kind}`, (pick) => {
        const v = val(pick, kind);
        const line = shape(v);
        // a URL-encoded password is found when its encoded form is
        const secret = line.includes(v) ? v : encodeURIComponent(v);
        return { secret, line };
      }),
    );
