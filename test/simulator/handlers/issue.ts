// Issues, comments, labels, milestones and pull requests.
import {
  bodyOf,
  findUser,
  intParam,
  loadRepo,
  paged,
  permAtLeast,
  repoPerm,
  requireFields,
  requireUser,
  type Ctx,
  type Handler,
} from '../context';
import { toIssue, toLabel, toMilestone, toPull, toUser } from '../convert';
import { formatPatch, treeDiff } from '../git.util';
import { conflict, empty, forbidden, HttpError, json, notFound, unprocessable } from '../http.util';
import {
  addIssue,
  commitFiles,
  nowIso,
  type Issue,
  type IssueComment,
  type Label,
  type Repo,
} from '../state';
import { resolveRef, withCommitHeaders } from './repo';

const repoApi = (ctx: Ctx, repo: Repo): string =>
  `${ctx.world.baseUrl}/api/v1/repos/${ctx.params.owner}/${repo.name}`;

function findIssue(ctx: Ctx, repo: Repo, param = 'index'): Issue {
  const n = intParam(ctx, param);
  const i = repo.issues.find((x) => x.number === n);
  if (!i) throw notFound('issue does not exist');
  return i;
}

function canEditIssue(ctx: Ctx, repo: Repo, issue: Issue): void {
  const user = requireUser(ctx);
  if (issue.userId !== user.id && !permAtLeast(repoPerm(ctx.state, repo, user), 'write'))
    throw forbidden('user is not allowed to edit issue');
}

function labelIds(repo: Repo, ctx: Ctx, input: unknown[]): number[] {
  const orgLabels = ctx.state.orgLabels.get(repo.ownerId) ?? [];
  return input.map((x) => {
    const l = [...repo.labels, ...orgLabels].find((y) => y.id === Number(x) || y.name === x);
    if (!l) throw unprocessable(`label does not exist [label_id: ${String(x)}]`);
    return l.id;
  });
}

function issueList(ctx: Ctx, repo: Repo, pulls: boolean | null): Issue[] {
  const state = ctx.query.get('state') ?? 'open';
  const q = (ctx.query.get('q') ?? '').toLowerCase();
  const labels = (ctx.query.get('labels') ?? '').split(',').filter(Boolean);
  const type = ctx.query.get('type');
  const created = ctx.query.get('created_by');
  return repo.issues
    .filter((i) =>
      pulls === null
        ? type === 'pulls'
          ? !!i.pull
          : type === 'issues'
            ? !i.pull
            : true
        : !!i.pull === pulls,
    )
    .filter((i) => state === 'all' || i.state === state)
    .filter((i) => !q || i.title.toLowerCase().includes(q) || i.body.toLowerCase().includes(q))
    .filter(
      (i) =>
        !labels.length ||
        labels.every((n) => i.labels.some((id) => repo.labels.find((l) => l.id === id)?.name === n)),
    )
    .filter((i) => !created || ctx.state.users.find((u) => u.id === i.userId)?.login === created)
    .slice()
    .reverse();
}

const commentJson = (ctx: Ctx, repo: Repo) => (c: IssueComment) => {
  const issue = repo.issues.find((i) => i.id === c.issueId)!;
  const html = `${ctx.world.baseUrl}/${ctx.params.owner}/${repo.name}/${issue.pull ? 'pulls' : 'issues'}/${issue.number}`;
  return {
    id: c.id,
    html_url: `${html}#issuecomment-${c.id}`,
    pull_request_url: issue.pull ? html : '',
    issue_url: issue.pull ? '' : html,
    user: toUser(
      ctx.world,
      ctx.state.users.find((u) => u.id === c.userId)!,
      ctx.doer,
    ),
    original_author: '',
    original_author_id: 0,
    body: c.body,
    assets: [],
    created_at: c.created,
    updated_at: c.updated,
  };
};

function findComment(ctx: Ctx, repo: Repo): IssueComment {
  const c = repo.comments.find((x) => x.id === intParam(ctx, 'id'));
  if (!c) throw notFound('comment does not exist');
  return c;
}

