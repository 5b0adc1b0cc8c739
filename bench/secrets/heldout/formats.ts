// Secret formats of the held-out corpus, one generator each. Shapes follow the providers' own
// documentation of their token formats (prefix, length, alphabet, checksum where documented) and
// the public format facts of gitleaks' and trufflehog's detector lists. Prefixes are joined from
// pieces with `j(...)` so no complete secret-shaped literal exists in the repository.
import {
  ALNUM,
  B64,
  B64URL,
  BASE32_LOWER,
  BASE32_UPPER,
  BECH32,
  DIGITS,
  HEX,
  HEX_UP,
  LOWER,
  LOWER_ALNUM,
  UPPER,
  UPPER_ALNUM,
  b64,
  b64url,
  base62,
  crc32,
  j,
  uuid,
  wrap,
  type Rng,
} from './random';

/**
 * token: recognisable on its own; ctx: recognisable only by the name it is assigned to; url: a URL
 * or connection string with the secret inside; hook: a webhook URL that is itself the credential;
 * line: a ready-made line or file fragment; block: a multi-line key block.
 */
export type Kind = 'token' | 'ctx' | 'url' | 'hook' | 'line' | 'block';
export type Made = { value: string; secrets: string[] };
export type SecretFormat = {
  id: string;
  family: string;
  kind: Kind;
  names: string[];
  make(r: Rng): Made;
};

const WORDS = [
  'harbor',
  'quill',
  'otter',
  'basalt',
  'lemon',
  'falcon',
  'maple',
  'cobalt',
  'ember',
  'tundra',
  'violet',
  'saffron',
  'glacier',
  'mosaic',
  'pepper',
  'willow',
  'zephyr',
  'canyon',
  'juniper',
  'orbit',
];
const USERS = [
  'deploy',
  'app',
  'svc_ci',
  'admin',
  'gitea',
  'ci-bot',
  'backup',
  'reporting',
  'etl_user',
  'grafana',
];
const HOSTS = [
  'db.internal.acme.io',
  '10.0.3.17',
  'pg-primary.prod.svc.cluster.local',
  'mysql.staging.example.net',
  'db-01.eu-west-1.rds.amazonaws.com',
  'data.corp.lan',
];
const DBS = ['app', 'orders', 'analytics', 'gitea', 'billing', 'inventory'];
const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** Passwords as people choose them; only characters that survive URLs, shells and YAML unquoted. */
export function password(r: Rng): string {
  switch (r.int(0, 3)) {
    case 0:
      return `${cap(r.pick(WORDS))}${r.int(10, 9999)}!${r.pick(WORDS)}`;
    case 1:
      return r.pick(UPPER + LOWER) + r.str(ALNUM + '#%*+-_.~', r.int(13, 27)) + r.pick(DIGITS);
    case 2:
      return r.pick(LOWER) + r.str(ALNUM, r.int(19, 31));
    default:
      return `${r.pick(WORDS)}-${r.pick(WORDS)}-${r.pick(WORDS)}-${r.int(10, 99)}`;
  }
}

/** A password as it appears inside a URL: unreserved characters, sometimes percent-encoded ones. */
function urlPassword(r: Rng): string {
  const base = r.pick(LOWER) + r.str(ALNUM + '-._~', r.int(13, 23));
  return r.chance(0.3) ? `${base.slice(0, 6)}%21${base.slice(6)}%40${r.int(10, 99)}` : base;
}

const one = (value: string): Made => ({ value, secrets: [value] });

function tok(
  id: string,
  family: string,
  names: string[],
  gen: (r: Rng) => string,
  kind: Kind = 'token',
): SecretFormat {
  return { id, family, kind, names, make: (r) => one(gen(r)) };
}
function url(
  id: string,
  family: string,
  names: string[],
  gen: (r: Rng) => Made,
  kind: Kind = 'url',
): SecretFormat {
  return { id, family, kind, names, make: gen };
}
function line(id: string, family: string, names: string[], gen: (r: Rng) => Made): SecretFormat {
  return { id, family, kind: 'line', names, make: gen };
}

/** GitHub and npm tokens end in a base62 CRC32 of their random part (documented by GitHub). */
function checksummed(prefix: string, r: Rng): string {
  const body = r.str(ALNUM, 30);
  return prefix + body + base62(crc32(body), 6);
}

function jwt(r: Rng, alg: string, payload: Record<string, unknown>): string {
  const sigBytes = alg.startsWith('RS') ? 256 : alg.startsWith('ES') ? 64 : 32;
  return [
    b64url(JSON.stringify({ alg, typ: 'JWT' })),
    b64url(JSON.stringify(payload)),
    b64url(r.bytes(sigBytes)),
  ].join('.');
}
const now = (r: Rng): number => 1790000000 + r.int(0, 20000000);

/** A PEM or OpenSSH block: the secrets are its body lines, which survive any escaping of newlines. */
function pemBlock(
  label: string,
  lead: string,
  r: Rng,
  bytes: number,
  width = 64,
  headers: string[] = [],
): Made {
  const body = lead + b64(r.bytes(bytes)).slice(lead.length);
  const lines = wrap(body, width);
  const begin = j('-----BEGIN ', label, '-----');
  const end = j('-----END ', label, '-----');
  return {
    value: [begin, ...headers, ...lines, end].join('\n'),
    secrets: lines.filter((l) => l.length >= 16),
  };
}

const connUser = (r: Rng): string => r.pick(USERS);
const gitHost = (r: Rng): string =>
  r.pick(['git.example.org', 'gitea.acme.io', 'code.internal.lan', 'forge.example.com']);
const org = (r: Rng): string => r.pick(['acme', 'platform', 'infra', 'data-eng', 'web', 'mobile']);
const repo = (r: Rng): string =>
  r.pick(['api', 'billing-service', 'infra-live', 'website', 'etl', 'helm-charts']);
const hex40 = (r: Rng): string => r.str(HEX, 40);

