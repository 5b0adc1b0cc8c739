// State -> API objects, shaped like Gitea's services/convert (field names and types as the
// swagger declares; nil pointers become null as Go's encoder writes them).
import {
  blobSha,
  type Commit,
  type Hook,
  type Issue,
  type Label,
  type Milestone,
  type Release,
  type Repo,
  type SimState,
  type Team,
  type User,
} from './state';
import { repoPerm, permAtLeast, type World } from './context';

const userById = (s: SimState, id: number): User => s.users.find((u) => u.id === id)!;
const root = (w: World): string => `${w.baseUrl}/`;
const avatar = (w: World, u: User): string => `${root(w)}avatars/${u.id.toString(16).padStart(32, '0')}`;

export function toUser(w: World, u: User, viewer?: User | null): Record<string, unknown> {
  const self = !!viewer && (viewer.id === u.id || viewer.isAdmin);
  return {
    id: u.id,
    login: u.login,
    login_name: '',
    source_id: 0,
    full_name: u.fullName,
    // Gitea shows the address to signed-in viewers, a placeholder otherwise (and for orgs without one)
    email: (viewer || self) && u.email ? u.email : `${u.login}@noreply.localhost`,
    avatar_url: avatar(w, u),
    html_url: `${root(w)}${u.login}`,
    language: '',
    is_admin: u.isAdmin,
    last_login: '0001-01-01T00:00:00Z',
    created: u.created,
    restricted: false,
    active: u.isActive,
    prohibit_login: u.prohibitLogin,
    location: u.location,
    website: u.website,
    description: u.description,
    visibility: u.visibility,
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
  };
}

export function toOrg(w: World, o: User): Record<string, unknown> {
  return {
    id: o.id,
    name: o.login,
    full_name: o.fullName,
    email: o.email,
    avatar_url: avatar(w, o),
    description: o.description,
    website: o.website,
    location: o.location,
    visibility: o.visibility,
    repo_admin_change_team_access: false,
    username: o.login,
  };
}

export function toTeam(w: World, s: SimState, t: Team): Record<string, unknown> {
  const unitsMap: Record<string, string> = {};
  const unitPerm = t.permission === 'owner' ? 'admin' : t.permission;
  for (const u of t.units) unitsMap[u] = unitPerm;
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    organization: toOrg(w, userById(s, t.orgId)),
    includes_all_repositories: t.includesAllRepositories,
    permission: t.permission,
    units: t.units,
    units_map: unitsMap,
    can_create_org_repo: t.canCreateOrgRepo,
  };
}

export function toRepo(w: World, s: SimState, r: Repo, viewer: User | null): Record<string, unknown> {
  const owner = userById(s, r.ownerId);
  const perm = repoPerm(s, r, viewer);
  const full = `${owner.login}/${r.name}`;
  const open = r.issues.filter((i) => !i.pull && i.state === 'open').length;
  const openPr = r.issues.filter((i) => i.pull && i.state === 'open').length;
  const parent = r.forkOf ? s.repos.find((x) => x.id === r.forkOf) : undefined;
  const host = new URL(w.baseUrl).hostname;
  return {
    id: r.id,
    owner: toUser(w, owner, viewer),
    name: r.name,
    full_name: full,
    description: r.description,
    empty: r.commits.size === 0,
    private: r.private,
    fork: r.forkOf !== null,
    template: r.template,
    parent: parent ? toRepo(w, s, parent, viewer) : null,
    mirror: false,
    size: 0,
    language: '',
    languages_url: `${w.baseUrl}/api/v1/repos/${full}/languages`,
    html_url: `${root(w)}${full}`,
    url: `${w.baseUrl}/api/v1/repos/${full}`,
    link: '',
    ssh_url: `git@${host}:${full}.git`,
    clone_url: `${root(w)}${full}.git`,
    original_url: '',
    website: r.website,
    stars_count: 0,
    forks_count: s.repos.filter((x) => x.forkOf === r.id).length,
    watchers_count: 1,
    open_issues_count: open,
    open_pr_counter: openPr,
    release_counter: r.releases.filter((x) => !x.draft).length,
    default_branch: r.defaultBranch,
    archived: r.archived,
    created_at: r.created,
    updated_at: r.updated,
    archived_at: '1970-01-01T00:00:00Z',
    permissions: {
      admin: permAtLeast(perm, 'admin'),
      push: permAtLeast(perm, 'write'),
      pull: permAtLeast(perm, 'read'),
    },
    has_code: true,
    has_issues: r.hasIssues,
    internal_tracker: {
      enable_time_tracker: true,
      allow_only_contributors_to_track_time: true,
      enable_issue_dependencies: true,
    },
    has_wiki: r.hasWiki,
    has_pull_requests: r.hasPullRequests,
    has_projects: true,
    projects_mode: 'all',
    has_releases: true,
    has_packages: true,
    has_actions: true,
    ignore_whitespace_conflicts: false,
    allow_merge_commits: true,
    allow_rebase: true,
    allow_rebase_explicit: true,
    allow_squash_merge: true,
    allow_fast_forward_only_merge: true,
    allow_rebase_update: true,
    allow_manual_merge: false,
    autodetect_manual_merge: false,
    default_delete_branch_after_merge: false,
    default_merge_style: 'merge',
    default_allow_maintainer_edit: false,
    default_update_style: 'merge',
    avatar_url: '',
    internal: false,
    mirror_interval: '',
    object_format_name: 'sha1',
    mirror_updated: '0001-01-01T00:00:00Z',
    repo_transfer: null,
    topics: r.topics,
    licenses: [],
  };
}