function editComment(ctx: Ctx): ReturnType<Handler> {
  const { repo, perm } = loadRepo(ctx);
  const user = requireUser(ctx);
  const c = findComment(ctx, repo);
  if (c.userId !== user.id && !permAtLeast(perm, 'write'))
    throw forbidden('user is not allowed to edit comment');
  const b = bodyOf(ctx);
  requireFields(b, 'body');
  c.body = b.body;
  c.updated = nowIso(ctx.state);
  return json(200, commentJson(ctx, repo)(c));
}
function deleteComment(ctx: Ctx): ReturnType<Handler> {
  const { repo, perm } = loadRepo(ctx);
  const user = requireUser(ctx);
  const c = findComment(ctx, repo);
  if (c.userId !== user.id && !permAtLeast(perm, 'write'))
    throw forbidden('user is not allowed to delete comment');
  repo.comments = repo.comments.filter((x) => x !== c);
  return empty();
}

const labelJson = (ctx: Ctx, repo: Repo) => (l: Label) => toLabel(ctx.world, repoApi(ctx, repo), l);
const COLOR = /^#?[0-9a-fA-F]{6}$/;

function findLabel(ctx: Ctx, repo: Repo): Label {
  const l = repo.labels.find((x) => x.id === intParam(ctx, 'id'));
  if (!l) throw notFound('label does not exist');
  return l;
}

function issueLabels(ctx: Ctx, repo: Repo, issue: Issue): ReturnType<Handler> {
  const all = [...repo.labels, ...(ctx.state.orgLabels.get(repo.ownerId) ?? [])];
  return json(
    200,
    issue.labels
      .map((id) => all.find((l) => l.id === id))
      .filter((l): l is Label => !!l)
      .map(labelJson(ctx, repo)),
  );
}

function prDiff(repo: Repo, issue: Issue): { diff: string; base: string } {
  const p = issue.pull!;
  const base = repo.commits.get(p.mergeBase);
  const head = repo.commits.get(repo.branches.get(p.head) ?? p.headSha);
  return { diff: treeDiff(base?.tree ?? new Map(), head?.tree ?? new Map()), base: p.mergeBase };
}

