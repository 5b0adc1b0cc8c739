// Secret formats of the blind tuning corpus. Each value is generated from the seeded PRNG;
// vendor prefixes are assembled from pieces so that no scanner finds a literal here.
import {
  AN,
  B32,
  B58,
  B64,
  B64U,
  BECH32,
  DIG,
  HEX,
  HEXU,
  J,
  LAN,
  LOW,
  PRINT,
  Rng,
  UAN,
  UP,
  b64,
  b64url,
  base62,
  crc32,
  urlEnc,
  uuid,
} from './util';

export type Kind = 'token' | 'url' | 'pem' | 'pass';
export type Gen = { value: string; secrets: string[] };
export type FormatDef = {
  name: string;
  family: string;
  names: string[];
  kind: Kind;
  gen: (r: Rng) => Gen;
  /** Natural snippets for this format; `{v}` is the value, `{n}` the variable name. */
  own?: string[];
  /** How it goes in an HTTP request, `{v}` the value. */
  header?: string;
  host?: string;
};

const one = (value: string): Gen => ({ value, secrets: [value] });

function tok(
  name: string,
  family: string,
  names: string[],
  g: (r: Rng) => string,
  o: Partial<FormatDef> = {},
): FormatDef {
  return { name, family, names, kind: 'token', gen: (r) => one(g(r)), ...o };
}

function ghTok(r: Rng, prefix: string): string {
  const body = r.str(30, AN);
  return prefix + body + base62(crc32(body), 6);
}

const BEGIN = '-----BEGIN ';
const END = '-----END ';
const PK = J('PRIV', 'ATE KEY');

export function pemBlock(
  r: Rng,
  label: string,
  nBytes: number,
  lead: number[],
  lineLen = 64,
  headers: string[] = [],
): Gen {
  // keep the last body line long enough to be a meaningful substring
  let n = nBytes;
  for (;;) {
    const len = Math.ceil(n / 3) * 4;
    const rem = len % lineLen;
    if (rem === 0 || rem >= 24) break;
    n++;
  }
  const body = b64(Buffer.concat([Buffer.from(lead), r.bytes(n - lead.length)]));
  const lines: string[] = [];
  for (let i = 0; i < body.length; i += lineLen) lines.push(body.slice(i, i + lineLen));
  const head = [BEGIN + label + '-----', ...headers, ...(headers.length ? [''] : [])];
  return { value: [...head, ...lines, END + label + '-----'].join('\n'), secrets: lines };
}

function pemFmt(
  name: string,
  label: string,
  nBytes: number,
  lead: number[],
  lineLen = 64,
  headers?: (r: Rng) => string[],
): FormatDef {
  return {
    name,
    family: 'private-key',
    names: [
      'PRIVATE_KEY',
      'private_key',
      'SSH_PRIVATE_KEY',
      'signing_key',
      'DEPLOY_KEY',
      'tls.key',
      'key_pem',
      'APP_PRIVATE_KEY',
    ],
    kind: 'pem',
    gen: (r) => pemBlock(r, label, nBytes, lead, lineLen, headers ? headers(r) : []),
  };
}

function jwt(r: Rng, alg: string, claims: Record<string, unknown>, sigLen = 43): string {
  return [
    b64url(JSON.stringify({ alg, typ: 'JWT' })),
    b64url(JSON.stringify(claims)),
    r.str(sigLen, B64U),
  ].join('.');
}

const WORDS = [
  'sunset',
  'Marmalade',
  'tiger',
  'Kangaroo',
  'velvet',
  'Orchard',
  'piano',
  'Glacier',
  'summer',
  'Winter',
  'falcon',
  'Copper',
  'rainbow',
  'Dragon',
  'coffee',
  'Lighthouse',
  'monkey',
  'Banana',
  'harbor',
  'Pumpkin',
  'soleil',
  'Fruehling',
  'Sommer',
  'gato',
  'Estrela',
  'sakura',
  'Bonjour',
  'admin',
  'Welcome',
  'spring',
];
export function humanPassword(r: Rng): string {
  const style = r.int(5);
  const w1 = r.pick(WORDS);
  const w2 = r.pick(WORDS);
  const sym = r.pick(['!', '@', '#', '$', '%', '&', '*', '?', '.', '_', '-', '+', '=', '~']);
  const yr = String(r.range(1970, 2026));
  if (style === 0) return `${w1}${yr}${sym}`;
  if (style === 1) return `${w1}${sym}${w2}${r.range(1, 99)}`;
  if (style === 2) return `${w1.charAt(0).toUpperCase()}${w1.slice(1)}-${w2}-${r.range(100, 999)}${sym}`;
  if (style === 3) return `${sym}${w1}${r.range(10, 99)}${w2}${sym}`;
  return `${w1.replace(/a/g, '@').replace(/o/g, '0').replace(/e/g, '3')}${yr.slice(2)}${sym}${sym}`;
}
export function randomPassword(r: Rng, n: number): string {
  return r.str(n, PRINT);
}

function b58check(r: Rng, n: number, lead: string): string {
  return lead + r.str(n - lead.length, B58);
}

const BIP39 = [
  'abandon',
  'ability',
  'able',
  'about',
  'above',
  'absent',
  'absorb',
  'abstract',
  'absurd',
  'abuse',
  'access',
  'accident',
  'account',
  'accuse',
  'achieve',
  'acid',
  'acoustic',
  'acquire',
  'across',
  'act',
  'action',
  'actor',
  'actress',
  'actual',
  'adapt',
  'add',
  'addict',
  'address',
  'adjust',
  'admit',
  'adult',
  'advance',
  'advice',
  'aerobic',
  'affair',
  'afford',
  'afraid',
  'again',
  'age',
  'agent',
  'bacon',
  'badge',
  'balance',
  'bamboo',
  'banner',
  'barrel',
  'basket',
  'battle',
  'beach',
  'beauty',
  'become',
  'before',
  'cabbage',
  'cabin',
  'cable',
  'cactus',
  'candy',
  'canvas',
  'carbon',
  'cargo',
  'dash',
  'daughter',
  'dawn',
  'debate',
  'decade',
  'decline',
  'eager',
  'eagle',
  'early',
  'earth',
  'fabric',
  'faculty',
  'galaxy',
  'garden',
  'habit',
  'hammer',
  'ice',
  'icon',
  'jacket',
  'jaguar',
  'kangaroo',
  'kitchen',
  'ladder',
  'lamp',
  'machine',
  'magnet',
  'napkin',
  'narrow',
  'oak',
  'object',
  'paddle',
  'palace',
  'quantum',
  'quarter',
  'rabbit',
  'radar',
  'saddle',
  'salmon',
  'table',
  'talent',
  'umbrella',
  'unable',
  'vacuum',
  'valley',
  'wagon',
  'walnut',
  'yard',
  'zebra',
];

function urlFmt(
  name: string,
  family: string,
  names: string[],
  build: (r: Rng) => { url: string; secret: string | string[] },
  o: Partial<FormatDef> = {},
): FormatDef {
  return {
    name,
    family,
    names,
    kind: 'url',
    gen: (r) => {
      const { url, secret } = build(r);
      return { value: url, secrets: Array.isArray(secret) ? secret : [secret] };
    },
    ...o,
  };
}

const pw = (r: Rng): string => (r.chance(0.5) ? humanPassword(r) : r.str(r.range(12, 24), AN + '-_.~!*'));
const host = (r: Rng): string =>
  r.pick(['db', 'pg-primary', 'mysql01', 'data', 'prod-db', 'replica-2', 'core']) +
  '.' +
  r.pick(['internal', 'corp.example.net', 'svc.cluster.local', 'eu-west-1.rds.amazonaws.com', 'lan']);
const user = (r: Rng): string =>
  r.pick([
    'app',
    'admin',
    'deploy',
    'svc_report',
    'postgres',
    'root',
    'ci-bot',
    'jenkins',
    'marta.k',
    'build',
  ]);

