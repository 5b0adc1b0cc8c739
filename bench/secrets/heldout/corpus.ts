// Held-out secret-detection corpus for AegisGitea-MCP, written without reading the detection code
// or its own corpus. Every sample is a Gitea response body (JSON shaped like the swagger's
// definitions, or the raw text Gitea serves for diffs, raw files and job logs) with secrets or hard
// negatives placed the way people and CI systems write them. See README.md in this folder.
import { SECRET_FORMATS, type Kind, type SecretFormat } from './formats';
import { NEGATIVE_FORMATS, type NegativeFormat } from './negatives';
import { HEX, b64, makeRng, type Rng } from './random';

export type HeldOutSample = {
  id: string;
  format: string;
  context: string;
  payload: string;
  secrets: string[];
  keep: string[];
};
export type HeldOutCorpus = { samples: HeldOutSample[] };

export const CONTEXTS = [
  'issue_body',
  'pr_body',
  'comment',
  'commit_message',
  'diff',
  'file',
  'wiki_page',
  'actions_log',
  'actions_variable',
  'webhook',
  'release_notes',
] as const;
export type Context = (typeof CONTEXTS)[number];

/** Samples per secret format and per negative format. */
export const SAMPLES_PER_SECRET_FORMAT = 5;
export const SAMPLES_PER_NEGATIVE_FORMAT = 10;

// ---------------------------------------------------------------------------------------------
// Occurrence: a substring "occurs" in a payload when it is in the text, or in the decoded text of
// a base64 `content`/`content_base64` field (Gitea serves wiki pages and file contents that way).

function decodedFields(payload: string): string[] {
  const t = payload.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return [];
  }
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (
          (k === 'content_base64' || k === 'content') &&
          typeof x === 'string' &&
          /^[A-Za-z0-9+/=\s]+$/.test(x)
        ) {
          out.push(Buffer.from(x, 'base64').toString('utf8'));
        } else walk(x);
      }
    }
  };
  walk(parsed);
  return out;
}

export function occursIn(payload: string, needle: string): boolean {
  return payload.includes(needle) || decodedFields(payload).some((d) => d.includes(needle));
}

// ---------------------------------------------------------------------------------------------
// JSON exactly as Gitea (Go's encoding/json) writes it: compact, with <, >, & and U+2028/2029
// escaped. A substring placed in a JSON string appears in its escaped form.

export function giteaJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'),
  );
}
const jsonInner = (s: string): string => giteaJson(s).slice(1, -1);

// ---------------------------------------------------------------------------------------------
// Snippets: a name=value pair in one of the notations people use, with harmless neighbours.

type Style =
  | 'env'
  | 'env-quoted'
  | 'export'
  | 'yaml'
  | 'yaml-quoted'
  | 'json'
  | 'toml'
  | 'ini'
  | 'docker-run'
  | 'k8s-env'
  | 'python'
  | 'js'
  | 'powershell'
  | 'compose'
  | 'prose'
  | 'header';
const NAME_STYLES: Style[] = [
  'env',
  'env-quoted',
  'export',
  'yaml',
  'yaml-quoted',
  'json',
  'toml',
  'ini',
  'docker-run',
  'k8s-env',
  'python',
  'js',
  'powershell',
  'compose',
];

const FILLER: Array<[string, string]> = [
  ['NODE_ENV', 'production'],
  ['PORT', '8080'],
  ['LOG_LEVEL', 'info'],
  ['REDIS_HOST', 'redis'],
  ['APP_URL', 'https://app.example.org'],
  ['TZ', 'UTC'],
  ['WORKERS', '4'],
  ['FEATURE_FLAGS', 'search,exports'],
  ['S3_BUCKET', 'acme-artifacts'],
  ['REGION', 'eu-west-1'],
];

