// The simulator's in-memory Gitea: users, orgs, teams, repos with a tiny git model (commits
// holding full file snapshots), issues, pulls, statuses, hooks, Actions data, tokens, OAuth.
import { createHash, randomBytes } from 'node:crypto';

export type User = {
  id: number;
  login: string;
  fullName: string;
  email: string;
  password: string;
  isAdmin: boolean;
  isOrg: boolean;
  /** Gitea's is_active (false: not activated, or deactivated by an admin). */
  isActive: boolean;
  /** Gitea's prohibit_login ("suspended" in the admin UI). */
  prohibitLogin: boolean;
  visibility: 'public' | 'limited' | 'private';
  description: string;
  website: string;
  location: string;
  created: string;
};

export type Team = {
  id: number;
  orgId: number;
  name: string;
  description: string;
  permission: 'read' | 'write' | 'admin' | 'owner';
  includesAllRepositories: boolean;
  canCreateOrgRepo: boolean;
  units: string[];
  members: Set<number>;
  repos: Set<number>;
};

export type Commit = {
  sha: string;
  parents: string[];
  message: string;
  authorId: number;
  date: string;
  tree: Map<string, Buffer>;
  changed: { path: string; status: 'added' | 'modified' | 'removed' }[];
};

export type TagRef = { name: string; sha: string; message: string; tagId: string };

export type Release = {
  id: number;
  tagName: string;
  target: string;
  name: string;
  body: string;
  draft: boolean;
  prerelease: boolean;
  authorId: number;
  created: string;
};

export type Label = {
  id: number;
  name: string;
  color: string;
  description: string;
  exclusive: boolean;
  archived: boolean;
};
export type Milestone = {
  id: number;
  title: string;
  description: string;
  state: 'open' | 'closed';
  dueOn: string | null;
  created: string;
  updated: string;
  closedAt: string | null;
};

export type Issue = {
  id: number;
  number: number;
  title: string;
  body: string;
  userId: number;
  state: 'open' | 'closed';
  labels: number[];
  milestoneId: number | null;
  assignees: number[];
  created: string;
  updated: string;
  closedAt: string | null;
  isLocked: boolean;
  pull?: {
    id: number;
    base: string;
    head: string;
    headSha: string;
    mergeBase: string;
    merged: boolean;
    mergedAt: string | null;
    mergedBy: number | null;
    mergeSha: string | null;
    draft: boolean;
  };
};

export type IssueComment = {
  id: number;
  issueId: number;
  body: string;
  userId: number;
  created: string;
  updated: string;
};

export type CommitStatus = {
  id: number;
  sha: string;
  state: string;
  context: string;
  description: string;
  targetUrl: string;
  creatorId: number;
  created: string;
};

export type Hook = {
  id: number;
  type: string;
  config: Record<string, string>;
  events: string[];
  active: boolean;
  branchFilter: string;
  authorizationHeader: string;
  created: string;
  updated: string;
};

export type Secret = { name: string; data: string; description: string; created: string };
export type Variable = { name: string; value: string; description: string; ownerId: number; repoId: number };

export type Repo = {
  id: number;
  ownerId: number;
  name: string;
  description: string;
  website: string;
  private: boolean;
  template: boolean;
  archived: boolean;
  defaultBranch: string;
  created: string;
  updated: string;
  forkOf: number | null;
  hasIssues: boolean;
  hasWiki: boolean;
  hasPullRequests: boolean;
  topics: string[];
  commits: Map<string, Commit>;
  branches: Map<string, string>;
  tags: Map<string, TagRef>;
  releases: Release[];
  issues: Issue[];
  comments: IssueComment[];
  labels: Label[];
  milestones: Milestone[];
  statuses: CommitStatus[];
  hooks: Hook[];
  collaborators: Map<number, 'read' | 'write' | 'admin'>;
  secrets: Map<string, Secret>;
  variables: Map<string, Variable>;
};