export const FORMATS: FormatDef[] = [
  // ---- forges
  tok(
    'github-pat-classic',
    'forge',
    ['GITHUB_TOKEN', 'GH_TOKEN', 'github_token', 'GH_PAT', 'token'],
    (r) => ghTok(r, J('gh', 'p_')),
    {
      header: 'Authorization: token {v}',
      host: 'api.github.com',
      own: [
        'git clone https://x-access-token:{v}@github.com/acme/infra.git',
        'gh auth login --with-token <<< {v}',
      ],
    },
  ),
  tok('github-oauth', 'forge', ['GITHUB_OAUTH_TOKEN', 'oauth_token'], (r) => ghTok(r, J('gh', 'o_')), {
    host: 'api.github.com',
    own: ['github.com:\n    user: octo\n    oauth_token: {v}\n    git_protocol: https'],
  }),
  tok('github-user-to-server', 'forge', ['GH_USER_TOKEN', 'access_token'], (r) => ghTok(r, J('gh', 'u_')), {
    host: 'api.github.com',
  }),
  tok(
    'github-installation',
    'forge',
    ['GITHUB_APP_TOKEN', 'installation_token'],
    (r) => ghTok(r, J('gh', 's_')),
    { host: 'api.github.com' },
  ),
  tok('github-refresh', 'forge', ['refresh_token', 'GH_REFRESH'], (r) => J('gh', 'r_') + r.str(76, AN)),
  tok(
    'github-fine-grained',
    'forge',
    ['GITHUB_PAT', 'GH_TOKEN', 'RENOVATE_TOKEN'],
    (r) => J('github', '_pat_') + r.str(22, AN) + '_' + r.str(59, AN),
    { header: 'Authorization: Bearer {v}', host: 'api.github.com' },
  ),
  tok(
    'gitea-token-hex',
    'forge',
    ['GITEA_TOKEN', 'gitea_token', 'TEA_TOKEN', 'FORGEJO_TOKEN', 'token'],
    (r) => r.str(40, HEX),
    {
      header: 'Authorization: token {v}',
      host: 'gitea.example.org',
      own: [
        'tea login add --name work --url https://gitea.example.org --token {v}',
        'curl -s "https://gitea.example.org/api/v1/repos/ops/site/issues?access_token={v}"',
        'git remote set-url origin https://ci:{v}@gitea.example.org/ops/site.git',
      ],
    },
  ),
  tok(
    'gitea-runner-registration',
    'forge',
    ['GITEA_RUNNER_REGISTRATION_TOKEN', 'RUNNER_TOKEN'],
    (r) => r.str(40, AN),
    {
      own: [
        'act_runner register --no-interactive --instance https://gitea.example.org --token {v} --name runner-01',
        '{"id":3,"uuid":"runner","name":"runner-01","token":"{v}","address":"https://gitea.example.org"}',
      ],
    },
  ),
  tok(
    'gitea-oauth-client-secret',
    'forge',
    ['GITEA_OAUTH_CLIENT_SECRET', 'client_secret'],
    (r) => J('gt', 'o_') + r.str(52, LOW + '234567'),
  ),
  tok(
    'gitea-internal-token',
    'forge',
    ['INTERNAL_TOKEN'],
    (r) => jwt(r, 'HS256', { nbf: 1700000000 + r.int(9e7) }),
    { own: ['[security]\nINSTALL_LOCK = true\nINTERNAL_TOKEN = {v}'] },
  ),
  tok('gitea-lfs-jwt-secret', 'forge', ['LFS_JWT_SECRET', 'JWT_SECRET'], (r) => r.str(43, B64U), {
    own: ['[server]\nLFS_START_SERVER = true\nLFS_JWT_SECRET = {v}', '[oauth2]\nJWT_SECRET = {v}'],
  }),
  tok('gitea-secret-key', 'forge', ['SECRET_KEY', 'GITEA__security__SECRET_KEY'], (r) => r.str(64, AN), {
    own: ['[security]\nSECRET_KEY = {v}', '      - GITEA__security__SECRET_KEY={v}'],
  }),
  tok(
    'gitlab-pat',
    'forge',
    ['GITLAB_TOKEN', 'GL_TOKEN', 'PRIVATE-TOKEN'],
    (r) => J('gl', 'pat-') + r.str(20, AN + '-_'),
    { header: 'PRIVATE-TOKEN: {v}', host: 'gitlab.com' },
  ),
  tok('gitlab-runner', 'forge', ['CI_RUNNER_TOKEN', 'token'], (r) => J('gl', 'rt-') + r.str(20, AN + '-_'), {
    own: [
      '[[runners]]\n  name = "docker-1"\n  url = "https://gitlab.com"\n  token = "{v}"\n  executor = "docker"',
    ],
  }),
  tok('gitlab-deploy', 'forge', ['GITLAB_DEPLOY_TOKEN'], (r) => J('gl', 'dt-') + r.str(20, AN + '-_')),
  tok('gitlab-trigger', 'forge', ['TRIGGER_TOKEN'], (r) => J('gl', 'ptt-') + r.str(40, HEX), {
    own: [
      'curl -X POST --fail -F token={v} -F ref=main https://gitlab.com/api/v4/projects/4211/trigger/pipeline',
    ],
  }),
  tok('gitlab-feed', 'forge', ['feed_token'], (r) => J('gl', 'ft-') + r.str(20, AN + '-_')),
  tok('gitlab-oauth-app-secret', 'forge', ['GITLAB_APP_SECRET'], (r) => J('gl', 'oas-') + r.str(64, HEX)),
  tok(
    'bitbucket-app-password',
    'forge',
    ['BITBUCKET_APP_PASSWORD', 'BB_PASS'],
    (r) => J('AT', 'BB') + r.str(32, AN) + r.str(8, HEXU),
  ),
  tok(
    'atlassian-api-token',
    'forge',
    ['JIRA_API_TOKEN', 'CONFLUENCE_TOKEN', 'ATLASSIAN_TOKEN'],
    (r) => J('AT', 'ATT', '3xFfGF0') + r.str(180, AN + '-_') + '=' + r.str(8, HEXU),
    { header: 'Authorization: Bearer {v}', host: 'acme.atlassian.net' },
  ),
  tok(
    'bitbucket-repo-access-token',
    'forge',
    ['BITBUCKET_ACCESS_TOKEN'],
    (r) => J('AT', 'CTT', '3xFfGN0') + r.str(180, AN + '-_') + '=' + r.str(8, HEXU),
  ),
  // ---- cloud
  tok(
    'aws-access-key-id',
    'cloud',
    ['AWS_ACCESS_KEY_ID', 'aws_access_key_id', 'accessKeyId', 'AccessKey'],
    (r) => J('AK', 'IA') + r.str(16, B32),
  ),
  tok(
    'aws-secret-access-key',
    'cloud',
    ['AWS_SECRET_ACCESS_KEY', 'aws_secret_access_key', 'secretAccessKey', 'SecretKey'],
    (r) => r.str(40, AN + '+/'),
    { own: ['[default]\naws_secret_access_key = {v}\nregion = eu-central-1'] },
  ),
  tok(
    'aws-session-token',
    'cloud',
    ['AWS_SESSION_TOKEN', 'aws_session_token', 'SessionToken'],
    (r) => J('Fwo', 'GZXIvYXdzE') + r.str(300, B64) + '==',
  ),
  tok('aws-sts-temp-key', 'cloud', ['AccessKeyId'], (r) => J('AS', 'IA') + r.str(16, B32), {
    own: ['{"Credentials":{"AccessKeyId":"{v}","Expiration":"2026-03-01T12:00:00Z"}}'],
  }),
  tok(
    'gcp-api-key',
    'cloud',
    ['GOOGLE_API_KEY', 'GEMINI_API_KEY', 'MAPS_KEY', 'firebaseApiKey'],
    (r) => J('AI', 'za') + r.str(35, AN + '-_'),
    {
      own: [
        'https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key={v}',
        'https://generativelanguage.googleapis.com/v1beta/models/gemini-pro:generateContent?key={v}',
      ],
    },
  ),
  tok(
    'gcp-oauth-client-secret',
    'cloud',
    ['GOOGLE_CLIENT_SECRET', 'client_secret'],
    (r) => J('GOC', 'SPX-') + r.str(28, AN + '-_'),
  ),
  tok(
    'google-refresh-token',
    'cloud',
    ['GOOGLE_REFRESH_TOKEN', 'refresh_token'],
    (r) => '1//' + r.str(2, AN) + r.str(100, AN + '-_'),
  ),
  tok(
    'google-access-token',
    'cloud',
    ['access_token', 'GCLOUD_ACCESS_TOKEN'],
    (r) => J('ya', '29.') + r.str(150, AN + '-_'),
    { header: 'Authorization: Bearer {v}', host: 'storage.googleapis.com' },
  ),
  {
    name: 'gcp-service-account-json',
    family: 'cloud',
    names: ['GOOGLE_APPLICATION_CREDENTIALS_JSON', 'GCP_SA_KEY', 'credentials.json'],
    kind: 'pem',
    gen: (r) => {
      const keyId = r.str(40, HEX);
      const p = pemBlock(
        r,
        PK,
        1218,
        [
          0x30, 0x82, 0x04, 0xbe, 0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7,
          0x0d, 0x01, 0x01, 0x01, 0x05, 0x00,
        ],
      );
      const proj = r.pick(['acme-prod', 'billing-382910', 'ml-sandbox']);
      const json = JSON.stringify(
        {
          type: 'service_account',
          project_id: proj,
          private_key_id: keyId,
          private_key: p.value + '\n',
          client_email: `deployer@${proj}.iam.gserviceaccount.com`,
          client_id: r.str(21, DIG),
          auth_uri: 'https://accounts.google.com/o/oauth2/auth',
          token_uri: 'https://oauth2.googleapis.com/token',
        },
        null,
        2,
      );
      return { value: json, secrets: [keyId, ...p.secrets] };
    },
  },
  tok(
    'azure-storage-key',
    'cloud',
    ['AZURE_STORAGE_KEY', 'AccountKey', 'storage_account_key'],
    (r) => r.str(86, B64) + '==',
    {
      own: [
        'DefaultEndpointsProtocol=https;AccountName=acmeprodstore;AccountKey={v};EndpointSuffix=core.windows.net',
      ],
    },
  ),
  tok('azure-sas-signature', 'cloud', ['AZURE_SAS', 'sas_token'], (r) => urlEnc(r.str(43, B64) + '='), {
    own: [
      'https://acmeprodstore.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=co&sp=rwdlac&se=2026-12-31T00:00:00Z&st=2025-01-01T00:00:00Z&spr=https&sig={v}',
    ],
  }),
  tok(
    'azure-client-secret',
    'cloud',
    ['AZURE_CLIENT_SECRET', 'ClientSecret', 'ARM_CLIENT_SECRET'],
    (r) => r.str(3, AN) + J('8', 'Q~') + r.str(31, AN + '_-.~'),
  ),
  tok(
    'azure-devops-pat',
    'cloud',
    ['AZURE_DEVOPS_EXT_PAT', 'AZDO_PAT', 'SYSTEM_ACCESSTOKEN'],
    (r) => r.str(52, LOW + '234567'),
    { own: ['echo {v} | az devops login --organization https://dev.azure.com/acme'] },
  ),
  tok(
    'azure-devops-pat-new',
    'cloud',
    ['ADO_TOKEN'],
    (r) => r.str(52, AN) + J('AAA', 'SAZDO') + r.str(23, AN),
  ),
  tok('azure-cosmos-key', 'cloud', ['COSMOS_KEY', 'CosmosDbKey'], (r) => r.str(86, B64) + '==', {
    own: ['AccountEndpoint=https://acme-cosmos.documents.azure.com:443/;AccountKey={v};'],
  }),
  tok('azure-servicebus-sas-key', 'cloud', ['SERVICEBUS_CONNECTION'], (r) => r.str(43, B64) + '=', {
    own: [
      'Endpoint=sb://acme-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={v}',
    ],
  }),
  tok(
    'azure-function-key',
    'cloud',
    ['FUNCTION_KEY', 'x-functions-key'],
    (r) => r.str(54, AN + '_-') + '==',
    { own: ['https://acme-fn.azurewebsites.net/api/ingest?code={v}'], header: 'x-functions-key: {v}' },
  ),
  tok(
    'digitalocean-pat',
    'cloud',
    ['DIGITALOCEAN_TOKEN', 'DO_TOKEN'],
    (r) => J('do', 'p_v1_') + r.str(64, HEX),
    { own: ['doctl auth init --access-token {v}'], host: 'api.digitalocean.com' },
  ),
  tok('digitalocean-oauth', 'cloud', ['DO_OAUTH'], (r) => J('do', 'o_v1_') + r.str(64, HEX)),
  tok('digitalocean-spaces-secret', 'cloud', ['SPACES_SECRET_KEY'], (r) => r.str(43, AN + '+/')),
  tok('linode-token', 'cloud', ['LINODE_TOKEN', 'LINODE_CLI_TOKEN'], (r) => r.str(64, HEX), {
    host: 'api.linode.com',
  }),
  tok('hetzner-cloud-token', 'cloud', ['HCLOUD_TOKEN', 'hcloud_token'], (r) => r.str(64, AN), {
    own: ['hcloud context create prod  # token: {v}'],
  }),
  tok('vultr-api-key', 'cloud', ['VULTR_API_KEY'], (r) => r.str(36, UAN)),
  tok('scaleway-secret-key', 'cloud', ['SCW_SECRET_KEY', 'scaleway_secret'], (r) => uuid(r)),
  tok('ovh-application-secret', 'cloud', ['OVH_APPLICATION_SECRET', 'application_secret'], (r) =>
    r.str(32, AN),
  ),
  tok(
    'alibaba-access-key-id',
    'cloud',
    ['ALIBABA_CLOUD_ACCESS_KEY_ID', 'ALICLOUD_ACCESS_KEY'],
    (r) => J('LT', 'AI') + r.str(20, AN),
  ),
  tok('alibaba-access-key-secret', 'cloud', ['ALIBABA_CLOUD_ACCESS_KEY_SECRET', 'AccessKeySecret'], (r) =>
    r.str(30, AN),
  ),
  tok(
    'tencent-secret-id',
    'cloud',
    ['TENCENTCLOUD_SECRET_ID', 'SecretId'],
    (r) => J('AK', 'ID') + r.str(32, AN),
  ),
  tok('ibm-cloud-api-key', 'cloud', ['IBMCLOUD_API_KEY', 'IC_API_KEY'], (r) => r.str(44, AN + '-_')),
  tok(
    'cloudflare-api-token',
    'cloud',
    ['CLOUDFLARE_API_TOKEN', 'CF_API_TOKEN'],
    (r) => r.str(40, AN + '-_'),
    { host: 'api.cloudflare.com' },
  ),
  tok(
    'cloudflare-global-key',
    'cloud',
    ['CLOUDFLARE_API_KEY', 'CF_API_KEY', 'X-Auth-Key'],
    (r) => r.str(37, HEX),
    { header: 'X-Auth-Key: {v}', host: 'api.cloudflare.com' },
  ),
  tok(
    'cloudflare-origin-ca-key',
    'cloud',
    ['CF_ORIGIN_CA_KEY'],
    (r) => J('v1', '.0-') + r.str(24, HEX) + '-' + r.str(146, HEX),
  ),
  tok('oracle-oci-auth-token', 'cloud', ['OCI_AUTH_TOKEN'], (r) => r.str(20, AN + '()<>;:.#+-_')),
  tok('backblaze-app-key', 'cloud', ['B2_APPLICATION_KEY', 'applicationKey'], (r) => 'K00' + r.str(28, AN)),
  tok('minio-secret-key', 'cloud', ['MINIO_SECRET_KEY', 'MINIO_ROOT_PASSWORD'], (r) => r.str(40, AN)),
  tok('akamai-client-secret', 'cloud', ['client_secret'], (r) => r.str(43, B64) + '=', {
    own: ['[default]\nclient_secret = {v}\nmax-body = 131072'],
  }),
  tok('fastly-api-token', 'cloud', ['FASTLY_API_TOKEN', 'Fastly-Key'], (r) => r.str(32, AN + '-_'), {
    header: 'Fastly-Key: {v}',
    host: 'api.fastly.com',
  }),
  // ---- PaaS
  tok('heroku-api-key', 'paas', ['HEROKU_API_KEY', 'heroku_api_key'], (r) => uuid(r), {
    own: ['machine api.heroku.com\n  login ops@acme.io\n  password {v}'],
  }),
  tok('heroku-new-token', 'paas', ['HEROKU_API_KEY'], (r) => J('HR', 'KU-AA') + r.str(58, AN + '_-')),
  tok('netlify-pat', 'paas', ['NETLIFY_AUTH_TOKEN'], (r) => J('nf', 'p_') + r.str(36, AN)),
  tok('vercel-token', 'paas', ['VERCEL_TOKEN', 'NOW_TOKEN'], (r) => r.str(24, AN), {
    own: ['vercel deploy --prod --token={v}', 'npx vercel --token {v} --yes'],
  }),
  tok('vercel-new-token', 'paas', ['VERCEL_TOKEN'], (r) => J('vc', 'p_') + r.str(56, AN)),
  tok(
    'flyio-token',
    'paas',
    ['FLY_API_TOKEN'],
    (r) => J('Fly', 'V1 fm2_') + r.str(180, B64) + ',' + J('fm2_') + r.str(120, B64),
  ),
  tok('render-api-key', 'paas', ['RENDER_API_KEY'], (r) => J('rn', 'd_') + r.str(32, AN)),
  tok('railway-token', 'paas', ['RAILWAY_TOKEN'], (r) => uuid(r)),
  tok('supabase-pat', 'paas', ['SUPABASE_ACCESS_TOKEN'], (r) => J('sb', 'p_') + r.str(40, HEX)),
  tok('supabase-service-role', 'paas', ['SUPABASE_SERVICE_ROLE_KEY', 'serviceRoleKey'], (r) =>
    jwt(r, 'HS256', {
      iss: 'supabase',
      ref: r.str(20, LOW),
      role: 'service_role',
      iat: 1700000000,
      exp: 2015000000,
    }),
  ),
  tok(
    'firebase-fcm-server-key',
    'paas',
    ['FCM_SERVER_KEY', 'serverKey'],
    (r) => 'AAAA' + r.str(7, AN + '-_') + ':' + J('APA', '91b') + r.str(134, AN + '-_'),
    { header: 'Authorization: key={v}', host: 'fcm.googleapis.com' },
  ),
  tok(
    'planetscale-token',
    'paas',
    ['PLANETSCALE_SERVICE_TOKEN'],
    (r) => J('psc', 'ale_tkn_') + r.str(43, AN + '_'),
  ),
  tok(
    'planetscale-password',
    'paas',
    ['DATABASE_PASSWORD'],
    (r) => J('psc', 'ale_pw_') + r.str(43, AN + '_'),
  ),
  tok('neon-api-key', 'paas', ['NEON_API_KEY'], (r) => J('na', 'pi_') + r.str(64, LAN)),
  tok('cloudinary-url', 'paas', ['CLOUDINARY_URL'], (r) => r.str(27, AN + '_-'), {
    own: ['CLOUDINARY_URL=cloudinary://' + '8' + '41234567891234' + ':{v}@acme-media'],
  }),
  tok('expo-token', 'paas', ['EXPO_TOKEN'], (r) => r.str(40, AN + '_')),
  // ---- databases / data platforms
  urlFmt('postgres-url', 'data', ['DATABASE_URL', 'PG_DSN', 'POSTGRES_URL', 'db_url'], (r) => {
    const p = pw(r);
    const e = urlEnc(p);
    return {
      url: `postgres${r.chance(0.5) ? 'ql' : ''}://${user(r)}:${e}@${host(r)}:5432/${r.pick(['app', 'billing', 'gitea', 'analytics'])}${r.chance(0.4) ? '?sslmode=require' : ''}`,
      secret: e,
    };
  }),
  urlFmt('mysql-url', 'data', ['MYSQL_URL', 'DATABASE_URL', 'DB_DSN'], (r) => {
    const e = urlEnc(pw(r));
    return { url: `mysql://${user(r)}:${e}@${host(r)}:3306/shop?charset=utf8mb4`, secret: e };
  }),
  urlFmt('mongodb-srv', 'data', ['MONGODB_URI', 'MONGO_URL', 'mongoUri'], (r) => {
    const e = urlEnc(pw(r));
    return {
      url: `mongodb+srv://${user(r)}:${e}@cluster0.${r.str(5, LAN)}.mongodb.net/prod?retryWrites=true&w=majority`,
      secret: e,
    };
  }),
  urlFmt('redis-url', 'data', ['REDIS_URL', 'CACHE_URL', 'BROKER_URL'], (r) => {
    const e = urlEnc(pw(r));
    return {
      url: `redis${r.chance(0.5) ? 's' : ''}://${r.chance(0.5) ? 'default' : ''}:${e}@${host(r)}:6379/0`,
      secret: e,
    };
  }),
  urlFmt('amqp-url', 'data', ['AMQP_URL', 'RABBITMQ_URL', 'CELERY_BROKER_URL'], (r) => {
    const e = urlEnc(pw(r));
    return { url: `amqps://${user(r)}:${e}@rabbit.${r.pick(['lan', 'internal'])}:5671/vhost`, secret: e };
  }),
  urlFmt('mssql-connection-string', 'data', ['ConnectionStrings__Default', 'SQL_CONNECTION'], (r) => {
    const p = r.str(16, AN + '!#%^*');
    return {
      url: `Server=tcp:acme-sql.database.windows.net,1433;Initial Catalog=orders;User ID=${user(r)};Password=${p};Encrypt=True;`,
      secret: p,
    };
  }),
  urlFmt('jdbc-url', 'data', ['spring.datasource.url', 'JDBC_URL'], (r) => {
    const p = r.str(14, AN + '!_-');
    return { url: `jdbc:postgresql://${host(r)}:5432/app?user=${user(r)}&password=${p}&ssl=true`, secret: p };
  }),
  urlFmt('smtp-url', 'mail-sms', ['SMTP_URL', 'EMAIL_URL', 'MAILER_DSN'], (r) => {
    const e = urlEnc(pw(r));
    return {
      url: `smtp://${r.pick(['noreply', 'alerts', 'apikey'])}%40acme.io:${e}@smtp.${r.pick(['gmail.com', 'office365.com', 'mailgun.org'])}:587`,
      secret: e,
    };
  }),
  urlFmt('ldap-bind-url', 'data', ['LDAP_URL'], (r) => {
    const p = pw(r);
    return { url: `ldaps://ldap.corp.example.net:636 -D "cn=svc-ldap,ou=svc,dc=corp" -w ${p}`, secret: p };
  }),
  urlFmt(
    'git-credentials-url',
    'forge',
    ['.git-credentials', 'REPO_URL'],
    (r) => {
      const t = r.str(40, HEX);
      return {
        url: `https://${user(r)}:${t}@gitea.example.org/ops/${r.pick(['infra', 'site', 'charts'])}.git`,
        secret: t,
      };
    },
    {
      own: [
        '[remote "origin"]\n\turl = {v}\n\tfetch = +refs/heads/*:refs/remotes/origin/*',
        '{v}',
        'git clone {v}',
        "fatal: unable to access '{v}/': The requested URL returned error: 403",
        "remote: Invalid username or password.\nfatal: Authentication failed for '{v}'",
      ],
    },
  ),
  urlFmt('ftp-url', 'data', ['FTP_URL', 'DEPLOY_TARGET'], (r) => {
    const e = urlEnc(pw(r));
    return { url: `ftp://webmaster:${e}@ftp.acme-hosting.de/public_html`, secret: e };
  }),
  urlFmt('proxy-url', 'data', ['HTTPS_PROXY', 'http_proxy'], (r) => {
    const e = urlEnc(pw(r));
    return { url: `http://${user(r)}:${e}@proxy.corp.example.net:3128`, secret: e };
  }),
  tok(
    'elastic-api-key',
    'data',
    ['ELASTIC_API_KEY', 'ES_API_KEY'],
    (r) => b64(r.str(20, AN + '-_') + ':' + r.str(22, AN + '-_')),
    { header: 'Authorization: ApiKey {v}', host: 'acme.es.us-east-1.aws.found.io:9243' },
  ),
  tok('elastic-password', 'data', ['ELASTIC_PASSWORD', 'elasticsearch.password'], (r) => r.str(20, AN)),
  tok(
    'databricks-token',
    'data',
    ['DATABRICKS_TOKEN'],
    (r) => J('da', 'pi') + r.str(32, HEX) + (r.chance(0.5) ? '-' + r.int(9) : ''),
    { host: 'adb-1234567890123456.7.azuredatabricks.net' },
  ),
  tok('snowflake-password', 'data', ['SNOWFLAKE_PASSWORD', 'snowflake_pwd'], (r) => humanPassword(r), {
    own: ['snowsql -a xy12345.eu-central-1 -u LOADER -p {v}'],
  }),
  tok(
    'confluent-api-secret',
    'data',
    ['CONFLUENT_CLOUD_API_SECRET', 'sasl.password'],
    (r) => r.str(64, AN + '+/'),
    { own: ['sasl.mechanisms=PLAIN\nsasl.username=' + 'ABCDEFGH' + '23456789\nsasl.password={v}'] },
  ),
  tok('algolia-admin-key', 'data', ['ALGOLIA_ADMIN_KEY', 'ALGOLIA_API_KEY'], (r) => r.str(32, HEX), {
    header: 'X-Algolia-API-Key: {v}',
  }),
  tok(
    'pinecone-key',
    'data',
    ['PINECONE_API_KEY'],
    (r) => J('pc', 'sk_') + r.str(5, AN) + '_' + r.str(64, AN),
  ),
  tok('clickhouse-password', 'data', ['CLICKHOUSE_PASSWORD'], (r) => r.str(14, AN) + '~' + r.str(6, AN)),
  tok('influxdb-token', 'data', ['INFLUX_TOKEN', 'INFLUXDB_TOKEN'], (r) => r.str(86, AN + '-_') + '==', {
    header: 'Authorization: Token {v}',
  }),
  tok(
    'airtable-pat',
    'data',
    ['AIRTABLE_API_KEY'],
    (r) => J('pa', 't') + r.str(14, AN) + '.' + r.str(64, HEX),
  ),
  tok(
    'notion-integration',
    'saas',
    ['NOTION_TOKEN', 'NOTION_API_KEY'],
    (r) => J('nt', 'n_') + r.str(11, DIG) + r.str(35, AN),
    { header: 'Authorization: Bearer {v}', host: 'api.notion.com' },
  ),
  tok('notion-secret-legacy', 'saas', ['NOTION_KEY'], (r) => J('sec', 'ret_') + r.str(43, AN)),
  // ---- secrets managers / infra
  tok(
    'vault-service-token',
    'secrets-manager',
    ['VAULT_TOKEN', 'X-Vault-Token'],
    (r) => J('hv', 's.') + r.str(24, AN),
    { header: 'X-Vault-Token: {v}', own: ['vault login {v}'] },
  ),
  tok('vault-batch-token', 'secrets-manager', ['VAULT_TOKEN'], (r) => J('hv', 'b.') + r.str(138, AN + '-_')),
  tok('vault-unseal-key', 'secrets-manager', ['unseal_key', 'Unseal Key 1'], (r) => r.str(43, B64) + '=', {
    own: ['Unseal Key 1: {v}', 'vault operator unseal {v}'],
  }),
  tok(
    'terraform-cloud-token',
    'secrets-manager',
    ['TF_TOKEN_app_terraform_io', 'TFE_TOKEN'],
    (r) => r.str(14, AN) + J('.atl', 'asv1.') + r.str(67, AN),
    { own: ['credentials "app.terraform.io" {\n  token = "{v}"\n}'] },
  ),
  tok(
    'doppler-token',
    'secrets-manager',
    ['DOPPLER_TOKEN'],
    (r) => J('dp', '.st.') + r.pick(['prd', 'dev']) + '.' + r.str(40, AN),
  ),
  tok(
    'onepassword-service-account',
    'secrets-manager',
    ['OP_SERVICE_ACCOUNT_TOKEN'],
    (r) =>
      J('op', 's_') +
      b64url(
        JSON.stringify({
          signInAddress: 'acme.1password.com',
          userAuth: { method: 'SRPg-4096', alg: 'PBES2g-HS256', iterations: 650000, salt: r.str(22, B64U) },
          email: r.str(12, LAN) + '@1passwordserviceaccounts.com',
          srpX: r.str(64, HEX),
          muk: {
            alg: 'A256GCM',
            ext: true,
            k: r.str(43, B64U),
            key_ops: ['encrypt', 'decrypt'],
            kty: 'oct',
            kid: 'mp',
          },
          secretKey: 'A3-' + r.str(6, UAN),
        }),
      ),
  ),
  tok(
    'infisical-token',
    'secrets-manager',
    ['INFISICAL_TOKEN'],
    (r) => J('st', '.') + uuid(r) + '.' + r.str(32, HEX) + '.' + r.str(32, HEX),
  ),
  tok('pulumi-token', 'secrets-manager', ['PULUMI_ACCESS_TOKEN'], (r) => J('pu', 'l-') + r.str(40, HEX)),
  tok('consul-acl-token', 'secrets-manager', ['CONSUL_HTTP_TOKEN'], (r) => uuid(r), {
    header: 'X-Consul-Token: {v}',
  }),
  tok('nomad-token', 'secrets-manager', ['NOMAD_TOKEN'], (r) => uuid(r)),
  tok(
    'tailscale-auth-key',
    'secrets-manager',
    ['TS_AUTHKEY', 'TAILSCALE_AUTHKEY'],
    (r) => J('tsk', 'ey-auth-') + r.str(17, AN) + '-' + r.str(33, AN),
    { own: ['tailscale up --authkey={v} --advertise-tags=tag:ci'] },
  ),
  tok(
    'ngrok-authtoken',
    'secrets-manager',
    ['NGROK_AUTHTOKEN'],
    (r) => '2' + r.str(26, AN) + '_' + r.str(21, AN),
    { own: ['ngrok config add-authtoken {v}', 'version: "2"\nauthtoken: {v}'] },
  ),
  tok(
    'age-secret-key',
    'secrets-manager',
    ['SOPS_AGE_KEY'],
    (r) => J('AGE-SEC', 'RET-KEY-1') + r.str(58, BECH32.toUpperCase()),
  ),
  // ---- CI/CD and registries
  tok(
    'circleci-token',
    'cicd',
    ['CIRCLECI_TOKEN', 'CIRCLE_TOKEN'],
    (r) => J('CCI', 'PAT_') + r.str(22, AN) + '_' + r.str(40, HEX),
    { header: 'Circle-Token: {v}' },
  ),
  tok('travis-token', 'cicd', ['TRAVIS_TOKEN'], (r) => r.str(22, AN)),
  tok(
    'buildkite-token',
    'cicd',
    ['BUILDKITE_API_TOKEN', 'BUILDKITE_AGENT_TOKEN'],
    (r) => J('bk', 'ua_') + r.str(40, HEX),
  ),
  tok('drone-token', 'cicd', ['DRONE_TOKEN'], (r) => r.str(32, AN)),
  tok('codecov-token', 'cicd', ['CODECOV_TOKEN'], (r) => uuid(r), {
    own: ['bash <(curl -s https://codecov.io/bash) -t {v}'],
  }),
  tok(
    'sonar-token',
    'cicd',
    ['SONAR_TOKEN', 'sonar.login'],
    (r) => J('sq', r.pick(['p_', 'a_', 'u_'])) + r.str(40, HEX),
    { own: ['mvn sonar:sonar -Dsonar.host.url=https://sonar.acme.io -Dsonar.login={v}'] },
  ),
  tok('snyk-token', 'cicd', ['SNYK_TOKEN'], (r) => uuid(r), { own: ['snyk auth {v}'] }),
  tok('jenkins-api-token', 'cicd', ['JENKINS_API_TOKEN', 'JENKINS_TOKEN'], (r) => '11' + r.str(32, HEX), {
    own: [
      'curl -X POST -u admin:{v} https://jenkins.acme.io/job/deploy/buildWithParameters?ENV=prod',
      'java -jar jenkins-cli.jar -s https://jenkins.acme.io -auth admin:{v} build deploy',
    ],
  }),
  tok(
    'octopus-api-key',
    'cicd',
    ['OCTOPUS_API_KEY', 'X-Octopus-ApiKey'],
    (r) => J('AP', 'I-') + r.str(32, UAN),
    { header: 'X-Octopus-ApiKey: {v}' },
  ),
  tok(
    'harness-pat',
    'cicd',
    ['HARNESS_API_KEY'],
    (r) => J('pa', 't.') + r.str(22, AN + '-_') + '.' + r.str(24, HEX) + '.' + r.str(20, AN),
  ),
  tok('browserstack-key', 'cicd', ['BROWSERSTACK_ACCESS_KEY'], (r) => r.str(20, AN)),
  tok('saucelabs-key', 'cicd', ['SAUCE_ACCESS_KEY'], (r) => uuid(r)),
  tok('cypress-record-key', 'cicd', ['CYPRESS_RECORD_KEY'], (r) => uuid(r), {
    own: ['npx cypress run --record --key {v}'],
  }),
  tok('percy-token', 'cicd', ['PERCY_TOKEN'], (r) => r.str(64, HEX)),
  tok('chromatic-token', 'cicd', ['CHROMATIC_PROJECT_TOKEN'], (r) => J('ch', 'pt_') + r.str(14, HEX)),
  tok(
    'npm-token',
    'registry',
    ['NPM_TOKEN', 'NODE_AUTH_TOKEN', '_authToken'],
    (r) => J('np', 'm_') + r.str(36, AN),
    {
      own: [
        '//registry.npmjs.org/:_authToken={v}',
        'npmAuthToken: "{v}"',
        'echo "//registry.npmjs.org/:_authToken={v}" > ~/.npmrc',
      ],
    },
  ),
  tok('npm-legacy-auth', 'registry', ['_auth'], (r) => b64(user(r) + ':' + pw(r)), {
    own: [
      'registry=https://nexus.acme.io/repository/npm/\n_auth={v}\nalways-auth=true',
      '//nexus.acme.io/repository/npm/:_auth={v}',
    ],
  }),
  tok(
    'pypi-token',
    'registry',
    ['PYPI_TOKEN', 'TWINE_PASSWORD', 'password'],
    (r) => J('py', 'pi-', 'AgEIcHlwaS5vcmc') + r.str(140, AN + '-_'),
    {
      own: [
        '[pypi]\nusername = __token__\npassword = {v}',
        'twine upload -u __token__ -p {v} dist/*',
        'poetry config pypi-token.pypi {v}',
      ],
    },
  ),
  tok(
    'rubygems-key',
    'registry',
    ['GEM_HOST_API_KEY', 'RUBYGEMS_API_KEY'],
    (r) => J('ruby', 'gems_') + r.str(48, HEX),
    { own: ['---\n:rubygems_api_key: {v}'] },
  ),
  tok('nuget-api-key', 'registry', ['NUGET_API_KEY'], (r) => J('oy', '2') + r.str(43, LAN), {
    own: ['dotnet nuget push bin/Release/*.nupkg --api-key {v} --source https://api.nuget.org/v3/index.json'],
  }),
  tok(
    'dockerhub-pat',
    'registry',
    ['DOCKERHUB_TOKEN', 'DOCKER_PASSWORD'],
    (r) => J('dck', 'r_pat_') + r.str(27, AN + '-_'),
    {
      own: [
        'echo {v} | docker login -u acmebot --password-stdin',
        'docker login -u acmebot -p {v} docker.io',
      ],
    },
  ),
  tok('crates-io-token', 'registry', ['CARGO_REGISTRY_TOKEN'], (r) => J('ci', 'o') + r.str(32, AN), {
    own: ['[registry]\ntoken = "{v}"', 'cargo login {v}'],
  }),
  tok(
    'jfrog-api-key',
    'registry',
    ['ARTIFACTORY_API_KEY', 'X-JFrog-Art-Api'],
    (r) => J('AK', 'Cp') + r.str(69, AN),
    { header: 'X-JFrog-Art-Api: {v}' },
  ),
  tok(
    'jfrog-reference-token',
    'registry',
    ['JFROG_ACCESS_TOKEN'],
    (r) => J('cmVmd', 'GtuOjAx') + r.str(56, AN),
  ),
  tok('clojars-token', 'registry', ['CLOJARS_TOKEN'], (r) => J('CLO', 'JARS_') + r.str(60, LAN)),
  tok('quay-robot-token', 'registry', ['QUAY_ROBOT_TOKEN'], (r) => r.str(64, UAN), {
    own: ['docker login -u="acme+ci_pusher" -p="{v}" quay.io'],
  }),
  tok('ghcr-docker-auth', 'registry', ['auths'], (r) => b64('ci-bot:' + ghTok(r, J('gh', 'p_'))), {
    own: [
      '{"auths":{"ghcr.io":{"auth":"{v}"}}}',
      '{\n  "auths": {\n    "registry.gitlab.com": {\n      "auth": "{v}"\n    }\n  }\n}',
    ],
  }),
  tok('harbor-robot-secret', 'registry', ['HARBOR_ROBOT_SECRET'], (r) => r.str(32, AN)),
  tok('gradle-publish-secret', 'registry', ['gradle.publish.secret'], (r) => r.str(32, AN)),
  tok(
    'ossrh-password',
    'registry',
    ['ossrhPassword', 'OSSRH_PASSWORD', 'SONATYPE_PASSWORD'],
    (r) => humanPassword(r),
    {
      own: [
        '<server>\n  <id>ossrh</id>\n  <username>acme-release</username>\n  <password>{v}</password>\n</server>',
      ],
    },
  ),
  tok('composer-github-oauth', 'registry', ['COMPOSER_AUTH'], (r) => ghTok(r, J('gh', 'p_')), {
    own: ['{"github-oauth":{"github.com":"{v}"}}'],
  }),
  // ---- chat
  tok(
    'slack-bot-token',
    'chat',
    ['SLACK_BOT_TOKEN', 'SLACK_TOKEN', 'slack_token'],
    (r) => J('xo', 'xb-') + r.str(11, DIG) + '-' + r.str(13, DIG) + '-' + r.str(24, AN),
    { host: 'slack.com' },
  ),
  tok(
    'slack-user-token',
    'chat',
    ['SLACK_USER_TOKEN'],
    (r) =>
      J('xo', 'xp-') + r.str(11, DIG) + '-' + r.str(12, DIG) + '-' + r.str(13, DIG) + '-' + r.str(32, HEX),
  ),
  tok(
    'slack-app-token',
    'chat',
    ['SLACK_APP_TOKEN'],
    (r) => J('xa', 'pp-1-') + 'A' + r.str(10, UAN) + '-' + r.str(13, DIG) + '-' + r.str(64, HEX),
  ),
  tok('slack-refresh-token', 'chat', ['SLACK_REFRESH_TOKEN'], (r) => J('xo', 'xe-1-') + r.str(140, AN)),
  urlFmt('slack-webhook', 'chat', ['SLACK_WEBHOOK_URL', 'slack_webhook'], (r) => {
    const s = `T${r.str(8, UAN)}/B${r.str(10, UAN)}/${r.str(24, AN)}`;
    return { url: J('https://hooks.', 'slack.com/services/') + s, secret: s };
  }),
  tok(
    'discord-bot-token',
    'chat',
    ['DISCORD_TOKEN', 'BOT_TOKEN'],
    (r) =>
      b64url(String(r.range(1e17, 9e17)) + r.str(2, DIG)) +
      '.' +
      r.str(6, AN + '-_') +
      '.' +
      r.str(38, AN + '-_'),
    { header: 'Authorization: Bot {v}', host: 'discord.com' },
  ),
  urlFmt('discord-webhook', 'chat', ['DISCORD_WEBHOOK'], (r) => {
    const s = r.str(68, AN + '-_');
    return { url: J('https://discord.com/api/', 'webhooks/') + r.str(19, DIG) + '/' + s, secret: s };
  }),
  tok(
    'telegram-bot-token',
    'chat',
    ['TELEGRAM_BOT_TOKEN', 'TG_TOKEN'],
    (r) => r.str(10, DIG) + ':AA' + r.str(33, AN + '-_'),
    { own: ['curl -s "https://api.telegram.org/bot{v}/sendMessage?chat_id=-100123456&text=deployed"'] },
  ),
  urlFmt('teams-webhook', 'chat', ['TEAMS_WEBHOOK_URL'], (r) => {
    const s = r.str(32, HEX) + '/' + uuid(r) + '/' + r.str(40, AN);
    return {
      url: `https://acme.webhook.office.com/webhookb2/${uuid(r)}@${uuid(r)}/IncomingWebhook/${s}`,
      secret: s,
    };
  }),
  urlFmt('mattermost-webhook', 'chat', ['MATTERMOST_HOOK'], (r) => {
    const s = r.str(26, LAN);
    return { url: `https://chat.acme.io/hooks/${s}`, secret: s };
  }),
  urlFmt('google-chat-webhook', 'chat', ['GCHAT_WEBHOOK'], (r) => {
    const k = J('AI', 'za') + r.str(35, AN + '-_');
    const t = r.str(43, AN + '-_') + '%3D';
    return {
      url: `https://chat.googleapis.com/v1/spaces/AAAA${r.str(7, AN)}/messages?key=${k}&token=${t}`,
      secret: [t, k],
    };
  }),
  tok('zulip-api-key', 'chat', ['ZULIP_API_KEY', 'key'], (r) => r.str(32, AN), {
    own: ['[api]\nemail=deploy-bot@acme.zulipchat.com\nkey={v}\nsite=https://acme.zulipchat.com'],
  }),
  tok('twitch-oauth', 'chat', ['TWITCH_OAUTH'], (r) => 'oauth:' + r.str(30, LAN)),
  tok('line-channel-token', 'chat', ['LINE_CHANNEL_ACCESS_TOKEN'], (r) => r.str(171, AN + '+/') + '='),
  tok(
    'matrix-access-token',
    'chat',
    ['MATRIX_ACCESS_TOKEN'],
    (r) => J('sy', 't_') + b64url('deploybot').slice(0, 12) + '_' + r.str(20, AN) + '_' + r.str(6, AN),
  ),
  // ---- payments
  tok(
    'stripe-secret-live',
    'payments',
    ['STRIPE_SECRET_KEY', 'STRIPE_API_KEY', 'stripe.api_key'],
    (r) => J('sk', '_live_') + r.str(r.pick([24, 99]), AN),
    {
      header: 'Authorization: Bearer {v}',
      host: 'api.stripe.com',
      own: ['curl https://api.stripe.com/v1/charges -u {v}: -d amount=2000'],
    },
  ),
  tok('stripe-restricted', 'payments', ['STRIPE_RESTRICTED_KEY'], (r) => J('rk', '_live_') + r.str(99, AN)),
  tok(
    'stripe-webhook-secret',
    'payments',
    ['STRIPE_WEBHOOK_SECRET', 'endpointSecret'],
    (r) => J('wh', 'sec_') + r.str(32, AN),
  ),
  tok(
    'square-access-token',
    'payments',
    ['SQUARE_ACCESS_TOKEN'],
    (r) => J('EA', 'AA') + r.str(60, AN + '-_'),
  ),
  tok(
    'square-oauth-secret',
    'payments',
    ['SQUARE_APP_SECRET'],
    (r) => J('sq0', 'csp-') + r.str(43, AN + '-_'),
  ),
  tok(
    'braintree-token',
    'payments',
    ['BRAINTREE_ACCESS_TOKEN'],
    (r) => J('access_token$', 'production$') + r.str(16, LAN) + '$' + r.str(32, HEX),
  ),
  tok('paypal-client-secret', 'payments', ['PAYPAL_CLIENT_SECRET'], (r) => 'E' + r.str(79, AN + '-_')),
  tok(
    'adyen-api-key',
    'payments',
    ['ADYEN_API_KEY', 'X-API-Key'],
    (r) =>
      J('AQ', 'E') + r.str(60, AN) + '=' + r.str(8, AN) + '-' + r.str(32, AN + '+/') + '=-' + r.str(12, AN),
    { header: 'X-API-Key: {v}' },
  ),
  tok('razorpay-secret', 'payments', ['RAZORPAY_KEY_SECRET'], (r) => r.str(24, AN)),
  tok('paystack-secret', 'payments', ['PAYSTACK_SECRET_KEY'], (r) => J('sk', '_live_') + r.str(40, HEX)),
  tok('flutterwave-secret', 'payments', ['FLW_SECRET_KEY'], (r) => J('FLWSE', 'CK-') + r.str(32, HEX) + '-X'),
  tok('mollie-key', 'payments', ['MOLLIE_API_KEY'], (r) => J('li', 've_') + r.str(30, AN)),
  tok(
    'shopify-admin-token',
    'payments',
    ['SHOPIFY_ACCESS_TOKEN', 'X-Shopify-Access-Token'],
    (r) => J('shp', 'at_') + r.str(32, HEX),
    { header: 'X-Shopify-Access-Token: {v}', host: 'acme-store.myshopify.com' },
  ),
  tok('shopify-shared-secret', 'payments', ['SHOPIFY_API_SECRET'], (r) => J('shp', 'ss_') + r.str(32, HEX)),
  tok(
    'shopify-custom-app',
    'payments',
    ['SHOPIFY_TOKEN'],
    (r) => J('shp', r.pick(['ca_', 'pa_'])) + r.str(32, HEX),
  ),
  tok('plaid-secret', 'payments', ['PLAID_SECRET'], (r) => r.str(30, HEX)),
  tok(
    'gocardless-token',
    'payments',
    ['GOCARDLESS_ACCESS_TOKEN'],
    (r) => J('li', 've_') + r.str(40, AN + '-_'),
  ),
  tok('wise-api-token', 'payments', ['WISE_API_TOKEN', 'TRANSFERWISE_TOKEN'], (r) => uuid(r)),
  tok('checkout-secret', 'payments', ['CKO_SECRET_KEY'], (r) => J('sk', '_') + uuid(r)),
  tok('coinbase-commerce-key', 'payments', ['COINBASE_COMMERCE_API_KEY', 'X-CC-Api-Key'], (r) => uuid(r), {
    header: 'X-CC-Api-Key: {v}',
  }),
  tok('binance-secret', 'crypto', ['BINANCE_API_SECRET', 'apiSecret'], (r) => r.str(64, AN)),
  tok(
    'duffel-token',
    'payments',
    ['DUFFEL_ACCESS_TOKEN'],
    (r) => J('duf', 'fel_live_') + r.str(43, AN + '-_'),
  ),
  tok('lob-key', 'payments', ['LOB_API_KEY'], (r) => J('li', 've_') + r.str(35, HEX)),
  tok('shippo-token', 'payments', ['SHIPPO_API_TOKEN'], (r) => J('shi', 'ppo_live_') + r.str(40, HEX), {
    header: 'Authorization: ShippoToken {v}',
  }),
  tok('easypost-key', 'payments', ['EASYPOST_API_KEY'], (r) => J('EZ', 'AK') + r.str(54, AN)),
  // ---- observability
  tok(
    'datadog-api-key',
    'observability',
    ['DD_API_KEY', 'DATADOG_API_KEY', 'api_key'],
    (r) => r.str(32, HEX),
    {
      header: 'DD-API-KEY: {v}',
      own: [
        'docker run -d --name dd-agent -e DD_API_KEY={v} -e DD_SITE=datadoghq.eu gcr.io/datadoghq/agent:7',
      ],
    },
  ),
  tok('datadog-app-key', 'observability', ['DD_APP_KEY', 'DATADOG_APP_KEY'], (r) => r.str(40, HEX), {
    header: 'DD-APPLICATION-KEY: {v}',
  }),
  tok('newrelic-user-key', 'observability', ['NEW_RELIC_API_KEY'], (r) => J('NR', 'AK-') + r.str(27, UAN), {
    header: 'API-Key: {v}',
  }),
  tok(
    'newrelic-insert-key',
    'observability',
    ['NEW_RELIC_INSERT_KEY'],
    (r) => J('NR', 'II-') + r.str(32, AN + '-_'),
  ),
  tok(
    'newrelic-license-key',
    'observability',
    ['NEW_RELIC_LICENSE_KEY', 'license_key'],
    (r) => r.str(36, HEX) + J('NR', 'AL'),
    { own: ['common: &default_settings\n  license_key: {v}\n  app_name: checkout'] },
  ),
  urlFmt('sentry-dsn', 'observability', ['SENTRY_DSN', 'sentry_dsn', 'dsn'], (r) => {
    const k = r.str(32, HEX);
    return {
      url: `https://${k}@o${r.range(10000, 999999)}.ingest.${r.pick(['', 'de.'])}sentry.io/${r.range(1000000, 9999999)}`,
      secret: k,
    };
  }),
  tok(
    'sentry-org-token',
    'observability',
    ['SENTRY_AUTH_TOKEN'],
    (r) =>
      J('sntr', 'ys_') +
      b64url(
        JSON.stringify({
          iat: 1700000000 + r.int(9e7),
          url: 'https://sentry.io',
          region_url: 'https://us.sentry.io',
          org: 'acme',
        }),
      ) +
      '_' +
      r.str(43, AN + '+/'),
  ),
  tok('sentry-user-token', 'observability', ['SENTRY_AUTH_TOKEN'], (r) => J('sntr', 'yu_') + r.str(64, HEX), {
    own: ['[auth]\ntoken={v}', 'sentry-cli --auth-token {v} releases new 2.4.1'],
  }),
  tok(
    'grafana-cloud-token',
    'observability',
    ['GRAFANA_CLOUD_TOKEN'],
    (r) =>
      J('gl', 'c_') +
      b64(
        JSON.stringify({
          o: String(r.range(100000, 999999)),
          n: 'stack-' + r.str(6, DIG) + '-hm-read-ci',
          k: r.str(24, AN),
          m: { r: 'prod-eu-west-0' },
        }),
      ),
  ),
  tok(
    'grafana-service-account',
    'observability',
    ['GRAFANA_TOKEN', 'GF_SA_TOKEN'],
    (r) => J('gl', 'sa_') + r.str(32, AN) + '_' + r.str(8, HEX),
  ),
  tok('honeycomb-key', 'observability', ['HONEYCOMB_API_KEY', 'x-honeycomb-team'], (r) => r.str(22, AN), {
    header: 'x-honeycomb-team: {v}',
  }),
  tok(
    'honeycomb-ingest-key',
    'observability',
    ['HONEYCOMB_INGEST_KEY'],
    (r) => J('hca', 'ik_') + r.str(58, LAN),
  ),
  tok(
    'dynatrace-token',
    'observability',
    ['DT_API_TOKEN'],
    (r) => J('dt0', 'c01.') + r.str(24, UAN) + '.' + r.str(64, UAN),
    { header: 'Authorization: Api-Token {v}' },
  ),
  tok('splunk-hec-token', 'observability', ['SPLUNK_HEC_TOKEN', 'hec_token'], (r) => uuid(r).toUpperCase(), {
    header: 'Authorization: Splunk {v}',
    host: 'splunk.acme.io:8088',
  }),
  tok(
    'pagerduty-key',
    'observability',
    ['PAGERDUTY_TOKEN', 'PD_API_KEY'],
    (r) => 'u+' + r.str(18, AN + '_-'),
    { header: 'Authorization: Token token={v}' },
  ),
  tok(
    'pagerduty-routing-key',
    'observability',
    ['PAGERDUTY_ROUTING_KEY', 'routing_key', 'integration_key'],
    (r) => r.str(32, HEX),
  ),
  tok('opsgenie-key', 'observability', ['OPSGENIE_API_KEY'], (r) => uuid(r), {
    header: 'Authorization: GenieKey {v}',
  }),
  tok('rollbar-token', 'observability', ['ROLLBAR_ACCESS_TOKEN', 'rollbar_token'], (r) => r.str(32, HEX)),
  tok('bugsnag-key', 'observability', ['BUGSNAG_API_KEY'], (r) => r.str(32, HEX)),
  tok('logzio-token', 'observability', ['LOGZIO_TOKEN'], (r) => r.str(32, AN)),
  tok('loggly-token', 'observability', ['LOGGLY_TOKEN'], (r) => uuid(r), {
    own: ['https://logs-01.loggly.com/inputs/{v}/tag/http/'],
  }),
  tok('axiom-token', 'observability', ['AXIOM_TOKEN'], (r) => J('xa', 'at-') + uuid(r)),
  tok('sumologic-access-key', 'observability', ['SUMO_ACCESS_KEY'], (r) => r.str(64, AN)),
  tok('elastic-apm-secret', 'observability', ['ELASTIC_APM_SECRET_TOKEN'], (r) => r.str(24, AN)),
  // ---- auth providers
  tok('auth0-client-secret', 'auth', ['AUTH0_CLIENT_SECRET', 'clientSecret'], (r) => r.str(64, AN + '-_')),
  tok('okta-api-token', 'auth', ['OKTA_API_TOKEN', 'OKTA_CLIENT_TOKEN'], (r) => '00' + r.str(40, AN + '-_'), {
    header: 'Authorization: SSWS {v}',
    host: 'acme.okta.com',
  }),
  tok('clerk-secret', 'auth', ['CLERK_SECRET_KEY'], (r) => J('sk', '_live_') + r.str(42, AN)),
  tok('keycloak-client-secret', 'auth', ['KEYCLOAK_CLIENT_SECRET', 'credentials.secret'], (r) =>
    r.str(32, AN),
  ),
  tok('stytch-secret', 'auth', ['STYTCH_SECRET'], (r) => J('secret-', 'live-') + r.str(43, AN + '-_') + '='),
  tok(
    'jwt-hs256',
    'auth',
    ['Authorization', 'id_token', 'ACCESS_TOKEN', 'bearer'],
    (r) =>
      jwt(r, 'HS256', {
        sub: String(r.range(1000, 99999)),
        name: r.pick(['Ana', 'Jonas', 'Mei', 'Ravi']),
        admin: r.chance(0.5),
        iat: 1700000000 + r.int(9e7),
      }),
    { header: 'Authorization: Bearer {v}', host: 'api.acme.io' },
  ),
  tok(
    'jwt-rs256-k8s-sa',
    'auth',
    ['token', 'K8S_TOKEN', 'KUBE_TOKEN'],
    (r) =>
      jwt(
        r,
        'RS256',
        {
          iss: 'kubernetes/serviceaccount',
          'kubernetes.io/serviceaccount/namespace': 'ci',
          'kubernetes.io/serviceaccount/secret.name': 'deployer-token-' + r.str(5, LAN),
          sub: 'system:serviceaccount:ci:deployer',
        },
        342,
      ),
    {
      own: [
        'users:\n- name: deployer\n  user:\n    token: {v}',
        'kubectl --token={v} --server=https://10.0.0.1:6443 get pods -A',
      ],
    },
  ),
  tok('jwt-es256-refresh', 'auth', ['refresh_token', 'REFRESH_TOKEN'], (r) =>
    jwt(r, 'ES256', { sub: uuid(r), typ: 'Refresh', azp: 'web', sid: uuid(r), exp: 1900000000 }, 86),
  ),
  tok('jwt-signing-secret', 'auth', ['JWT_SECRET', 'jwtSecret', 'TOKEN_SECRET', 'jwt.secret'], (r) =>
    r.str(r.range(32, 64), AN + '!@#%^&*-_=+'),
  ),
  tok('nextauth-secret', 'auth', ['NEXTAUTH_SECRET', 'AUTH_SECRET'], (r) => b64(r.bytes(32))),
  tok('session-secret', 'auth', ['SESSION_SECRET', 'COOKIE_SECRET', 'secret_key_base'], (r) =>
    r.str(128, HEX),
  ),
  tok(
    'django-secret-key',
    'auth',
    ['SECRET_KEY', 'DJANGO_SECRET_KEY'],
    (r) => (r.chance(0.4) ? 'django-insecure-' : '') + r.str(50, LOW + DIG + '!@#$%^&*(-_=+)'),
  ),
  tok('laravel-app-key', 'auth', ['APP_KEY'], (r) => 'base64:' + b64(r.bytes(32))),
  tok('flask-secret-key', 'auth', ['SECRET_KEY', 'app.secret_key'], (r) => b64(r.bytes(24)).slice(0, 32)),
  tok('encryption-key-b64', 'auth', ['ENCRYPTION_KEY', 'MASTER_KEY', 'DATA_KEY', 'AES_KEY'], (r) =>
    b64(r.bytes(32)),
  ),
  tok('hmac-webhook-secret', 'auth', ['WEBHOOK_SECRET', 'HMAC_KEY', 'signing_secret'], (r) => r.str(40, HEX)),
  tok('oauth-client-secret-generic', 'auth', ['OAUTH_CLIENT_SECRET', 'client_secret', 'CLIENT_SECRET'], (r) =>
    r.str(r.range(30, 48), AN + '~._-'),
  ),
  tok('basic-auth-header', 'auth', ['Authorization'], (r) => b64(user(r) + ':' + pw(r)), {
    header: 'Authorization: Basic {v}',
    host: 'registry.acme.io',
  }),
  tok(
    'api-key-no-prefix',
    'auth',
    ['API_KEY', 'apiKey', 'X-Api-Key', 'api-key', 'APIKEY', 'Api_Key'],
    (r) => r.str(r.pick([32, 40, 48]), AN),
    { header: 'X-Api-Key: {v}', host: 'api.partner-portal.com' },
  ),
  tok('cryptographic-pepper', 'auth', ['PASSWORD_PEPPER', 'pepper'], (r) => r.str(32, HEX)),
  // ---- feature flags
  tok(
    'launchdarkly-sdk-key',
    'feature-flags',
    ['LAUNCHDARKLY_SDK_KEY', 'LD_SDK_KEY'],
    (r) => J('sd', 'k-') + uuid(r),
  ),
  tok('launchdarkly-api-key', 'feature-flags', ['LAUNCHDARKLY_ACCESS_TOKEN'], (r) => J('ap', 'i-') + uuid(r)),
  tok('split-io-key', 'feature-flags', ['SPLIT_API_KEY'], (r) => r.str(36, LAN)),
  tok(
    'configcat-sdk-key',
    'feature-flags',
    ['CONFIGCAT_SDK_KEY'],
    (r) => r.str(22, AN + '-_') + '/' + r.str(22, AN + '-_'),
  ),
  tok(
    'flagsmith-server-key',
    'feature-flags',
    ['FLAGSMITH_SERVER_KEY'],
    (r) => J('se', 'r.') + r.str(26, AN),
  ),
  tok(
    'unleash-token',
    'feature-flags',
    ['UNLEASH_API_TOKEN'],
    (r) => r.pick(['*', 'default']) + ':production.' + r.str(64, HEX),
  ),
  tok('statsig-secret', 'feature-flags', ['STATSIG_SERVER_SECRET'], (r) => J('sec', 'ret-') + r.str(43, AN)),
  tok(
    'growthbook-secret',
    'feature-flags',
    ['GROWTHBOOK_SECRET'],
    (r) => J('secret_', 'admin_') + r.str(43, AN),
  ),
  // ---- AI
  tok(
    'openai-project-key',
    'ai',
    ['OPENAI_API_KEY', 'openai.api_key', 'OPENAI_KEY'],
    (r) => J('sk', '-proj-') + r.str(74, AN + '-_') + J('T3Blbk', 'FJ') + r.str(74, AN + '-_'),
    { header: 'Authorization: Bearer {v}', host: 'api.openai.com' },
  ),
  tok(
    'openai-legacy-key',
    'ai',
    ['OPENAI_API_KEY'],
    (r) => J('sk', '-') + r.str(20, AN) + J('T3Blbk', 'FJ') + r.str(20, AN),
  ),
  tok(
    'openai-svcacct-key',
    'ai',
    ['OPENAI_API_KEY'],
    (r) => J('sk', '-svcacct-') + r.str(74, AN + '-_') + J('T3Blbk', 'FJ') + r.str(74, AN + '-_'),
  ),
  tok(
    'anthropic-key',
    'ai',
    ['ANTHROPIC_API_KEY', 'CLAUDE_KEY'],
    (r) => J('sk', '-ant-', 'api03-') + r.str(93, AN + '-_') + 'AA',
    { header: 'x-api-key: {v}', host: 'api.anthropic.com' },
  ),
  tok(
    'huggingface-token',
    'ai',
    ['HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN'],
    (r) => J('h', 'f_') + r.str(34, AN),
    {
      own: [
        'huggingface-cli login --token {v}',
        'git clone https://user:{v}@huggingface.co/acme/private-model',
      ],
    },
  ),
  tok('cohere-key', 'ai', ['CO_API_KEY', 'COHERE_API_KEY'], (r) => r.str(40, AN)),
  tok('replicate-token', 'ai', ['REPLICATE_API_TOKEN'], (r) => J('r8', '_') + r.str(37, AN)),
  tok('groq-key', 'ai', ['GROQ_API_KEY'], (r) => J('gs', 'k_') + r.str(52, AN)),
  tok('mistral-key', 'ai', ['MISTRAL_API_KEY'], (r) => r.str(32, AN)),
  tok('perplexity-key', 'ai', ['PPLX_API_KEY', 'PERPLEXITY_API_KEY'], (r) => J('pp', 'lx-') + r.str(48, AN)),
  tok('deepseek-key', 'ai', ['DEEPSEEK_API_KEY'], (r) => J('sk', '-') + r.str(32, HEX)),
  tok('together-key', 'ai', ['TOGETHER_API_KEY'], (r) => r.str(64, HEX)),
  tok('xai-key', 'ai', ['XAI_API_KEY', 'GROK_KEY'], (r) => J('xa', 'i-') + r.str(80, AN)),
  tok('openrouter-key', 'ai', ['OPENROUTER_API_KEY'], (r) => J('sk', '-or-v1-') + r.str(64, HEX)),
  tok('elevenlabs-key', 'ai', ['ELEVENLABS_API_KEY', 'xi-api-key'], (r) => J('s', 'k_') + r.str(48, HEX), {
    header: 'xi-api-key: {v}',
  }),
  tok('langfuse-secret', 'ai', ['LANGFUSE_SECRET_KEY'], (r) => J('sk', '-lf-') + uuid(r)),
  tok(
    'langsmith-key',
    'ai',
    ['LANGCHAIN_API_KEY', 'LANGSMITH_API_KEY'],
    (r) => J('lsv', '2_pt_') + r.str(32, HEX) + '_' + r.str(10, HEX),
  ),
  tok('wandb-key', 'ai', ['WANDB_API_KEY'], (r) => r.str(40, HEX), {
    own: ['machine api.wandb.ai\n  login user\n  password {v}', 'wandb login {v}'],
  }),
  tok('azure-openai-key', 'ai', ['AZURE_OPENAI_API_KEY', 'api-key'], (r) => r.str(32, HEX), {
    header: 'api-key: {v}',
    host: 'acme-oai.openai.azure.com',
  }),
  // ---- mail / sms
  tok(
    'sendgrid-key',
    'mail-sms',
    ['SENDGRID_API_KEY', 'SMTP_PASSWORD'],
    (r) => J('S', 'G.') + r.str(22, AN + '-_') + '.' + r.str(43, AN + '-_'),
    { header: 'Authorization: Bearer {v}', host: 'api.sendgrid.com' },
  ),
  tok('mailgun-key', 'mail-sms', ['MAILGUN_API_KEY'], (r) => J('ke', 'y-') + r.str(32, HEX), {
    own: ['curl -s --user "api:{v}" https://api.mailgun.net/v3/mg.acme.io/messages -F to=ops@acme.io'],
  }),
  tok(
    'mailgun-key-new',
    'mail-sms',
    ['MAILGUN_API_KEY'],
    (r) => r.str(32, HEX) + '-' + r.str(8, HEX) + '-' + r.str(8, HEX),
  ),
  tok('mailchimp-key', 'mail-sms', ['MAILCHIMP_API_KEY'], (r) => r.str(32, HEX) + '-us' + r.range(1, 21)),
  tok('postmark-token', 'mail-sms', ['POSTMARK_SERVER_TOKEN', 'X-Postmark-Server-Token'], (r) => uuid(r), {
    header: 'X-Postmark-Server-Token: {v}',
  }),
  tok('twilio-auth-token', 'mail-sms', ['TWILIO_AUTH_TOKEN', 'authToken'], (r) => r.str(32, HEX), {
    own: [
      'curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC' +
        '0123456789abcdef0123456789abcdef'.slice(0, 32) +
        '/Messages.json -u AC' +
        'fedcba9876543210fedcba9876543210' +
        ':{v}',
    ],
  }),
  tok('twilio-api-key-sid', 'mail-sms', ['TWILIO_API_KEY'], (r) => J('S', 'K') + r.str(32, HEX)),
  tok('vonage-secret', 'mail-sms', ['VONAGE_API_SECRET', 'NEXMO_API_SECRET'], (r) => r.str(16, AN)),
  tok(
    'brevo-key',
    'mail-sms',
    ['BREVO_API_KEY', 'SENDINBLUE_API_KEY'],
    (r) => J('xke', 'ysib-') + r.str(64, HEX) + '-' + r.str(16, AN),
    { header: 'api-key: {v}' },
  ),
  tok('sparkpost-key', 'mail-sms', ['SPARKPOST_API_KEY'], (r) => r.str(40, HEX)),
  tok('mailjet-secret', 'mail-sms', ['MJ_APIKEY_PRIVATE', 'MAILJET_SECRET_KEY'], (r) => r.str(32, HEX)),
  tok('resend-key', 'mail-sms', ['RESEND_API_KEY'], (r) => J('r', 'e_') + r.str(8, AN) + '_' + r.str(24, AN)),
  tok('mandrill-key', 'mail-sms', ['MANDRILL_KEY'], (r) => J('m', 'd-') + r.str(22, AN + '-_')),
  tok('messagebird-key', 'mail-sms', ['MESSAGEBIRD_ACCESS_KEY'], (r) => r.str(25, AN), {
    header: 'Authorization: AccessKey {v}',
  }),
  tok('plivo-token', 'mail-sms', ['PLIVO_AUTH_TOKEN'], (r) => r.str(40, AN)),
  tok(
    'smtp-password',
    'mail-sms',
    ['SMTP_PASSWORD', 'EMAIL_HOST_PASSWORD', 'MAIL_PASSWORD', 'smtp_pass'],
    (r) => (r.chance(0.5) ? humanPassword(r) : r.str(16, LOW)),
  ),
  tok(
    'apple-app-specific-password',
    'mail-sms',
    ['FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD', 'APPLE_APP_PASSWORD'],
    (r) => [r.str(4, LOW), r.str(4, LOW), r.str(4, LOW), r.str(4, LOW)].join('-'),
  ),
  // ---- maps / analytics / SaaS
  tok(
    'mapbox-secret-token',
    'maps-analytics',
    ['MAPBOX_SECRET_TOKEN', 'MAPBOX_DOWNLOADS_TOKEN'],
    (r) =>
      J('s', 'k.') +
      b64url(JSON.stringify({ u: 'acme-maps', a: r.str(25, LAN) })) +
      '.' +
      r.str(22, AN + '-_'),
    { own: ['machine api.mapbox.com\n  login mapbox\n  password {v}'] },
  ),
  tok('here-api-key', 'maps-analytics', ['HERE_API_KEY', 'apiKey'], (r) => r.str(43, AN + '-_')),
  tok('segment-write-key', 'maps-analytics', ['SEGMENT_WRITE_KEY'], (r) => r.str(32, AN)),
  tok('mixpanel-secret', 'maps-analytics', ['MIXPANEL_API_SECRET'], (r) => r.str(32, HEX)),
  tok('amplitude-secret', 'maps-analytics', ['AMPLITUDE_SECRET_KEY'], (r) => r.str(32, HEX)),
  tok(
    'posthog-personal-key',
    'maps-analytics',
    ['POSTHOG_PERSONAL_API_KEY'],
    (r) => J('ph', 'x_') + r.str(43, AN),
  ),
  tok(
    'typeform-token',
    'saas',
    ['TYPEFORM_TOKEN'],
    (r) => J('tf', 'p_') + r.str(44, AN) + '_' + r.str(14, AN),
  ),
  tok(
    'asana-pat',
    'saas',
    ['ASANA_PAT'],
    (r) => '2/' + r.str(16, DIG) + '/' + r.str(16, DIG) + ':' + r.str(32, HEX),
  ),
  tok('linear-key', 'saas', ['LINEAR_API_KEY'], (r) => J('li', 'n_api_') + r.str(40, AN)),
  tok('trello-token', 'saas', ['TRELLO_TOKEN'], (r) => J('AT', 'TA') + r.str(64, HEX) + r.str(8, HEXU)),
  tok('figma-pat', 'saas', ['FIGMA_TOKEN', 'X-Figma-Token'], (r) => J('fi', 'gd_') + r.str(40, AN + '-_'), {
    header: 'X-Figma-Token: {v}',
  }),
  tok(
    'contentful-pat',
    'saas',
    ['CONTENTFUL_MANAGEMENT_TOKEN'],
    (r) => J('CF', 'PAT-') + r.str(43, AN + '-_'),
  ),
  tok('sanity-token', 'saas', ['SANITY_API_TOKEN'], (r) => J('s', 'k') + r.str(80, AN)),
  tok('dropbox-token', 'saas', ['DROPBOX_TOKEN'], (r) => J('s', 'l.') + r.str(135, AN + '-_')),
  tok('zendesk-token', 'saas', ['ZENDESK_API_TOKEN'], (r) => r.str(40, AN), {
    own: ['curl https://acme.zendesk.com/api/v2/tickets.json -u agent@acme.io/token:{v}'],
  }),
  tok(
    'intercom-token',
    'saas',
    ['INTERCOM_ACCESS_TOKEN'],
    (r) => b64('tok:' + uuid(r) + ':1:0').replace(/=+$/, '') + '=',
  ),
  tok(
    'hubspot-pat',
    'saas',
    ['HUBSPOT_ACCESS_TOKEN', 'HUBSPOT_PRIVATE_APP_TOKEN'],
    (r) => J('pa', 't-') + r.pick(['na1', 'eu1']) + '-' + uuid(r),
  ),
  tok(
    'salesforce-session',
    'saas',
    ['SF_ACCESS_TOKEN', 'SFDX_ACCESS_TOKEN'],
    (r) => '00D' + r.str(12, AN) + '!' + r.str(96, AN + '._'),
  ),
  tok(
    'postman-key',
    'saas',
    ['POSTMAN_API_KEY', 'X-Api-Key'],
    (r) => J('PM', 'AK-') + r.str(24, HEX) + '-' + r.str(34, HEX),
    { header: 'X-Api-Key: {v}' },
  ),
  tok('readme-key', 'saas', ['README_API_KEY'], (r) => J('rd', 'me_') + r.str(70, LAN)),
  tok('pusher-secret', 'saas', ['PUSHER_APP_SECRET'], (r) => r.str(20, HEX)),
  tok(
    'ably-key',
    'saas',
    ['ABLY_API_KEY'],
    (r) => r.str(6, AN + '-_') + '.' + r.str(6, AN + '-_') + ':' + r.str(43, AN + '-_'),
  ),
  tok('frameio-token', 'saas', ['FRAMEIO_TOKEN'], (r) => J('fi', 'o-u-') + r.str(64, AN + '-_')),
  tok(
    'facebook-access-token',
    'saas',
    ['FB_ACCESS_TOKEN', 'PAGE_ACCESS_TOKEN'],
    (r) => J('EA', 'A') + r.str(r.range(160, 200), AN),
  ),
  tok(
    'twitter-bearer',
    'saas',
    ['TWITTER_BEARER_TOKEN', 'X_BEARER_TOKEN'],
    (r) => 'A'.repeat(22) + r.str(24, AN) + '%3D' + r.str(50, AN),
  ),
  tok('spotify-secret', 'saas', ['SPOTIFY_CLIENT_SECRET'], (r) => r.str(32, HEX)),
  tok('yandex-oauth', 'saas', ['YANDEX_OAUTH_TOKEN'], (r) => J('y', '0_') + 'AgAAAA' + r.str(51, AN + '-_')),
  tok('adobe-secret', 'saas', ['ADOBE_CLIENT_SECRET'], (r) => J('p', '8e-') + r.str(32, AN + '-_')),
  tok(
    'rapidapi-key',
    'saas',
    ['X-RapidAPI-Key', 'RAPIDAPI_KEY'],
    (r) => r.str(18, LAN) + 'msh' + r.str(15, LAN) + 'p1' + r.str(12, LAN),
    { header: 'X-RapidAPI-Key: {v}' },
  ),
  tok('imgur-client-secret', 'saas', ['IMGUR_CLIENT_SECRET'], (r) => r.str(40, HEX)),
  tok('prefect-key', 'saas', ['PREFECT_API_KEY'], (r) => J('pn', 'u_') + r.str(36, AN)),
  tok('algolia-search-secret-named', 'saas', ['ALGOLIA_WRITE_KEY'], (r) => r.str(32, HEX)),
  // ---- crypto wallets
  tok(
    'eth-private-key',
    'crypto',
    ['PRIVATE_KEY', 'DEPLOYER_PRIVATE_KEY', 'WALLET_KEY', 'privateKey'],
    (r) => (r.chance(0.6) ? '0x' : '') + r.str(64, HEX),
    { own: ['const wallet = new ethers.Wallet("{v}", provider);', 'accounts: ["{v}"]'] },
  ),
  tok('bitcoin-wif', 'crypto', ['BTC_WIF', 'wif'], (r) => b58check(r, 52, r.pick(['K', 'L']))),
  {
    name: 'bip39-mnemonic',
    family: 'crypto',
    names: ['MNEMONIC', 'SEED_PHRASE', 'mnemonic'],
    kind: 'token',
    gen: (r) => one(Array.from({ length: r.pick([12, 24]) }, () => r.pick(BIP39)).join(' ')),
  },
  {
    name: 'solana-keypair',
    family: 'crypto',
    names: ['SOLANA_KEYPAIR', 'id.json'],
    kind: 'token',
    gen: (r) => one('[' + Array.from({ length: 64 }, () => r.int(256)).join(',') + ']'),
  },
  tok('infura-secret', 'crypto', ['INFURA_PROJECT_SECRET', 'INFURA_API_KEY'], (r) => r.str(32, HEX), {
    own: ['https://mainnet.infura.io/v3/{v}'],
  }),
  tok('alchemy-key', 'crypto', ['ALCHEMY_API_KEY'], (r) => r.str(32, AN + '-_'), {
    own: ['https://eth-mainnet.g.alchemy.com/v2/{v}'],
  }),
  tok('etherscan-key', 'crypto', ['ETHERSCAN_API_KEY'], (r) => r.str(34, UAN)),
  tok(
    'xpriv-extended-key',
    'crypto',
    ['XPRV', 'extended_private_key'],
    (r) => J('xp', 'rv') + r.str(107, B58),
  ),
  // ---- private keys of every armour
  pemFmt(
    'rsa-pkcs1',
    J('RSA ', PK),
    1192,
    [0x30, 0x82, 0x04, 0xa4, 0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00],
  ),
  pemFmt(
    'pkcs8-rsa',
    PK,
    1218,
    [
      0x30, 0x82, 0x04, 0xbe, 0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d,
      0x01, 0x01, 0x01, 0x05, 0x00,
    ],
  ),
  pemFmt(
    'pkcs8-ec-p256',
    PK,
    138,
    [0x30, 0x81, 0x87, 0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01],
  ),
  pemFmt('sec1-ec', J('EC ', PK), 121, [0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20]),
  pemFmt('openssh-ed25519', J('OPENSSH ', PK), 399, [...Buffer.from('openssh-key-v1\0'), 0, 0, 0, 4], 70),
  pemFmt('openssh-rsa', J('OPENSSH ', PK), 1870, [...Buffer.from('openssh-key-v1\0'), 0, 0, 0, 4], 70),
  pemFmt('dsa', J('DSA ', PK), 444, [0x30, 0x82, 0x01, 0xbb, 0x02, 0x01, 0x00]),
  pemFmt(
    'pkcs8-encrypted',
    J('ENCRYPTED ', PK),
    1298,
    [0x30, 0x82, 0x05, 0x0e, 0x30, 0x40, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0d],
  ),
  pemFmt('rsa-legacy-encrypted', J('RSA ', PK), 1200, [0x8f, 0x11], 64, (r) => [
    'Proc-Type: 4,ENCRYPTED',
    'DEK-Info: AES-128-CBC,' + r.str(32, HEXU),
  ]),
  pemFmt(
    'pgp-private-block',
    J('PGP ', PK, ' BLOCK').replace('KEY BLOCK', 'KEY BLOCK'),
    980,
    [0x95, 0x07, 0x46, 0x04],
    64,
    () => ['Comment: exported for CI signing'],
  ),
  pemFmt(
    'pkcs8-ed25519',
    PK,
    48,
    [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20],
  ),
  {
    name: 'putty-ppk',
    family: 'private-key',
    names: ['deploy.ppk'],
    kind: 'pem',
    gen: (r) => {
      const priv = [r.str(64, B64), r.str(64, B64), r.str(44, B64) + '=='];
      const v = [
        'PuTTY-User-Key-File-3: ssh-rsa',
        'Encryption: none',
        'Comment: rsa-key-20240311',
        'Public-Lines: 2',
        'AAAAB3NzaC1yc2EAAAADAQABAAABAQ' + r.str(34, B64),
        r.str(40, B64) + '==',
        'Private-Lines: 3',
        ...priv,
        'Private-MAC: ' + r.str(64, HEX),
      ].join('\n');
      return { value: v, secrets: priv };
    },
  },
  {
    name: 'jwk-private',
    family: 'private-key',
    names: ['JWK', 'signing_jwk', 'JWKS_PRIVATE'],
    kind: 'token',
    gen: (r) => {
      const d = r.str(43, B64U);
      return {
        value: JSON.stringify({
          kty: 'EC',
          crv: 'P-256',
          kid: r.str(8, LAN),
          x: r.str(43, B64U),
          y: r.str(43, B64U),
          d,
        }),
        secrets: [d],
      };
    },
  },
  {
    name: 'kubeconfig-client-key-data',
    family: 'private-key',
    names: ['client-key-data'],
    kind: 'token',
    gen: (r) => one(b64(pemBlock(r, J('RSA ', PK), 1192, [0x30, 0x82, 0x04, 0xa4]).value + '\n')),
    own: [
      'users:\n- name: admin@prod\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t\n    client-key-data: {v}',
    ],
  },
  // ---- passwords of many kinds
  tok(
    'password-random-ascii',
    'password',
    ['password', 'PASSWORD', 'DB_PASSWORD', 'passwd', 'pwd', 'pass', 'Password', 'db_pw', 'PSWD'],
    (r) => randomPassword(r, r.range(12, 28)),
    { kind: 'pass' },
  ),
  tok(
    'password-human',
    'password',
    ['password', 'admin_password', 'ADMIN_PASS', 'root_pw', 'POSTGRES_PASSWORD', 'MYSQL_ROOT_PASSWORD'],
    (r) => humanPassword(r),
    { kind: 'pass' },
  ),
  tok(
    'password-non-english-key',
    'password',
    [
      'Passwort',
      'mot_de_passe',
      'contrasena',
      'contraseña',
      'senha',
      'parola_d_ordine',
      'wachtwoord',
      'haslo',
      'пароль',
      '密码',
      'パスワード',
      'salasana',
      'losenord',
      'sifre',
      'kennwort',
    ],
    (r) => (r.chance(0.5) ? humanPassword(r) : randomPassword(r, 16)),
    { kind: 'pass' },
  ),
  tok(
    'password-abbreviated-key',
    'password',
    ['pw', 'pwd', 'PW', 'psw', 'pword', 'upass', 'auth_pw', 'rootpw', 'sa_pwd', 'p'],
    (r) => r.str(r.range(10, 18), AN + '!#%+-_.'),
    { kind: 'pass' },
  ),
  tok('password-cli-flag', 'password', ['password'], (r) => r.str(r.range(10, 20), AN + '@#%^_-'), {
    kind: 'pass',
    own: [
      'mysql -h db.internal -u root -p{v} shop < dump.sql',
      'sshpass -p {v} ssh deploy@10.0.4.17',
      'PGPASSWORD={v} psql -h pg.internal -U app -d app -c "select 1"',
      'mongosh "mongodb://admin@mongo.internal:27017" --password {v}',
      'redis-cli -h cache.internal -a {v} ping',
      'smbclient //nas/backup -U backup%{v}',
      'net use Z: \\\\fileserver\\share /user:CORP\\svc_backup {v}',
      'helm repo add internal https://charts.acme.io --username ci --password {v}',
      'htpasswd -b -c .htpasswd admin {v}',
      'openssl pkcs12 -export -in cert.pem -inkey key.pem -out cert.p12 -passout pass:{v}',
    ],
  }),
  tok('wifi-psk', 'password', ['psk', 'wpa_passphrase'], (r) => humanPassword(r), {
    kind: 'pass',
    own: [
      'network={\n    ssid="Office-5G"\n    psk="{v}"\n}',
      'nmcli dev wifi connect Office-5G password {v}',
    ],
  }),
  tok(
    'keystore-password',
    'password',
    ['storePassword', 'keyPassword', 'KEYSTORE_PASSWORD', 'signing.password'],
    (r) => humanPassword(r),
    {
      kind: 'pass',
      own: [
        'android {\n  signingConfigs {\n    release {\n      storeFile file("release.jks")\n      storePassword "{v}"\n      keyAlias "upload"\n      keyPassword "{v}"\n    }\n  }\n}',
      ],
    },
  ),
  tok('netrc-password', 'password', ['password'], (r) => r.str(r.range(14, 30), AN + '-_'), {
    kind: 'pass',
    own: [
      'machine gitea.example.org\nlogin ci-bot\npassword {v}',
      'machine artifactory.acme.io login deployer password {v}',
    ],
  }),
  tok('nuget-cleartext-password', 'password', ['ClearTextPassword'], (r) => r.str(20, AN), {
    kind: 'pass',
    own: [
      '<packageSourceCredentials>\n  <internal>\n    <add key="Username" value="build" />\n    <add key="ClearTextPassword" value="{v}" />\n  </internal>\n</packageSourceCredentials>',
    ],
  }),
  tok('rclone-obscured-pass', 'password', ['pass'], (r) => r.str(40, AN + '-_'), {
    kind: 'pass',
    own: ['[nas]\ntype = sftp\nhost = nas.lan\nuser = backup\npass = {v}'],
  }),
  tok('s3cfg-secret', 'cloud', ['secret_key'], (r) => r.str(40, AN + '+/'), {
    own: ['[default]\nsecret_key = {v}\nhost_base = s3.amazonaws.com'],
  }),
  tok(
    'wp-config-salts',
    'password',
    ['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_SALT'],
    (r) => r.str(64, PRINT.replace(/['\\]/g, '')),
    { own: ["define( 'AUTH_KEY',         '{v}' );", "define('DB_PASSWORD', '{v}');"] },
  ),
  tok(
    'ansible-vault-password',
    'password',
    ['ANSIBLE_VAULT_PASSWORD', 'vault_password'],
    (r) => humanPassword(r),
    {
      kind: 'pass',
      own: ['echo "{v}" > ~/.vault_pass && ansible-playbook site.yml --vault-password-file ~/.vault_pass'],
    },
  ),
  tok('rabbitmq-default-pass', 'password', ['RABBITMQ_DEFAULT_PASS'], (r) => r.str(18, AN), { kind: 'pass' }),
  tok('redis-requirepass', 'password', ['requirepass'], (r) => r.str(32, AN), {
    kind: 'pass',
    own: ['bind 0.0.0.0\nport 6379\nrequirepass {v}\nmaxmemory 2gb'],
  }),
  tok(
    'grafana-admin-password',
    'password',
    ['GF_SECURITY_ADMIN_PASSWORD', 'admin_password'],
    (r) => humanPassword(r),
    { kind: 'pass' },
  ),
  tok('vnc-password', 'password', ['VNC_PASSWORD', 'x11vnc_passwd'], (r) => r.str(8, AN), { kind: 'pass' }),
  // ---- less common armours, syntaxes and providers
  {
    name: 'openvpn-static-key',
    family: 'private-key',
    names: ['ta.key', 'tls_auth_key'],
    kind: 'pem',
    gen: (r) => {
      const lines = Array.from({ length: 16 }, () => r.str(32, HEX));
      return {
        value: [
          '#',
          '# 2048 bit OpenVPN static key',
          '#',
          J(BEGIN, 'OpenVPN Static key V1-----'),
          ...lines,
          J(END, 'OpenVPN Static key V1-----'),
        ].join('\n'),
        secrets: lines,
      };
    },
  },
  {
    name: 'wireguard-private-key',
    family: 'private-key',
    names: ['PrivateKey', 'WG_PRIVATE_KEY', 'wireguard_private_key'],
    kind: 'token',
    gen: (r) => one(b64(r.bytes(32))),
    own: [
      '[Interface]\nAddress = 10.8.0.2/24\nPrivateKey = {v}\nDNS = 1.1.1.1\n\n[Peer]\nPublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\nEndpoint = vpn.acme.io:51820\nAllowedIPs = 0.0.0.0/0',
      'wg set wg0 private-key <(echo {v})',
    ],
  },
  {
    name: 'minisign-secret-key',
    family: 'private-key',
    names: ['MINISIGN_KEY', 'minisign.key'],
    kind: 'pem',
    gen: (r) => {
      const k = 'RWRTY0Iy' + r.str(204, B64) + '==';
      return { value: 'untrusted comment: minisign encrypted secret key\n' + k, secrets: [k] };
    },
  },
  tok('totp-seed', 'auth', ['TOTP_SECRET', 'otp_secret', 'MFA_SEED'], (r) => r.str(32, B32), {
    own: [
      'otpauth://totp/Acme:ci-bot@acme.io?secret={v}&issuer=Acme',
      'oathtool --totp -b {v}',
      'If the QR code does not scan, enter this setup key manually: {v}',
    ],
  }),
  {
    name: 'recovery-codes',
    family: 'auth',
    names: ['recovery_codes'],
    kind: 'token',
    gen: (r) => {
      const codes = Array.from({ length: 8 }, () => r.str(5, LAN) + '-' + r.str(5, LAN));
      return { value: codes.join('\n'), secrets: codes };
    },
  },
  tok('jupyter-token', 'data', ['JUPYTER_TOKEN'], (r) => r.str(48, HEX), {
    own: [
      '    To access the server, open this file in a browser:\n        file:///root/.local/share/jupyter/runtime/jpserver-7-open.html\n    Or copy and paste one of these URLs:\n        http://127.0.0.1:8888/lab?token={v}',
      'jupyter lab --ServerApp.token={v} --ip=0.0.0.0',
    ],
  }),
  tok('grafana-legacy-api-key', 'observability', ['GRAFANA_API_KEY'], (r) =>
    b64(JSON.stringify({ k: r.str(32, AN), n: r.pick(['ci', 'terraform', 'backup']), id: r.range(1, 9) })),
  ),
  tok(
    'webex-bot-token',
    'chat',
    ['WEBEX_TOKEN'],
    (r) => r.str(64, AN) + '_' + r.pick(['PF84', 'P0A1']) + '_' + uuid(r),
  ),
  tok('rocketchat-auth-token', 'chat', ['X-Auth-Token', 'ROCKETCHAT_TOKEN'], (r) => r.str(43, AN + '-_'), {
    header: 'X-Auth-Token: {v}',
    host: 'chat.acme.io',
  }),
  tok('mattermost-pat', 'chat', ['MATTERMOST_TOKEN'], (r) => r.str(26, LAN), {
    own: ['mmctl auth login https://chat.acme.io --name prod --access-token {v}'],
  }),
  tok('vk-token', 'saas', ['VK_TOKEN'], (r) => J('vk', '1.a.') + r.str(180, AN + '-_')),
  tok('naver-client-secret', 'saas', ['X-Naver-Client-Secret', 'NAVER_CLIENT_SECRET'], (r) => r.str(10, AN), {
    header: 'X-Naver-Client-Secret: {v}',
    host: 'openapi.naver.com',
  }),
  tok('wechat-appsecret', 'saas', ['WECHAT_APPSECRET', 'appsecret'], (r) => r.str(32, HEX), {
    own: [
      'https://api.weixin.qq.com/cgi-bin/token?grant_type=client_credential&appid=wx' +
        'd4c9a1b2e3f40516' +
        '&secret={v}',
    ],
  }),
  urlFmt('dingtalk-webhook', 'chat', ['DINGTALK_WEBHOOK'], (r) => {
    const t = r.str(64, HEX);
    return { url: `https://oapi.dingtalk.com/robot/send?access_token=${t}`, secret: t };
  }),
  tok('dingtalk-sign-secret', 'chat', ['DINGTALK_SECRET'], (r) => 'SEC' + r.str(64, HEX)),
  urlFmt('feishu-webhook', 'chat', ['FEISHU_WEBHOOK', 'LARK_HOOK_URL'], (r) => {
    const t = uuid(r);
    return { url: `https://open.feishu.cn/open-apis/bot/v2/hook/${t}`, secret: t };
  }),
  urlFmt('wecom-webhook', 'chat', ['WECOM_WEBHOOK_URL'], (r) => {
    const t = uuid(r);
    return { url: `https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=${t}`, secret: t };
  }),
  tok('pushover-token', 'chat', ['PUSHOVER_TOKEN', 'PUSHOVER_USER_KEY'], (r) => r.str(30, LAN)),
  tok('ifttt-maker-key', 'saas', ['IFTTT_KEY'], (r) => r.str(22, AN + '-_'), {
    own: ['curl -X POST https://maker.ifttt.com/trigger/deploy_done/with/key/{v}'],
  }),
  urlFmt('zapier-webhook', 'saas', ['ZAPIER_HOOK_URL'], (r) => {
    const t = r.str(7, DIG) + '/' + r.str(6, LAN);
    return { url: `https://hooks.zapier.com/hooks/catch/${t}/`, secret: t };
  }),
  urlFmt('make-webhook', 'saas', ['MAKE_WEBHOOK_URL'], (r) => {
    const t = r.str(32, LAN);
    return { url: `https://hook.${r.pick(['eu1', 'eu2', 'us1'])}.make.com/${t}`, secret: t };
  }),
  urlFmt('s3-presigned-url', 'cloud', ['download_url', 'PRESIGNED_URL'], (r) => {
    const sig = r.str(64, HEX);
    const kid = J('AS', 'IA') + r.str(16, B32);
    return {
      secret: [sig, kid],
      url: `https://acme-exports.s3.eu-west-1.amazonaws.com/reports/2026-01.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${kid}%2F20260105%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date=20260105T101112Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host&X-Amz-Signature=${sig}`,
    };
  }),
  urlFmt('gcs-signed-url', 'cloud', ['signed_url'], (r) => {
    const sig = r.str(512, HEX);
    return {
      url: `https://storage.googleapis.com/acme-artifacts/build.zip?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=ci%40acme-prod.iam.gserviceaccount.com%2F20260105%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20260105T101112Z&X-Goog-Expires=3600&X-Goog-SignedHeaders=host&X-Goog-Signature=${sig}`,
      secret: sig,
    };
  }),
  urlFmt('oauth-fragment-token', 'auth', ['redirect'], (r) => {
    const t = r.str(40, AN + '-_');
    return {
      url: `https://app.acme.io/callback#access_token=${t}&token_type=Bearer&expires_in=3600&state=${r.str(8, LAN)}`,
      secret: t,
    };
  }),
  urlFmt('http-basic-in-url', 'password', ['GRAFANA_URL', 'ES_URL', 'REGISTRY_MIRROR'], (r) => {
    const p = urlEnc(pw(r));
    return {
      url: `https://admin:${p}@${r.pick(['grafana.internal', 'es.lan:9200', 'nexus.corp.example.net'])}/`,
      secret: p,
    };
  }),
  urlFmt(
    'pgpass-line',
    'data',
    ['.pgpass'],
    (r) => {
      const p = r.str(18, AN + '!#%-_');
      return { url: `${host(r)}:5432:*:${user(r)}:${p}`, secret: p };
    },
    { own: ['{v}', 'echo "{v}" >> ~/.pgpass && chmod 600 ~/.pgpass'] },
  ),
  tok(
    'session-cookie',
    'auth',
    ['Cookie', 'session'],
    (r) =>
      r
        .pick([
          `PHPSESSID=${r.str(26, LAN)}`,
          `JSESSIONID=${r.str(32, HEXU)}`,
          `connect.sid=s%3A${r.str(32, AN + '-_')}.${r.str(43, AN + '%')}`,
          `i_like_gitea=${r.str(16, HEX)}`,
          `_session_id=${r.str(32, HEX)}`,
        ])
        .split('=')[1] ?? '',
    {
      own: [
        'Cookie: i_like_gitea={v}; lang=en-US',
        'curl -b "session={v}" https://app.acme.io/admin/export',
        '> Cookie: JSESSIONID={v}',
      ],
    },
  ),
  tok(
    'gitea-app-ini-passwd',
    'forge',
    ['PASSWD', 'GITEA__database__PASSWD', 'GITEA__mailer__PASSWD'],
    (r) => humanPassword(r),
    {
      kind: 'pass',
      own: [
        '[database]\nDB_TYPE = postgres\nHOST = db:5432\nNAME = gitea\nUSER = gitea\nPASSWD = {v}',
        '[mailer]\nENABLED = true\nSMTP_ADDR = smtp.acme.io\nUSER = gitea@acme.io\nPASSWD = `{v}`',
        '      - GITEA__database__PASSWD={v}',
      ],
    },
  ),
  tok('drone-rpc-secret', 'cicd', ['DRONE_RPC_SECRET', 'WOODPECKER_AGENT_SECRET'], (r) => r.str(32, HEX)),
  tok('argocd-admin-password', 'cicd', ['ARGOCD_PASSWORD'], (r) => r.str(16, AN + '-'), {
    kind: 'pass',
    own: [
      'argocd login argocd.acme.io --username admin --password {v} --grpc-web',
      '$ kubectl -n argocd get secret argocd-initial-admin-secret -o jsonpath="{.data.password}" | base64 -d\n{v}',
    ],
  }),
  tok('snmp-community', 'password', ['community', 'snmp_community'], (r) => r.str(14, AN), {
    kind: 'pass',
    own: ['snmpwalk -v2c -c {v} 10.0.0.1 system', 'rocommunity {v} 10.0.0.0/16'],
  }),
  tok(
    'az-sp-secret-cli',
    'cloud',
    ['AZURE_CLIENT_SECRET'],
    (r) => r.str(3, AN) + J('8', 'Q~') + r.str(31, AN + '_-.~'),
    {
      own: [
        'az login --service-principal -u ' +
          '2f1c3b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b' +
          ' -p {v} --tenant acme.onmicrosoft.com',
      ],
    },
  ),
  tok('terraform-var-password', 'password', ['db_password'], (r) => humanPassword(r), {
    kind: 'pass',
    own: [
      "terraform apply -auto-approve -var 'db_password={v}'",
      'TF_VAR_db_password={v} terraform plan',
      'helm upgrade --install pg bitnami/postgresql --set auth.postgresPassword={v}',
      'ansible-playbook deploy.yml -e "ansible_become_password={v}"',
    ],
  }),
  tok('systemd-environment', 'auth', ['API_TOKEN'], (r) => r.str(40, AN), {
    own: [
      '[Service]\nEnvironment="API_TOKEN={v}"\nExecStart=/usr/local/bin/exporter',
      'proxy_set_header Authorization "Bearer {v}";',
      'SetEnv API_TOKEN {v}',
      'set -x API_TOKEN {v}',
      'setx API_TOKEN "{v}"',
      'set API_TOKEN={v}',
    ],
  }),
  tok('paas-secrets-set', 'paas', ['SECRET'], (r) => r.str(40, AN), {
    own: [
      'fly secrets set STRIPE_KEY={v} -a acme-api',
      'heroku config:set SECRET_TOKEN={v} -a acme-prod',
      'railway variables --set "API_KEY={v}"',
      'echo -n {v} | vercel env add API_KEY production',
      'echo {v} | docker secret create api_key -',
      'kubectl create secret docker-registry regcred --docker-server=registry.acme.io --docker-username=ci --docker-password={v}',
    ],
  }),
  tok('git-insteadof-token', 'forge', ['url'], (r) => ghTok(r, J('gh', 'p_')), {
    own: [
      'git config --global url."https://{v}@github.com/".insteadOf "https://github.com/"',
      '[url "https://oauth2:{v}@gitlab.com/"]\n\tinsteadOf = https://gitlab.com/',
    ],
  }),
  tok('gitea-token-hex-header', 'forge', ['GITEA_TOKEN', 'token', 'access_token'], (r) => r.str(40, HEX), {
    header: 'Authorization: token {v}',
    host: 'gitea.example.org',
    own: [
      'git -c http.extraHeader="Authorization: token {v}" clone https://gitea.example.org/ops/infra.git',
      'curl -X POST -H "Authorization: token {v}" -H "Content-Type: application/json" https://gitea.example.org/api/v1/repos/ops/site/releases -d @release.json',
      'tea api --login ci -H "Authorization: token {v}" /user',
      'Invoke-RestMethod -Uri https://gitea.example.org/api/v1/user/repos -Headers @{Authorization="token {v}"}',
    ],
  }),
  tok('gitea-token-hex-tool-config', 'forge', ['token', 'gitea_token'], (r) => r.str(40, HEX), {
    own: [
      'logins:\n  - name: work\n    url: https://gitea.example.org\n    token: {v}\n    default: true\n    ssh_host: gitea.example.org\n    user: marta',
      '{\n  "id": 7,\n  "uuid": "' +
        '3f0c6c1e-5e0a-4b8e-9a51-6c7f2d9e0b14' +
        '",\n  "name": "runner-02",\n  "token": "{v}",\n  "address": "https://gitea.example.org",\n  "labels": ["ubuntu-latest:docker://node:20-bookworm"]\n}',
      'renovate:\n  platform: gitea\n  endpoint: https://gitea.example.org/api/v1\n  token: {v}',
      'provider "gitea" {\n  base_url = "https://gitea.example.org"\n  token    = "{v}"\n}',
      'GITEA_TOKEN={v} tea pr create --title "bump" --base main',
    ],
  }),
];

export function familyOf(name: string): string {
  return FORMATS.find((f) => f.name === name)?.family ?? 'unknown';
}
void UP;