const lowerName = (n: string): string => (/^[A-Z0-9_]+$/.test(n) ? n.toLowerCase() : n);
const camel = (n: string): string =>
  lowerName(n).replace(/[_.-]([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const envName = (n: string): string =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(n) ? n : n.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();

function pair(style: Style, name: string, value: string): string {
  switch (style) {
    case 'env':
      return `${envName(name)}=${value}`;
    case 'env-quoted':
      return `${envName(name)}="${value}"`;
    case 'export':
      return `export ${envName(name)}=${value}`;
    case 'yaml':
      return `${lowerName(name)}: ${value}`;
    case 'yaml-quoted':
      return `${lowerName(name)}: "${value}"`;
    case 'json':
      return `  "${camel(name)}": "${value}"`;
    case 'toml':
      return `${lowerName(name)} = "${value}"`;
    case 'ini':
      return `${lowerName(name)} = ${value}`;
    case 'docker-run':
      return `  -e ${envName(name)}=${value} \\`;
    case 'k8s-env':
      return `  - name: ${envName(name)}\n    value: "${value}"`;
    case 'python':
      return `${envName(name)} = os.environ.get("${envName(name)}", "${value}")`;
    case 'js':
      return `const ${camel(name)} = process.env.${envName(name)} || '${value}';`;
    case 'powershell':
      return `$env:${envName(name)} = "${value}"`;
    case 'compose':
      return `      ${envName(name)}: ${value}`;
    default:
      return `${envName(name)}=${value}`;
  }
}

function nameSnippet(r: Rng, style: Style, name: string, value: string): string {
  const fill = [...FILLER].sort(() => r.next() - 0.5).slice(0, r.int(1, 4));
  const before = fill.slice(0, r.int(0, fill.length));
  const after = fill.slice(before.length);
  const lines = [
    ...before.map(([n, v]) => pair(style, n, v)),
    pair(style, name, value),
    ...after.map(([n, v]) => pair(style, n, v)),
  ];
  switch (style) {
    case 'json':
      return `{\n${lines.join(',\n')}\n}`;
    case 'toml':
    case 'ini':
      return `[${r.pick(['app', 'default', 'production', 'service'])}]\n${lines.join('\n')}`;
    case 'docker-run':
      return `docker run -d --name api \\\n${lines.join('\n')}\n  ghcr.io/acme/api:1.14.2`;
    case 'k8s-env':
      return `containers:\n- name: api\n  image: ghcr.io/acme/api:1.14.2\n  env:\n${lines.map((l) => l.replace(/^/gm, '  ')).join('\n')}`;
    case 'python':
      return `import os\n\n${lines.join('\n')}`;
    case 'compose':
      return `services:\n  api:\n    image: ghcr.io/acme/api:1.14.2\n    environment:\n${lines.join('\n')}`;
    default:
      return lines.join('\n');
  }
}

function blockSnippet(r: Rng, name: string, value: string): string {
  switch (r.int(0, 3)) {
    case 0:
      return value;
    case 1:
      return `${lowerName(name)}: |\n${value.replace(/^/gm, '  ')}`;
    case 2:
      return `${envName(name)}="${value.replace(/\n/g, '\\n')}"`;
    default:
      return `{\n  "${camel(name)}": ${JSON.stringify(value)}\n}`;
  }
}

const PROSE = [
  (v: string): string => `I think I pasted ${v} in the last run, can someone rotate it?`,
  (v: string): string => `Works for me locally with the key ${v} but not in CI.`,
  (v: string): string => `token is ${v} (staging only)`,
];

/** The text a person or CI system writes around one secret value. */
function secretSnippet(r: Rng, f: SecretFormat, value: string): string {
  const name = r.pick(f.names);
  if (f.kind === 'line') return value;
  if (f.kind === 'block') return blockSnippet(r, name, value);
  if ((f.kind === 'token' || f.kind === 'url' || f.kind === 'hook') && r.chance(0.15))
    return r.pick(PROSE)(value);
  if (f.kind === 'token' && r.chance(0.1))
    return `curl -H "Authorization: Bearer ${value}" https://api.example.org/v1/status`;
  return nameSnippet(r, r.pick(NAME_STYLES), name, value);
}

// ---------------------------------------------------------------------------------------------
// Gitea bodies (shapes from gitea/swagger.v1.json).

const LOGINS = ['dana', 'mehmet', 'lucia', 'ci-bot', 'renovate', 'yuki', 'oskar', 'priya'];
const REPOS = [
  'acme/api',
  'acme/website',
  'platform/infra-live',
  'data/etl',
  'mobile/app',
  'ops/helm-charts',
];
const BASE = 'https://git.example.org';

function date(r: Rng): string {
  const d = new Date(Date.UTC(2026, r.int(0, 10), r.int(1, 28), r.int(0, 23), r.int(0, 59), r.int(0, 59)));
  return d.toISOString().replace('.000Z', 'Z');
}

function user(r: Rng, login = r.pick(LOGINS)): Record<string, unknown> {
  const id = r.int(2, 400);
  return {
    id,
    login,
    login_name: '',
    source_id: 0,
    full_name: login === 'ci-bot' ? 'CI Bot' : login.charAt(0).toUpperCase() + login.slice(1),
    email: `${login}@noreply.git.example.org`,
    avatar_url: `${BASE}/avatars/${r.str(HEX, 32)}`,
    html_url: `${BASE}/${login}`,
    language: '',
    is_admin: false,
    last_login: '0001-01-01T00:00:00Z',
    created: date(r),
    restricted: false,
    active: false,
    prohibit_login: false,
    location: '',
    website: '',
    description: '',
    visibility: 'public',
    followers_count: r.int(0, 30),
    following_count: r.int(0, 30),
    starred_repos_count: r.int(0, 30),
  };
}

function repoMeta(r: Rng, full: string): Record<string, unknown> {
  const [owner, name] = full.split('/') as [string, string];
  return { id: r.int(1, 900), name, owner, full_name: full };
}

function issue(r: Rng, full: string, title: string, body: string): Record<string, unknown> {
  const n = r.int(1, 1400);
  const created = date(r);
  return {
    id: r.int(1000, 90000),
    url: `${BASE}/api/v1/repos/${full}/issues/${n}`,
    html_url: `${BASE}/${full}/issues/${n}`,
    number: n,
    user: user(r),
    original_author: '',
    original_author_id: 0,
    title,
    body,
    ref: '',
    assets: [],
    labels: r.chance(0.5)
      ? [
          {
            id: r.int(1, 90),
            name: r.pick(['bug', 'ci', 'question', 'deploy']),
            exclusive: false,
            is_archived: false,
            color: 'ee0701',
            description: '',
            url: `${BASE}/api/v1/repos/${full}/labels/${r.int(1, 90)}`,
          },
        ]
      : [],
    milestone: null,
    assignee: null,
    assignees: null,
    state: r.pick(['open', 'closed']),
    is_locked: false,
    comments: r.int(0, 12),
    created_at: created,
    updated_at: created,
    closed_at: null,
    due_date: null,
    time_estimate: 0,
    pull_request: null,
    repository: repoMeta(r, full),
    pin_order: 0,
    content_version: r.int(0, 4),
  };
}

function pullRequest(r: Rng, full: string, title: string, body: string): Record<string, unknown> {
  const n = r.int(1, 900);
  const head = r.str(HEX, 40);
  const created = date(r);
  const branch = `${r.pick(['fix', 'feat', 'chore'])}/${r.pick(['staging-config', 'ci-secrets', 'deploy-script', 'smtp', 'webhooks'])}`;
  const repoObj = {
    id: r.int(1, 900),
    name: full.split('/')[1],
    full_name: full,
    owner: user(r, full.split('/')[0]),
  };
  return {
    id: r.int(1000, 90000),
    url: `${BASE}/${full}/pulls/${n}`,
    number: n,
    user: user(r),
    title,
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
    comments: r.int(0, 9),
    review_comments: r.int(0, 9),
    additions: r.int(1, 300),
    deletions: r.int(0, 120),
    changed_files: r.int(1, 12),
    html_url: `${BASE}/${full}/pulls/${n}`,
    diff_url: `${BASE}/${full}/pulls/${n}.diff`,
    patch_url: `${BASE}/${full}/pulls/${n}.patch`,
    mergeable: true,
    merged: false,
    merged_at: null,
    merge_commit_sha: null,
    merged_by: null,
    allow_maintainer_edit: false,
    base: { label: 'main', ref: 'main', sha: r.str(HEX, 40), repo_id: repoObj.id, repo: repoObj },
    head: { label: branch, ref: branch, sha: head, repo_id: repoObj.id, repo: repoObj },
    merge_base: r.str(HEX, 40),
    due_date: null,
    created_at: created,
    updated_at: created,
    closed_at: null,
    pin_order: 0,
    content_version: 0,
  };
}

function comment(r: Rng, full: string, body: string): Record<string, unknown> {
  const n = r.int(1, 1400);
  const id = r.int(1000, 900000);
  const created = date(r);
  return {
    id,
    html_url: `${BASE}/${full}/issues/${n}#issuecomment-${id}`,
    pull_request_url: '',
    issue_url: `${BASE}/${full}/issues/${n}`,
    user: user(r),
    original_author: '',
    original_author_id: 0,
    body,
    assets: [],
    created_at: created,
    updated_at: created,
  };
}

function commit(r: Rng, full: string, message: string): Record<string, unknown> {
  const s = r.str(HEX, 40);
  const tree = r.str(HEX, 40);
  const parent = r.str(HEX, 40);
  const u = user(r);
  const d = date(r);
  const who = { name: String(u.full_name), email: String(u.email), date: d };
  return {
    url: `${BASE}/api/v1/repos/${full}/git/commits/${s}`,
    sha: s,
    created: d,
    html_url: `${BASE}/${full}/commit/${s}`,
    commit: {
      url: `${BASE}/api/v1/repos/${full}/git/commits/${s}`,
      author: who,
      committer: who,
      message,
      tree: { url: `${BASE}/api/v1/repos/${full}/git/trees/${tree}`, sha: tree, created: d },
      verification: {
        verified: false,
        reason: 'gpg.error.not_signed_commit',
        signature: '',
        signer: null,
        payload: '',
      },
    },
    author: u,
    committer: u,
    parents: [{ url: `${BASE}/api/v1/repos/${full}/git/commits/${parent}`, sha: parent, created: d }],
    files: [
      {
        filename: r.pick([
          'config/staging.env',
          'deploy/values.yaml',
          'README.md',
          '.gitea/workflows/deploy.yml',
        ]),
        status: 'modified',
      },
    ],
    stats: { total: r.int(2, 40), additions: r.int(1, 30), deletions: r.int(0, 10) },
  };
}

function wikiPage(r: Rng, full: string, title: string, markdown: string): Record<string, unknown> {
  const s = r.str(HEX, 40);
  const u = user(r);
  const who = { name: String(u.full_name), email: String(u.email), date: date(r) };
  const sub = title.replace(/ /g, '-');
  return {
    title,
    html_url: `${BASE}/${full}/wiki/${sub}`,
    sub_url: sub,
    last_commit: { sha: s, author: who, commiter: who, message: `Update page '${title}'\n` },
    content_base64: b64(markdown),
    commit_count: r.int(1, 40),
    sidebar: '',
    footer: '',
  };
}

function release(r: Rng, full: string, body: string): Record<string, unknown> {
  const tag = `v${r.int(0, 4)}.${r.int(0, 30)}.${r.int(0, 9)}`;
  const id = r.int(1, 900);
  const d = date(r);
  return {
    id,
    tag_name: tag,
    target_commitish: 'main',
    name: tag,
    body,
    url: `${BASE}/api/v1/repos/${full}/releases/${id}`,
    html_url: `${BASE}/${full}/releases/tag/${tag}`,
    tarball_url: `${BASE}/${full}/archive/${tag}.tar.gz`,
    zipball_url: `${BASE}/${full}/archive/${tag}.zip`,
    upload_url: `${BASE}/api/v1/repos/${full}/releases/${id}/assets`,
    draft: false,
    prerelease: r.chance(0.2),
    created_at: d,
    published_at: d,
    author: user(r),
    assets: [],
  };
}

function hook(r: Rng, config: Record<string, string>, authorization: string): Record<string, unknown> {
  const d = date(r);
  const type = config.url?.includes('slack')
    ? 'slack'
    : config.url?.includes('discord')
      ? 'discord'
      : config.url?.includes('office.com') || config.url?.includes('logic.azure')
        ? 'msteams'
        : r.pick(['gitea', 'forgejo']);
  return {
    id: r.int(1, 400),
    type,
    name: '',
    branch_filter: r.pick(['', '*', 'main']),
    config: { content_type: 'json', http_method: 'post', ...config },
    events: r.pick([['push'], ['push', 'pull_request'], ['issues', 'issue_comment'], ['release']]),
    authorization_header: authorization,
    active: true,
    updated_at: d,
    created_at: d,
  };
}

function variable(r: Rng, name: string, data: string): Record<string, unknown> {
  let n = envName(name).toUpperCase();
  // Gitea refuses variable names starting with GITEA_ or GITHUB_.
  if (/^(GITEA|GITHUB)_/.test(n)) n = `CI_${n}`;
  return {
    owner_id: 0,
    repo_id: r.int(1, 900),
    name: n,
    data,
    description: r.pick(['', 'set by ops', 'staging only']),
  };
}

function fileNameFor(snippet: string): string {
  if (snippet.startsWith('{')) return 'config/production.json';
  if (snippet.startsWith('[remote') || snippet.startsWith('[branch')) return '.git/config';
  if (snippet.startsWith('[')) return 'config/app.toml';
  if (snippet.startsWith('docker ')) return 'scripts/run.sh';
  if (snippet.startsWith('import os')) return 'settings/local.py';
  if (snippet.startsWith('const ')) return 'src/config.js';
  if (snippet.startsWith('-----BEGIN') || snippet.startsWith('PuTTY')) return 'deploy/keys/id_deploy';
  if (/^(services|containers|apiVersion|logins):/m.test(snippet) || /^[a-z_.]+: /m.test(snippet))
    return 'deploy/values.yaml';
  if (snippet.startsWith('<')) return 'NuGet.Config';
  if (snippet.startsWith('curl') || snippet.startsWith('git ') || snippet.startsWith('export'))
    return 'scripts/deploy.sh';
  return '.env.staging';
}

const ISSUE_TITLES = [
  'Deploy to staging fails with 401',
  'CI job cannot reach the registry',
  'Webhook delivery broken since upgrade',
  'How do I configure the mailer?',
  'Nightly backup job errors',
  'Connection refused from worker',
];
const PR_TITLES = [
  'Add staging configuration',
  'ci: publish images from main',
  'Switch mailer to the new provider',
  'feat: nightly export job',
  'fix: webhook retries',
];
const COMMIT_SUBJECTS = [
  'chore: staging config',
  'ci: fix deploy credentials',
  'wip',
  'fix(mailer): new smtp settings',
  'add env for smoke tests',
  'Update .env',
];

function logLines(r: Rng, text: string): string {
  let t = Date.UTC(2026, 10, r.int(1, 28), r.int(0, 23), r.int(0, 59), 0);
  const stamp = (): string => {
    t += r.int(10, 900);
    return new Date(t).toISOString().replace('Z', r.str('0123456789', 4) + 'Z');
  };
  const cmd = r.pick(['./scripts/deploy.sh', 'make release', 'npm run migrate', 'env | sort']);
  const out = [`${stamp()} ::group::Run ${cmd}`, `${stamp()} ${cmd}`, `${stamp()} shell: bash -e {0}`];
  for (const l of text.split('\n')) out.push(`${stamp()} ${r.chance(0.5) ? '+ ' : ''}${l}`);
  out.push(`${stamp()} ::endgroup::`, `${stamp()} Error: Process completed with exit code ${r.int(1, 2)}.`);
  return out.join('\n') + '\n';
}

function diffText(r: Rng, text: string): string {
  const file = fileNameFor(text);
  const lines = text.split('\n');
  return [
    `diff --git a/${file} b/${file}`,
    `index ${r.str(HEX, 7)}..${r.str(HEX, 7)} 100644`,
    `--- a/${file}`,
    `+++ b/${file}`,
    `@@ -1,2 +1,${lines.length + 2} @@`,
    ' # settings',
    ...lines.map((l) => `+${l}`),
    ' ',
    '',
  ].join('\n');
}

function fence(snippet: string): string {
  return '```\n' + snippet + '\n```';
}

type Placed = { context: Context; payload: string };

/**
 * Places a snippet in a context. `bare` is the value alone (for an Actions variable's data or a
 * webhook field), or null when the snippet cannot stand for a single value.
 */
function place(
  r: Rng,
  context: Context,
  snippet: string,
  bare: string | null,
  name: string,
  hookable: 'url' | 'header' | null,
): Placed {
  const full = r.pick(REPOS);
  switch (context) {
    case 'issue_body':
      return {
        context,
        payload: giteaJson(
          issue(
            r,
            full,
            r.pick(ISSUE_TITLES),
            `${r.pick(['Steps to reproduce:', 'My config:', 'This is what I have:'])}\n\n${fence(snippet)}\n\n${r.pick(['Any idea?', 'Running Gitea 1.27.1.', 'Thanks!'])}`,
          ),
        ),
      };
    case 'pr_body':
      return {
        context,
        payload: giteaJson(
          pullRequest(
            r,
            full,
            r.pick(PR_TITLES),
            `## What\n\n${r.pick(['Adds the staging settings.', 'Wires the new provider.', 'Moves config into the repo.'])}\n\n${fence(snippet)}\n\n## Testing\n\n- [x] ran it on staging`,
          ),
        ),
      };
    case 'comment':
      return {
        context,
        payload: giteaJson(
          comment(
            r,
            full,
            `${r.pick(['Try this:', 'Here is the output:', 'Same here, my settings:'])}\n${fence(snippet)}`,
          ),
        ),
      };
    case 'commit_message':
      return { context, payload: giteaJson(commit(r, full, `${r.pick(COMMIT_SUBJECTS)}\n\n${snippet}\n`)) };
    case 'diff':
      return { context, payload: diffText(r, snippet) };
    case 'file':
      return {
        context,
        payload: `${r.pick(['# staging settings', '# do not commit', '# generated by setup.sh'])}\n${snippet}\n`,
      };
    case 'wiki_page':
      return {
        context,
        payload: giteaJson(
          wikiPage(
            r,
            full,
            r.pick(['Deployment', 'Staging Setup', 'Runbook', 'Onboarding']),
            `# Setup\n\n${r.pick(['Use these settings:', 'Configure the service with:'])}\n\n${fence(snippet)}\n`,
          ),
        ),
      };
    case 'actions_log':
      return { context, payload: logLines(r, snippet) };
    case 'actions_variable':
      return { context, payload: giteaJson(variable(r, name, bare ?? snippet)) };
    case 'webhook': {
      const v = bare ?? snippet;
      if (hookable === 'url') return { context, payload: giteaJson(hook(r, { url: v }, '')) };
      if (r.chance(0.5))
        return {
          context,
          payload: giteaJson(hook(r, { url: `https://ci.example.org/api/gitea/hook` }, `Bearer ${v}`)),
        };
      return {
        context,
        payload: giteaJson(hook(r, { url: `https://ci.example.org/api/gitea/hook?token=${v}` }, '')),
      };
    }
    case 'release_notes':
      return {
        context,
        payload: giteaJson(
          release(
            r,
            full,
            `## Changes\n\n- ${r.pick(['New export job', 'Faster search', 'Mailer rewrite'])}\n\n### Upgrade notes\n\n${fence(snippet)}\n`,
          ),
        ),
      };
  }
}

function allowedContexts(kind: Kind, value: string): Context[] {
  return CONTEXTS.filter((c) => {
    if (c === 'webhook')
      return (
        kind === 'token' ||
        kind === 'ctx' ||
        kind === 'hook' ||
        (kind === 'url' && /^https?:\/\//.test(value))
      );
    return true;
  });
}

/** The form in which `s` occurs in the payload: as written, or JSON-escaped. */
function located(payload: string, s: string): string | null {
  if (occursIn(payload, s)) return s;
  const e = jsonInner(s);
  return payload.includes(e) ? e : null;
}

export function generateHeldOutCorpus(seed = 1): HeldOutCorpus {
  const r = makeRng(seed);
  const samples: HeldOutSample[] = [];
  let rotation = 0;
  SECRET_FORMATS.forEach((f, fi) => {
    for (let k = 0; k < SAMPLES_PER_SECRET_FORMAT; k++) {
      const made = f.make(r);
      const ctxs = allowedContexts(f.kind, made.value);
      const context = ctxs[(fi * 3 + k + rotation) % ctxs.length] as Context;
      const snippet = secretSnippet(r, f, made.value);
      const hookable =
        f.kind === 'hook' || (f.kind === 'url' && /^https?:\/\//.test(made.value)) ? 'url' : 'header';
      const bare = f.kind === 'line' ? null : made.value;
      const placed = place(
        r,
        context,
        snippet,
        bare,
        r.pick(f.names),
        context === 'webhook' ? hookable : null,
      );
      const secrets = made.secrets.map((s) => located(placed.payload, s));
      if (secrets.some((s) => s === null))
        throw new Error(`held-out corpus: a secret of ${f.id} did not land in its ${context} payload`);
      samples.push({
        id: `${f.id}#${k}`,
        format: f.id,
        context,
        payload: placed.payload,
        secrets: secrets as string[],
        keep: [],
      });
    }
    rotation += 1;
  });
  // Bare look-alikes lean towards Actions variables and webhooks, which only carry single values.
  const VALUE_CONTEXTS: Context[] = [...CONTEXTS, 'webhook', 'actions_variable', 'webhook'];
  const LINE_CONTEXTS: Context[] = CONTEXTS.filter((c) => c !== 'webhook');
  const LINE_NAMES = [
    'RELEASE_NOTES',
    'CHECKSUMS',
    'NOTES',
    'SSH_KNOWN_HOSTS',
    'PUBLIC_KEY',
    'CONFIG_SNIPPET',
  ];
  NEGATIVE_FORMATS.forEach((f: NegativeFormat, fi) => {
    for (let k = 0; k < SAMPLES_PER_NEGATIVE_FORMAT; k++) {
      const made = f.make(r);
      const ctxs = f.kind === 'value' ? VALUE_CONTEXTS : LINE_CONTEXTS;
      const context = ctxs[(fi * 5 + k) % ctxs.length] as Context;
      const name = f.names.length > 0 ? r.pick(f.names) : r.pick(LINE_NAMES);
      const snippet = f.kind === 'value' ? nameSnippet(r, r.pick(NAME_STYLES), name, made.value) : made.value;
      let bare: string | null = null;
      if (f.kind === 'value') {
        bare = made.value;
        if (context === 'webhook' && !/^https?:\/\//.test(bare))
          bare = `https://ci.example.org/api/gitea/hook?${name.toLowerCase()}=${bare}`;
      }
      const placed = place(r, context, snippet, bare, name, context === 'webhook' ? 'url' : null);
      const keep = made.keep.map((s) => located(placed.payload, s));
      if (keep.some((s) => s === null))
        throw new Error(`held-out corpus: a look-alike of ${f.id} did not land in its ${context} payload`);
      samples.push({
        id: `negative:${f.id}#${k}`,
        format: `negative:${f.id}`,
        context,
        payload: placed.payload,
        secrets: [],
        keep: keep as string[],
      });
    }
  });
  return { samples };
}

/** Counts for the README and the bench: per context, per family, totals. */
export function describeHeldOutCorpus(corpus = generateHeldOutCorpus()): {
  samples: number;
  secretSamples: number;
  secrets: number;
  formats: number;
  negatives: number;
  negativeFormats: number;
  families: Record<string, number>;
  perContext: Record<string, { secrets: number; negatives: number }>;
} {
  const family = new Map(SECRET_FORMATS.map((f) => [f.id, f.family]));
  const families: Record<string, number> = {};
  const perContext: Record<string, { secrets: number; negatives: number }> = {};
  let secrets = 0;
  let negatives = 0;
  for (const s of corpus.samples) {
    const c = (perContext[s.context] ??= { secrets: 0, negatives: 0 });
    if (s.secrets.length > 0) {
      secrets += s.secrets.length;
      c.secrets += s.secrets.length;
      const fam = family.get(s.format) ?? 'other';
      families[fam] = (families[fam] ?? 0) + s.secrets.length;
    } else {
      negatives += 1;
      c.negatives += 1;
    }
  }
  return {
    samples: corpus.samples.length,
    secretSamples: corpus.samples.filter((s) => s.secrets.length > 0).length,
    secrets,
    formats: new Set(corpus.samples.filter((s) => s.secrets.length > 0).map((s) => s.format)).size,
    negatives,
    negativeFormats: new Set(corpus.samples.filter((s) => s.secrets.length === 0).map((s) => s.format)).size,
    families,
    perContext,
  };
}
