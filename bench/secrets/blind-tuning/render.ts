// Rendering of a value into snippets, files, and Gitea API bodies (issue, PR, comment, commit,
// diff, raw file, wiki page, Actions log, Actions variable, webhook, release).
import type { Kind } from './formats';
import {
  AN,
  DIG,
  HEX,
  LAN,
  Rng,
  b64,
  charwise,
  dqEsc,
  goDate,
  goEsc,
  goJson,
  ident,
  isoDate,
  nlEsc,
  sha1,
  shDqEsc,
  urlEnc,
  xmlEsc,
} from './util';

export type Leak = {
  name: string;
  value: string;
  secrets: string[];
  kind: Kind;
  own?: string[];
  header?: string;
  host?: string;
  neg?: boolean;
  noHttp?: boolean;
  family?: string;
};
export type Snip = { text: string; secrets: string[]; lang: string };
export type Rendered = { context: string; payload: string; secrets: string[] };

export const CONTEXTS = [
  'issue',
  'pull',
  'comment',
  'commit',
  'diff',
  'raw',
  'wiki',
  'actions_log',
  'actions_variable',
  'webhook',
  'release',
] as const;
export type Context = (typeof CONTEXTS)[number];

function put(tpl: string, l: Leak, T: (s: string) => string = ident): Snip {
  return {
    text: tpl.split('{n}').join(l.name).split('{v}').join(T(l.value)),
    secrets: l.secrets.map(T),
    lang: '',
  };
}
const withLang = (s: Snip, lang: string): Snip => ({ ...s, lang });

const SAFE = /^[A-Za-z0-9_\-./+=:@~%,]+$/;
const envName = (n: string): string =>
  /^[\x20-\x7e]+$/.test(n) ? n.replace(/[.\- ]/g, '_').toUpperCase() : n;
const camel = (n: string): string => {
  const parts = n
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (!parts.length) return 'secret';
  return (
    parts[0] +
    parts
      .slice(1)
      .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
      .join('')
  );
};
const yamlSq = charwise({ "'": "''" });
const rbSq = charwise({ '\\': '\\\\', "'": "\\'", '\n': '\\n' });
const makeEsc = charwise({ $: '$$', '\n': '\\n' });

function shellAssign(l: Leak, lhs: string): Snip {
  if (l.value.includes('\n')) return put(`${lhs}="$(cat <<'EOF'\n{v}\nEOF\n)"`, l);
  if (SAFE.test(l.value)) return put(`${lhs}={v}`, l);
  if (!l.value.includes("'")) return put(`${lhs}='{v}'`, l);
  return put(`${lhs}="{v}"`, l, shDqEsc);
}
function yamlKV(l: Leak, key: string, indent: string): Snip {
  if (l.value.includes('\n')) {
    const ind = indent + '  ';
    return put(`${indent}${key}: |\n${ind}{v}`, l, charwise({ '\n': '\n' + ind }));
  }
  if (SAFE.test(l.value) && !/^[0-9]/.test(l.value) && !l.value.includes(': '))
    return put(`${indent}${key}: {v}`, l);
  if (l.value.includes("'") && !l.value.includes('"') && !l.value.includes('\\'))
    return put(`${indent}${key}: "{v}"`, l);
  return put(`${indent}${key}: '{v}'`, l, yamlSq);
}

export const SNIPPET_STYLES = [
  'env',
  'yaml',
  'json',
  'toml',
  'ini',
  'properties',
  'xml',
  'hcl',
  'dockerfile',
  'compose',
  'k8s',
  'shell',
  'python',
  'js',
  'ts',
  'go',
  'java',
  'csharp',
  'ruby',
  'php',
  'powershell',
  'makefile',
  'workflow',
  'curl',
  'httpie',
  'wget',
  'grpcurl',
  'prose',
  'table',
  'jsonlog',
  'stacktrace',
  'dockerrun',
  'kubectl',
  'ghsecret',
  'urlquery',
  'formbody',
  'basicauth',
  'dockerauth',
  'sdk',
  'sdk',
  'oddsep',
  'jsonstr',
  'httpdump',
  'dockerinspect',
  'tfstate',
  'html',
  'csv',
  'sql',
  'own',
] as const;
export type Style = (typeof SNIPPET_STYLES)[number];
const PEM_OK: Style[] = [
  'env',
  'yaml',
  'json',
  'toml',
  'hcl',
  'k8s',
  'shell',
  'python',
  'js',
  'ts',
  'go',
  'java',
  'csharp',
  'ruby',
  'jsonlog',
  'prose',
  'workflow',
  'own',
];
const NEG_OK: Style[] = [
  'env',
  'yaml',
  'json',
  'toml',
  'ini',
  'properties',
  'xml',
  'hcl',
  'dockerfile',
  'compose',
  'workflow',
  'jsonlog',
  'oddsep',
  'jsonstr',
  'dockerinspect',
  'html',
  'csv',
  'own',
];
const PEM_OK_MORE: Style[] = ['jsonstr', 'tfstate', 'dockerinspect'];

const SDK: Record<string, [string, string][]> = {
  ai: [
    ['python', 'client = OpenAI(api_key="{v}")'],
    ['python', 'client = anthropic.Anthropic(api_key="{v}")'],
    ['ts', 'const openai = new OpenAI({ apiKey: "{v}" });'],
    ['python', 'llm = ChatMistralAI(model="mistral-large-latest", api_key="{v}")'],
    ['go', 'client := openai.NewClient(option.WithAPIKey("{v}"))'],
  ],
  forge: [
    ['js', 'const octokit = new Octokit({ auth: "{v}" });'],
    ['go', 'client, err := gitea.NewClient("https://gitea.example.org", gitea.SetToken("{v}"))'],
    ['python', 'gl = gitlab.Gitlab("https://gitlab.com", private_token="{v}")'],
    ['python', 'g = Github(auth=Auth.Token("{v}"))'],
    ['ruby', "client = Octokit::Client.new(access_token: '{v}')"],
  ],
  chat: [
    ['python', 'client = WebClient(token="{v}")'],
    ['python', 'bot.run("{v}")'],
    ['js', 'const app = new App({ token: "{v}", signingSecret: process.env.SLACK_SIGNING_SECRET });'],
    ['go', 'api := slack.New("{v}")'],
    ['python', 'requests.post("{v}", json={"text": "deploy finished"})'],
  ],
  payments: [
    ['python', 'stripe.api_key = "{v}"'],
    ['js', 'const stripe = require("stripe")("{v}");'],
    ['php', "\\Stripe\\Stripe::setApiKey('{v}');"],
    ['java', 'Stripe.apiKey = "{v}";'],
    ['csharp', 'StripeConfiguration.ApiKey = "{v}";'],
  ],
  cloud: [
    ['python', 's3 = boto3.client("s3", region_name="eu-west-1", aws_secret_access_key="{v}")'],
    [
      'js',
      'const s3 = new S3Client({ region: "eu-west-1", credentials: { accessKeyId, secretAccessKey: "{v}" } });',
    ],
    ['csharp', 'var cred = new ClientSecretCredential(tenantId, clientId, "{v}");'],
    [
      'go',
      'sess := session.Must(session.NewSession(&aws.Config{Credentials: credentials.NewStaticCredentials(id, "{v}", "")}))',
    ],
    ['python', 'credential = ClientSecretCredential(tenant_id, client_id, "{v}")'],
  ],
  data: [
    ['python', 'conn = psycopg2.connect(host="db.internal", user="app", password="{v}")'],
    ['python', 'r = redis.Redis(host="cache.internal", port=6379, password="{v}")'],
    ['js', 'const client = new MongoClient("{v}");'],
    ['java', 'Connection c = DriverManager.getConnection(url, "app", "{v}");'],
    ['csharp', 'var conn = new SqlConnection("Server=sql01;Database=orders;User Id=app;Password={v};");'],
    ['go', 'db, err := sql.Open("postgres", "{v}")'],
  ],
  observability: [
    ['js', 'Sentry.init({ dsn: "{v}", tracesSampleRate: 0.2 });'],
    ['python', 'initialize(api_key="{v}", app_key=os.environ["DD_APP_KEY"])'],
    ['python', 'sentry_sdk.init(dsn="{v}")'],
    ['go', 'client, _ := statsd.New("127.0.0.1:8125", statsd.WithTags([]string{"key:{v}"}))'],
  ],
  'mail-sms': [
    ['python', 'sg = SendGridAPIClient("{v}")'],
    ['js', 'const client = twilio(accountSid, "{v}");'],
    ['ruby', "@client = Twilio::REST::Client.new(account_sid, '{v}')"],
    ['python', 'server.login("alerts@acme.io", "{v}")'],
    ['csharp', 'smtp.Credentials = new NetworkCredential("alerts@acme.io", "{v}");'],
  ],
};
const SDK_DEFAULT: [string, string][] = [
  ['python', 'session.headers.update({"Authorization": "Bearer {v}"})'],
  ['js', 'axios.defaults.headers.common["X-Api-Key"] = "{v}";'],
  ['go', 'req.Header.Set("Authorization", "Bearer {v}")'],
  ['java', 'conn.setRequestProperty("Authorization", "Bearer {v}");'],
  ['csharp', 'http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", "{v}");'],
  ['ruby', "Faraday.new(url, headers: { 'Authorization' => 'Bearer {v}' })"],
  ['php', "$client = new GuzzleHttp\\Client(['headers' => ['Authorization' => 'Bearer {v}']]);"],
  ['powershell', "Invoke-RestMethod -Uri $url -Headers @{ Authorization = 'Bearer {v}' }"],
];

