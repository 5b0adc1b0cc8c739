// A fast, minimal Gitea look-alike for the benchmark: precomputed JSON bodies, no routing
// framework, so that the figures measure the hop under test and not the simulator.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export const BENCH_OWNER = 'bench-org';
export const BENCH_REPO = 'bench-repo';
export const BENCH_LOGIN = 'bench-svc';
export const ISSUE_TOTAL = 120;
const DEFAULT_LIMIT = 30; // Gitea's default page size
const MAX_LIMIT = 50; // Gitea's maximum page size

const USER = {
  id: 7,
  login: BENCH_LOGIN,
  login_name: '',
  source_id: 0,
  full_name: 'Bench Service Account',
  email: 'bench-svc@example.invalid',
  avatar_url: 'https://gitea.example.invalid/avatars/0f3c8e9a1b2d4e5f6a7b8c9d0e1f2a3b',
  html_url: 'https://gitea.example.invalid/bench-svc',
  language: 'en-US',
  is_admin: false,
  last_login: '2026-10-01T08:00:00Z',
  created: '2025-01-15T10:20:30Z',
  restricted: false,
  active: true,
  prohibit_login: false,
  location: '',
  website: '',
  description: 'Service account used by the benchmark',
  visibility: 'public',
  followers_count: 0,
  following_count: 0,
  starred_repos_count: 0,
  username: BENCH_LOGIN,
};

/** A Gitea-shaped repository object of about 2 KB. */
export function repositoryObject(owner = BENCH_OWNER, name = BENCH_REPO): Record<string, unknown> {
  const base = `https://gitea.example.invalid/${owner}/${name}`;
  return {
    id: 4242,
    owner: { ...USER, id: 3, login: owner, username: owner, full_name: 'Bench Organisation', email: '' },
    name,
    full_name: `${owner}/${name}`,
    description:
      'Repository served by the benchmark upstream: a realistic, mid-sized Gitea repository object.',
    empty: false,
    private: false,
    fork: false,
    template: false,
    parent: null,
    mirror: false,
    size: 18744,
    language: 'TypeScript',
    languages_url: `https://gitea.example.invalid/api/v1/repos/${owner}/${name}/languages`,
    html_url: base,
    url: `https://gitea.example.invalid/api/v1/repos/${owner}/${name}`,
    link: '',
    ssh_url: `git@gitea.example.invalid:${owner}/${name}.git`,
    clone_url: `${base}.git`,
    original_url: '',
    website: '',
    stars_count: 12,
    forks_count: 3,
    watchers_count: 5,
    open_issues_count: ISSUE_TOTAL,
    open_pr_counter: 4,
    release_counter: 9,
    default_branch: 'main',
    archived: false,
    created_at: '2025-02-03T09:10:11Z',
    updated_at: '2026-10-01T12:13:14Z',
    archived_at: '1970-01-01T00:00:00Z',
    permissions: { admin: false, push: true, pull: true },
    has_issues: true,
    internal_tracker: {
      enable_time_tracker: true,
      allow_only_contributors_to_track_time: true,
      enable_issue_dependencies: true,
    },
    has_wiki: true,
    has_pull_requests: true,
    has_projects: true,
    has_releases: true,
    has_packages: true,
    has_actions: true,
    ignore_whitespace_conflicts: false,
    allow_merge_commits: true,
    allow_rebase: true,
    allow_rebase_explicit: true,
    allow_squash_merge: true,
    allow_fast_forward_only_merge: false,
    allow_rebase_update: true,
    default_delete_branch_after_merge: false,
    default_merge_style: 'merge',
    default_allow_maintainer_edit: false,
    avatar_url: '',
    internal: false,
    mirror_interval: '',
    object_format_name: 'sha1',
    mirror_updated: '0001-01-01T00:00:00Z',
    repo_transfer: null,
    topics: ['mcp', 'gitea', 'benchmark'],
    licenses: ['MIT'],
  };
}

export function issueObject(n: number, owner = BENCH_OWNER, name = BENCH_REPO): Record<string, unknown> {
  const base = `https://gitea.example.invalid/${owner}/${name}`;
  return {
    id: 90000 + n,
    url: `https://gitea.example.invalid/api/v1/repos/${owner}/${name}/issues/${n}`,
    html_url: `${base}/issues/${n}`,
    number: n,
    user: { ...USER, id: 11, login: 'alice', username: 'alice', full_name: 'Alice Example' },
    original_author: '',
    original_author_id: 0,
    title: `Issue ${n}: pagination of the activity feed skips entries under load`,
    body:
      'When the feed holds more than one page, the second page repeats the last item of the first.\n\n' +
      'Steps: open the feed, scroll, compare. Expected: no duplicates. Seen on 1.27.',
    ref: '',
    assets: [],
    labels: [
      {
        id: 1,
        name: 'kind/bug',
        exclusive: false,
        is_archived: false,
        color: 'ee0701',
        description: 'Something is not working',
        url: `${base}/labels/1`,
      },
    ],
    milestone: null,
    assignee: null,
    assignees: null,
    state: 'open',
    is_locked: false,
    comments: n % 7,
    created_at: '2026-09-01T10:00:00Z',
    updated_at: '2026-09-30T18:45:00Z',
    closed_at: null,
    due_date: null,
    time_estimate: 0,
    pull_request: null,
    repository: { id: 4242, name, owner, full_name: `${owner}/${name}` },
    pin_order: 0,
  };
}