export const SECRET_FORMATS: SecretFormat[] = [
  // ---- cloud: AWS
  tok(
    'aws-access-key-id',
    'aws',
    ['AWS_ACCESS_KEY_ID', 'aws_access_key_id', 'accessKeyId'],
    (r) => j('AK', 'IA') + r.str(BASE32_UPPER, 16),
  ),
  tok(
    'aws-temporary-access-key-id',
    'aws',
    ['AWS_ACCESS_KEY_ID', 'aws_access_key_id'],
    (r) => j('AS', 'IA') + r.str(BASE32_UPPER, 16),
  ),
  tok(
    'aws-secret-access-key',
    'aws',
    ['AWS_SECRET_ACCESS_KEY', 'aws_secret_access_key', 'secretAccessKey'],
    (r) => r.str(B64, 40),
    'ctx',
  ),
  tok(
    'aws-session-token',
    'aws',
    ['AWS_SESSION_TOKEN', 'aws_session_token'],
    (r) => j('IQoJb3Jp', 'Z2luX2Vj') + r.str(B64, r.int(330, 380)),
    'ctx',
  ),
  line('aws-credentials-profile', 'aws', ['AWS_CREDENTIALS'], (r) => {
    const id = j('AK', 'IA') + r.str(BASE32_UPPER, 16);
    const key = r.str(B64, 40);
    return {
      value: `[${r.pick(['default', 'prod', 'deploy'])}]\naws_access_key_id = ${id}\naws_secret_access_key = ${key}\nregion = eu-west-1`,
      secrets: [id, key],
    };
  }),
  tok('amazon-mws-auth-token', 'aws', ['MWS_AUTH_TOKEN'], (r) => j('amzn', '.mws.') + uuid(r)),
  // ---- cloud: GCP
  tok(
    'gcp-api-key',
    'gcp',
    ['GOOGLE_API_KEY', 'GEMINI_API_KEY', 'MAPS_API_KEY', 'apiKey'],
    (r) => j('AI', 'za') + r.str(B64URL, 35),
  ),
  {
    id: 'gcp-service-account-key',
    family: 'gcp',
    kind: 'block',
    names: ['GOOGLE_CREDENTIALS', 'GCP_SA_KEY'],
    make: (r) => {
      const pem = pemBlock(j('PRIVATE', ' KEY'), j('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC'), r, 1190);
      const keyId = r.str(HEX, 40);
      const project = `${r.pick(WORDS)}-${r.pick(WORDS)}-${r.int(100000, 999999)}`;
      const email = `${r.pick(['deployer', 'ci', 'terraform'])}@${project}.iam.gserviceaccount.com`;
      const doc = {
        type: 'service_account',
        project_id: project,
        private_key_id: keyId,
        private_key: pem.value + '\n',
        client_email: email,
        client_id: r.str(DIGITS, 21),
        auth_uri: 'https://accounts.google.com/o/oauth2/auth',
        token_uri: 'https://oauth2.googleapis.com/token',
        auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
        client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(email)}`,
        universe_domain: 'googleapis.com',
      };
      return { value: JSON.stringify(doc, null, 2), secrets: [keyId, ...pem.secrets] };
    },
  },
  tok(
    'gcp-oauth-client-secret',
    'gcp',
    ['GOOGLE_CLIENT_SECRET', 'client_secret'],
    (r) => j('GOC', 'SPX-') + r.str(B64URL, 28),
  ),
  tok(
    'google-oauth-refresh-token',
    'gcp',
    ['GOOGLE_REFRESH_TOKEN', 'refresh_token'],
    (r) => j('1/', '/0') + r.pick(['g', 'e', '3', '4']) + r.str(B64URL, 98),
    'ctx',
  ),
  tok(
    'google-oauth-access-token',
    'gcp',
    ['GOOGLE_ACCESS_TOKEN', 'access_token'],
    (r) => j('ya', '29.') + r.str(B64URL, r.int(150, 200)),
  ),
  tok(
    'firebase-fcm-server-key',
    'gcp',
    ['FCM_SERVER_KEY', 'FIREBASE_SERVER_KEY'],
    (r) => j('AAAA', r.str(B64URL, 7), ':', 'APA91b') + r.str(B64URL, 134),
  ),
  // ---- cloud: Azure
  tok(
    'azure-ad-client-secret',
    'azure',
    ['AZURE_CLIENT_SECRET', 'ARM_CLIENT_SECRET', 'clientSecret'],
    (r) => r.str(ALNUM, 3) + r.pick(DIGITS) + j('Q', '~') + r.str(ALNUM + '_~.-', 33) + r.pick(ALNUM),
  ),
  url(
    'azure-storage-connection-string',
    'azure',
    ['AZURE_STORAGE_CONNECTION_STRING', 'AzureWebJobsStorage'],
    (r) => {
      const key = b64(r.bytes(64));
      return {
        value: `DefaultEndpointsProtocol=https;AccountName=${r.pick(WORDS)}store${r.int(1, 99)};AccountKey=${key};EndpointSuffix=core.windows.net`,
        secrets: [key],
      };
    },
  ),
  url('azure-sas-token', 'azure', ['AZURE_BLOB_SAS_URL', 'BACKUP_SAS_URL'], (r) => {
    const sig = encodeURIComponent(b64(r.bytes(32)));
    return {
      value: `https://${r.pick(WORDS)}backups.blob.core.windows.net/${r.pick(['db', 'logs', 'artifacts'])}?sv=2022-11-02&ss=b&srt=sco&sp=rwdlac&se=2027-01-31T18:00:00Z&st=2026-11-01T09:00:00Z&spr=https&sig=${sig}`,
      secrets: [sig],
    };
  }),
  url(
    'azure-cosmosdb-connection-string',
    'azure',
    ['COSMOS_CONNECTION_STRING', 'CosmosDb__ConnectionString'],
    (r) => {
      const key = b64(r.bytes(64));
      return {
        value: `AccountEndpoint=https://${r.pick(WORDS)}-cosmos.documents.azure.com:443/;AccountKey=${key};`,
        secrets: [key],
      };
    },
  ),
  url(
    'azure-servicebus-connection-string',
    'azure',
    ['SERVICEBUS_CONNECTION_STRING', 'ServiceBus__ConnectionString'],
    (r) => {
      const key = b64(r.bytes(32));
      return {
        value: `Endpoint=sb://${r.pick(WORDS)}-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${key}`,
        secrets: [key],
      };
    },
  ),
  tok(
    'azure-devops-pat',
    'azure',
    ['AZURE_DEVOPS_EXT_PAT', 'AZDO_PAT', 'ADO_TOKEN'],
    (r) => r.str(BASE32_LOWER, 52),
    'ctx',
  ),
  tok(
    'azure-openai-api-key',
    'azure',
    ['AZURE_OPENAI_API_KEY', 'AZURE_OPENAI_KEY'],
    (r) => r.str(HEX, 32),
    'ctx',
  ),
  url('azure-function-key-url', 'azure', ['FUNCTION_URL', 'AZURE_FUNCTION_ENDPOINT'], (r) => {
    const code = r.str(B64URL, 54) + '==';
    return {
      value: `https://${r.pick(WORDS)}-fn.azurewebsites.net/api/${r.pick(['ingest', 'notify', 'resize'])}?code=${code}`,
      secrets: [code],
    };
  }),
  // ---- cloud: others
  tok(
    'alibaba-access-key-id',
    'alibaba',
    ['ALIBABA_CLOUD_ACCESS_KEY_ID', 'ALICLOUD_ACCESS_KEY'],
    (r) => j('LT', 'AI') + r.str(ALNUM, 20),
  ),
  tok(
    'alibaba-access-key-secret',
    'alibaba',
    ['ALIBABA_CLOUD_ACCESS_KEY_SECRET', 'ALICLOUD_SECRET_KEY'],
    (r) => r.str(ALNUM, 30),
    'ctx',
  ),
  tok('ibm-cloud-api-key', 'ibm', ['IBMCLOUD_API_KEY', 'IC_API_KEY'], (r) => r.str(B64URL, 44), 'ctx'),
  tok('tencent-secret-id', 'tencent', ['TENCENTCLOUD_SECRET_ID'], (r) => j('AK', 'ID') + r.str(ALNUM, 32)),
  tok('hetzner-cloud-token', 'hetzner', ['HCLOUD_TOKEN'], (r) => r.str(ALNUM, 64), 'ctx'),
  tok('linode-token', 'linode', ['LINODE_TOKEN', 'LINODE_CLI_TOKEN'], (r) => r.str(HEX, 64), 'ctx'),
  tok('scaleway-secret-key', 'scaleway', ['SCW_SECRET_KEY'], (r) => uuid(r), 'ctx'),
  tok('yandex-api-key', 'yandex', ['YC_API_KEY', 'YANDEX_API_KEY'], (r) => j('AQ', 'VN') + r.str(B64URL, 36)),
  // ---- forges: GitHub
  tok('github-pat-classic', 'github', ['GITHUB_TOKEN', 'GH_TOKEN', 'github_token'], (r) =>
    checksummed(j('gh', 'p_'), r),
  ),
  tok('github-oauth-token', 'github', ['GITHUB_OAUTH_TOKEN', 'GH_TOKEN'], (r) =>
    checksummed(j('gh', 'o_'), r),
  ),
  tok('github-user-to-server-token', 'github', ['GITHUB_USER_TOKEN'], (r) => checksummed(j('gh', 'u_'), r)),
  tok('github-app-installation-token', 'github', ['GITHUB_APP_TOKEN', 'GH_INSTALLATION_TOKEN'], (r) =>
    checksummed(j('gh', 's_'), r),
  ),
  tok('github-refresh-token', 'github', ['GITHUB_REFRESH_TOKEN'], (r) => checksummed(j('gh', 'r_'), r)),
  tok(
    'github-fine-grained-pat',
    'github',
    ['GITHUB_TOKEN', 'GH_PAT'],
    (r) => j('github', '_pat_') + r.str(ALNUM, 22) + '_' + r.str(ALNUM, 59),
  ),
  tok(
    'github-oauth-client-secret',
    'github',
    ['GITHUB_CLIENT_SECRET', 'GITHUB_OAUTH_SECRET'],
    (r) => r.str(HEX, 40),
    'ctx',
  ),
  // ---- forges: GitLab
  tok(
    'gitlab-pat',
    'gitlab',
    ['GITLAB_TOKEN', 'GL_TOKEN', 'CI_PUSH_TOKEN'],
    (r) => j('gl', 'pat-') + r.str(B64URL, 20),
  ),
  tok(
    'gitlab-pat-routable',
    'gitlab',
    ['GITLAB_TOKEN'],
    (r) => j('gl', 'pat-') + r.str(B64URL, r.int(36, 48)) + '.01' + r.str(LOWER_ALNUM, 7),
  ),
  tok('gitlab-deploy-token', 'gitlab', ['GITLAB_DEPLOY_TOKEN'], (r) => j('gl', 'dt-') + r.str(B64URL, 20)),
  tok(
    'gitlab-runner-token',
    'gitlab',
    ['RUNNER_TOKEN', 'CI_SERVER_TOKEN'],
    (r) => j('gl', 'rt-') + r.str(B64URL, 20),
  ),
  tok(
    'gitlab-runner-registration-token',
    'gitlab',
    ['REGISTRATION_TOKEN'],
    (r) => j('GR13', '48941') + r.str(B64URL, 20),
  ),
  tok('gitlab-pipeline-trigger-token', 'gitlab', ['TRIGGER_TOKEN'], (r) => j('gl', 'ptt-') + r.str(HEX, 40)),
  tok(
    'gitlab-ci-job-token',
    'gitlab',
    ['CI_JOB_TOKEN'],
    (r) => j('gl', 'cbt-') + r.str(ALNUM, 2) + '_' + r.str(B64URL, 20),
  ),
  tok('gitlab-feed-token', 'gitlab', ['GITLAB_FEED_TOKEN'], (r) => j('gl', 'ft-') + r.str(B64URL, 20)),
  tok('gitlab-oauth-app-secret', 'gitlab', ['GITLAB_APP_SECRET'], (r) => j('gl', 'oas-') + r.str(B64URL, 64)),
  tok('gitlab-agent-token', 'gitlab', ['KAS_AGENT_TOKEN'], (r) => j('gl', 'agent-') + r.str(B64URL, 50)),
  tok('gitlab-scim-token', 'gitlab', ['GITLAB_SCIM_TOKEN'], (r) => j('gl', 'soat-') + r.str(B64URL, 20)),
  tok(
    'gitlab-incoming-mail-token',
    'gitlab',
    ['INCOMING_MAIL_TOKEN'],
    (r) => j('gl', 'imt-') + r.str(B64URL, 25),
  ),
  tok(
    'gitlab-feature-flag-client-token',
    'gitlab',
    ['UNLEASH_INSTANCE_ID'],
    (r) => j('gl', 'ffct-') + r.str(B64URL, 20),
  ),
  line('gitlab-session-cookie', 'gitlab', ['GITLAB_COOKIE'], (r) => {
    const v = r.str(HEX, 32);
    return { value: `Cookie: ${j('_gitlab', '_session=')}${v}; known_sign_in=1`, secrets: [v] };
  }),
  // ---- forges: Gitea (40-hex tokens, only recognisable in context)
  line('gitea-token-authorization-header', 'gitea', ['GITEA_AUTH'], (r) => {
    const t = hex40(r);
    return {
      value: `curl -sS -H "Authorization: token ${t}" https://${gitHost(r)}/api/v1/repos/${org(r)}/${repo(r)}/issues?state=open`,
      secrets: [t],
    };
  }),
  tok(
    'gitea-token-env',
    'gitea',
    ['GITEA_TOKEN', 'GITEA_ACCESS_TOKEN', 'TEA_TOKEN', 'GITEA_API_TOKEN', 'RENOVATE_TOKEN'],
    (r) => hex40(r),
    'ctx',
  ),
  url('gitea-token-clone-url', 'gitea', ['REPO_URL', 'GIT_REMOTE'], (r) => {
    const t = hex40(r);
    return { value: `https://${r.pick(USERS)}:${t}@${gitHost(r)}/${org(r)}/${repo(r)}.git`, secrets: [t] };
  }),
  url('gitea-token-query-param', 'gitea', ['GITEA_API_URL'], (r) => {
    const t = hex40(r);
    return {
      value: `https://${gitHost(r)}/api/v1/repos/${org(r)}/${repo(r)}/releases?${r.pick(['token', 'access_token'])}=${t}`,
      secrets: [t],
    };
  }),
  line('gitea-token-bearer-header', 'gitea', ['GITEA_AUTH'], (r) => {
    const t = hex40(r);
    return { value: `Authorization: Bearer ${t}`, secrets: [t] };
  }),
  line('gitea-tea-config', 'gitea', ['TEA_CONFIG'], (r) => {
    const t = hex40(r);
    return {
      value: `logins:\n  - name: ${org(r)}\n    url: https://${gitHost(r)}\n    token: ${t}\n    default: true\n    user: ${r.pick(USERS)}`,
      secrets: [t],
    };
  }),
  tok(
    'gitea-runner-registration-token',
    'gitea',
    ['GITEA_RUNNER_REGISTRATION_TOKEN', 'RUNNER_REGISTRATION_TOKEN'],
    (r) => r.str(ALNUM, 40),
    'ctx',
  ),
  tok(
    'gitea-oauth2-client-secret',
    'gitea',
    ['GITEA_OAUTH_CLIENT_SECRET', 'client_secret'],
    (r) => j('gt', 'o_') + r.str(BASE32_LOWER, 52),
  ),
  // ---- forges: Bitbucket / Atlassian
  tok(
    'bitbucket-app-password',
    'bitbucket',
    ['BITBUCKET_APP_PASSWORD', 'BB_APP_PASSWORD'],
    (r) => j('AT', 'BB') + r.str(ALNUM, 28) + r.str(HEX_UP, 8),
  ),
  tok(
    'bitbucket-client-secret',
    'bitbucket',
    ['BITBUCKET_CLIENT_SECRET', 'BITBUCKET_OAUTH_SECRET'],
    (r) => r.str(ALNUM, 32),
    'ctx',
  ),
  tok(
    'atlassian-api-token',
    'atlassian',
    ['ATLASSIAN_API_TOKEN', 'JIRA_API_TOKEN', 'CONFLUENCE_TOKEN'],
    (r) => j('ATA', 'TT3', 'xFfGF0') + r.str(B64URL, 171) + '=' + r.str(HEX_UP, 8),
  ),
  tok('jira-api-token-legacy', 'atlassian', ['JIRA_API_TOKEN', 'jira_token'], (r) => r.str(ALNUM, 24), 'ctx'),
  // ---- CI / devops
  tok(
    'circleci-pat',
    'circleci',
    ['CIRCLE_TOKEN', 'CIRCLECI_TOKEN'],
    (r) => j('CCI', 'PAT_') + r.str(ALNUM, 22) + '_' + r.str(HEX, 40),
  ),
  tok('travis-api-token', 'travis', ['TRAVIS_API_TOKEN', 'TRAVIS_TOKEN'], (r) => r.str(ALNUM, 22), 'ctx'),
  tok('buildkite-token', 'buildkite', ['BUILDKITE_API_TOKEN'], (r) => j('bk', 'ua_') + r.str(HEX, 40)),
  tok('drone-token', 'drone', ['DRONE_TOKEN'], (r) => r.str(ALNUM, 32), 'ctx'),
  tok(
    'jenkins-api-token',
    'jenkins',
    ['JENKINS_API_TOKEN', 'JENKINS_TOKEN'],
    (r) => '11' + r.str(HEX, 32),
    'ctx',
  ),
  tok('sonarqube-user-token', 'sonar', ['SONAR_TOKEN'], (r) => j('sq', 'u_') + r.str(HEX, 40)),
  tok(
    'sonarqube-project-token',
    'sonar',
    ['SONAR_TOKEN', 'SONAR_LOGIN'],
    (r) => j('sq', 'p_') + r.str(HEX, 40),
  ),
  tok('codecov-token', 'codecov', ['CODECOV_TOKEN'], (r) => uuid(r), 'ctx'),
  tok('snyk-token', 'snyk', ['SNYK_TOKEN', 'SNYK_API_TOKEN'], (r) => uuid(r), 'ctx'),
  tok(
    'octopus-deploy-api-key',
    'octopus',
    ['OCTOPUS_API_KEY'],
    (r) => j('AP', 'I-') + r.str(UPPER_ALNUM, 26),
  ),
  tok(
    'terraform-cloud-token',
    'hashicorp',
    ['TF_TOKEN_app_terraform_io', 'TFE_TOKEN'],
    (r) => r.str(LOWER_ALNUM, 14) + '.' + j('atlas', 'v1') + '.' + r.str(LOWER_ALNUM + '-_', 67),
  ),
  tok('pulumi-access-token', 'pulumi', ['PULUMI_ACCESS_TOKEN'], (r) => j('pu', 'l-') + r.str(HEX, 40)),
  tok(
    'postman-api-key',
    'postman',
    ['POSTMAN_API_KEY'],
    (r) => j('PM', 'AK-') + r.str(HEX, 24) + '-' + r.str(HEX, 34),
  ),
  tok(
    'sourcegraph-token',
    'sourcegraph',
    ['SRC_ACCESS_TOKEN'],
    (r) => j('sg', 'p_') + r.str(HEX, 16) + '_' + r.str(HEX, 40),
  ),
  tok(
    'harness-pat',
    'harness',
    ['HARNESS_API_KEY', 'HARNESS_PLATFORM_API_KEY'],
    (r) => j('pa', 't.') + r.str(B64URL, 22) + '.' + r.str(ALNUM, 24) + '.' + r.str(ALNUM, 20),
  ),
  tok(
    'openshift-user-token',
    'openshift',
    ['OC_TOKEN', 'OPENSHIFT_TOKEN'],
    (r) => j('sha256', '~') + r.str(B64URL, 43),
  ),
  tok('kubernetes-service-account-token', 'kubernetes', ['KUBE_TOKEN', 'K8S_TOKEN'], (r) => {
    const t = now(r);
    return jwt(r, 'RS256', {
      aud: ['https://kubernetes.default.svc'],
      exp: t + 31536000,
      iat: t,
      iss: 'https://kubernetes.default.svc',
      'kubernetes.io': {
        namespace: r.pick(['ci', 'deploy', 'default']),
        serviceaccount: { name: r.pick(['deployer', 'argocd', 'runner']), uid: uuid(r) },
      },
      sub: 'system:serviceaccount:ci:deployer',
    });
  }),
  {
    id: 'kubernetes-secret-manifest',
    family: 'kubernetes',
    kind: 'line',
    names: ['K8S_SECRET'],
    make: (r) => {
      const pw = b64(password(r));
      const key = b64(r.str(ALNUM, 32));
      return {
        value: `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${repo(r)}-secrets\n  namespace: ${r.pick(['prod', 'staging'])}\ntype: Opaque\ndata:\n  DB_PASSWORD: ${pw}\n  API_KEY: ${key}`,
        secrets: [pw, key],
      };
    },
  },
  line('docker-config-auth', 'docker', ['DOCKER_CONFIG_JSON', 'DOCKER_AUTH_CONFIG'], (r) => {
    const auth = b64(`${r.pick(USERS)}:${password(r)}`);
    return {
      value: `{\n  "auths": {\n    "${r.pick(['registry.example.com', 'harbor.acme.io', 'ghcr.io'])}": {\n      "auth": "${auth}"\n    }\n  }\n}`,
      secrets: [auth],
    };
  }),
  tok(
    'tailscale-auth-key',
    'tailscale',
    ['TS_AUTHKEY', 'TAILSCALE_AUTHKEY'],
    (r) => j('tskey', '-auth-') + 'k' + r.str(ALNUM, 11) + 'CNTRL-' + r.str(ALNUM, 33),
  ),
  tok(
    'ngrok-authtoken',
    'ngrok',
    ['NGROK_AUTHTOKEN'],
    (r) => '2' + r.str(ALNUM, 26) + '_' + r.str(ALNUM, 21),
    'ctx',
  ),
  // ---- chat
  tok(
    'slack-bot-token',
    'slack',
    ['SLACK_BOT_TOKEN', 'SLACK_TOKEN'],
    (r) => j('xo', 'xb-') + r.str(DIGITS, 11) + '-' + r.str(DIGITS, 13) + '-' + r.str(ALNUM, 24),
  ),
  tok(
    'slack-user-token',
    'slack',
    ['SLACK_USER_TOKEN'],
    (r) =>
      j('xo', 'xp-') +
      r.str(DIGITS, 11) +
      '-' +
      r.str(DIGITS, 12) +
      '-' +
      r.str(DIGITS, 13) +
      '-' +
      r.str(HEX, 32),
  ),
  tok(
    'slack-app-token',
    'slack',
    ['SLACK_APP_TOKEN'],
    (r) => j('xa', 'pp-') + '1-A' + r.str(UPPER_ALNUM, 10) + '-' + r.str(DIGITS, 13) + '-' + r.str(HEX, 64),
  ),
  tok(
    'slack-config-refresh-token',
    'slack',
    ['SLACK_CONFIG_REFRESH_TOKEN'],
    (r) => j('xo', 'xe-') + '1-' + r.str(UPPER_ALNUM, 146),
  ),
  url(
    'slack-webhook-url',
    'slack',
    ['SLACK_WEBHOOK_URL', 'SLACK_WEBHOOK'],
    (r) => {
      const s = r.str(ALNUM, 24);
      return {
        value: `https://${j('hooks', '.slack.com')}/services/T${r.str(UPPER_ALNUM, 8)}/B${r.str(UPPER_ALNUM, 10)}/${s}`,
        secrets: [s],
      };
    },
    'hook',
  ),
  url(
    'slack-workflow-webhook-url',
    'slack',
    ['SLACK_WORKFLOW_URL'],
    (r) => {
      const s = r.str(HEX, 32);
      return {
        value: `https://${j('hooks', '.slack.com')}/triggers/T${r.str(UPPER_ALNUM, 10)}/${r.str(DIGITS, 13)}/${s}`,
        secrets: [s],
      };
    },
    'hook',
  ),
  tok(
    'discord-bot-token',
    'discord',
    ['DISCORD_TOKEN', 'DISCORD_BOT_TOKEN'],
    (r) => b64url(String(r.int(1, 9)) + r.str(DIGITS, 18)) + '.' + r.str(B64URL, 6) + '.' + r.str(B64URL, 38),
  ),
  url(
    'discord-webhook-url',
    'discord',
    ['DISCORD_WEBHOOK_URL', 'DISCORD_WEBHOOK'],
    (r) => {
      const s = r.str(B64URL, 68);
      return {
        value: `https://discord.com/api/${j('web', 'hooks')}/${r.int(1, 9)}${r.str(DIGITS, 18)}/${s}`,
        secrets: [s],
      };
    },
    'hook',
  ),
  tok(
    'telegram-bot-token',
    'telegram',
    ['TELEGRAM_BOT_TOKEN', 'TG_BOT_TOKEN', 'telegram_token'],
    (r) => String(r.int(1, 9)) + r.str(DIGITS, 9) + ':' + 'AA' + r.str(B64URL, 33),
  ),
  url(
    'teams-incoming-webhook-url',
    'teams',
    ['TEAMS_WEBHOOK_URL', 'MS_TEAMS_WEBHOOK'],
    (r) => {
      const s = r.str(HEX, 32);
      return {
        value: `https://${r.pick(WORDS)}corp.${j('webhook', '.office.com')}/webhookb2/${uuid(r)}@${uuid(r)}/IncomingWebhook/${s}/${uuid(r)}`,
        secrets: [s],
      };
    },
    'hook',
  ),
  url(
    'teams-workflow-webhook-url',
    'teams',
    ['TEAMS_WEBHOOK_URL', 'TEAMS_WORKFLOW_URL'],
    (r) => {
      const sig = r.str(B64URL, 43);
      return {
        value: `https://prod-${r.int(10, 99)}.westeurope.logic.azure.com:443/workflows/${r.str(HEX, 32)}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${sig}`,
        secrets: [sig],
      };
    },
    'hook',
  ),
  url(
    'mattermost-incoming-webhook-url',
    'mattermost',
    ['MATTERMOST_WEBHOOK_URL'],
    (r) => {
      const s = r.str(LOWER_ALNUM, 26);
      return { value: `https://chat.${org(r)}.io/hooks/${s}`, secrets: [s] };
    },
    'hook',
  ),
  url(
    'google-chat-webhook-url',
    'google-chat',
    ['GOOGLE_CHAT_WEBHOOK'],
    (r) => {
      const key = j('AI', 'za') + r.str(B64URL, 35);
      const t = r.str(B64URL, 43);
      return {
        value: `https://chat.googleapis.com/v1/spaces/AAAA${r.str(B64URL, 7)}/messages?key=${key}&token=${t}`,
        secrets: [key, t],
      };
    },
    'hook',
  ),
  // ---- payment
  tok(
    'stripe-secret-key-live',
    'stripe',
    ['STRIPE_SECRET_KEY', 'STRIPE_API_KEY', 'stripe_key'],
    (r) => j('sk', '_live_') + '51' + r.str(ALNUM, 97),
  ),
  tok(
    'stripe-secret-key-test',
    'stripe',
    ['STRIPE_SECRET_KEY', 'STRIPE_TEST_KEY'],
    (r) => j('sk', '_test_') + '51' + r.str(ALNUM, 97),
  ),
  tok(
    'stripe-restricted-key',
    'stripe',
    ['STRIPE_RESTRICTED_KEY'],
    (r) => j('rk', '_live_') + '51' + r.str(ALNUM, 97),
  ),
  tok(
    'stripe-webhook-secret',
    'stripe',
    ['STRIPE_WEBHOOK_SECRET'],
    (r) => j('wh', 'sec_') + r.str(ALNUM, 32),
  ),
  tok('square-access-token', 'square', ['SQUARE_ACCESS_TOKEN'], (r) => j('EA', 'AA') + r.str(B64URL, 60)),
  tok(
    'square-oauth-secret',
    'square',
    ['SQUARE_APPLICATION_SECRET'],
    (r) => j('sq0', 'csp-') + r.str(B64URL, 43),
  ),
  tok(
    'braintree-access-token',
    'braintree',
    ['BRAINTREE_ACCESS_TOKEN', 'PAYPAL_ACCESS_TOKEN'],
    (r) => j('access', '_token$') + 'production$' + r.str(LOWER_ALNUM, 16) + '$' + r.str(HEX, 32),
  ),
  tok('braintree-private-key', 'braintree', ['BRAINTREE_PRIVATE_KEY'], (r) => r.str(HEX, 32), 'ctx'),
  tok(
    'paypal-client-secret',
    'paypal',
    ['PAYPAL_CLIENT_SECRET', 'PAYPAL_SECRET'],
    (r) => 'E' + r.str(B64URL, 79),
    'ctx',
  ),
  tok(
    'shopify-access-token',
    'shopify',
    ['SHOPIFY_ACCESS_TOKEN', 'SHOPIFY_ADMIN_TOKEN'],
    (r) => j('shp', 'at_') + r.str(HEX, 32),
  ),
  tok('shopify-shared-secret', 'shopify', ['SHOPIFY_API_SECRET'], (r) => j('shp', 'ss_') + r.str(HEX, 32)),
  tok(
    'shopify-custom-app-token',
    'shopify',
    ['SHOPIFY_CUSTOM_APP_TOKEN'],
    (r) => j('shp', 'ca_') + r.str(HEX, 32),
  ),
  tok('shopify-private-app-token', 'shopify', ['SHOPIFY_PASSWORD'], (r) => j('shp', 'pa_') + r.str(HEX, 32)),
  tok('razorpay-key-secret', 'razorpay', ['RAZORPAY_KEY_SECRET'], (r) => r.str(ALNUM, 24), 'ctx'),
  tok(
    'flutterwave-secret-key',
    'flutterwave',
    ['FLW_SECRET_KEY'],
    (r) => j('FLW', 'SECK-') + r.str(HEX, 32) + '-X',
  ),
  tok('plaid-access-token', 'plaid', ['PLAID_ACCESS_TOKEN'], (r) => j('access', '-production-') + uuid(r)),
  tok('plaid-secret', 'plaid', ['PLAID_SECRET'], (r) => r.str(HEX, 30), 'ctx'),
  tok(
    'gocardless-access-token',
    'gocardless',
    ['GOCARDLESS_ACCESS_TOKEN'],
    (r) => j('li', 've_') + r.str(B64URL, 40),
    'ctx',
  ),
  tok('mollie-api-key', 'mollie', ['MOLLIE_API_KEY'], (r) => j('li', 've_') + r.str(ALNUM, 30), 'ctx'),
  // ---- observability
  tok(
    'datadog-api-key',
    'datadog',
    ['DD_API_KEY', 'DATADOG_API_KEY', 'datadog_api_key'],
    (r) => r.str(HEX, 32),
    'ctx',
  ),
  tok(
    'datadog-app-key',
    'datadog',
    ['DD_APP_KEY', 'DD_APPLICATION_KEY', 'DATADOG_APP_KEY'],
    (r) => r.str(HEX, 40),
    'ctx',
  ),
  tok(
    'newrelic-user-api-key',
    'newrelic',
    ['NEW_RELIC_API_KEY', 'NEWRELIC_API_KEY'],
    (r) => j('NR', 'AK-') + r.str(UPPER_ALNUM, 27),
  ),
  tok(
    'newrelic-license-key',
    'newrelic',
    ['NEW_RELIC_LICENSE_KEY', 'NRIA_LICENSE_KEY'],
    (r) => r.str(HEX, 36) + j('NR', 'AL'),
    'ctx',
  ),
  tok('newrelic-insert-key', 'newrelic', ['NEW_RELIC_INSERT_KEY'], (r) => j('NR', 'II-') + r.str(B64URL, 32)),
  tok('newrelic-browser-key', 'newrelic', ['NEW_RELIC_BROWSER_KEY'], (r) => j('NR', 'JS-') + r.str(HEX, 19)),
  url('sentry-dsn', 'sentry', ['SENTRY_DSN', 'NEXT_PUBLIC_SENTRY_DSN', 'dsn'], (r) => {
    const k = r.str(HEX, 32);
    return {
      value: `https://${k}@o${r.str(DIGITS, 6)}.ingest.${r.pick(['', 'us.', 'de.'])}sentry.io/${r.str(DIGITS, 7)}`,
      secrets: [k],
    };
  }),
  url('sentry-dsn-with-secret', 'sentry', ['SENTRY_DSN', 'RAVEN_DSN'], (r) => {
    const k = r.str(HEX, 32);
    const s = r.str(HEX, 32);
    return { value: `https://${k}:${s}@sentry.${org(r)}.io/${r.int(2, 90)}`, secrets: [k, s] };
  }),
  tok('sentry-user-token', 'sentry', ['SENTRY_AUTH_TOKEN'], (r) => j('sn', 'tryu_') + r.str(HEX, 64)),
  tok('sentry-org-token', 'sentry', ['SENTRY_AUTH_TOKEN'], (r) => {
    const claims = {
      iat: now(r) + r.next(),
      url: 'https://sentry.io',
      region_url: 'https://us.sentry.io',
      org: org(r),
    };
    return j('sn', 'trys_') + b64(JSON.stringify(claims)).replace(/=+$/, '') + '_' + r.str(ALNUM + '+/', 43);
  }),
  tok('sentry-auth-token-legacy', 'sentry', ['SENTRY_AUTH_TOKEN'], (r) => r.str(HEX, 64), 'ctx'),
  tok('grafana-service-account-token', 'grafana', ['GRAFANA_TOKEN', 'GRAFANA_SA_TOKEN'], (r) => {
    const body = r.str(ALNUM, 32);
    return (
      j('gl', 'sa_') +
      body +
      '_' +
      crc32(j('gl', 'sa_') + body)
        .toString(16)
        .padStart(8, '0')
    );
  }),
  tok(
    'grafana-cloud-token',
    'grafana',
    ['GRAFANA_CLOUD_API_KEY', 'GRAFANA_CLOUD_TOKEN'],
    (r) =>
      j('gl', 'c_') +
      b64(
        JSON.stringify({
          o: String(r.int(100000, 999999)),
          n: `stack-${r.int(100000, 999999)}-hm-read-${r.pick(WORDS)}`,
          k: r.str(ALNUM, 24),
          m: { r: r.pick(['prod-eu-west-2', 'prod-us-east-0']) },
        }),
      ),
  ),
  tok('grafana-api-key-legacy', 'grafana', ['GRAFANA_API_KEY'], (r) =>
    b64(JSON.stringify({ k: r.str(ALNUM, 32), n: r.pick(['ci', 'deploy', 'alerts']), id: r.int(1, 9) })),
  ),
  tok(
    'honeycomb-api-key',
    'honeycomb',
    ['HONEYCOMB_API_KEY', 'HONEYCOMB_WRITEKEY'],
    (r) => r.str(ALNUM, 22),
    'ctx',
  ),
  line('splunk-hec-token', 'splunk', ['SPLUNK_HEC'], (r) => {
    const t = uuid(r);
    return {
      value: `curl -k https://splunk.${org(r)}.io:8088/services/collector -H "Authorization: Splunk ${t}" -d '{"event": "deploy finished"}'`,
      secrets: [t],
    };
  }),
  tok('splunk-hec-token-env', 'splunk', ['SPLUNK_HEC_TOKEN', 'SPLUNK_TOKEN'], (r) => uuid(r), 'ctx'),
  tok(
    'dynatrace-api-token',
    'dynatrace',
    ['DT_API_TOKEN', 'DYNATRACE_API_TOKEN'],
    (r) => j('dt0', 'c01.') + r.str(UPPER_ALNUM, 24) + '.' + r.str(UPPER_ALNUM, 64),
  ),
  tok(
    'pagerduty-api-key',
    'pagerduty',
    ['PAGERDUTY_TOKEN', 'PD_API_KEY'],
    (r) => r.pick(UPPER + LOWER) + r.str(ALNUM + '+_-', 19),
    'ctx',
  ),
  tok('opsgenie-api-key', 'opsgenie', ['OPSGENIE_API_KEY'], (r) => uuid(r), 'ctx'),
  tok(
    'elastic-api-key',
    'elastic',
    ['ELASTIC_API_KEY', 'ES_API_KEY'],
    (r) => b64(r.str(B64URL, 20) + ':' + r.str(B64URL, 22)),
    'ctx',
  ),
  tok('bugsnag-api-key', 'bugsnag', ['BUGSNAG_API_KEY'], (r) => r.str(HEX, 32), 'ctx'),
  tok('rollbar-access-token', 'rollbar', ['ROLLBAR_ACCESS_TOKEN'], (r) => r.str(HEX, 32), 'ctx'),
  // ---- secrets managers
  tok('vault-service-token', 'vault', ['VAULT_TOKEN'], (r) => j('hv', 's.') + 'CAESI' + r.str(B64URL, 90)),
  tok('vault-batch-token', 'vault', ['VAULT_TOKEN'], (r) => j('hv', 'b.') + 'AAAAAQ' + r.str(B64URL, 150)),
  tok(
    'vault-legacy-token',
    'vault',
    ['VAULT_TOKEN', 'vault_token'],
    (r) => 's.' + r.str(ALNUM, 22) + r.pick(DIGITS) + r.pick(UPPER),
    'ctx',
  ),
  tok('vault-approle-secret-id', 'vault', ['VAULT_SECRET_ID', 'secret_id'], (r) => uuid(r), 'ctx'),
  tok('doppler-personal-token', 'doppler', ['DOPPLER_TOKEN'], (r) => j('dp', '.pt.') + r.str(ALNUM, 43)),
  tok(
    'doppler-service-token',
    'doppler',
    ['DOPPLER_TOKEN'],
    (r) => j('dp', '.st.') + r.pick(['prd', 'stg', 'dev']) + '.' + r.str(ALNUM, 40),
  ),
  tok(
    'doppler-service-account-token',
    'doppler',
    ['DOPPLER_TOKEN'],
    (r) => j('dp', '.sa.') + r.str(ALNUM, 43),
  ),
  tok(
    'onepassword-service-account-token',
    '1password',
    ['OP_SERVICE_ACCOUNT_TOKEN'],
    (r) =>
      j('op', 's_') +
      b64(
        JSON.stringify({
          signInAddress: 'my.1password.com',
          userAuth: { method: 'SRPg-4096', alg: 'PBES2g-HS256', iterations: 650000, salt: r.str(B64URL, 22) },
          email: `${r.str(LOWER_ALNUM, 13)}@1passwordserviceaccounts.com`,
          srpX: r.str(HEX, 64),
          muk: {
            alg: 'A256GCM',
            ext: true,
            k: r.str(B64URL, 43),
            key_ops: ['encrypt', 'decrypt'],
            kty: 'oct',
            kid: 'mp',
          },
          secretKey: `A3-${r.str(UPPER_ALNUM, 6)}-${r.str(UPPER_ALNUM, 6)}-${r.str(UPPER_ALNUM, 5)}-${r.str(UPPER_ALNUM, 5)}-${r.str(UPPER_ALNUM, 5)}-${r.str(UPPER_ALNUM, 5)}`,
          throttleSecret: { seed: r.str(HEX, 64), uuid: r.str(UPPER_ALNUM, 26) },
          deviceUuid: r.str(LOWER_ALNUM, 26),
        }),
      ).replace(/=+$/, ''),
  ),
  tok(
    'onepassword-secret-key',
    '1password',
    ['OP_SECRET_KEY'],
    (r) =>
      `A3-${r.str(UPPER_ALNUM, 6)}-${r.str(UPPER_ALNUM, 6)}-${r.str(UPPER_ALNUM, 5)}-${r.str(UPPER_ALNUM, 5)}-${r.str(UPPER_ALNUM, 5)}-${r.str(UPPER_ALNUM, 5)}`,
  ),
  tok(
    'infisical-service-token',
    'infisical',
    ['INFISICAL_TOKEN'],
    (r) => j('s', 't.') + uuid(r) + '.' + r.str(HEX, 32) + '.' + r.str(HEX, 32),
  ),
  tok(
    'infisical-client-secret',
    'infisical',
    ['INFISICAL_CLIENT_SECRET', 'INFISICAL_UNIVERSAL_AUTH_CLIENT_SECRET'],
    (r) => r.str(HEX, 64),
    'ctx',
  ),
  tok(
    'age-secret-key',
    'age',
    ['SOPS_AGE_KEY'],
    (r) => j('AGE-SECRET', '-KEY-1') + r.str(BECH32.toUpperCase(), 58),
  ),
  tok(
    'bitwarden-access-token',
    'bitwarden',
    ['BWS_ACCESS_TOKEN'],
    (r) => `0.${uuid(r)}.${r.str(ALNUM, 30)}:${r.str(B64, 22)}==`,
    'ctx',
  ),
  // ---- data platforms
  url('snowflake-url-password', 'snowflake', ['SNOWFLAKE_URL', 'DBT_SNOWFLAKE_URL'], (r) => {
    const pw = urlPassword(r);
    return {
      value: `snowflake://${connUser(r).toUpperCase()}:${pw}@${r.str(LOWER, 2)}${r.int(10000, 99999)}.eu-central-1/${r.pick(DBS).toUpperCase()}/PUBLIC?warehouse=COMPUTE_WH&role=TRANSFORMER`,
      secrets: [pw],
    };
  }),
  tok('snowflake-password', 'snowflake', ['SNOWFLAKE_PASSWORD', 'SNOWSQL_PWD'], (r) => password(r), 'ctx'),
  tok(
    'databricks-token',
    'databricks',
    ['DATABRICKS_TOKEN'],
    (r) => j('da', 'pi') + r.str(HEX, 32) + (r.chance(0.3) ? '-2' : ''),
  ),
  tok(
    'dbt-cloud-token',
    'dbt',
    ['DBT_CLOUD_API_TOKEN', 'DBT_CLOUD_TOKEN'],
    (r) => j('db', 'tc_') + r.str(B64URL, 48),
    'ctx',
  ),
  tok(
    'airtable-pat',
    'airtable',
    ['AIRTABLE_TOKEN', 'AIRTABLE_PAT'],
    (r) => j('pa', 't') + r.str(ALNUM, 14) + '.' + r.str(HEX, 64),
  ),
  tok(
    'airtable-api-key-legacy',
    'airtable',
    ['AIRTABLE_API_KEY'],
    (r) => j('ke', 'y') + r.str(ALNUM, 14),
    'ctx',
  ),
  tok('supabase-service-role-key', 'supabase', ['SUPABASE_SERVICE_ROLE_KEY', 'SUPABASE_SERVICE_KEY'], (r) => {
    const t = now(r);
    return jwt(r, 'HS256', {
      iss: 'supabase',
      ref: r.str(LOWER, 20),
      role: 'service_role',
      iat: t,
      exp: t + 315360000,
    });
  }),
  tok('supabase-access-token', 'supabase', ['SUPABASE_ACCESS_TOKEN'], (r) => j('sb', 'p_') + r.str(HEX, 40)),
  tok(
    'planetscale-token',
    'planetscale',
    ['PLANETSCALE_SERVICE_TOKEN'],
    (r) => j('pscale', '_tkn_') + r.str(B64URL, 43),
  ),
  tok(
    'planetscale-password',
    'planetscale',
    ['DATABASE_PASSWORD', 'PLANETSCALE_PASSWORD'],
    (r) => j('pscale', '_pw_') + r.str(B64URL, 43),
  ),
  tok(
    'planetscale-oauth-token',
    'planetscale',
    ['PLANETSCALE_OAUTH_TOKEN'],
    (r) => j('pscale', '_oauth_') + r.str(B64URL, 43),
  ),
  url('mongodb-atlas-srv-uri', 'mongodb', ['MONGODB_URI', 'MONGO_URL', 'ATLAS_URI'], (r) => {
    const pw = urlPassword(r);
    return {
      value: `mongodb+srv://${connUser(r)}:${pw}@cluster0.${r.str(LOWER_ALNUM, 5)}.mongodb.net/${r.pick(DBS)}?retryWrites=true&w=majority&appName=Cluster0`,
      secrets: [pw],
    };
  }),
  url('mongodb-url-password', 'mongodb', ['MONGODB_URI', 'MONGO_URL'], (r) => {
    const pw = urlPassword(r);
    return {
      value: `mongodb://${connUser(r)}:${pw}@mongo-0.mongo:27017,mongo-1.mongo:27017/${r.pick(DBS)}?replicaSet=rs0&authSource=admin`,
      secrets: [pw],
    };
  }),
  url('postgres-url-password', 'postgres', ['DATABASE_URL', 'POSTGRES_URL', 'PG_DSN', 'DB_URL'], (r) => {
    const pw = urlPassword(r);
    return {
      value: `${r.pick(['postgres', 'postgresql'])}://${connUser(r)}:${pw}@${r.pick(HOSTS)}:5432/${r.pick(DBS)}${r.pick(['', '?sslmode=require'])}`,
      secrets: [pw],
    };
  }),
  url('mysql-url-password', 'mysql', ['DATABASE_URL', 'MYSQL_URL'], (r) => {
    const pw = urlPassword(r);
    return { value: `mysql://${connUser(r)}:${pw}@${r.pick(HOSTS)}:3306/${r.pick(DBS)}`, secrets: [pw] };
  }),
  url('redis-url-password', 'redis', ['REDIS_URL', 'CACHE_URL', 'BULL_REDIS_URL'], (r) => {
    const pw = urlPassword(r);
    return {
      value: `${r.pick(['redis', 'rediss'])}://${r.pick(['default', ''])}:${pw}@${r.pick(['redis.internal', 'cache-01.acme.io', '10.0.4.20'])}:6379/0`,
      secrets: [pw],
    };
  }),
  url('amqp-url-password', 'rabbitmq', ['AMQP_URL', 'RABBITMQ_URL', 'CELERY_BROKER_URL'], (r) => {
    const pw = urlPassword(r);
    return { value: `amqps://${connUser(r)}:${pw}@rabbit.${org(r)}.internal:5671/%2F`, secrets: [pw] };
  }),
  url('mssql-connection-string', 'mssql', ['ConnectionStrings__Default', 'SQLSERVER_CONNECTION'], (r) => {
    const pw = password(r);
    return {
      value: `Server=tcp:${r.pick(WORDS)}-sql.database.windows.net,1433;Initial Catalog=${r.pick(DBS)};User ID=${connUser(r)};Password=${pw};Encrypt=True;TrustServerCertificate=False;`,
      secrets: [pw],
    };
  }),
  url('jdbc-url-password', 'jdbc', ['JDBC_URL', 'SPRING_DATASOURCE_URL'], (r) => {
    const pw = urlPassword(r);
    return {
      value: `jdbc:postgresql://${r.pick(HOSTS)}:5432/${r.pick(DBS)}?user=${connUser(r)}&password=${pw}&ssl=true`,
      secrets: [pw],
    };
  }),
  url('clickhouse-url-password', 'clickhouse', ['CLICKHOUSE_URL'], (r) => {
    const pw = urlPassword(r);
    return {
      value: `clickhouse://${connUser(r)}:${pw}@${r.str(LOWER_ALNUM, 10)}.eu-west-1.aws.clickhouse.cloud:9440/default?secure=true`,
      secrets: [pw],
    };
  }),
  url('elasticsearch-url-password', 'elastic', ['ELASTICSEARCH_URL', 'ES_URL'], (r) => {
    const pw = urlPassword(r);
    return { value: `https://elastic:${pw}@es.${org(r)}.internal:9200`, secrets: [pw] };
  }),
  line('kafka-sasl-jaas-password', 'kafka', ['KAFKA_SASL_JAAS_CONFIG'], (r) => {
    const pw = r.str(B64, 64);
    return {
      value: `sasl.mechanism=PLAIN\nsecurity.protocol=SASL_SSL\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="${r.str(UPPER_ALNUM, 16)}" password="${pw}";`,
      secrets: [pw],
    };
  }),
  tok(
    'clickhouse-cloud-api-secret',
    'clickhouse',
    ['CLICKHOUSE_API_SECRET'],
    (r) => j('4b', '1d') + r.str(ALNUM, 38),
  ),
  tok('algolia-admin-key', 'algolia', ['ALGOLIA_ADMIN_KEY', 'ALGOLIA_API_KEY'], (r) => r.str(HEX, 32), 'ctx'),
  tok(
    'mapbox-secret-token',
    'mapbox',
    ['MAPBOX_SECRET_TOKEN', 'MAPBOX_DOWNLOADS_TOKEN'],
    (r) =>
      j('s', 'k.') +
      b64url(JSON.stringify({ u: r.pick(USERS), a: r.str(LOWER_ALNUM, 25) })) +
      '.' +
      r.str(B64URL, 22),
  ),
  tok(
    'contentful-pat',
    'contentful',
    ['CONTENTFUL_MANAGEMENT_TOKEN'],
    (r) => j('CFP', 'AT-') + r.str(B64URL, 43),
  ),
  tok(
    'notion-token',
    'notion',
    ['NOTION_TOKEN', 'NOTION_API_KEY'],
    (r) => j('nt', 'n_') + r.str(DIGITS, 11) + r.str(ALNUM, 35),
  ),
  tok('notion-token-legacy', 'notion', ['NOTION_TOKEN'], (r) => j('sec', 'ret_') + r.str(ALNUM, 43)),
  tok('linear-api-key', 'linear', ['LINEAR_API_KEY'], (r) => j('lin', '_api_') + r.str(ALNUM, 40)),
  tok(
    'asana-pat',
    'asana',
    ['ASANA_ACCESS_TOKEN', 'ASANA_PAT'],
    (r) => `2/${r.str(DIGITS, 16)}/${r.str(DIGITS, 16)}:${r.str(HEX, 32)}`,
    'ctx',
  ),
  tok('figma-pat', 'figma', ['FIGMA_TOKEN'], (r) => j('fi', 'gd_') + r.str(B64URL, 40)),
  tok('hubspot-private-app-token', 'hubspot', ['HUBSPOT_ACCESS_TOKEN'], (r) => j('pat', '-na1-') + uuid(r)),
  tok('zendesk-api-token', 'zendesk', ['ZENDESK_API_TOKEN'], (r) => r.str(ALNUM, 40), 'ctx'),
  tok('typeform-token', 'typeform', ['TYPEFORM_TOKEN'], (r) => j('tf', 'p_') + r.str(B64URL, 59)),
  tok('readme-api-key', 'readme', ['README_API_KEY'], (r) => j('rd', 'me_') + r.str(LOWER_ALNUM, 70)),
  tok('prefect-api-key', 'prefect', ['PREFECT_API_KEY'], (r) => j('pn', 'u_') + r.str(ALNUM, 36)),
  tok(
    'launchdarkly-sdk-key',
    'launchdarkly',
    ['LAUNCHDARKLY_SDK_KEY', 'LD_SDK_KEY'],
    (r) => j('sd', 'k-') + uuid(r),
  ),
  tok(
    'launchdarkly-api-token',
    'launchdarkly',
    ['LAUNCHDARKLY_ACCESS_TOKEN'],
    (r) => j('ap', 'i-') + uuid(r),
  ),
  // ---- PaaS
  tok('heroku-api-key-v2', 'heroku', ['HEROKU_API_KEY'], (r) => j('HR', 'KU-') + 'AA' + r.str(B64URL, 58)),
  tok('heroku-api-key-legacy', 'heroku', ['HEROKU_API_KEY', 'HEROKU_AUTH_TOKEN'], (r) => uuid(r), 'ctx'),
  tok('vercel-token', 'vercel', ['VERCEL_TOKEN', 'NOW_TOKEN'], (r) => r.str(ALNUM, 24), 'ctx'),
  tok('netlify-token', 'netlify', ['NETLIFY_AUTH_TOKEN'], (r) => j('nf', 'p_') + r.str(ALNUM, 40), 'ctx'),
  tok('flyio-token', 'flyio', ['FLY_API_TOKEN'], (r) => j('fo', '1_') + r.str(B64URL, 43)),
  tok('flyio-macaroon-token', 'flyio', ['FLY_API_TOKEN'], (r) => j('fm', '2_') + r.str(B64, 220) + '=='),
  tok('render-api-key', 'render', ['RENDER_API_KEY'], (r) => j('rn', 'd_') + r.str(ALNUM, 32)),
  tok('railway-token', 'railway', ['RAILWAY_TOKEN', 'RAILWAY_API_TOKEN'], (r) => uuid(r), 'ctx'),
  tok(
    'digitalocean-pat',
    'digitalocean',
    ['DIGITALOCEAN_ACCESS_TOKEN', 'DO_TOKEN'],
    (r) => j('do', 'p_v1_') + r.str(HEX, 64),
  ),
  tok(
    'digitalocean-oauth-token',
    'digitalocean',
    ['DIGITALOCEAN_TOKEN'],
    (r) => j('do', 'o_v1_') + r.str(HEX, 64),
  ),
  tok(
    'digitalocean-refresh-token',
    'digitalocean',
    ['DO_REFRESH_TOKEN'],
    (r) => j('do', 'r_v1_') + r.str(HEX, 64),
  ),
  line('digitalocean-spaces-key', 'digitalocean', ['SPACES_CREDENTIALS'], (r) => {
    const secret = r.str(B64, 43);
    return {
      value: `SPACES_ACCESS_KEY_ID=DO00${r.str(UPPER_ALNUM, 16)}\nSPACES_SECRET_ACCESS_KEY=${secret}\nSPACES_ENDPOINT=https://ams3.digitaloceanspaces.com`,
      secrets: [secret],
    };
  }),
  tok(
    'cloudflare-api-token',
    'cloudflare',
    ['CLOUDFLARE_API_TOKEN', 'CF_API_TOKEN'],
    (r) => r.str(B64URL, 40),
    'ctx',
  ),
  tok(
    'cloudflare-global-api-key',
    'cloudflare',
    ['CF_API_KEY', 'CLOUDFLARE_API_KEY'],
    (r) => r.str(HEX, 37),
    'ctx',
  ),
  tok(
    'cloudflare-origin-ca-key',
    'cloudflare',
    ['CF_ORIGIN_CA_KEY'],
    (r) => j('v1', '.0-') + r.str(HEX, 24) + '-' + r.str(HEX, 146),
  ),
  tok(
    'cloudflare-tunnel-token',
    'cloudflare',
    ['TUNNEL_TOKEN', 'CLOUDFLARE_TUNNEL_TOKEN'],
    (r) => b64(JSON.stringify({ a: r.str(HEX, 32), t: uuid(r), s: b64(r.bytes(32)) })),
    'ctx',
  ),
  tok('scalingo-api-token', 'scalingo', ['SCALINGO_API_TOKEN'], (r) => j('tk', '-us-') + r.str(B64URL, 48)),
  tok(
    'upstash-redis-rest-token',
    'upstash',
    ['UPSTASH_REDIS_REST_TOKEN'],
    (r) => 'A' + r.str(B64URL, 59),
    'ctx',
  ),
  // ---- AI providers
  tok(
    'openai-project-key',
    'openai',
    ['OPENAI_API_KEY'],
    (r) => j('sk', '-proj-') + r.str(B64URL, 74) + j('T3Blbk', 'FJ') + r.str(B64URL, 74),
  ),
  tok(
    'openai-service-account-key',
    'openai',
    ['OPENAI_API_KEY'],
    (r) => j('sk', '-svcacct-') + r.str(B64URL, 74) + j('T3Blbk', 'FJ') + r.str(B64URL, 74),
  ),
  tok(
    'openai-admin-key',
    'openai',
    ['OPENAI_ADMIN_KEY'],
    (r) => j('sk', '-admin-') + r.str(B64URL, 58) + j('T3Blbk', 'FJ') + r.str(B64URL, 58),
  ),
  tok(
    'openai-legacy-key',
    'openai',
    ['OPENAI_API_KEY', 'openai.api_key'],
    (r) => j('s', 'k-') + r.str(ALNUM, 20) + j('T3Blbk', 'FJ') + r.str(ALNUM, 20),
  ),
  tok(
    'anthropic-api-key',
    'anthropic',
    ['ANTHROPIC_API_KEY'],
    (r) => j('sk-ant', '-api03-') + r.str(B64URL, 93) + 'AA',
  ),
  tok(
    'anthropic-admin-key',
    'anthropic',
    ['ANTHROPIC_ADMIN_KEY'],
    (r) => j('sk-ant', '-admin01-') + r.str(B64URL, 93) + 'AA',
  ),
  tok(
    'huggingface-token',
    'huggingface',
    ['HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN'],
    (r) => j('h', 'f_') + r.str(UPPER + LOWER, 34),
  ),
  tok(
    'huggingface-org-token',
    'huggingface',
    ['HF_ORG_TOKEN'],
    (r) => j('api', '_org_') + r.str(UPPER + LOWER, 34),
  ),
  tok('cohere-api-key', 'cohere', ['COHERE_API_KEY', 'CO_API_KEY'], (r) => r.str(ALNUM, 40), 'ctx'),
  tok('replicate-api-token', 'replicate', ['REPLICATE_API_TOKEN'], (r) => j('r', '8_') + r.str(ALNUM, 37)),
  tok('groq-api-key', 'groq', ['GROQ_API_KEY'], (r) => j('gs', 'k_') + r.str(ALNUM, 52)),
  tok('perplexity-api-key', 'perplexity', ['PERPLEXITY_API_KEY'], (r) => j('ppl', 'x-') + r.str(ALNUM, 48)),
  tok('mistral-api-key', 'mistral', ['MISTRAL_API_KEY'], (r) => r.str(ALNUM, 32), 'ctx'),
  tok('xai-api-key', 'xai', ['XAI_API_KEY'], (r) => j('xa', 'i-') + r.str(ALNUM, 80)),
  tok('deepseek-api-key', 'deepseek', ['DEEPSEEK_API_KEY'], (r) => j('s', 'k-') + r.str(HEX, 32), 'ctx'),
  tok('openrouter-api-key', 'openrouter', ['OPENROUTER_API_KEY'], (r) => j('sk-or', '-v1-') + r.str(HEX, 64)),
  tok(
    'langsmith-api-key',
    'langsmith',
    ['LANGSMITH_API_KEY', 'LANGCHAIN_API_KEY'],
    (r) => j('lsv2', '_pt_') + r.str(HEX, 32) + '_' + r.str(HEX, 10),
  ),
  tok(
    'pinecone-api-key',
    'pinecone',
    ['PINECONE_API_KEY'],
    (r) => j('pc', 'sk_') + r.str(ALNUM, 6) + '_' + r.str(ALNUM, 64),
  ),
  tok('together-api-key', 'together', ['TOGETHER_API_KEY'], (r) => r.str(HEX, 64), 'ctx'),
  tok(
    'elevenlabs-api-key',
    'elevenlabs',
    ['ELEVENLABS_API_KEY', 'XI_API_KEY'],
    (r) => j('s', 'k_') + r.str(HEX, 48),
    'ctx',
  ),
  // ---- package registries
  tok('npm-access-token', 'npm', ['NPM_TOKEN', 'NODE_AUTH_TOKEN'], (r) => checksummed(j('np', 'm_'), r)),
  line('npmrc-legacy-uuid-token', 'npm', ['NPMRC'], (r) => {
    const t = uuid(r);
    return {
      value: `registry=https://registry.npmjs.org/\n//registry.npmjs.org/:${j('_auth', 'Token')}=${t}\nalways-auth=true`,
      secrets: [t],
    };
  }),
  line('npmrc-basic-auth', 'npm', ['NPMRC'], (r) => {
    const a = b64(`${r.pick(USERS)}:${password(r)}`);
    return {
      value: `@${org(r)}:registry=https://npm.${org(r)}.io/\n//npm.${org(r)}.io/:_auth=${a}\n//npm.${org(r)}.io/:email=ci@${org(r)}.io`,
      secrets: [a],
    };
  }),
  tok(
    'pypi-upload-token',
    'pypi',
    ['PYPI_TOKEN', 'TWINE_PASSWORD', 'UV_PUBLISH_TOKEN'],
    (r) => j('pypi', '-AgEIcHlwaS5vcmc') + r.str(B64URL, r.int(150, 180)),
  ),
  tok(
    'testpypi-upload-token',
    'pypi',
    ['TEST_PYPI_TOKEN'],
    (r) => j('pypi', '-AgENdGVzdC5weXBpLm9yZw') + r.str(B64URL, 150),
  ),
  url('pip-index-url-password', 'pypi', ['PIP_EXTRA_INDEX_URL', 'PIP_INDEX_URL'], (r) => {
    const pw = urlPassword(r);
    return { value: `https://${r.pick(USERS)}:${pw}@pypi.${org(r)}.io/simple/`, secrets: [pw] };
  }),
  tok(
    'dockerhub-pat',
    'dockerhub',
    ['DOCKERHUB_TOKEN', 'DOCKER_PASSWORD'],
    (r) => j('dck', 'r_pat_') + r.str(B64URL, 27),
  ),
  tok(
    'dockerhub-org-token',
    'dockerhub',
    ['DOCKERHUB_ORG_TOKEN'],
    (r) => j('dck', 'r_oat_') + r.str(B64URL, 32),
  ),
  line('docker-login-password', 'docker', ['DOCKER_LOGIN'], (r) => {
    const pw = password(r);
    return {
      value: `docker login -u ${r.pick(USERS)} -p ${pw} ${r.pick(['registry.example.com', 'harbor.acme.io'])}`,
      secrets: [pw],
    };
  }),
  tok(
    'rubygems-api-key',
    'rubygems',
    ['GEM_HOST_API_KEY', 'RUBYGEMS_API_KEY'],
    (r) => j('ruby', 'gems_') + r.str(HEX, 48),
  ),
  tok('nuget-api-key', 'nuget', ['NUGET_API_KEY'], (r) => j('oy', '2') + r.str(LOWER_ALNUM, 43)),
  line('nuget-config-password', 'nuget', ['NUGET_CONFIG'], (r) => {
    const pw = password(r);
    return {
      value: `<packageSourceCredentials>\n  <${org(r)}>\n    <add key="Username" value="${r.pick(USERS)}" />\n    <add key="ClearTextPassword" value="${pw}" />\n  </${org(r)}>\n</packageSourceCredentials>`,
      secrets: [pw],
    };
  }),
  tok('crates-io-token', 'crates', ['CARGO_REGISTRY_TOKEN'], (r) => j('ci', 'o') + r.str(ALNUM, 32)),
  tok(
    'artifactory-api-key',
    'jfrog',
    ['ARTIFACTORY_API_KEY', 'JFROG_API_KEY'],
    (r) => j('AK', 'Cp') + r.str(ALNUM, 69),
  ),
  tok(
    'artifactory-reference-token',
    'jfrog',
    ['ARTIFACTORY_TOKEN', 'JFROG_ACCESS_TOKEN'],
    (r) => j('cmV', 'md') + r.str(ALNUM, 59),
  ),
  tok('clojars-token', 'clojars', ['CLOJARS_PASSWORD'], (r) => j('CLO', 'JARS_') + r.str(LOWER_ALNUM, 60)),
  line('maven-settings-password', 'maven', ['MAVEN_SETTINGS'], (r) => {
    const pw = password(r);
    return {
      value: `<servers>\n  <server>\n    <id>ossrh</id>\n    <username>${r.pick(USERS)}</username>\n    <password>${pw}</password>\n  </server>\n</servers>`,
      secrets: [pw],
    };
  }),
  line('gradle-publishing-password', 'gradle', ['GRADLE_PROPERTIES'], (r) => {
    const pw = password(r);
    return {
      value: `ossrhUsername=${r.pick(USERS)}\nossrhPassword=${pw}\nsigning.keyId=${r.str(HEX_UP, 8)}`,
      secrets: [pw],
    };
  }),
  // ---- mail / SMS
  tok(
    'sendgrid-api-key',
    'sendgrid',
    ['SENDGRID_API_KEY'],
    (r) => j('S', 'G.') + r.str(B64URL, 22) + '.' + r.str(B64URL, 43),
  ),
  tok('mailgun-private-key-legacy', 'mailgun', ['MAILGUN_API_KEY'], (r) => j('ke', 'y-') + r.str(HEX, 32)),
  tok(
    'mailgun-api-key',
    'mailgun',
    ['MAILGUN_API_KEY', 'MAILGUN_PRIVATE_KEY'],
    (r) => r.str(HEX, 32) + '-' + r.str(HEX, 8) + '-' + r.str(HEX, 8),
    'ctx',
  ),
  tok(
    'mailchimp-api-key',
    'mailchimp',
    ['MAILCHIMP_API_KEY'],
    (r) => r.str(HEX, 32) + '-us' + r.int(1, 21),
    'ctx',
  ),
  tok('mandrill-api-key', 'mailchimp', ['MANDRILL_API_KEY'], (r) => j('md', '-') + r.str(B64URL, 22), 'ctx'),
  tok('twilio-api-key', 'twilio', ['TWILIO_API_KEY'], (r) => j('S', 'K') + r.str(HEX, 32)),
  tok('twilio-auth-token', 'twilio', ['TWILIO_AUTH_TOKEN'], (r) => r.str(HEX, 32), 'ctx'),
  tok('twilio-api-secret', 'twilio', ['TWILIO_API_SECRET'], (r) => r.str(ALNUM, 32), 'ctx'),
  line('postmark-server-token', 'postmark', ['POSTMARK_HEADER'], (r) => {
    const t = uuid(r);
    return {
      value: `curl "https://api.postmarkapp.com/email" -X POST -H "Accept: application/json" -H "X-Postmark-Server-Token: ${t}" -d @mail.json`,
      secrets: [t],
    };
  }),
  tok(
    'postmark-server-token-env',
    'postmark',
    ['POSTMARK_SERVER_TOKEN', 'POSTMARK_API_TOKEN'],
    (r) => uuid(r),
    'ctx',
  ),
  tok(
    'brevo-api-key',
    'brevo',
    ['BREVO_API_KEY', 'SENDINBLUE_API_KEY'],
    (r) => j('xkey', 'sib-') + r.str(HEX, 64) + '-' + r.str(ALNUM, 16),
  ),
  tok(
    'resend-api-key',
    'resend',
    ['RESEND_API_KEY'],
    (r) => j('r', 'e_') + r.str(ALNUM, 8) + '_' + r.str(ALNUM, 24),
    'ctx',
  ),
  tok(
    'vonage-api-secret',
    'vonage',
    ['VONAGE_API_SECRET', 'NEXMO_API_SECRET'],
    (r) => r.str(ALNUM, 16),
    'ctx',
  ),
  tok('messagebird-access-key', 'messagebird', ['MESSAGEBIRD_ACCESS_KEY'], (r) => r.str(ALNUM, 25), 'ctx'),
  url('smtp-url-password', 'smtp', ['SMTP_URL', 'EMAIL_URL', 'MAILER_DSN'], (r) => {
    const pw = urlPassword(r);
    return {
      value: `${r.pick(['smtp', 'smtps'])}://${r.pick(['apikey', 'postmaster', 'noreply'])}:${pw}@smtp.${r.pick(['sendgrid.net', 'mailgun.org', 'office365.com'])}:587`,
      secrets: [pw],
    };
  }),
  tok(
    'smtp-password',
    'smtp',
    ['SMTP_PASSWORD', 'EMAIL_HOST_PASSWORD', 'MAIL_PASSWORD'],
    (r) => password(r),
    'ctx',
  ),
  // ---- JWTs
  line('jwt-hs256-bearer', 'jwt', ['AUTH_HEADER'], (r) => {
    const t = now(r);
    const tk = jwt(r, 'HS256', {
      sub: String(r.int(1000, 99999)),
      name: r.pick(USERS),
      role: 'admin',
      iat: t,
      exp: t + 3600,
    });
    return { value: `curl -H "Authorization: Bearer ${tk}" https://api.${org(r)}.io/v1/me`, secrets: [tk] };
  }),
  tok('jwt-rs256-id-token', 'jwt', ['ID_TOKEN', 'id_token', 'ACCESS_TOKEN'], (r) => {
    const t = now(r);
    return jwt(r, 'RS256', {
      iss: `https://${gitHost(r)}/`,
      sub: String(r.int(1, 999)),
      aud: uuid(r),
      exp: t + 3600,
      iat: t,
      nonce: r.str(B64URL, 16),
      email: `${r.pick(USERS)}@example.org`,
    });
  }),
  line('jwt-es256-cookie', 'jwt', ['COOKIE'], (r) => {
    const t = now(r);
    const tk = jwt(r, 'ES256', { sid: uuid(r), uid: r.int(1, 5000), iat: t, exp: t + 86400 });
    return {
      value: `Cookie: ${r.pick(['session', 'auth', '__Host-token'])}=${tk}; Path=/; Secure; HttpOnly`,
      secrets: [tk],
    };
  }),
  // ---- private keys
  {
    id: 'pem-rsa-private-key',
    family: 'private-key',
    kind: 'block',
    names: ['RSA_PRIVATE_KEY', 'JWT_PRIVATE_KEY'],
    make: (r) => pemBlock(j('RSA PRIVATE', ' KEY'), 'MIIEowIBAAKCAQEA', r, 1190),
  },
  {
    id: 'pem-pkcs8-private-key',
    family: 'private-key',
    kind: 'block',
    names: ['PRIVATE_KEY', 'TLS_KEY'],
    make: (r) => pemBlock(j('PRIVATE', ' KEY'), 'MIIEvgIBADANBgkqhkiG9w0BAQEFAASC', r, 1190),
  },
  {
    id: 'pem-ec-private-key',
    family: 'private-key',
    kind: 'block',
    names: ['EC_PRIVATE_KEY', 'APNS_KEY'],
    make: (r) => pemBlock(j('EC PRIVATE', ' KEY'), 'MHcCAQEEI', r, 121),
  },
  {
    id: 'pem-encrypted-private-key',
    family: 'private-key',
    kind: 'block',
    names: ['SIGNING_KEY'],
    make: (r) =>
      pemBlock(j('ENCRYPTED PRIVATE', ' KEY'), 'MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI', r, 1300),
  },
  {
    id: 'pem-dsa-private-key',
    family: 'private-key',
    kind: 'block',
    names: ['DSA_KEY'],
    make: (r) => pemBlock(j('DSA PRIVATE', ' KEY'), 'MIIBuwIBAAKBgQ', r, 446),
  },
  {
    id: 'openssh-private-key',
    family: 'private-key',
    kind: 'block',
    names: ['SSH_PRIVATE_KEY', 'DEPLOY_KEY'],
    make: (r) =>
      pemBlock(
        j('OPENSSH PRIVATE', ' KEY'),
        'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
        r,
        399,
        70,
      ),
  },
  {
    id: 'pgp-private-key-block',
    family: 'private-key',
    kind: 'block',
    names: ['GPG_PRIVATE_KEY'],
    make: (r) => pemBlock(j('PGP PRIVATE', ' KEY BLOCK'), 'lQdGBGV', r, 1400, 64, ['']),
  },
  {
    id: 'putty-private-key',
    family: 'private-key',
    kind: 'block',
    names: ['PUTTY_KEY'],
    make: (r) => {
      const pub = wrap('AAAAC3NzaC1lZDI1NTE5AAAAI' + b64(r.bytes(33)).slice(0, 43), 64);
      const priv = wrap(b64(r.bytes(36)), 64);
      const mac = r.str(HEX, 64);
      return {
        value: [
          `PuTTY-User-Key-File-3: ssh-ed25519`,
          'Encryption: none',
          `Comment: ${r.pick(USERS)}@laptop`,
          `Public-Lines: ${pub.length}`,
          ...pub,
          `Private-Lines: ${priv.length}`,
          ...priv,
          `Private-MAC: ${mac}`,
        ].join('\n'),
        secrets: [...priv, mac],
      };
    },
  },
  // ---- passwords in URLs and credential files
  line('git-credentials-file', 'git', ['GIT_CREDENTIALS'], (r) => {
    const pw = urlPassword(r);
    return { value: `https://${r.pick(USERS)}:${pw}@${gitHost(r)}`, secrets: [pw] };
  }),
  line('git-config-remote-credentials', 'git', ['GIT_CONFIG'], (r) => {
    const pw = r.chance(0.5) ? hex40(r) : urlPassword(r);
    return {
      value: `[remote "origin"]\n\turl = https://${r.pick(USERS)}:${pw}@${gitHost(r)}/${org(r)}/${repo(r)}.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main`,
      secrets: [pw],
    };
  }),
  line('git-http-extraheader-basic', 'git', ['GIT_EXTRAHEADER'], (r) => {
    const a = b64(`${r.pick(USERS)}:${hex40(r)}`);
    return {
      value: `git -c http.extraHeader="Authorization: Basic ${a}" clone https://${gitHost(r)}/${org(r)}/${repo(r)}.git`,
      secrets: [a],
    };
  }),
  line('http-basic-auth-header', 'http', ['AUTH_HEADER'], (r) => {
    const a = b64(`${r.pick(USERS)}:${password(r)}`);
    return { value: `Authorization: Basic ${a}`, secrets: [a] };
  }),
  line('curl-user-password', 'http', ['CURL'], (r) => {
    const pw = password(r);
    return {
      value: `curl -u ${r.pick(USERS)}:${pw} https://${r.pick(['nexus', 'jenkins', 'registry'])}.${org(r)}.io/api/status`,
      secrets: [pw],
    };
  }),
  line('netrc-password', 'http', ['NETRC'], (r) => {
    const pw = password(r);
    return { value: `machine ${gitHost(r)}\n  login ${r.pick(USERS)}\n  password ${pw}`, secrets: [pw] };
  }),
  line('pgpass-entry', 'postgres', ['PGPASSFILE'], (r) => {
    const pw = password(r);
    return { value: `${r.pick(HOSTS)}:5432:${r.pick(DBS)}:${connUser(r)}:${pw}`, secrets: [pw] };
  }),
  url('ftp-url-password', 'ftp', ['FTP_URL', 'SFTP_URL'], (r) => {
    const pw = urlPassword(r);
    return {
      value: `${r.pick(['ftp', 'sftp'])}://${r.pick(USERS)}:${pw}@ftp.${org(r)}.com/incoming/`,
      secrets: [pw],
    };
  }),
  tok(
    'ldap-bind-password',
    'ldap',
    ['LDAP_BIND_PASSWORD', 'bindPassword', 'LDAP_BINDPW'],
    (r) => password(r),
    'ctx',
  ),
  line('wp-config-db-password', 'php', ['WP_CONFIG'], (r) => {
    const pw = password(r);
    return {
      value: `define( 'DB_NAME', '${r.pick(DBS)}' );\ndefine( 'DB_USER', '${connUser(r)}' );\ndefine( 'DB_PASSWORD', '${pw}' );\ndefine( 'DB_HOST', 'localhost' );`,
      secrets: [pw],
    };
  }),
  line('mysql-cli-password', 'mysql', ['MYSQL_CMD'], (r) => {
    const pw = password(r);
    return { value: `mysql -h ${r.pick(HOSTS)} -u root -p${pw} ${r.pick(DBS)} < dump.sql`, secrets: [pw] };
  }),
  line('sshpass-password', 'ssh', ['SSH_CMD'], (r) => {
    const pw = password(r);
    return {
      value: `sshpass -p '${pw}' ssh -o StrictHostKeyChecking=no ${r.pick(USERS)}@${r.pick(HOSTS)} 'sudo systemctl restart app'`,
      secrets: [pw],
    };
  }),
  line('redis-requirepass', 'redis', ['REDIS_CONF'], (r) => {
    const pw = password(r);
    return { value: `bind 0.0.0.0\nport 6379\nrequirepass ${pw}\nmaxmemory 512mb`, secrets: [pw] };
  }),
  line('wireguard-private-key', 'wireguard', ['WG_CONF'], (r) => {
    const k = b64(r.bytes(32));
    return {
      value: `[Interface]\nPrivateKey = ${k}\nAddress = 10.8.0.${r.int(2, 250)}/24\nDNS = 1.1.1.1\n\n[Peer]\nPublicKey = ${b64(r.bytes(32))}\nEndpoint = vpn.${org(r)}.io:51820\nAllowedIPs = 0.0.0.0/0`,
      secrets: [k],
    };
  }),
  tok(
    'ethereum-private-key',
    'crypto',
    ['PRIVATE_KEY', 'DEPLOYER_PRIVATE_KEY', 'WALLET_PRIVATE_KEY'],
    (r) => '0x' + r.str(HEX, 64),
    'ctx',
  ),
  line('spring-datasource-password', 'java', ['APPLICATION_PROPERTIES'], (r) => {
    const pw = password(r);
    return {
      value: `spring.datasource.url=jdbc:postgresql://${r.pick(HOSTS)}:5432/${r.pick(DBS)}\nspring.datasource.username=${connUser(r)}\nspring.datasource.password=${pw}`,
      secrets: [pw],
    };
  }),
  line('terraform-db-password', 'terraform', ['TF_FILE'], (r) => {
    const pw = password(r);
    return {
      value: `resource "aws_db_instance" "${r.pick(DBS)}" {\n  engine         = "postgres"\n  instance_class = "db.t3.medium"\n  username       = "${connUser(r)}"\n  password       = "${pw}"\n}`,
      secrets: [pw],
    };
  }),
  tok(
    'ansible-password',
    'ansible',
    ['ansible_become_pass', 'ansible_password', 'ansible_ssh_pass'],
    (r) => password(r),
    'ctx',
  ),
  // ---- generic assignments
  tok(
    'django-secret-key',
    'generic',
    ['SECRET_KEY', 'DJANGO_SECRET_KEY'],
    (r) => r.str(LOWER + DIGITS + '!@#%^*(-_=+)', 50),
    'ctx',
  ),
  tok('rails-secret-key-base', 'generic', ['SECRET_KEY_BASE'], (r) => r.str(HEX, 128), 'ctx'),
  {
    id: 'laravel-app-key',
    family: 'generic',
    kind: 'ctx',
    names: ['APP_KEY'],
    make: (r) => {
      const k = b64(r.bytes(32));
      return { value: `base64:${k}`, secrets: [k] };
    },
  },
  tok(
    'jwt-signing-secret',
    'generic',
    ['JWT_SECRET', 'JWT_SIGNING_KEY', 'jwtSecret'],
    (r) => r.str(ALNUM, 48),
    'ctx',
  ),
  tok(
    'session-secret',
    'generic',
    ['SESSION_SECRET', 'COOKIE_SECRET', 'NEXTAUTH_SECRET'],
    (r) => r.str(B64URL, 43),
    'ctx',
  ),
  tok(
    'encryption-key-hex',
    'generic',
    ['ENCRYPTION_KEY', 'DATA_ENCRYPTION_KEY', 'AES_KEY', 'MASTER_KEY'],
    (r) => r.str(HEX, 64),
    'ctx',
  ),
  tok(
    'webhook-signing-secret',
    'generic',
    ['WEBHOOK_SECRET', 'GITEA_WEBHOOK_SECRET', 'HMAC_SECRET'],
    (r) => r.str(ALNUM, 32),
    'ctx',
  ),
  tok(
    'generic-password',
    'generic',
    ['PASSWORD', 'ADMIN_PASSWORD', 'POSTGRES_PASSWORD', 'MYSQL_ROOT_PASSWORD', 'password'],
    (r) => password(r),
    'ctx',
  ),
  tok(
    'generic-db-pass-abbrev',
    'generic',
    ['DB_PASS', 'DB_PW', 'DATABASE_PASS', 'PGPASSWORD', 'db_pass'],
    (r) => password(r),
    'ctx',
  ),
  tok(
    'generic-passwd-suffix',
    'generic',
    ['SMTP_PASSWD', 'LDAP_PASSWD', 'ROOT_PASSWD', 'REDIS_PASSWD', 'ftp_passwd'],
    (r) => password(r),
    'ctx',
  ),
  tok(
    'generic-pwd-suffix',
    'generic',
    ['DB_PWD', 'MYSQL_PWD', 'SFTP_PWD', 'ADMIN_PWD', 'keystore_pwd'],
    (r) => password(r),
    'ctx',
  ),
  tok(
    'generic-key-suffix',
    'generic',
    ['PARTNER_API_KEY', 'SERVICE_KEY', 'INTERNAL_API_KEY', 'PAYMENTS_KEY', 'SIGNING_KEY'],
    (r) => r.str(ALNUM, r.int(32, 40)),
    'ctx',
  ),
  tok(
    'generic-api-key',
    'generic',
    ['api_key', 'apiKey', 'API_KEY', 'x-api-key'],
    (r) => r.str(ALNUM, r.int(32, 40)),
    'ctx',
  ),
  tok(
    'generic-client-secret',
    'generic',
    ['client_secret', 'APP_SECRET', 'consumer_secret', 'OAUTH_CLIENT_SECRET'],
    (r) => r.str(B64URL, 40),
    'ctx',
  ),
  tok(
    'generic-access-token',
    'generic',
    ['access_token', 'auth_token', 'private_token', 'API_TOKEN'],
    (r) => r.str(ALNUM, 40),
    'ctx',
  ),
  line('x-api-key-header', 'generic', ['CURL'], (r) => {
    const k = r.str(ALNUM, 40);
    return {
      value: `curl -X POST https://api.${r.pick(WORDS)}.io/v2/events -H "X-API-Key: ${k}" -H "Content-Type: application/json" -d @payload.json`,
      secrets: [k],
    };
  }),
  line('bearer-opaque-token', 'generic', ['AUTH_HEADER'], (r) => {
    const k = r.str(B64URL, 48);
    return { value: `Authorization: Bearer ${k}`, secrets: [k] };
  }),
  url('query-string-api-key', 'generic', ['WEBHOOK_URL', 'EVENTS_ENDPOINT'], (r) => {
    const k = r.str(ALNUM, 36);
    return {
      value: `https://api.${r.pick(WORDS)}.io/v2/events?${r.pick(['api_key', 'apikey', 'key'])}=${k}&limit=50`,
      secrets: [k],
    };
  }),
  // ---- other well-known providers
  tok(
    'facebook-access-token',
    'facebook',
    ['FACEBOOK_ACCESS_TOKEN', 'FB_PAGE_TOKEN'],
    (r) => j('EA', 'AC') + r.str(ALNUM, 150),
  ),
  tok(
    'twitter-bearer-token',
    'twitter',
    ['TWITTER_BEARER_TOKEN', 'X_BEARER_TOKEN'],
    (r) => j('AAAAAAAAAAA', 'AAAAAAAAAAA') + r.str(ALNUM, 30) + '%3D' + r.str(ALNUM, 50),
    'ctx',
  ),
  tok('shippo-api-token', 'shippo', ['SHIPPO_API_KEY'], (r) => j('shippo', '_live_') + r.str(HEX, 40)),
  tok('easypost-api-key', 'easypost', ['EASYPOST_API_KEY'], (r) => j('EZ', 'AK') + r.str(ALNUM, 54)),
  tok(
    'duffel-api-token',
    'duffel',
    ['DUFFEL_ACCESS_TOKEN'],
    (r) => j('duffel', '_live_') + r.str(B64URL, 43),
  ),
  tok(
    'maxmind-license-key',
    'maxmind',
    ['MAXMIND_LICENSE_KEY', 'GEOIPUPDATE_LICENSE_KEY'],
    (r) => r.str(ALNUM, 6) + '_' + r.str(ALNUM, 29) + j('_m', 'mk'),
  ),
];
