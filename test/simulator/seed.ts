// Seed data. 'demo' and 'test' hold the same world (an org with two repos, issues, a pull
// request, releases with slash tags, a file with secret-shaped strings); 'empty' only users.
// Secret-shaped values are assembled at run time so no such literal sits in the source tree.
import { createHash } from 'node:crypto';
import {
  addIssue,
  addOrg,
  addRepo,
  addToken,
  addUser,
  commitFiles,
  nowIso,
  type SimState,
  type User,
} from './state';

export type SeedName = 'demo' | 'test' | 'empty';

export type SeededTokens = {
  admin: string;
  alice: string;
  bob: string;
  readOnly: string;
  [login: string]: string;
};

const ALL_READ = [
  'read:activitypub',
  'read:issue',
  'read:misc',
  'read:notification',
  'read:organization',
  'read:package',
  'read:repository',
  'read:user',
];

/** Deterministic filler so seeded secrets look alike between runs. */
function filler(seed: string, length: number, alphabet: string): string {
  let out = '';
  let block = createHash('sha256').update(seed).digest();
  while (out.length < length) {
    for (const b of block) if (out.length < length) out += alphabet[b % alphabet.length];
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64 = ALNUM + '+/';

/** A .env file with an AWS key pair, a GitHub token, a Slack token and a PEM private key. */
export function secretFileContent(): string {
  const awsId = ['AK', 'IA', filler('aws-id', 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')].join('');
  const awsSecret = filler('aws-secret', 40, B64);
  const gh = ['gh', 'p_', filler('gh', 36, ALNUM)].join('');
  const slack = ['xo', 'xb-', filler('s1', 12, '0123456789'), '-', filler('s2', 24, ALNUM)].join('');
  const pemType = ['RSA', 'PRIVATE', 'KEY'].join(' ');
  const body = filler('pem', 256, B64)
    .match(/.{1,64}/g)!
    .join('\n');
  return [
    '# local settings (do not commit)',
    `AWS_ACCESS_KEY_ID=${awsId}`,
    `AWS_SECRET_ACCESS_KEY=${awsSecret}`,
    `GITHUB_TOKEN=${gh}`,
    `SLACK_BOT_TOKEN=${slack}`,
    'DATABASE_URL=postgres://app:' + filler('pw', 14, ALNUM) + '@db.internal:5432/app',
    'PRIVATE_KEY="' + ['-----BEGIN ', pemType, '-----'].join(''),
    body,
    ['-----END ', pemType, '-----"'].join(''),
    '',
  ].join('\n');
}

export function seed(state: SimState, name: SeedName): SeededTokens {
  const admin = addUser(state, 'admin', { isAdmin: true, fullName: 'Site Admin' });
  const alice = addUser(state, 'alice', { fullName: 'Alice Liddell' });
  const bob = addUser(state, 'bob', { fullName: 'Bob Builder' });
  addUser(state, 'carol', { fullName: 'Carol Private', visibility: 'private' });
  const tokens: SeededTokens = {
    admin: addToken(state, admin, 'seed-admin', ['all']).token,
    alice: addToken(state, alice, 'seed-alice', ['all']).token,
    bob: addToken(state, bob, 'seed-bob', ['all']).token,
    readOnly: addToken(state, alice, 'seed-alice-read', ALL_READ).token,
  };
  if (name !== 'empty') {
    seedWorld(state, alice, bob);
    seedLeaks(state, alice, tokens.admin);
  }
  return tokens;
}

/**
 * The secrets file of issue 12 in the encodings the service must see through: a GITEA_TOKEN (the
 * admin token, which is what a deployment's service token usually is) and a provider key (a GitHub
 * token), with one non-ASCII character so the Latin-1 form is not valid UTF-8.
 */
export function leakFileText(serviceToken: string): string {
  const gh = ['gh', 'p_', filler('leak-gh', 36, ALNUM)].join('');
  return [
    '# Configuración de producción',
    `GITEA_TOKEN=${serviceToken}`,
    `GITHUB_TOKEN=${gh}`,
    'REGION=eu-west-1',
    '',
  ].join('\n');
}

/** The same text as bytes in each encoding of acme/leaks (file name -> bytes). */
export function leakFiles(serviceToken: string): Map<string, Buffer> {
  const text = leakFileText(serviceToken);
  const le = Buffer.from(text, 'utf16le');
  const be = Buffer.from(le);
  for (let i = 0; i + 1 < be.length; i += 2) [be[i], be[i + 1]] = [le[i + 1]!, le[i]!];
  return new Map([
    ['latin1.env', Buffer.from(text, 'latin1')],
    ['nul.env', Buffer.concat([Buffer.from(text, 'utf8'), Buffer.from([0])])],
    ['utf16le.env', Buffer.concat([Buffer.from([0xff, 0xfe]), le])],
    ['utf16be.env', Buffer.concat([Buffer.from([0xfe, 0xff]), be])],
    ['utf16le-nobom.env', le],
  ]);
}

/** Size of acme/huge's big.log: a text file far larger than any response bound. */
export const HUGE_FILE_BYTES = 30 * 1024 * 1024;

/** Size of the log of acme/widgets' failing "test" job: several times any response bound. */
export const ACTIONS_LOG_BYTES = 2 * 1024 * 1024;

/**
 * An Actions job log as the runner uploads it (timestamped lines, ::group:: markers, `+` traces of
 * `set -x`), ACTIONS_LOG_BYTES long, that echoes the service token and a provider key three
 * quarters of the way in: far past the first read of the tool, so only a later page shows them.
 */
export function actionsJobLog(serviceToken: string): Buffer {
  const gh = ['gh', 'p_', filler('log-gh', 36, ALNUM)].join('');
  const lines: string[] = [];
  let size = 0;
  let leaked = false;
  for (let i = 0; size < ACTIONS_LOG_BYTES; i++) {
    const ts = new Date(Date.UTC(2026, 10, 30, 10, 0, 0) + i * 7).toISOString().replace('Z', '0000Z');
    let line =
      i % 500 === 0
        ? `${ts} ::group::test shard ${i / 500}`
        : `${ts} PASS src/module-${i % 97}/case-${i}.test.ts (${(i % 13) + 1} ms)`;
    if (!leaked && size > ACTIONS_LOG_BYTES * 0.75) {
      line = `${ts} + curl -H 'Authorization: token ${serviceToken}' -H 'X-GitHub-Token: ${gh}' https://gitea.internal/api/v1/version`;
      leaked = true;
    }
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return Buffer.from(lines.join('\n') + '\n').subarray(0, ACTIONS_LOG_BYTES);
}

function seedLeaks(state: SimState, alice: User, serviceToken: string): void {
  const acme = state.users.find((u) => u.login === 'acme')!;
  const leaks = addRepo(state, acme, 'leaks', { description: 'Secrets in every encoding (issue 12)' });
  commitFiles(
    state,
    leaks,
    'main',
    alice,
    'Add the settings in every encoding',
    [...leakFiles(serviceToken)].map(([path, content]) => ({ path, content })),
  );
  const huge = addRepo(state, acme, 'huge', { description: 'A 30 MiB log file' });
  const line = Buffer.from('2026-11-30T10:00:00Z INFO worker processed job in 12 ms, queue depth 3\n');
  const big = Buffer.alloc(HUGE_FILE_BYTES);
  big.fill(line);
  commitFiles(state, huge, 'main', alice, 'Add a big log', [{ path: 'big.log', content: big }]);
}

function seedWorld(state: SimState, alice: User, bob: User): void {
  const acme = addOrg(state, 'acme', alice, { description: 'Acme Corporation' });
  state.orgMembers.get(acme.id)!.add(bob.id);
  const widgets = addRepo(state, acme, 'widgets', { description: 'Widgets service' });
  const internal = addRepo(state, acme, 'internal', { description: 'Internal tooling', private: true });
  state.teams.push({
    id: state.nextId(),
    orgId: acme.id,
    name: 'developers',
    description: 'Developers',
    permission: 'write',
    includesAllRepositories: false,
    canCreateOrgRepo: false,
    units: ['repo.code', 'repo.issues', 'repo.pulls', 'repo.releases'],
    members: new Set([bob.id]),
    repos: new Set([widgets.id]),
  });

  commitFiles(state, widgets, 'main', alice, 'Add service code and docs', [
    { path: 'src/index.ts', content: Buffer.from("export const hello = (): string => 'widgets';\n") },
    { path: 'docs/guide/intro.md', content: Buffer.from('# Introduction\n\nHow to use widgets.\n') },
    {
      path: '.editorconfig',
      content: Buffer.from('root = true\n\n[*]\nindent_style = space\nindent_size = 2\n'),
    },
    { path: 'config/.env', content: Buffer.from(secretFileContent()) },
  ]);
  const mainSha = widgets.branches.get('main')!;
  widgets.branches.set('release/v1', mainSha);
  widgets.tags.set('v1.0', { name: 'v1.0', sha: mainSha, message: 'v1.0', tagId: mainSha });
  widgets.tags.set('rel/1.0', { name: 'rel/1.0', sha: mainSha, message: 'release 1.0', tagId: mainSha });
  for (const tag of ['v1.0', 'rel/1.0']) {
    widgets.releases.push({
      id: state.nextId(),
      tagName: tag,
      target: 'main',
      name: `Release ${tag}`,
      body: `Notes for ${tag}`,
      draft: false,
      prerelease: false,
      authorId: alice.id,
      created: nowIso(state),
    });
  }
  widgets.branches.set('feature/x', mainSha);
  const head = commitFiles(state, widgets, 'feature/x', bob, 'Add feature x', [
    { path: 'src/feature-x.ts', content: Buffer.from('export const x = 42;\n') },
  ]);

  widgets.labels.push(
    {
      id: state.nextId(),
      name: 'bug',
      color: 'ee0701',
      description: 'Something is broken',
      exclusive: false,
      archived: false,
    },
    {
      id: state.nextId(),
      name: 'enhancement',
      color: '84b6eb',
      description: 'New feature',
      exclusive: false,
      archived: false,
    },
  );
  const date = nowIso(state);
  widgets.milestones.push({
    id: state.nextId(),
    title: 'v1.1',
    description: 'Next release',
    state: 'open',
    dueOn: null,
    created: date,
    updated: date,
    closedAt: null,
  });
  const bug = addIssue(state, widgets, bob, 'Crash on empty input', 'Steps: call hello with nothing.', {
    labels: [widgets.labels[0]!.id],
  });
  addIssue(state, widgets, alice, 'Document the widget API', 'We need docs.', {
    labels: [widgets.labels[1]!.id],
    milestoneId: widgets.milestones[0]!.id,
  });
  addIssue(state, widgets, alice, 'Old question', 'Answered.', { state: 'closed' });
  addIssue(state, widgets, bob, 'Add feature x', 'Implements x.', {
    pull: {
      id: state.nextId(),
      base: 'main',
      head: 'feature/x',
      headSha: head.sha,
      mergeBase: mainSha,
      merged: false,
      mergedAt: null,
      mergedBy: null,
      mergeSha: null,
      draft: false,
    },
  });
  widgets.comments.push({
    id: state.nextId(),
    issueId: bug.id,
    body: 'I can reproduce this.',
    userId: alice.id,
    created: date,
    updated: date,
  });
  widgets.statuses.push({
    id: state.nextId(),
    sha: mainSha,
    state: 'success',
    context: 'ci/build',
    description: 'Build passed',
    targetUrl: 'https://ci.example.com/builds/1',
    creatorId: alice.id,
    created: date,
  });

  commitFiles(state, internal, 'main', alice, 'Add settings', [
    { path: 'config/settings.yaml', content: Buffer.from('feature_flags:\n  beta: true\n') },
  ]);
  addIssue(state, internal, alice, 'Internal task', 'Only members see this.');

  addRepo(state, alice, 'notes', { private: true, description: 'Private notes' });
  addRepo(state, bob, 'sandbox', { description: 'Playground' });
}