export const issueHandlers: Record<string, Handler> = {
  issueListIssues: (ctx) => {
    const { repo } = loadRepo(ctx);
    return paged(ctx, issueList(ctx, repo, null), (i) => toIssue(ctx.world, ctx.state, repo, i, ctx.doer));
  },
  issueSearchIssues: (ctx) => {
    const state = ctx.query.get('state') ?? 'open';
    const q = (ctx.query.get('q') ?? '').toLowerCase();
    const found: Array<[Repo, Issue]> = [];
    for (const repo of ctx.state.repos) {
      if (repoPerm(ctx.state, repo, ctx.doer) === 'none') continue;
      for (const i of repo.issues) {
        if ((state === 'all' || i.state === state) && (!q || i.title.toLowerCase().includes(q)))
          found.push([repo, i]);
      }
    }
    return paged(ctx, found, ([r, i]) => toIssue(ctx.world, ctx.state, r, i, ctx.doer));
  },
  issueGetIssue: (ctx) => {
    const { repo } = loadRepo(ctx);
    return json(200, toIssue(ctx.world, ctx.state, repo, findIssue(ctx, repo), ctx.doer));
  },
  issueCreateIssue: (ctx) => {
    const { repo, perm } = loadRepo(ctx);
    const user = requireUser(ctx);
    if (!repo.hasIssues) throw notFound();
    const b = bodyOf(ctx);
    requireFields(b, 'title');
    const writer = permAtLeast(perm, 'write');
    const assignees = writer
      ? ([...(b.assignees ?? []), ...(b.assignee ? [b.assignee] : [])] as string[]).map((l) => {
          const u = findUser(ctx.state, l);
          if (!u) throw unprocessable(`user does not exist [name: ${l}]`);
          return u.id;
        })
      : [];
    const issue = addIssue(ctx.state, repo, user, b.title, b.body ?? '', {
      labels: writer ? labelIds(repo, ctx, b.labels ?? []) : [],
      milestoneId: writer && b.milestone ? Number(b.milestone) : null,
      assignees: [...new Set(assignees)],
      state: b.closed ? 'closed' : 'open',
    });
    return json(201, toIssue(ctx.world, ctx.state, repo, issue, ctx.doer));
  },
  issueEditIssue: (ctx) => {
    const { repo, perm } = loadRepo(ctx);
    const issue = findIssue(ctx, repo);
    canEditIssue(ctx, repo, issue);
    const b = bodyOf(ctx);
    if (b.title !== undefined) issue.title = b.title;
    if (b.body !== undefined) issue.body = b.body;
    if (b.state === 'open' || b.state === 'closed') {
      if (issue.pull?.merged && b.state === 'open')
        throw new HttpError(412, 'cannot reopen a merged pull request');
      issue.state = b.state;
      issue.closedAt = b.state === 'closed' ? nowIso(ctx.state) : null;
    }
    if (permAtLeast(perm, 'write')) {
      if (b.milestone !== undefined) issue.milestoneId = b.milestone ? Number(b.milestone) : null;
      if (b.assignees !== undefined)
        issue.assignees = (b.assignees as string[])
          .map((l) => findUser(ctx.state, l)?.id ?? 0)
          .filter(Boolean);
    }
    issue.updated = nowIso(ctx.state);
    return json(201, toIssue(ctx.world, ctx.state, repo, issue, ctx.doer));
  },
  issueDelete: (ctx) => {
    const { repo } = loadRepo(ctx, 'admin');
    const issue = findIssue(ctx, repo);
    repo.issues = repo.issues.filter((i) => i !== issue);
    return empty();
  },
  issueGetComments: (ctx) => {
    const { repo } = loadRepo(ctx);
    const issue = findIssue(ctx, repo);
    return json(200, repo.comments.filter((c) => c.issueId === issue.id).map(commentJson(ctx, repo)));
  },
  issueGetRepoComments: (ctx) => {
    const { repo } = loadRepo(ctx);
    return paged(ctx, repo.comments, commentJson(ctx, repo));
  },
  issueCreateComment: (ctx) => {
    const { repo, perm } = loadRepo(ctx);
    const user = requireUser(ctx);
    const issue = findIssue(ctx, repo);
    if (issue.isLocked && !permAtLeast(perm, 'write'))
      throw forbidden('user should have write permission to comment on a locked issue');
    const b = bodyOf(ctx);
    requireFields(b, 'body');
    const date = nowIso(ctx.state);
    const c: IssueComment = {
      id: ctx.state.nextId(),
      issueId: issue.id,
      body: b.body,
      userId: user.id,
      created: date,
      updated: date,
    };
    repo.comments.push(c);
    return json(201, commentJson(ctx, repo)(c));
  },
  issueGetComment: (ctx) => {
    const { repo } = loadRepo(ctx);
    return json(200, commentJson(ctx, repo)(findComment(ctx, repo)));
  },
  issueEditComment: editComment,
  issueEditCommentDeprecated: editComment,
  issueDeleteComment: deleteComment,
  issueDeleteCommentDeprecated: deleteComment,
  issueListLabels: (ctx) => {
    const { repo } = loadRepo(ctx);
    return paged(ctx, repo.labels, labelJson(ctx, repo));
  },
  issueGetLabel: (ctx) => {
    const { repo } = loadRepo(ctx);
    return json(200, labelJson(ctx, repo)(findLabel(ctx, repo)));
  },
  issueCreateLabel: (ctx) => {
    const { repo } = loadRepo(ctx, 'write');
    const b = bodyOf(ctx);
    requireFields(b, 'name', 'color');
    if (!COLOR.test(b.color)) throw unprocessable('[Color]: invalid color');
    const l: Label = {
      id: ctx.state.nextId(),
      name: b.name,
      color: String(b.color).replace(/^#/, ''),
      description: b.description ?? '',
      exclusive: !!b.exclusive,
      archived: !!b.is_archived,
    };
    repo.labels.push(l);
    return json(201, labelJson(ctx, repo)(l));
  },
  issueEditLabel: (ctx) => {
    const { repo } = loadRepo(ctx, 'write');
    const l = findLabel(ctx, repo);
    const b = bodyOf(ctx);
    if (b.color !== undefined) {
      if (!COLOR.test(b.color)) throw unprocessable('[Color]: invalid color');
      l.color = String(b.color).replace(/^#/, '');
    }
    if (b.name !== undefined) l.name = b.name;
    if (b.description !== undefined) l.description = b.description;
    if (b.exclusive !== undefined) l.exclusive = !!b.exclusive;
    if (b.is_archived !== undefined) l.archived = !!b.is_archived;
    return json(200, labelJson(ctx, repo)(l));
  },
  issueDeleteLabel: (ctx) => {
    const { repo } = loadRepo(ctx, 'write');
    const l = findLabel(ctx, repo);
    repo.labels = repo.labels.filter((x) => x !== l);
    for (const i of repo.issues) i.labels = i.labels.filter((id) => id !== l.id);
    return empty();
  },
  issueGetLabels: (ctx) => {
    const { repo } = loadRepo(ctx);
    return issueLabels(ctx, repo, findIssue(ctx, repo));
  },
  issueAddLabel: (ctx) => {
    const { repo } = loadRepo(ctx, 'write');
    const issue = findIssue(ctx, repo);
    const ids = labelIds(repo, ctx, (bodyOf(ctx).labels ?? []) as unknown[]);
    issue.labels = [...new Set([...issue.labels, ...ids])];
    return issueLabels(ctx, repo, issue);
  },
  issueReplaceLabels: (ctx) => {
    const { repo } = loadRepo(ctx, 'write');
    const issue = findIssue(ctx, repo);
    issue.labels = [...new Set(labelIds(repo, ctx, (bodyOf(ctx).labels ?? []) as unknown[]))];
    return issueLabels(ctx, repo, issue);
  },
  issueClearLabels: (ctx) => {
    const { repo } = loadRepo(ctx, 'write');
    findIssue(ctx, repo).labels = [];
    return empty();
  },
  issueRemoveLabel: (ctx) => {
    const { repo } = loadRepo(ctx, 'write');
    const issue = findIssue(ctx, repo);
    const id = intParam(ctx, 'id');
    if (!issue.labels.includes(id)) throw unprocessable('label does not exist');
    issue.labels = issue.labels.filter((x) => x !== id);
    return empty();
  },
  issueGetMilestonesList: (ctx) => {
    const { repo } = loadRepo(ctx);
    const state = ctx.query.get('state') ?? 'open';
    return paged(
      ctx,
      repo.milestones.filter((m) => state === 'all' || m.state === state),
      (m) => toMilestone(repo, m),
    );
  },
  issueGetMilestone: (ctx) => {
    const { repo } = loadRepo(ctx);
    const id = ctx.params.id ?? '';
    const m = repo.milestones.find((x) => String(x.id) === id || x.title === id);
    if (!m) throw notFound();
    return json(200, toMilestone(repo, m));
  },
  issueCreateMilestone: (ctx) => {
    const { repo } = loadRepo(ctx, 'write');
    const b = bodyOf(ctx);
    requireFields(b, 'title');
    const date = nowIso(ctx.state);
    const m = {
      id: ctx.state.nextId(),
      title: b.title,
      description: b.description ?? '',
      state: b.state === 'closed' ? ('closed' as const) : ('open' as const),
      dueOn: b.due_on ?? null,
      created: date,
      updated: date,
      closedAt: b.state === 'closed' ? date : null,
    };
    repo.milestones.push(m);
    return json(201, toMilestone(repo, m));
  },
  issueEditMilestone: (ctx) => {
    const { repo } = loadRepo(ctx, 'write');
    const m = repo.milestones.find((x) => String(x.id) === ctx.params.id || x.title === ctx.params.id);
    if (!m) throw notFound();
    const b = bodyOf(ctx);
    if (b.title !== undefined) m.title = b.title;
    if (b.description !== undefined) m.description = b.description;
    if (b.due_on !== undefined) m.dueOn = b.due_on;
    if (b.state === 'open' || b.state === 'closed') {
      m.state = b.state;
      m.closedAt = b.state === 'closed' ? nowIso(ctx.state) : null;
    }
    m.updated = nowIso(ctx.state);
    return json(200, toMilestone(repo, m));
  },
  issueDeleteMilestone: (ctx) => {
    const { repo } = loadRepo(ctx, 'write');
    const before = repo.milestones.length;
    repo.milestones = repo.milestones.filter(
      (x) => String(x.id) !== ctx.params.id && x.title !== ctx.params.id,
    );
    if (repo.milestones.length === before) throw notFound();
    return empty();
  },
  repoGetAssignees: (ctx) => {
    const { repo } = loadRepo(ctx);
    const users = ctx.state.users.filter(
      (u) => !u.isOrg && !u.isAdmin && permAtLeast(repoPerm(ctx.state, repo, u), 'write'),
    );
    return json(
      200,
      users.map((u) => toUser(ctx.world, u, ctx.doer)),
    );
  },

  // ---- pull requests ----
  repoListPullRequests: (ctx) => {
    const { repo } = loadRepo(ctx);
    return paged(ctx, issueList(ctx, repo, true), (i) => toPull(ctx.world, ctx.state, repo, i, ctx.doer));
  },
  repoGetPullRequest: (ctx) => {
    const { repo } = loadRepo(ctx);
    const i = findIssue(ctx, repo);
    if (!i.pull) throw notFound('pull request does not exist');
    return json(200, toPull(ctx.world, ctx.state, repo, i, ctx.doer));
  },
  repoGetPullRequestByBaseHead: (ctx) => {
    const { repo } = loadRepo(ctx);
    const head = (ctx.params.head ?? '').replace(/^[^:]+:/, '');
    const i = repo.issues.find((x) => x.pull && x.pull.base === ctx.params.base && x.pull.head === head);
    if (!i) throw notFound('pull request does not exist');
    return json(200, toPull(ctx.world, ctx.state, repo, i, ctx.doer));
  },
  repoCreatePullRequest: (ctx) => {
    const { repo } = loadRepo(ctx, 'read');
    const user = requireUser(ctx);
    const b = bodyOf(ctx);
    requireFields(b, 'base', 'head', 'title');
    const head = String(b.head).replace(/^[^:]+:/, '');
    if (!repo.branches.has(b.base)) throw notFound('base branch does not exist');
    if (!repo.branches.has(head)) throw notFound('head branch does not exist');
    if (b.base === head)
      throw unprocessable('Invalid PullRequest: There are no changes between the head and the base');
    const existing = repo.issues.find(
      (i) => i.pull && i.state === 'open' && i.pull.base === b.base && i.pull.head === head,
    );
    if (existing)
      throw conflict(
        `pull request already exists for these targets [id: ${existing.pull!.id}, issue_id: ${existing.id}, head_repo_id: ${repo.id}, base_repo_id: ${repo.id}, head_branch: ${head}, base_branch: ${b.base}]`,
      );
    const headSha = repo.branches.get(head)!;
    const issue = addIssue(ctx.state, repo, user, b.title, b.body ?? '', {
      labels: labelIds(repo, ctx, b.labels ?? []),
      pull: {
        id: ctx.state.nextId(),
        base: b.base,
        head,
        headSha,
        mergeBase: repo.branches.get(b.base)!,
        merged: false,
        mergedAt: null,
        mergedBy: null,
        mergeSha: null,
        draft: /^(wip:|\[wip\])/i.test(b.title),
      },
    });
    return json(201, toPull(ctx.world, ctx.state, repo, issue, ctx.doer));
  },
  repoEditPullRequest: (ctx) => {
    const { repo } = loadRepo(ctx);
    const i = findIssue(ctx, repo);
    if (!i.pull) throw notFound();
    canEditIssue(ctx, repo, i);
    const b = bodyOf(ctx);
    if (b.title !== undefined) i.title = b.title;
    if (b.body !== undefined) i.body = b.body;
    if (b.base !== undefined) {
      if (!repo.branches.has(b.base)) throw notFound('base branch does not exist');
      i.pull.base = b.base;
    }
    if (b.state === 'open' || b.state === 'closed') {
      if (i.pull.merged) throw new HttpError(409, 'cannot change state of a merged pull request');
      i.state = b.state;
      i.closedAt = b.state === 'closed' ? nowIso(ctx.state) : null;
    }
    i.updated = nowIso(ctx.state);
    return json(201, toPull(ctx.world, ctx.state, repo, i, ctx.doer));
  },
  repoDownloadPullDiffOrPatch: (ctx) => {
    const { repo } = loadRepo(ctx);
    const i = findIssue(ctx, repo);
    if (!i.pull) throw notFound();
    const { diff } = prDiff(repo, i);
    if (ctx.params.diffType === 'diff')
      return { status: 200, raw: Buffer.from(diff), contentType: 'text/plain; charset=utf-8' };
    if (ctx.params.diffType !== 'patch') throw notFound();
    const head = repo.commits.get(repo.branches.get(i.pull.head) ?? i.pull.headSha)!;
    const author = ctx.state.users.find((u) => u.id === head.authorId)!;
    return {
      status: 200,
      raw: Buffer.from(formatPatch(head, author, diff)),
      contentType: 'text/plain; charset=utf-8',
    };
  },
  repoGetPullRequestFiles: (ctx) => {
    const { repo } = loadRepo(ctx);
    const i = findIssue(ctx, repo);
    if (!i.pull) throw notFound();
    const base = repo.commits.get(i.pull.mergeBase)?.tree ?? new Map<string, Buffer>();
    const head = resolveRef(repo, i.pull.head)?.tree ?? new Map<string, Buffer>();
    const files = [...new Set([...base.keys(), ...head.keys()])]
      .filter((p) => !(base.get(p) && head.get(p) && base.get(p)!.equals(head.get(p)!)))
      .sort()
      .map((p) => {
        const added = head.get(p)?.toString('utf8').split('\n').length ?? 0;
        const removed = base.get(p)?.toString('utf8').split('\n').length ?? 0;
        return {
          filename: p,
          status: !base.has(p) ? 'added' : !head.has(p) ? 'deleted' : 'changed',
          additions: base.has(p) ? added : added,
          deletions: head.has(p) && base.has(p) ? removed : head.has(p) ? 0 : removed,
          changes: added + removed,
          html_url: `${ctx.world.baseUrl}/${ctx.params.owner}/${repo.name}/src/commit/${i.pull!.headSha}/${p}`,
          contents_url: `${repoApi(ctx, repo)}/contents/${p}?ref=${i.pull!.headSha}`,
          raw_url: `${ctx.world.baseUrl}/${ctx.params.owner}/${repo.name}/raw/commit/${i.pull!.headSha}/${p}`,
        };
      });
    return withCommitHeaders(
      ctx,
      paged(ctx, files, (f) => f),
      files.length,
    );
  },
  repoPullRequestIsMerged: (ctx) => {
    const { repo } = loadRepo(ctx);
    const i = findIssue(ctx, repo);
    if (!i.pull?.merged) throw notFound();
    return empty();
  },
  repoMergePullRequest: (ctx) => {
    const { repo } = loadRepo(ctx, 'write');
    const user = ctx.doer!;
    const i = findIssue(ctx, repo);
    if (!i.pull) throw notFound();
    const b = bodyOf(ctx);
    requireFields(b, 'do');
    if (
      !['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only', 'manually-merged'].includes(
        b.Do ?? b.do,
      )
    )
      throw unprocessable('[Do]: invalid merge style');
    if (i.pull.merged) throw new HttpError(405, 'The PR is already merged');
    if (i.state === 'closed') throw new HttpError(405, 'The PR is closed');
    const head = resolveRef(repo, i.pull.head)!;
    const changes = [...head.tree].map(([path, content]) => ({ path, content }));
    const baseTree = resolveRef(repo, i.pull.base)!.tree;
    for (const p of baseTree.keys())
      if (!head.tree.has(p)) changes.push({ path: p, content: null as unknown as Buffer });
    const merged = commitFiles(
      ctx.state,
      repo,
      i.pull.base,
      user,
      b.MergeTitleField || b.merge_title_field || `Merge pull request '${i.title}' (#${i.number})`,
      changes,
    );
    Object.assign(i.pull, { merged: true, mergedAt: merged.date, mergedBy: user.id, mergeSha: merged.sha });
    i.state = 'closed';
    i.closedAt = merged.date;
    if (b.delete_branch_after_merge) repo.branches.delete(i.pull.head);
    return empty(200);
  },
};