export type AccessToken = {
  id: number;
  userId: number;
  name: string;
  token: string;
  scopes: string[];
  created: string;
  lastUsed: string | null;
};

export type OAuthApp = {
  id: number;
  userId: number;
  name: string;
  clientId: string;
  clientSecretHash: string;
  redirectUris: string[];
  confidential: boolean;
  skipSecondaryAuthorization: boolean;
  created: string;
};

export type OAuthGrant = {
  id: number;
  appId: number;
  userId: number;
  counter: number;
  scope: string;
  created: string;
};
export type OAuthCode = {
  code: string;
  appId: number;
  userId: number;
  grantId: number;
  redirectUri: string;
  challenge: string;
  challengeMethod: string;
  expiresAt: number;
  used: boolean;
};

export type SimState = {
  users: User[];
  teams: Team[];
  orgMembers: Map<number, Set<number>>;
  repos: Repo[];
  tokens: AccessToken[];
  oauthApps: OAuthApp[];
  oauthGrants: OAuthGrant[];
  oauthCodes: Map<string, OAuthCode>;
  orgSecrets: Map<number, Map<string, Secret>>;
  orgVariables: Map<number, Map<string, Variable>>;
  userSecrets: Map<number, Map<string, Secret>>;
  userVariables: Map<number, Map<string, Variable>>;
  orgHooks: Map<number, Hook[]>;
  orgLabels: Map<number, Label[]>;
  runnerTokens: Map<string, string>;
  nextId: () => number;
  /** Simulated clock offset in ms, so tests can expire OAuth tokens without waiting. */
  clockOffsetMs: number;
};

export const sha1 = (data: string | Buffer): string => createHash('sha1').update(data).digest('hex');
export const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
/** Git's blob id: sha1("blob <len>\0<content>"). */
export const blobSha = (content: Buffer): string =>
  sha1(Buffer.concat([Buffer.from(`blob ${content.length}\0`), content]));
export const newToken = (): string => randomBytes(20).toString('hex');