export function toRepoMeta(s: SimState, r: Repo): Record<string, unknown> {
  return {
    id: r.id,
    name: r.name,
    owner: userById(s, r.ownerId).login,
    full_name: `${userById(s, r.ownerId).login}/${r.name}`,
  };
}

const repoBase = (w: World, s: SimState, r: Repo): string =>
  `${w.baseUrl}/api/v1/repos/${userById(s, r.ownerId).login}/${r.name}`;
const repoHtml = (w: World, s: SimState, r: Repo): string =>
  `${root(w)}${userById(s, r.ownerId).login}/${r.name}`;
const encPath = (p: string): string => p.split('/').map(encodeURIComponent).join('/');

export function toPayloadUser(u: User): Record<string, unknown> {
  return { name: u.fullName || u.login, email: u.email, username: u.login };
}

export function toPayloadCommit(w: World, s: SimState, r: Repo, c: Commit): Record<string, unknown> {
  const u = userById(s, c.authorId);
  return {
    id: c.sha,
    message: c.message + '\n',
    url: `${repoHtml(w, s, r)}/commit/${c.sha}`,
    author: toPayloadUser(u),
    committer: toPayloadUser(u),
    verification: null,
    timestamp: c.date,
    added: null,
    removed: null,
    modified: null,
  };
}

export function toBranch(
  w: World,
  s: SimState,
  r: Repo,
  name: string,
  viewer: User | null,
): Record<string, unknown> {
  const c = r.commits.get(r.branches.get(name)!)!;
  const canPush = permAtLeast(repoPerm(s, r, viewer), 'write');
  return {
    name,
    commit: toPayloadCommit(w, s, r, c),
    protected: false,
    required_approvals: 0,
    enable_status_check: false,
    status_check_contexts: [],
    user_can_push: canPush,
    user_can_merge: canPush,
    effective_branch_protection_name: '',
  };
}

export function toCommitUser(u: User, date: string): Record<string, unknown> {
  return { name: u.fullName || u.login, email: u.email, date };
}

export function toCommit(
  w: World,
  s: SimState,
  r: Repo,
  c: Commit,
  viewer: User | null,
  withFiles = true,
): Record<string, unknown> {
  const u = userById(s, c.authorId);
  const base = repoBase(w, s, r);
  return {
    url: `${base}/git/commits/${c.sha}`,
    sha: c.sha,
    created: c.date,
    html_url: `${repoHtml(w, s, r)}/commit/${c.sha}`,
    commit: {
      url: `${base}/git/commits/${c.sha}`,
      author: toCommitUser(u, c.date),
      committer: toCommitUser(u, c.date),
      message: c.message + '\n',
      tree: { url: `${base}/git/trees/${c.sha}`, sha: c.sha, created: c.date },
      verification: {
        verified: false,
        reason: 'gpg.error.not_signed_commit',
        signature: '',
        signer: null,
        payload: '',
      },
    },
    author: toUser(w, u, viewer),
    committer: toUser(w, u, viewer),
    parents: c.parents.map((p) => ({ url: `${base}/git/commits/${p}`, sha: p, created: c.date })),
    files: withFiles ? c.changed.map((f) => ({ filename: f.path, status: f.status })) : null,
    stats: withFiles
      ? { total: c.changed.length * 2, additions: c.changed.length, deletions: c.changed.length }
      : null,
  };
}