const HTTP_STYLES: Style[] = [
  'curl',
  'httpie',
  'wget',
  'grpcurl',
  'stacktrace',
  'urlquery',
  'formbody',
  'sdk',
  'httpdump',
];

export function chooseStyle(r: Rng, l: Leak): Style {
  if (l.own?.length && r.chance(l.neg ? 0.75 : 0.4)) return 'own';
  const pool: readonly Style[] = l.neg
    ? NEG_OK.filter((x) => l.kind !== 'pem' || PEM_OK.includes(x) || PEM_OK_MORE.includes(x))
    : l.kind === 'pem'
      ? [...PEM_OK, ...PEM_OK_MORE]
      : SNIPPET_STYLES;
  for (;;) {
    const s = r.pick(pool);
    if (s === 'own' && !l.own?.length) continue;
    if (l.noHttp && HTTP_STYLES.includes(s)) continue;
    if ((s === 'basicauth' || s === 'dockerauth') && l.kind !== 'pass' && !r.chance(0.3)) continue;
    return s;
  }
}

const API_PATHS = [
  '/v1/deployments',
  '/api/v2/events',
  '/v1/models',
  '/v3/projects?per_page=100',
  '/api/v1/user',
  '/v1/search',
];
function hdr(l: Leak): string {
  if (l.header) return l.header;
  if (l.kind === 'pass') return 'Authorization: Basic {v}';
  return 'Authorization: Bearer {v}';
}
const host = (r: Rng, l: Leak): string =>
  l.host ?? r.pick(['api.acme.io', 'api.partner.example.com', 'internal-gateway.corp', 'svc.acme.dev']);

const PROSE = [
  "here's the key: {v}",
  'use this token for now, I will rotate it after the demo: {v}',
  'Hier ist das Passwort für den Staging-Server: {v}',
  'le mot de passe du compte de service est {v} (à changer)',
  'la contraseña de la base es {v}',
  'a senha do admin é {v}',
  'il token è {v}, non condividerlo',
  'パスワードは {v} です。',
  '测试环境的密钥是 {v}',
  'пароль от прода: {v}',
  'ok so I set {n} to {v} and it still returns 401??',
  'FYI creds for the sandbox -> {v}',
  '@ops can you check? the key `{v}` stopped working yesterday',
  'wachtwoord = {v}',
  'Tried again with `{n}={v}`, same error.',
];