export function nowIso(state: SimState): string {
  return new Date(Date.now() + state.clockOffsetMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function createState(): SimState {
  let id = 0;
  return {
    users: [],
    teams: [],
    orgMembers: new Map(),
    repos: [],
    tokens: [],
    oauthApps: [],
    oauthGrants: [],
    oauthCodes: new Map(),
    orgSecrets: new Map(),
    orgVariables: new Map(),
    userSecrets: new Map(),
    userVariables: new Map(),
    orgHooks: new Map(),
    orgLabels: new Map(),
    runnerTokens: new Map(),
    nextId: () => ++id,
    clockOffsetMs: 0,
  };
}

export function addUser(
  state: SimState,
  login: string,
  opts: Partial<
    Pick<User, 'isAdmin' | 'isOrg' | 'visibility' | 'fullName' | 'email' | 'password' | 'description'>
  > = {},
): User {
  const user: User = {
    id: state.nextId(),
    login,
    fullName: opts.fullName ?? '',
    email: opts.email ?? `${login}@example.com`,
    password: opts.password ?? `${login}-password`,
    isAdmin: opts.isAdmin ?? false,
    isOrg: opts.isOrg ?? false,
    isActive: true,
    prohibitLogin: false,
    visibility: opts.visibility ?? 'public',
    description: opts.description ?? '',
    website: '',
    location: '',
    created: nowIso(state),
  };
  state.users.push(user);
  return user;
}

export function addOrg(
  state: SimState,
  name: string,
  owner: User,
  opts: { visibility?: User['visibility']; description?: string } = {},
): User {
  const org = addUser(state, name, {
    isOrg: true,
    visibility: opts.visibility,
    description: opts.description,
    email: '',
  });
  state.teams.push({
    id: state.nextId(),
    orgId: org.id,
    name: 'Owners',
    description: '',
    permission: 'owner',
    includesAllRepositories: true,
    canCreateOrgRepo: true,
    units: ['repo.code', 'repo.issues', 'repo.pulls', 'repo.releases', 'repo.wiki', 'repo.actions'],
    members: new Set([owner.id]),
    repos: new Set(),
  });
  state.orgMembers.set(org.id, new Set([owner.id]));
  return org;
}

export function commitFiles(
  state: SimState,
  repo: Repo,
  branch: string,
  author: User,
  message: string,
  changes: { path: string; content: Buffer | null }[],
): Commit {
  const parentSha = repo.branches.get(branch);
  const parent = parentSha ? repo.commits.get(parentSha) : undefined;
  const tree = new Map(parent?.tree ?? []);
  const changed: Commit['changed'] = [];
  for (const c of changes) {
    if (c.content === null) {
      tree.delete(c.path);
      changed.push({ path: c.path, status: 'removed' });
    } else {
      changed.push({ path: c.path, status: tree.has(c.path) ? 'modified' : 'added' });
      tree.set(c.path, c.content);
    }
  }
  const date = nowIso(state);
  const sha = sha1(
    `${parentSha ?? ''}\n${message}\n${date}\n${state.nextId()}\n${[...tree.keys()].join(',')}`,
  );
  const commit: Commit = {
    sha,
    parents: parentSha ? [parentSha] : [],
    message,
    authorId: author.id,
    date,
    tree,
    changed,
  };
  repo.commits.set(sha, commit);
  repo.branches.set(branch, sha);
  repo.updated = date;
  return commit;
}

export function addRepo(
  state: SimState,
  owner: User,
  name: string,
  opts: { private?: boolean; description?: string; autoInit?: boolean; defaultBranch?: string } = {},
): Repo {
  const date = nowIso(state);
  const repo: Repo = {
    id: state.nextId(),
    ownerId: owner.id,
    name,
    description: opts.description ?? '',
    website: '',
    private: opts.private ?? false,
    template: false,
    archived: false,
    defaultBranch: opts.defaultBranch ?? 'main',
    created: date,
    updated: date,
    forkOf: null,
    hasIssues: true,
    hasWiki: true,
    hasPullRequests: true,
    topics: [],
    commits: new Map(),
    branches: new Map(),
    tags: new Map(),
    releases: [],
    issues: [],
    comments: [],
    labels: [],
    milestones: [],
    statuses: [],
    hooks: [],
    collaborators: new Map(),
    secrets: new Map(),
    variables: new Map(),
  };
  state.repos.push(repo);
  if (opts.autoInit !== false) {
    const author = owner.isOrg
      ? (state.users.find((u) => state.orgMembers.get(owner.id)?.has(u.id)) ?? owner)
      : owner;
    commitFiles(state, repo, repo.defaultBranch, author, 'Initial commit', [
      { path: 'README.md', content: Buffer.from(`# ${name}\n\n${repo.description}\n`) },
    ]);
  }
  return repo;
}

export function addToken(
  state: SimState,
  user: User,
  name: string,
  scopes: string[],
  token = newToken(),
): AccessToken {
  const t: AccessToken = {
    id: state.nextId(),
    userId: user.id,
    name,
    token,
    scopes,
    created: nowIso(state),
    lastUsed: null,
  };
  state.tokens.push(t);
  return t;
}

export function addIssue(
  state: SimState,
  repo: Repo,
  user: User,
  title: string,
  body: string,
  extra: Partial<Pick<Issue, 'labels' | 'pull' | 'state' | 'assignees' | 'milestoneId'>> = {},
): Issue {
  const date = nowIso(state);
  const issue: Issue = {
    id: state.nextId(),
    number: repo.issues.length + 1,
    title,
    body,
    userId: user.id,
    state: extra.state ?? 'open',
    labels: extra.labels ?? [],
    milestoneId: extra.milestoneId ?? null,
    assignees: extra.assignees ?? [],
    created: date,
    updated: date,
    closedAt: extra.state === 'closed' ? date : null,
    isLocked: false,
    pull: extra.pull,
  };
  repo.issues.push(issue);
  return issue;
}