export function toContent(
  w: World,
  s: SimState,
  r: Repo,
  ref: string,
  commit: Commit,
  path: string,
  withContent: boolean,
): Record<string, unknown> {
  const base = repoBase(w, s, r);
  const html = repoHtml(w, s, r);
  const file = commit.tree.get(path);
  const isDir = !file;
  const sha = file ? blobSha(file) : commit.sha;
  const name = path.split('/').pop() ?? path;
  const self = `${base}/contents/${encPath(path)}?ref=${encodeURIComponent(ref)}`;
  const git = `${base}/git/${isDir ? 'trees' : 'blobs'}/${sha}`;
  const htmlUrl = `${html}/src/branch/${encPath(ref)}/${encPath(path)}`;
  return {
    name,
    path,
    sha,
    last_commit_sha: commit.sha,
    last_commit_message: commit.message,
    last_author_date: commit.date,
    last_committer_date: commit.date,
    type: isDir ? 'dir' : 'file',
    size: file?.length ?? 0,
    encoding: withContent && file ? 'base64' : null,
    content: withContent && file ? file.toString('base64') : null,
    target: null,
    url: self,
    html_url: htmlUrl,
    git_url: git,
    download_url: isDir ? null : `${html}/raw/branch/${encPath(ref)}/${encPath(path)}`,
    submodule_git_url: null,
    _links: { self, git, html: htmlUrl },
  };
}

export function toLabel(w: World, base: string, l: Label): Record<string, unknown> {
  return {
    id: l.id,
    name: l.name,
    exclusive: l.exclusive,
    is_archived: l.archived,
    color: l.color,
    description: l.description,
    url: `${base}/labels/${l.id}`,
  };
}

export function toMilestone(r: Repo, m: Milestone): Record<string, unknown> {
  const issues = r.issues.filter((i) => i.milestoneId === m.id);
  return {
    id: m.id,
    title: m.title,
    description: m.description,
    state: m.state,
    open_issues: issues.filter((i) => i.state === 'open').length,
    closed_issues: issues.filter((i) => i.state === 'closed').length,
    created_at: m.created,
    updated_at: m.updated,
    closed_at: m.closedAt,
    due_on: m.dueOn,
  };
}

export function toIssue(
  w: World,
  s: SimState,
  r: Repo,
  i: Issue,
  viewer: User | null,
): Record<string, unknown> {
  const base = repoBase(w, s, r);
  const html = repoHtml(w, s, r);
  const assignees = i.assignees.map((id) => toUser(w, userById(s, id), viewer));
  const milestone = r.milestones.find((m) => m.id === i.milestoneId);
  const kind = i.pull ? 'pulls' : 'issues';
  return {
    id: i.id,
    url: `${base}/issues/${i.number}`,
    html_url: `${html}/${kind}/${i.number}`,
    number: i.number,
    user: toUser(w, userById(s, i.userId), viewer),
    original_author: '',
    original_author_id: 0,
    title: i.title,
    body: i.body,
    ref: '',
    assets: [],
    labels: i.labels
      .map((id) => r.labels.find((l) => l.id === id))
      .filter((l): l is Label => !!l)
      .map((l) => toLabel(w, base, l)),
    milestone: milestone ? toMilestone(r, milestone) : null,
    assignee: assignees[0] ?? null,
    assignees: assignees.length ? assignees : null,
    state: i.state,
    is_locked: i.isLocked,
    comments: r.comments.filter((c) => c.issueId === i.id).length,
    created_at: i.created,
    updated_at: i.updated,
    closed_at: i.closedAt,
    due_date: null,
    time_estimate: 0,
    pull_request: i.pull
      ? {
          merged: i.pull.merged,
          merged_at: i.pull.mergedAt,
          draft: i.pull.draft,
          html_url: `${html}/pulls/${i.number}`,
        }
      : null,
    repository: toRepoMeta(s, r),
    pin_order: 0,
    content_version: 0,
  };
}