export function snippet(r: Rng, l: Leak, style: Style): Snip {
  const n = l.name;
  const en = envName(n);
  const multi = l.value.includes('\n');
  switch (style) {
    case 'own':
      return put(r.pick(l.own ?? ['{v}']), l);
    case 'env':
      return withLang(
        r.chance(0.3)
          ? shellAssign(l, 'export ' + en)
          : multi
            ? put(`${en}="{v}"`, l, dqEsc)
            : SAFE.test(l.value)
              ? put(`${en}={v}`, l)
              : put(`${en}="{v}"`, l, dqEsc),
        'dotenv',
      );
    case 'yaml':
      return withLang(
        r.chance(0.5)
          ? yamlKV(l, n, '')
          : {
              ...yamlKV(l, n, '    '),
              text:
                `${l.neg ? r.pick(['build', 'release', 'metadata']) : r.pick(['production', 'credentials', 'secrets', 'auth'])}:\n  ${r.pick(['api', 'default', 'backend'])}:\n` +
                yamlKV(l, n, '    ').text,
            },
        'yaml',
      );
    case 'json':
      return withLang(
        put(
          `{\n  "${r.pick(['service', 'name'])}": "${r.pick(['billing', 'deploy', 'sync'])}",\n  "${n}": "{v}"\n}`,
          l,
          dqEsc,
        ),
        'json',
      );
    case 'toml':
      return withLang(
        put(
          `[${l.neg ? r.pick(['build', 'package', 'release']) : r.pick(['auth', 'credentials', 'provider.default'])}]\n${/^[A-Za-z0-9_-]+$/.test(n) ? n : `"${n}"`} = "{v}"`,
          l,
          dqEsc,
        ),
        'toml',
      );
    case 'ini':
      return withLang(put(`[${r.pick(['default', 'database', 'api'])}]\n${n} = {v}`, l, nlEsc), 'ini');
    case 'properties':
      return withLang(
        put(`${r.pick(['app', 'spring.datasource', 'client'])}.${camel(n)}={v}`, l, nlEsc),
        'properties',
      );
    case 'xml':
      return withLang(
        r.chance(0.5)
          ? put(`<add key="${n}" value="{v}" />`, l, xmlEsc)
          : put(`<${camel(n)}>{v}</${camel(n)}>`, l, xmlEsc),
        'xml',
      );
    case 'hcl':
      return withLang(
        multi
          ? put(`${camel(n)} = <<EOT\n{v}\nEOT`, l)
          : put(`${r.pick(['variable_value', camel(n)])} = "{v}"`, l, dqEsc),
        'hcl',
      );
    case 'dockerfile':
      return withLang(
        r.chance(0.5) ? put(`ENV ${en}="{v}"`, l, shDqEsc) : put(`ARG ${en}={v}`, l, nlEsc),
        'dockerfile',
      );
    case 'compose':
      return withLang(put(`    environment:\n      - ${en}={v}`, l, nlEsc), 'yaml');
    case 'k8s': {
      if (r.chance(0.6)) {
        const enc = b64(l.value);
        return {
          text: `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-secrets\ntype: Opaque\ndata:\n  ${n.replace(/[^A-Za-z0-9._-]/g, '_')}: ${enc}`,
          secrets: [enc],
          lang: 'yaml',
        };
      }
      const kv = yamlKV(l, n.replace(/[^A-Za-z0-9._-]/g, '_'), '  ');
      return {
        ...kv,
        text: `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-secrets\nstringData:\n${kv.text}`,
        lang: 'yaml',
      };
    }
    case 'shell':
      return withLang(shellAssign(l, r.chance(0.5) ? 'export ' + en : en), 'bash');
    case 'python':
      if (multi) return withLang(put(`${en} = """{v}"""`, l), 'python');
      return withLang(
        put(
          r.pick([
            `${camel(n).toUpperCase() === en ? en : en} = "{v}"`,
            'client = Client(api_key="{v}", timeout=30)',
            `os.environ.setdefault("${en}", "{v}")`,
            `settings = {"${n}": "{v}"}`,
          ]),
          l,
          dqEsc,
        ),
        'python',
      );
    case 'js':
    case 'ts':
      if (multi && !l.value.includes('`') && !l.value.includes('${'))
        return withLang(put(`const ${camel(n)} = \`{v}\`;`, l), style === 'ts' ? 'ts' : 'js');
      return withLang(
        put(
          r.pick([
            `const ${camel(n)}${style === 'ts' ? ': string' : ''} = "{v}";`,
            `const client = new Client({ ${camel(n)}: "{v}" });`,
            `process.env.${en} ??= "{v}";`,
            `headers: { Authorization: "Bearer {v}" },`,
          ]),
          l,
          dqEsc,
        ),
        style === 'ts' ? 'ts' : 'js',
      );
    case 'go':
      if (multi && !l.value.includes('`')) return withLang(put(`const ${camel(n)} = \`{v}\``, l), 'go');
      return withLang(
        put(
          r.pick([`const ${camel(n)} = "{v}"`, `os.Setenv("${en}", "{v}")`, `cfg := Config{Token: "{v}"}`]),
          l,
          dqEsc,
        ),
        'go',
      );
    case 'java':
      return withLang(
        put(
          r.pick([
            `private static final String ${en.replace(/[^A-Z0-9_]/gi, '_')} = "{v}";`,
            `props.setProperty("${n}", "{v}");`,
            `.header("Authorization", "Bearer {v}")`,
          ]),
          l,
          dqEsc,
        ),
        'java',
      );
    case 'csharp':
      return withLang(
        put(
          r.pick([
            `var client = new ApiClient("{v}");`,
            `options.Password = "{v}";`,
            `Environment.SetEnvironmentVariable("${en}", "{v}");`,
          ]),
          l,
          dqEsc,
        ),
        'csharp',
      );
    case 'ruby':
      return withLang(
        put(
          r.pick([
            `ENV['${en}'] ||= '{v}'`,
            `config.${camel(n)} = '{v}'`,
            `Acme.configure { |c| c.api_key = '{v}' }`,
          ]),
          l,
          rbSq,
        ),
        'ruby',
      );
    case 'php':
      return withLang(
        put(r.pick([`'${n}' => '{v}',`, `define('${en}', '{v}');`, `$${camel(n)} = '{v}';`]), l, rbSq),
        'php',
      );
    case 'powershell':
      return withLang(
        put(
          r.pick([
            `$env:${en} = '{v}'`,
            `$${camel(n)} = '{v}'`,
            `[Environment]::SetEnvironmentVariable('${en}', '{v}', 'Machine')`,
          ]),
          l,
          charwise({ "'": "''", '\n': '`n' }),
        ),
        'powershell',
      );
    case 'makefile':
      return withLang(put(`${en} ?= {v}\n\ndeploy:\n\t./deploy.sh --token $(${en})`, l, makeEsc), 'makefile');
    case 'workflow': {
      const kv = yamlKV(l, en, '          ');
      return {
        ...kv,
        text: `    steps:\n      - uses: actions/checkout@v4\n      - run: ./scripts/release.sh\n        env:\n${kv.text}`,
        lang: 'yaml',
      };
    }
    case 'curl': {
      const h = hdr(l);
      const url = `https://${host(r, l)}${r.pick(API_PATHS)}`;
      if (l.kind === 'url' && /^https?:/.test(l.value))
        return withLang(put(`curl -fsS "{v}"`, l, shDqEsc), 'bash');
      if (l.kind === 'url') return snippet(r, l, 'stacktrace');
      return withLang(
        put(
          `curl -sS -X ${r.pick(['GET', 'POST'])} "${url}" \\\n  -H "${h}" \\\n  -H "Content-Type: application/json"`,
          l,
          shDqEsc,
        ),
        'bash',
      );
    }
    case 'httpie':
      return withLang(
        put(
          `http ${r.pick(['GET', 'POST'])} https://${host(r, l)}${r.pick(API_PATHS)} '${hdr(l).replace(': ', ':')}'`,
          l,
          charwise({ "'": "'\\''" }),
        ),
        'bash',
      );
    case 'wget':
      return withLang(
        put(`wget -q --header="${hdr(l)}" https://${host(r, l)}/downloads/release-2.3.1.tar.gz`, l, shDqEsc),
        'bash',
      );
    case 'grpcurl':
      return withLang(
        put(
          `grpcurl -H "${hdr(l).toLowerCase()}" ${host(r, l)}:443 acme.deploy.v1.DeployService/Rollout`,
          l,
          shDqEsc,
        ),
        'bash',
      );
    case 'prose':
      if (multi)
        return put(
          `${r.pick(['here is the key', 'Schlüssel anbei', 'voici la clé'])}:\n\n\`\`\`\n{v}\n\`\`\``,
          l,
        );
      return put(r.pick(PROSE), l);
    case 'table':
      return put(
        `| env | ${r.pick(['key', 'secret', 'credential', 'Zugang'])} | owner |\n|-----|-----|-----|\n| prod | \`{v}\` | @ops |`,
        l,
        nlEsc,
      );
    case 'jsonlog':
      return withLang(
        put(
          `{"level":"debug","ts":"${r.pick(['2026-01-05T10:11:12.345Z', '2025-11-30T23:59:01.002Z'])}","logger":"config","msg":"loaded settings","settings":{"${n}":"{v}","timeout":30}}`,
          l,
          dqEsc,
        ),
        'json',
      );
    case 'stacktrace':
      if (l.kind === 'url')
        return put(
          r.pick([
            'sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) could not translate host name\n(Background on this error at: https://sqlalche.me/e/20/e3q8)\n  engine url: {v}',
            "Error: connect ECONNREFUSED 10.0.3.4:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1595:16) {\n  errno: -111,\n  code: 'ECONNREFUSED',\n  config: '{v}'\n}",
            'panic: dial failed for "{v}": i/o timeout\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/cmd/server/main.go:42 +0x1d4',
            'Caused by: java.sql.SQLException: Access denied for url {v}\n\tat com.mysql.cj.jdbc.exceptions.SQLError.createSQLException(SQLError.java:130)',
          ]),
          l,
        );
      return put(
        r.pick([
          "AxiosError: Request failed with status code 401\n    at settle (node_modules/axios/lib/core/settle.js:19:12)\n  config: {\n    headers: { Accept: 'application/json', Authorization: 'Bearer {v}' },\n    url: '/v1/sync'\n  }",
          'Traceback (most recent call last):\n  File "/app/sync.py", line 88, in <module>\n    resp.raise_for_status()\nrequests.exceptions.HTTPError: 403 Client Error: Forbidden for url: https://api.acme.io/v1/export?api_key={v}',
          'level=error msg="auth failed" token="{v}" err="invalid signature"',
        ]),
        l,
        nlEsc,
      );
    case 'dockerrun':
      return withLang(put(`docker run --rm -e ${en}={v} ghcr.io/acme/worker:1.8.2`, l, nlEsc), 'bash');
    case 'kubectl':
      return withLang(
        put(
          `kubectl -n prod create secret generic app-secrets --from-literal=${n.replace(/[^A-Za-z0-9._-]/g, '_')}='{v}'`,
          l,
          charwise({ "'": "'\\''", '\n': '\\n' }),
        ),
        'bash',
      );
    case 'urlquery':
      return put(
        `https://${host(r, l)}${r.pick(['/api/export', '/v2/report', '/hooks/ingest', '/download'])}?${r.pick(['format=csv&', '', 'page=2&'])}${l.kind === 'url' ? r.pick(['dsn', 'target', 'url', 'source']) : r.pick(['api_key', 'token', 'access_token', 'key', 'apiKey', 'auth'])}={v}`,
        l,
        urlEnc,
      );
    case 'formbody':
      return withLang(
        put(
          `curl -X POST https://${host(r, l)}/oauth/token \\\n  -d grant_type=client_credentials \\\n  -d client_id=${r.str(20, LAN)} \\\n  -d "client_secret={v}"`,
          l,
          (x) => shDqEsc(urlEnc(x)),
        ),
        'bash',
      );
    case 'basicauth': {
      const enc = b64(`${r.pick(['ci', 'admin', 'deploy', 'api', 'svc-build'])}:${l.value}`);
      return withLang(
        {
          text: r.pick([
            `Authorization: Basic ${enc}`,
            `curl -H "Authorization: Basic ${enc}" https://${host(r, l)}/v2/_catalog`,
            `> GET /api/v1/status HTTP/1.1\n> Host: ${host(r, l)}\n> Authorization: Basic ${enc}\n> User-Agent: curl/8.5.0`,
          ]),
          secrets: [enc],
          lang: 'http',
        },
        'http',
      );
    }
    case 'dockerauth': {
      const enc = b64(
        `${r.pick(['ci-bot', 'robot$acme+push', 'AWS', '_json_key', 'oauth2accesstoken'])}:${l.value}`,
      );
      return withLang(
        {
          text: `{\n  "auths": {\n    "${r.pick(['registry.acme.io', 'ghcr.io', 'https://index.docker.io/v1/', 'harbor.corp:8443'])}": {\n      "auth": "${enc}"\n    }\n  }\n}`,
          secrets: [enc],
          lang: 'json',
        },
        'json',
      );
    }
    case 'sdk': {
      const [lang, tpl] = r.pick(l.family && SDK[l.family] && r.chance(0.75) ? SDK[l.family]! : SDK_DEFAULT);
      const T =
        lang === 'ruby' || lang === 'php' || (lang === 'powershell' && tpl.includes("'{v}'"))
          ? lang === 'powershell'
            ? charwise({ "'": "''" })
            : rbSq
          : dqEsc;
      return withLang(put(tpl, l, T), lang);
    }
    case 'oddsep':
      return put(
        r.pick([
          '{n} : {v}',
          '{n}:{v}',
          '{n} => {v}',
          '{n} := {v}',
          '{n} -> {v}',
          '{n}\t{v}',
          'set {n} {v}',
          '{n}={v}   # prod, do not share',
          '{n} is {v}',
          '{n}: >-\n  {v}',
          '- {n}={v}',
          '{n} ({v})',
        ]),
        l,
        nlEsc,
      );
    case 'jsonstr':
      return put(
        r.pick([
          'time="2026-01-05T10:11:12Z" level=debug msg="request body" body="{\\"{n}\\":\\"{v}\\",\\"dry_run\\":false}"',
          '{"level":"info","msg":"config","raw":"{\\"{n}\\": \\"{v}\\"}"}',
          'echo "{\\"{n}\\":\\"{v}\\"}" > config.json',
        ]),
        l,
        (x) => dqEsc(dqEsc(x)),
      );
    case 'httpdump':
      return withLang(
        put(
          `> ${r.pick(['GET', 'POST', 'PUT'])} ${r.pick(API_PATHS)} HTTP/2\n> Host: ${host(r, l)}\n> User-Agent: ${r.pick(['curl/8.5.0', 'python-requests/2.32.3', 'Go-http-client/2.0'])}\n> ${hdr(l)}\n> Accept: */*\n>\n< HTTP/2 ${r.pick(['401', '403', '200', '500'])}\n< content-type: application/json`,
          l,
          nlEsc,
        ),
        'http',
      );
    case 'dockerinspect':
      return withLang(
        put(
          `"Config": {\n    "Hostname": "${r.str(12, HEX)}",\n    "Env": [\n        "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",\n        "${envName(n)}={v}",\n        "NODE_VERSION=22.11.0"\n    ],`,
          l,
          dqEsc,
        ),
        'json',
      );
    case 'tfstate':
      return withLang(
        put(
          `{\n  "mode": "managed",\n  "type": "${r.pick(['aws_db_instance', 'random_password', 'azurerm_storage_account', 'kubernetes_secret'])}",\n  "instances": [\n    {\n      "attributes": {\n        "${n}": "{v}",\n        "id": "${r.str(16, LAN)}"\n      },\n      "sensitive_attributes": []\n    }\n  ]\n}`,
          l,
          dqEsc,
        ),
        'json',
      );
    case 'html':
      if (r.chance(0.5))
        return withLang(
          put(
            r.pick([
              '<input type="hidden" name="{n}" value="{v}">',
              '<meta name="{n}" content="{v}">',
              '<div id="app" data-{n}="{v}"></div>',
            ]),
            l,
            xmlEsc,
          ),
          'html',
        );
      return withLang(
        put(
          '<script>window.__CONFIG__ = {"env":"production","{n}":"{v}"};</script>',
          l,
          charwise({ '\\': '\\\\', '"': '\\"', '\n': '\\n', '<': '\\u003c' }),
        ),
        'html',
      );
    case 'csv':
      return withLang(
        put(`environment,${n},owner\nstaging,"{v}",ops\n`, l, charwise({ '"': '""', '\n': '\\n' })),
        'csv',
      );
    case 'sql':
      return withLang(
        put(
          r.pick([
            `INSERT INTO api_keys (name, ${n.replace(/[^A-Za-z0-9_]/g, '_')}) VALUES ('ci', '{v}');`,
            "CREATE USER app WITH PASSWORD '{v}';",
            "ALTER USER 'report'@'%' IDENTIFIED BY '{v}';",
            "UPDATE settings SET value = '{v}' WHERE key = 'smtp_password';",
          ]),
          l,
          charwise({ "'": "''", '\n': '\\n' }),
        ),
        'sql',
      );
    case 'ghsecret':
      return withLang(put(`gh secret set ${en} --repo acme/api --body "{v}"`, l, shDqEsc), 'bash');
  }
}