/** Reads page/limit the way Gitea does: missing or invalid → defaults, limit capped. */
export function parsePaging(query: URLSearchParams): { page: number; limit: number } {
  const page = Number.parseInt(query.get('page') ?? '', 10);
  const limit = Number.parseInt(query.get('limit') ?? '', 10);
  return {
    page: Number.isFinite(page) && page > 0 ? page : 1,
    limit: Number.isFinite(limit) && limit > 0 ? Math.min(limit, MAX_LIMIT) : DEFAULT_LIMIT,
  };
}

/**
 * Gitea's `Link` header (routers/api/v1 SetLinkHeader): next, last, first, prev, comma-joined,
 * each the request URL with `page` replaced and the query re-encoded in key order.
 */
export function giteaLinkHeader(
  appUrl: string,
  pathAndQuery: URL,
  total: number,
  limit: number,
  page: number,
): string | null {
  const lastPage = Math.max(1, Math.ceil(total / limit));
  const link = (p: number, rel: string): string => {
    const q = new URLSearchParams(pathAndQuery.searchParams);
    q.set('page', String(p));
    q.sort();
    return `<${appUrl}${pathAndQuery.pathname.slice(1)}?${q.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page < lastPage) links.push(link(page + 1, 'next'), link(lastPage, 'last'));
  if (page > 1) links.push(link(1, 'first'), link(Math.min(page - 1, lastPage), 'prev'));
  return links.length ? links.join(',') : null;
}

export type FakeGitea = { server: http.Server; url: string; close(): Promise<void> };

/** Starts the upstream on 127.0.0.1 (port 0 = ephemeral). Any non-empty Authorization is accepted. */
export async function startFakeGitea(port = 0): Promise<FakeGitea> {
  const json = (v: unknown): Buffer => Buffer.from(JSON.stringify(v));
  const repoBody = json(repositoryObject());
  const userBody = json(USER);
  const versionBody = json({ version: '1.27.1' });
  const issues = Array.from({ length: ISSUE_TOTAL }, (_, i) => json(issueObject(ISSUE_TOTAL - i)));
  let appUrl = 'http://127.0.0.1/';
  const repoPath = `/api/v1/repos/${BENCH_OWNER}/${BENCH_REPO}`;

  const send = (
    res: http.ServerResponse,
    status: number,
    body: Buffer,
    extra: Record<string, string> = {},
  ): void => {
    res.writeHead(status, {
      'content-type': 'application/json;charset=utf-8',
      'content-length': body.length,
      ...extra,
    });
    res.end(body);
  };

  const server = http.createServer((req, res) => {
    req.resume(); // bodies are ignored; drain so keep-alive works
    const url = new URL(req.url ?? '/', appUrl);
    if (req.method !== 'GET') return send(res, 405, json({ message: 'method not allowed' }));
    if (url.pathname === '/api/v1/version') return send(res, 200, versionBody);
    if (!req.headers.authorization)
      return send(res, 401, json({ message: 'token is required', url: appUrl + 'api/swagger' }));
    if (url.pathname === '/api/v1/user') return send(res, 200, userBody);
    if (url.pathname === repoPath) return send(res, 200, repoBody);
    if (url.pathname === `${repoPath}/issues`) {
      const { page, limit } = parsePaging(url.searchParams);
      const start = (page - 1) * limit;
      const items = issues.slice(start, start + limit);
      const body = Buffer.concat([
        Buffer.from('['),
        ...items.flatMap((b, i) => (i ? [Buffer.from(','), b] : [b])),
        Buffer.from(']'),
      ]);
      const headers: Record<string, string> = {
        'x-total-count': String(ISSUE_TOTAL),
        'access-control-expose-headers': 'X-Total-Count, Link',
      };
      const link = giteaLinkHeader(appUrl, url, ISSUE_TOTAL, limit, page);
      if (link) headers.link = link;
      return send(res, 200, body, headers);
    }
    return send(res, 404, json({ errors: null, message: 'not found', url: appUrl + 'api/swagger' }));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const addr = server.address() as AddressInfo;
  appUrl = `http://127.0.0.1:${addr.port}/`;
  return {
    server,
    url: `http://127.0.0.1:${addr.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