export function toPull(
  w: World,
  s: SimState,
  r: Repo,
  i: Issue,
  viewer: User | null,
): Record<string, unknown> {
  const p = i.pull!;
  const issue = toIssue(w, s, r, i, viewer);
  const html = repoHtml(w, s, r);
  const repoJson = toRepo(w, s, r, viewer);
  const branchInfo = (ref: string, sha: string): Record<string, unknown> => ({
    label: ref,
    ref,
    sha,
    repo_id: r.id,
    repo: repoJson,
  });
  return {
    id: p.id,
    url: `${html}/pulls/${i.number}`,
    number: i.number,
    user: issue.user,
    title: i.title,
    body: i.body,
    labels: issue.labels,
    milestone: issue.milestone,
    assignee: issue.assignee,
    assignees: issue.assignees,
    requested_reviewers: [],
    requested_reviewers_teams: [],
    state: i.state,
    draft: p.draft,
    is_locked: i.isLocked,
    comments: issue.comments,
    review_comments: 0,
    additions: 1,
    deletions: 0,
    changed_files: 1,
    html_url: `${html}/pulls/${i.number}`,
    diff_url: `${html}/pulls/${i.number}.diff`,
    patch_url: `${html}/pulls/${i.number}.patch`,
    mergeable: !p.merged && i.state === 'open',
    merged: p.merged,
    merged_at: p.mergedAt,
    merge_commit_sha: p.mergeSha,
    merged_by: p.mergedBy ? toUser(w, userById(s, p.mergedBy), viewer) : null,
    allow_maintainer_edit: false,
    base: branchInfo(p.base, r.branches.get(p.base) ?? p.mergeBase),
    head: branchInfo(p.head, r.branches.get(p.head) ?? p.headSha),
    merge_base: p.mergeBase,
    due_date: null,
    created_at: i.created,
    updated_at: i.updated,
    closed_at: i.closedAt,
    pin_order: 0,
    content_version: 0,
  };
}

export function toRelease(
  w: World,
  s: SimState,
  r: Repo,
  rel: Release,
  viewer: User | null,
): Record<string, unknown> {
  const base = repoBase(w, s, r);
  const html = repoHtml(w, s, r);
  return {
    id: rel.id,
    tag_name: rel.tagName,
    target_commitish: rel.target,
    name: rel.name,
    body: rel.body,
    url: `${base}/releases/${rel.id}`,
    html_url: `${html}/releases/tag/${encPath(rel.tagName)}`,
    tarball_url: `${html}/archive/${encPath(rel.tagName)}.tar.gz`,
    zipball_url: `${html}/archive/${encPath(rel.tagName)}.zip`,
    upload_url: `${base}/releases/${rel.id}/assets`,
    draft: rel.draft,
    prerelease: rel.prerelease,
    created_at: rel.created,
    published_at: rel.created,
    author: toUser(w, userById(s, rel.authorId), viewer),
    assets: [],
  };
}

export function toTag(w: World, s: SimState, r: Repo, name: string): Record<string, unknown> {
  const t = r.tags.get(name)!;
  const html = repoHtml(w, s, r);
  const c = r.commits.get(t.sha)!;
  return {
    name,
    message: t.message,
    id: t.tagId,
    commit: { url: `${repoBase(w, s, r)}/git/commits/${t.sha}`, sha: t.sha, created: c.date },
    zipball_url: `${html}/archive/${encPath(name)}.zip`,
    tarball_url: `${html}/archive/${encPath(name)}.tar.gz`,
  };
}

export function toHook(h: Hook): Record<string, unknown> {
  return {
    id: h.id,
    type: h.type,
    branch_filter: h.branchFilter,
    config: h.config,
    events: h.events,
    authorization_header: h.authorizationHeader,
    active: h.active,
    updated_at: h.updated,
    created_at: h.created,
  };
}