// ---------- files
const FILE_KINDS: Record<string, { style: Style; paths: string[]; before: string[]; after: string[] }> = {
  env: {
    style: 'env',
    paths: ['.env', '.env.production', 'deploy/.env.staging', 'docker/.env'],
    before: ['# local overrides — do not commit', 'NODE_ENV=production', 'PORT=8080', 'LOG_LEVEL=info'],
    after: ['FEATURE_NEW_CHECKOUT=true', 'TZ=Europe/Berlin'],
  },
  yaml: {
    style: 'yaml',
    paths: ['config/settings.yaml', 'application.yml', 'values.prod.yaml', 'config.yml'],
    before: ['# service configuration', 'server:', '  port: 8080', 'logging:', '  level: info'],
    after: ['metrics:', '  enabled: true'],
  },
  json: {
    style: 'json',
    paths: ['config/production.json', 'appsettings.Production.json', 'secrets.json'],
    before: [],
    after: [],
  },
  toml: {
    style: 'toml',
    paths: ['config.toml', 'settings.toml', '.cargo/config.toml', 'pyproject.toml'],
    before: ['[server]', 'host = "0.0.0.0"', 'port = 8000', ''],
    after: ['', '[log]', 'level = "info"'],
  },
  ini: {
    style: 'ini',
    paths: ['config.ini', 'setup.cfg', 'php.ini', '.my.cnf', 'app.ini'],
    before: ['; maintained by ansible', '[general]', 'timezone = UTC', ''],
    after: ['', '[cache]', 'ttl = 300'],
  },
  properties: {
    style: 'properties',
    paths: ['src/main/resources/application.properties', 'gradle.properties', 'config/app.properties'],
    before: ['# Spring Boot', 'server.port=8080', 'spring.application.name=orders'],
    after: ['management.endpoints.web.exposure.include=health'],
  },
  xml: {
    style: 'xml',
    paths: ['web.config', 'App.config', 'settings.xml', 'src/main/resources/config.xml'],
    before: ['<?xml version="1.0" encoding="utf-8"?>', '<configuration>', '  <appSettings>'],
    after: ['  </appSettings>', '</configuration>'],
  },
  hcl: {
    style: 'hcl',
    paths: ['main.tf', 'terraform.tfvars', 'infra/prod.auto.tfvars', 'nomad/job.hcl'],
    before: ['terraform {', '  required_version = ">= 1.6"', '}', ''],
    after: ['', 'region = "eu-central-1"'],
  },
  dockerfile: {
    style: 'dockerfile',
    paths: ['Dockerfile', 'docker/Dockerfile.prod', 'build/Containerfile'],
    before: ['FROM node:22-alpine', 'WORKDIR /app', 'COPY package*.json ./'],
    after: ['RUN npm ci --omit=dev', 'CMD ["node", "dist/main.js"]'],
  },
  compose: {
    style: 'compose',
    paths: ['docker-compose.yml', 'compose.yaml', 'deploy/docker-compose.prod.yml'],
    before: ['services:', '  app:', '    image: ghcr.io/acme/app:2.1.0', '    ports:', '      - "8080:8080"'],
    after: ['    restart: unless-stopped'],
  },
  k8s: {
    style: 'k8s',
    paths: ['k8s/secret.yaml', 'manifests/app-secrets.yml', 'charts/app/templates/secret.yaml'],
    before: ['---'],
    after: [],
  },
  shell: {
    style: 'shell',
    paths: ['deploy.sh', 'scripts/bootstrap.sh', 'ci/publish.sh', '.envrc'],
    before: ['#!/usr/bin/env bash', 'set -euo pipefail', ''],
    after: ['', './bin/migrate --yes'],
  },
  python: {
    style: 'python',
    paths: ['settings.py', 'scripts/sync.py', 'app/config.py', 'notebooks/explore.py'],
    before: ['import os', 'from acme.client import Client', ''],
    after: ['', 'DEBUG = False'],
  },
  js: {
    style: 'js',
    paths: ['config.js', 'scripts/seed.js', 'src/api.js', 'webpack.config.js'],
    before: ["'use strict';", "const { Client } = require('./client');", ''],
    after: ['', 'module.exports = { client };'],
  },
  ts: {
    style: 'ts',
    paths: ['src/config.ts', 'scripts/migrate.ts', 'src/lib/api.ts'],
    before: ["import { Client } from './client';", ''],
    after: ['', 'export default client;'],
  },
  go: {
    style: 'go',
    paths: ['cmd/server/main.go', 'internal/config/config.go', 'main.go'],
    before: ['package main', '', 'import "os"', ''],
    after: ['', 'func main() {}'],
  },
  java: {
    style: 'java',
    paths: ['src/main/java/com/acme/Config.java', 'src/main/java/com/acme/ApiClient.java'],
    before: ['package com.acme;', '', 'public class Config {'],
    after: ['}'],
  },
  csharp: {
    style: 'csharp',
    paths: ['Program.cs', 'src/Acme.Api/Startup.cs'],
    before: ['using System;', '', 'namespace Acme.Api;', ''],
    after: [''],
  },
  ruby: {
    style: 'ruby',
    paths: ['config/initializers/api.rb', 'Rakefile', 'lib/tasks/sync.rake'],
    before: ["require 'acme'", ''],
    after: ['', 'puts "configured"'],
  },
  php: {
    style: 'php',
    paths: ['config/services.php', 'wp-config.php', 'config/database.php'],
    before: ['<?php', '', 'return ['],
    after: ['];'],
  },
  powershell: {
    style: 'powershell',
    paths: ['deploy.ps1', 'scripts/Setup-Agent.ps1', 'profile.ps1'],
    before: ['Set-StrictMode -Version Latest', '$ErrorActionPreference = "Stop"'],
    after: ['Write-Host "done"'],
  },
  makefile: {
    style: 'makefile',
    paths: ['Makefile', 'build/Makefile'],
    before: ['.PHONY: deploy build', ''],
    after: [''],
  },
  workflow: {
    style: 'workflow',
    paths: [
      '.gitea/workflows/release.yml',
      '.github/workflows/deploy.yml',
      '.gitea/workflows/ci.yaml',
      '.forgejo/workflows/build.yml',
    ],
    before: [
      'name: release',
      'on:',
      '  push:',
      '    tags: ["v*"]',
      'jobs:',
      '  release:',
      '    runs-on: ubuntu-latest',
    ],
    after: [],
  },
  own: {
    style: 'own',
    paths: [
      '.npmrc',
      '.pypirc',
      '.netrc',
      '.git-credentials',
      '.gitconfig',
      '.yarnrc.yml',
      '.docker/config.json',
      'kubeconfig',
      'NuGet.Config',
      'auth.json',
      'rclone.conf',
      '.s3cfg',
      'notes.txt',
      'README.md',
      'credentials',
      '.edgerc',
      '.zuliprc',
      'ngrok.yml',
      'redis.conf',
      'wpa_supplicant.conf',
      'build.gradle',
      'settings.xml',
      'hardhat.config.js',
      'app.ini',
    ],
    before: [],
    after: [],
  },
};
const FILE_KIND_NAMES = Object.keys(FILE_KINDS);

const OWN_PATHS: [RegExp, string[]][] = [
  [/_authToken|_auth=|always-auth/, ['.npmrc', 'frontend/.npmrc']],
  [/npmAuthToken/, ['.yarnrc.yml']],
  [/^\[pypi\]/m, ['.pypirc']],
  [/^machine /m, ['.netrc', '_netrc']],
  [/"auths"/, ['.docker/config.json', 'ci/docker-config.json']],
  [/\[\[runners\]\]/, ['/etc/gitlab-runner/config.toml']],
  [/credentials "app\.terraform\.io"/, ['.terraformrc']],
  [/<server>/, ['.m2/settings.xml']],
  [/^users:/m, ['kubeconfig', '.kube/config']],
  [/^\[(security|server|oauth2)\]/m, ['custom/conf/app.ini', 'gitea/app.ini']],
  [/network=\{/, ['wpa_supplicant.conf']],
  [/requirepass/, ['redis.conf']],
  [/android \{/, ['app/build.gradle']],
  [/packageSourceCredentials/, ['NuGet.Config']],
  [/github-oauth/, ['auth.json']],
  [/^\[nas\]/m, ['.config/rclone/rclone.conf']],
  [/host_base/, ['.s3cfg']],
  [/max-body/, ['.edgerc']],
  [/^\[api\]\nemail/m, ['.zuliprc']],
  [/authtoken:/, ['.config/ngrok/ngrok.yml']],
  [/rubygems_api_key/, ['.gem/credentials']],
  [/^\[registry\]/m, ['.cargo/credentials.toml']],
  [/default_settings/, ['newrelic.yml']],
  [/^\[auth\]\ntoken/m, ['.sentryclirc']],
  [/oauth_token:/, ['.config/gh/hosts.yml']],
  [/define\(/, ['wp-config.php']],
  [/aws_secret_access_key/, ['.aws/credentials']],
  [/sasl\./, ['client.properties']],
  [/^\[remote /m, ['.git/config']],
  [/^https:\/\/[^\s]+@/m, ['.git-credentials']],
  [/ethers\.Wallet|accounts: \[/, ['hardhat.config.js', 'scripts/deploy.js']],
  [/^\{"/, ['.runner', 'config/credentials.json']],
];
function ownPath(r: Rng, text: string): string {
  for (const [re, paths] of OWN_PATHS) if (re.test(text)) return r.pick(paths);
  return r.pick([
    'scripts/setup.sh',
    'NOTES.md',
    'docs/deploy.md',
    'Makefile.local',
    'tmp/commands.txt',
    'README.md',
  ]);
}

export function rawFile(r: Rng, l: Leak): { path: string; text: string; secrets: string[]; lang: string } {
  let kindName = r.pick(FILE_KIND_NAMES);
  if (l.own?.length && r.chance(0.35)) kindName = 'own';
  let fk = FILE_KINDS[kindName]!;
  if (l.kind === 'pem' && !PEM_OK.includes(fk.style))
    fk = FILE_KINDS[r.pick(['env', 'yaml', 'json', 'shell', 'python', 'go', 'k8s'])]!;
  if (fk.style === 'own' && !l.own?.length) fk = FILE_KINDS.env!;
  if (l.neg && !NEG_OK.includes(fk.style))
    fk = FILE_KINDS[r.pick(['env', 'yaml', 'json', 'toml', 'ini', 'xml', 'hcl', 'compose'])]!;
  if (l.kind === 'pem' && r.chance(0.25)) {
    if (l.neg)
      return {
        path: r.pick(['certs/ca.crt', 'keys/public.pem', 'tls/server.crt', 'KEYS.asc']),
        text: l.value + '\n',
        secrets: l.secrets,
        lang: '',
      };
    return {
      path: r.pick([
        'id_rsa',
        'deploy_key',
        'certs/server.key',
        'keys/signing.pem',
        '.ssh/id_ed25519',
        'ci/gpg-private.asc',
        'AuthKey_ABC123.p8',
      ]),
      text: l.value + '\n',
      secrets: l.secrets,
      lang: '',
    };
  }
  let s = snippet(r, l, fk.style);
  if (fk.style === 'json' && !s.text.startsWith('{')) s = snippet(r, l, 'json');
  const text = [...fk.before, s.text, ...fk.after].join('\n') + '\n';
  const path = fk.style === 'own' ? ownPath(r, s.text) : r.pick(fk.paths);
  return { path, text, secrets: s.secrets, lang: s.lang };
}

// ---------- Gitea objects
const LOGINS = [
  'marta',
  'jdoe',
  'ops-bot',
  'kenji.t',
  'aleksandr',
  'priya-s',
  'lucas_m',
  'renovate',
  'fatima',
  'dev-ci',
];
function userObj(r: Rng): Record<string, unknown> {
  const login = r.pick(LOGINS);
  const id = r.range(1, 400);
  return {
    id,
    login,
    login_name: '',
    source_id: 0,
    full_name: '',
    email: `${login}@noreply.gitea.example.org`,
    avatar_url: `https://gitea.example.org/avatars/${r.str(32, HEX)}`,
    html_url: `https://gitea.example.org/${login}`,
    language: '',
    is_admin: false,
    last_login: '0001-01-01T00:00:00Z',
    created: goDate(r),
    restricted: false,
    active: false,
    prohibit_login: false,
    location: '',
    website: '',
    description: '',
    visibility: 'public',
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
    username: login,
  };
}
const REPOS = ['ops/infra', 'acme/api', 'acme/web', 'team/billing', 'platform/charts', 'data/pipelines'];

const TITLES = [
  'Deploy fails with 401 after token rotation',
  'Staging DB unreachable',
  'CI: release job broken',
  'Webhook not firing',
  'Add Sentry integration',
  'Migrate to new payment provider',
  'Docs: how to configure the mail relay',
  'Build cache misses on runner-03',
  'Fix flaky integration test',
  'Bump dependencies',
];
const INTROS = [
  'Steps to reproduce:',
  'I get this when running the deploy locally:',
  'Config I am using:',
  'Logs below.',
  'Reproduced on main. Relevant part:',
  'Wie besprochen, hier die Konfiguration:',
  'Voici ce que j’ai dans mon fichier :',
  'Mi configuración actual:',
  'Segue a configuração:',
  '設定は以下の通りです：',
  'Pasting what I have, sorry for the mess',
];

function markdownBody(r: Rng, s: Snip, neg = false): string {
  const intro = r.pick(INTROS);
  const outro = r.pick([
    '',
    '\n\nAny idea?',
    '\n\nThanks!',
    '\n\n/cc @ops',
    neg ? '\n\n- [ ] update the changelog' : '\n\n- [ ] rotate afterwards',
    '\n\nEnvironment: Ubuntu 24.04, Docker 27.3',
  ]);
  const fenced = s.lang !== '' || s.text.includes('\n');
  if (!fenced) return `${intro}\n\n${s.text}${outro}`;
  if (s.text.includes('```')) return `${intro}\n\n${s.text}${outro}`;
  return `${intro}\n\n\`\`\`${s.lang}\n${s.text}\n\`\`\`${outro}`;
}

function commitMessage(r: Rng, s: Snip): string {
  const subj = r.pick([
    'chore: update deploy config',
    'fix(ci): use service token',
    'wip',
    'Add staging credentials',
    'feat: wire up notifications',
    'temp: debug auth',
    'Revert "remove hardcoded key"',
    'build: configure registry auth',
  ]);
  const body = s.text
    .split('\n')
    .map((x) => (r.chance(0.3) ? '    ' + x : x))
    .join('\n');
  const trailer = r.pick([
    '',
    '\n\nSigned-off-by: Marta K <marta@acme.io>',
    '\n\nCo-authored-by: ops-bot <ops-bot@acme.io>',
    '\n\nRefs: #' + r.range(10, 999),
  ]);
  return `${subj}\n\n${body}${trailer}\n`;
}

function diffText(r: Rng, l: Leak): { text: string; secrets: string[] } {
  const f = rawFile(r, l);
  const lines = f.text.replace(/\n$/, '').split('\n');
  const isNew = r.chance(0.3);
  const a = r.range(1, 80);
  const h =
    `diff --git a/${f.path} b/${f.path}\n` +
    (isNew
      ? `new file mode 100644\nindex 0000000..${r.str(7, HEX)}\n--- /dev/null\n`
      : `index ${r.str(7, HEX)}..${r.str(7, HEX)} 100644\n--- a/${f.path}\n`) +
    `+++ b/${f.path}\n`;
  const body = isNew
    ? `@@ -0,0 +1,${lines.length} @@\n` + lines.map((x) => '+' + x).join('\n')
    : `@@ -${a},3 +${a},${lines.length + 1} @@ ${r.pick(['', 'func main() {', 'class Config:', '[server]'])}\n` +
      ` # ${r.pick(['keep in sync with staging', 'config', 'TODO: move to vault'])}\n` +
      lines.map((x) => '+' + x).join('\n') +
      `\n-${r.pick(['# placeholder', 'TOKEN=', 'api_key: ""'])}`;
  return { text: h + body + '\n', secrets: f.secrets };
}

function logText(r: Rng, l: Leak): { text: string; secrets: string[] } {
  const base = Date.UTC(2026, r.int(11), r.range(1, 28), r.int(24), r.int(60), r.int(60));
  let t = base;
  const stamp = (): string => {
    t += r.int(900);
    return new Date(t).toISOString().replace('Z', String(r.int(9999)).padStart(4, '0') + 'Z');
  };
  const pre = [
    '::group::Set up job',
    "Current runner version: 'v0.2.11'",
    "Runner name: 'runner-0" + r.range(1, 9) + "'",
    '::endgroup::',
    '::group::Run actions/checkout@v4',
    'Syncing repository: ' + r.pick(REPOS),
    '::endgroup::',
  ];
  let body: string[];
  let secrets = l.secrets;
  const mode = l.neg
    ? r.pick(['negown', 'negown', 'printenv', 'debug'])
    : l.kind === 'pem'
      ? r.pick(['cat', 'debug'])
      : r.pick(['trace', 'trace', 'printenv', 'debug', 'tool', 'stack', 'addmask', 'any']);
  if (mode === 'addmask') {
    const s = put('::add-mask::{v}', l, nlEsc);
    secrets = s.secrets;
    body = [
      '::group::Run echo "::add-mask::$TOKEN"',
      s.text,
      '+ ./deploy.sh --token ***',
      'deployed.',
      '::endgroup::',
    ];
  } else if (mode === 'any') {
    const s = snippet(r, l, chooseStyle(r, l));
    secrets = s.secrets;
    body = ['::group::Run cat config', ...s.text.split('\n'), '::endgroup::'];
  } else if (mode === 'negown') {
    const s = snippet(r, l, chooseStyle(r, l));
    secrets = s.secrets;
    body = ['::group::Run ./scripts/build.sh', ...s.text.split('\n'), '::endgroup::'];
  } else if (mode === 'cat')
    body = ['::group::Run cat deploy_key', '+ cat deploy_key', ...l.value.split('\n'), '::endgroup::'];
  else if (mode === 'trace') {
    const st = r.pick([
      'shell',
      'curl',
      'dockerrun',
      'kubectl',
      'ghsecret',
      'own',
      'httpie',
      'wget',
      'grpcurl',
    ] as Style[]);
    const s = snippet(r, l, st === 'own' && !l.own?.length ? 'curl' : st);
    secrets = s.secrets;
    body = [
      '::group::Run ./scripts/deploy.sh',
      ...s.text.split('\n').map((x, i) => (i === 0 ? '+ ' + x : x)),
      r.pick(['HTTP/2 200', '{"status":"ok"}', 'Login Succeeded', 'done.', 'error: unauthorized']),
      '::endgroup::',
    ];
  } else if (mode === 'printenv') {
    const s = put(`${envName(l.name)}={v}`, l, nlEsc);
    secrets = s.secrets;
    body = [
      '::group::Run printenv | sort',
      '+ printenv',
      'CI=true',
      'GITEA_ACTIONS=true',
      'HOME=/root',
      s.text,
      'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin',
      'RUNNER_OS=Linux',
      '::endgroup::',
    ];
  } else if (mode === 'debug') {
    const s = snippet(r, l, 'jsonlog');
    secrets = s.secrets;
    body = ['::group::Run node scripts/sync.js', s.text, 'sync finished in 2.31s', '::endgroup::'];
  } else if (mode === 'stack') {
    const s = snippet(r, l, 'stacktrace');
    secrets = s.secrets;
    body = [
      '::group::Run make integration',
      ...s.text.split('\n'),
      'make: *** [Makefile:42: integration] Error 1',
      '::endgroup::',
      '::error::Process completed with exit code 2.',
    ];
  } else {
    const s = put(
      r.pick([
        'Using credentials from env: {n}={v}',
        '[debug] resolved {n} -> {v}',
        'WARNING: {n} is set to {v} in plain text',
        'npm verb config //registry.npmjs.org/:_authToken={v}',
        'Authenticating with token {v}...',
      ]),
      l,
      nlEsc,
    );
    secrets = s.secrets;
    body = ['::group::Run ./gradlew publish', s.text, 'BUILD SUCCESSFUL in 41s', '::endgroup::'];
  }
  const post = ['::group::Complete job', 'Cleaning up orphan processes', '::endgroup::'];
  const lines = [...pre, ...body, ...post].map((x) => `${stamp()} ${x}`);
  return { text: lines.join('\n') + '\n', secrets };
}

function commitObj(r: Rng, message: string, repo: string): Record<string, unknown> {
  const sha = sha1(r);
  const who = {
    name: r.pick(['Marta K', 'John Doe', 'ops-bot', 'Kenji Tanaka']),
    email: 'dev@acme.io',
    date: goDate(r),
  };
  return {
    url: `https://gitea.example.org/api/v1/repos/${repo}/git/commits/${sha}`,
    sha,
    created: who.date,
    html_url: `https://gitea.example.org/${repo}/commit/${sha}`,
    commit: {
      url: `https://gitea.example.org/api/v1/repos/${repo}/git/commits/${sha}`,
      author: who,
      committer: who,
      message,
      tree: {
        url: `https://gitea.example.org/api/v1/repos/${repo}/git/trees/${sha}`,
        sha,
        created: who.date,
      },
      verification: {
        verified: false,
        reason: 'gpg.error.not_signed_commit',
        signature: '',
        signer: null,
        payload: '',
      },
    },
    author: userObj(r),
    committer: userObj(r),
    parents: [
      {
        url: `https://gitea.example.org/api/v1/repos/${repo}/git/commits/${sha1(r)}`,
        sha: sha1(r),
        created: who.date,
      },
    ],
    files: [{ filename: r.pick(['config/app.yaml', '.env', 'deploy.sh']), status: 'modified' }],
    stats: { total: r.range(2, 40), additions: r.range(1, 30), deletions: r.range(0, 10) },
  };
}

/** Render a leak into a context. Returns the payload and the substrings as they appear in it. */
export function render(r: Rng, ctx: Context, l: Leak): Rendered {
  const repo = r.pick(REPOS);
  const num = r.range(1, 2400);
  const esc = (xs: string[]): string[] => xs.map(goEsc);
  if (ctx === 'webhook' && l.kind === 'pem') ctx = 'actions_variable';
  switch (ctx) {
    case 'issue':
    case 'pull':
    case 'comment':
    case 'release': {
      const s = snippet(r, l, chooseStyle(r, l));
      const body = markdownBody(r, s, l.neg);
      const created = goDate(r);
      let obj: Record<string, unknown>;
      if (ctx === 'issue')
        obj = {
          id: r.range(1000, 99999),
          url: `https://gitea.example.org/api/v1/repos/${repo}/issues/${num}`,
          html_url: `https://gitea.example.org/${repo}/issues/${num}`,
          number: num,
          user: userObj(r),
          original_author: '',
          original_author_id: 0,
          title: r.pick(TITLES),
          body,
          ref: '',
          assets: [],
          labels: [],
          milestone: null,
          assignee: null,
          assignees: null,
          state: 'open',
          is_locked: false,
          comments: r.int(9),
          created_at: created,
          updated_at: created,
          closed_at: null,
          due_date: null,
          time_estimate: 0,
          pull_request: null,
          repository: {
            id: r.range(1, 500),
            name: repo.split('/')[1],
            owner: repo.split('/')[0],
            full_name: repo,
          },
          pin_order: 0,
        };
      else if (ctx === 'pull')
        obj = {
          id: r.range(1000, 99999),
          url: `https://gitea.example.org/${repo}/pulls/${num}`,
          number: num,
          user: userObj(r),
          title: r.pick(TITLES),
          body,
          labels: [],
          milestone: null,
          assignee: null,
          assignees: null,
          requested_reviewers: null,
          requested_reviewers_teams: null,
          state: 'open',
          draft: r.chance(0.2),
          is_locked: false,
          comments: r.int(5),
          review_comments: 0,
          additions: r.range(1, 300),
          deletions: r.range(0, 90),
          changed_files: r.range(1, 12),
          html_url: `https://gitea.example.org/${repo}/pulls/${num}`,
          diff_url: `https://gitea.example.org/${repo}/pulls/${num}.diff`,
          patch_url: `https://gitea.example.org/${repo}/pulls/${num}.patch`,
          mergeable: true,
          merged: false,
          merged_at: null,
          merge_commit_sha: null,
          merged_by: null,
          allow_maintainer_edit: false,
          base: { label: 'main', ref: 'main', sha: sha1(r), repo_id: r.range(1, 500) },
          head: { label: 'feature/config', ref: 'feature/config', sha: sha1(r), repo_id: r.range(1, 500) },
          merge_base: sha1(r),
          due_date: null,
          created_at: created,
          updated_at: created,
          closed_at: null,
          pin_order: 0,
        };
      else if (ctx === 'comment')
        obj = {
          id: r.range(1000, 99999),
          html_url: `https://gitea.example.org/${repo}/issues/${num}#issuecomment-${r.range(1000, 99999)}`,
          pull_request_url: '',
          issue_url: `https://gitea.example.org/${repo}/issues/${num}`,
          user: userObj(r),
          original_author: '',
          original_author_id: 0,
          body,
          assets: [],
          created_at: created,
          updated_at: created,
        };
      else {
        const tag = `v${r.range(0, 4)}.${r.range(0, 20)}.${r.range(0, 9)}`;
        obj = {
          id: r.range(1, 9999),
          tag_name: tag,
          target_commitish: 'main',
          name: tag,
          body:
            `## What's changed\n\n- ${r.pick(['Faster sync', 'New webhook retries', 'Fix login loop'])}\n\n### Upgrade notes\n\n` +
            body,
          url: `https://gitea.example.org/api/v1/repos/${repo}/releases/${num}`,
          html_url: `https://gitea.example.org/${repo}/releases/tag/${tag}`,
          tarball_url: `https://gitea.example.org/${repo}/archive/${tag}.tar.gz`,
          zipball_url: `https://gitea.example.org/${repo}/archive/${tag}.zip`,
          upload_url: `https://gitea.example.org/api/v1/repos/${repo}/releases/${num}/assets`,
          draft: false,
          prerelease: r.chance(0.2),
          created_at: created,
          published_at: created,
          author: userObj(r),
          assets: [],
        };
      }
      if ((ctx === 'comment' || ctx === 'issue') && r.chance(0.4)) {
        // list endpoints: the leak sits among ordinary items
        const other = {
          ...obj,
          id: (obj.id as number) + 1,
          body: r.pick(['LGTM', 'Thanks, merged.', 'Can you add a test?', 'Closing as duplicate of #12']),
        };
        return {
          context: ctx,
          payload: goJson(r.chance(0.5) ? [other, obj] : [obj, other]),
          secrets: esc(s.secrets),
        };
      }
      return { context: ctx, payload: goJson(obj), secrets: esc(s.secrets) };
    }
    case 'commit': {
      const s = snippet(r, l, chooseStyle(r, l));
      const list = r.chance(0.4);
      const o = commitObj(r, commitMessage(r, s), repo);
      return {
        context: ctx,
        payload: goJson(list ? [commitObj(r, 'docs: typo\n', repo), o] : o),
        secrets: esc(s.secrets),
      };
    }
    case 'diff': {
      const d0 = diffText(r, l);
      const benign = `diff --git a/CHANGELOG.md b/CHANGELOG.md\nindex ${r.str(7, HEX)}..${r.str(7, HEX)} 100644\n--- a/CHANGELOG.md\n+++ b/CHANGELOG.md\n@@ -1,3 +1,5 @@\n # Changelog\n \n+## ${r.range(1, 4)}.${r.range(0, 20)}.0\n+- ${r.pick(['switch deploy to the new registry', 'rotate credentials', 'add staging environment'])}\n`;
      const d = r.chance(0.4)
        ? { text: r.chance(0.5) ? benign + d0.text : d0.text + benign, secrets: d0.secrets }
        : d0;
      const text = r.chance(0.4)
        ? `From ${sha1(r)} Mon Sep 17 00:00:00 2001\nFrom: Marta K <marta@acme.io>\nDate: Tue, 3 Feb 2026 10:12:44 +0100\nSubject: [PATCH] update config\n\n---\n${d.text}--\n2.47.1\n`
        : d.text;
      return { context: ctx, payload: text, secrets: d.secrets };
    }
    case 'raw': {
      const f = rawFile(r, l);
      if (r.chance(0.25)) {
        const sha = sha1(r);
        const name = f.path.split('/').pop();
        const obj = {
          name,
          path: f.path,
          sha,
          last_commit_sha: sha1(r),
          last_committer_date: goDate(r),
          last_author_date: goDate(r),
          type: 'file',
          size: Buffer.byteLength(f.text),
          encoding: 'base64',
          content: b64(f.text),
          target: null,
          url: `https://gitea.example.org/api/v1/repos/${repo}/contents/${f.path}?ref=main`,
          html_url: `https://gitea.example.org/${repo}/src/branch/main/${f.path}`,
          git_url: `https://gitea.example.org/api/v1/repos/${repo}/git/blobs/${sha}`,
          download_url: `https://gitea.example.org/${repo}/raw/branch/main/${f.path}`,
          submodule_git_url: null,
          _links: {
            self: `https://gitea.example.org/api/v1/repos/${repo}/contents/${f.path}?ref=main`,
            git: `https://gitea.example.org/api/v1/repos/${repo}/git/blobs/${sha}`,
            html: `https://gitea.example.org/${repo}/src/branch/main/${f.path}`,
          },
        };
        return { context: ctx, payload: goJson(obj), secrets: f.secrets };
      }
      return { context: ctx, payload: f.text, secrets: f.secrets };
    }
    case 'wiki': {
      const s = snippet(r, l, chooseStyle(r, l));
      const title = r.pick([
        'Onboarding',
        'Deployment',
        'Runbook: database',
        'Local setup',
        'Einrichtung',
        'Secrets rotation',
      ]);
      const md = `# ${title}\n\n${markdownBody(r, s, l.neg)}\n`;
      const lc = commitObj(r, `Update page '${title}'\n`, repo);
      const obj = {
        title,
        html_url: `https://gitea.example.org/${repo}/wiki/${encodeURIComponent(title)}`,
        sub_url: encodeURIComponent(title),
        last_commit: {
          sha: lc.sha,
          author: (lc.commit as { author: unknown }).author,
          committer: (lc.commit as { committer: unknown }).committer,
          message: `Update page '${title}'\n`,
        },
        content_base64: b64(md),
        commit_count: r.range(1, 30),
        sidebar: '',
        footer: '',
      };
      return { context: ctx, payload: goJson(obj), secrets: s.secrets };
    }
    case 'actions_log': {
      const g = logText(r, l);
      return { context: ctx, payload: g.text, secrets: g.secrets };
    }
    case 'actions_variable': {
      const nm =
        envName(l.name)
          .replace(/[^A-Z0-9_]/g, '_')
          .replace(/^_+/, '') || 'VALUE';
      let data = l.value;
      let secrets = l.secrets;
      if (!l.neg && r.chance(0.3)) {
        const s = snippet(r, l, r.pick(['env', 'yaml', 'json'] as Style[]));
        data = s.text;
        secrets = s.secrets;
      }
      const v = {
        owner_id: 0,
        repo_id: r.range(1, 500),
        name: nm,
        data,
        description: r.pick(['', 'used by release job', 'temp']),
      };
      const list = r.chance(0.5);
      const payload = list
        ? goJson([
            { owner_id: 0, repo_id: v.repo_id, name: 'NODE_VERSION', data: '22', description: '' },
            v,
            { owner_id: 0, repo_id: v.repo_id, name: 'DEPLOY_ENV', data: 'staging', description: '' },
          ])
        : goJson(v);
      return { context: ctx, payload, secrets: esc(secrets) };
    }
    case 'webhook': {
      let url = `https://ci.acme.io/generic-webhook-trigger/invoke`;
      let auth = '';
      let secrets: string[];
      const hookish = l.kind === 'url' && /HOOK|DSN|URL/i.test(l.name) && /^https?:/.test(l.value);
      if (hookish) {
        url = l.value;
        secrets = l.secrets;
      } else if (l.neg || l.kind === 'url' || r.chance(0.5)) {
        const param = l.neg
          ? r.pick(['ref', 'sha', 'id', 'rev', 'build'])
          : r.pick(['token', 'key', 'apikey', 'secret', 'code', 'auth']);
        url = r.chance(0.5)
          ? `https://ci.acme.io/generic-webhook-trigger/invoke?${param}=${urlEnc(l.value)}`
          : `https://deploy.acme.io/hooks/${param}/${urlEnc(l.value)}`;
        secrets = l.secrets.map(urlEnc);
      } else {
        const h = hdr(l);
        auth = h.startsWith('Authorization: ')
          ? h.slice('Authorization: '.length).split('{v}').join(l.value)
          : `Bearer ${l.value}`;
        secrets = l.secrets;
      }
      const created = goDate(r);
      const obj = {
        id: r.range(1, 900),
        type: r.pick(['gitea', 'slack', 'discord', 'msteams', 'gitea']),
        branch_filter: r.pick(['*', 'main', '{main,release/*}']),
        config: { content_type: 'json', http_method: 'post', url },
        events: r.pick([['push'], ['push', 'pull_request'], ['release']]),
        authorization_header: auth,
        active: true,
        updated_at: created,
        created_at: created,
      };
      return { context: ctx, payload: goJson(obj), secrets: esc(secrets) };
    }
  }
}

export function randomId(r: Rng): string {
  return r.str(6, LAN) + r.str(2, DIG) + r.str(2, AN);
}
void isoDate;
