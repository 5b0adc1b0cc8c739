// Repository operations: repos, contents, raw/media/archive, branches, tags, releases,
// commits, refs, statuses, compare, forks, collaborators, topics, hooks, Actions.
import {
  bodyOf,
  findUser,
  intParam,
  loadOrg,
  loadRepo,
  paged,
  permAtLeast,
  repoPerm,
  requireFields,
  requireUser,
  type Ctx,
  type Handler,
} from '../context';
import {
  toBranch,
  toCommit,
  toContent,
  toHook,
  toPayloadUser,
  toRelease,
  toRepo,
  toTag,
  toUser,
  toCommitUser,
} from '../convert';
import { formatPatch, tarGz, treeDiff, zip } from '../git.util';
import {
  conflict,
  empty,
  forbidden,
  HttpError,
  json,
  notFound,
  pageInfo,
  unprocessable,
  type Reply,
} from '../http.util';
import {
  addRepo,
  blobSha,
  commitFiles,
  newToken,
  nowIso,
  type Commit,
  type Hook,
  type Repo,
  type User,
} from '../state';

const repoJson = (ctx: Ctx, r: Repo): Record<string, unknown> => toRepo(ctx.world, ctx.state, r, ctx.doer);

/** Resolves a branch, tag or commit sha (full or 7+ prefix) to a commit. */
export function resolveRef(repo: Repo, ref: string | null | undefined): Commit | undefined {
  const name = ref || repo.defaultBranch;
  const bySha = (s: string | undefined): Commit | undefined => (s ? repo.commits.get(s) : undefined);
  const stripped = name.replace(/^refs\/(heads|tags)\//, '');
  return (
    bySha(repo.branches.get(stripped)) ??
    bySha(repo.tags.get(stripped)?.sha) ??
    repo.commits.get(name) ??
    (name.length >= 7 ? [...repo.commits.values()].find((c) => c.sha.startsWith(name)) : undefined)
  );
}

function createRepoFor(ctx: Ctx, owner: User): Reply {
  const b = bodyOf(ctx);
  requireFields(b, 'name');
  if (!/^[A-Za-z0-9._-]+$/.test(b.name) || b.name === '.' || b.name === '..')
    throw unprocessable('[Name]: invalid repository name');
  if (
    ctx.state.repos.some(
      (r) => r.ownerId === owner.id && r.name.toLowerCase() === String(b.name).toLowerCase(),
    )
  )
    throw conflict('The repository with the same name already exists.');
  const repo = addRepo(ctx.state, owner, b.name, {
    private: !!b.private,
    description: b.description ?? '',
    autoInit: !!b.auto_init,
    defaultBranch: b.default_branch || 'main',
  });
  repo.template = !!b.template;
  return json(201, repoJson(ctx, repo));
}

function visibleRepos(ctx: Ctx, filter: (r: Repo) => boolean = () => true): Repo[] {
  return ctx.state.repos.filter((r) => filter(r) && repoPerm(ctx.state, r, ctx.doer) !== 'none');
}

// ---- files -------------------------------------------------------------------------------

function checkPath(path: string): string {
  const clean = path.replace(/^\/+|\/+$/g, '');
  if (clean.split('/').some((s) => s === '..' || s === '.'))
    throw unprocessable('path contains a malformed path component');
  return clean;
}

function listDir(commit: Commit, dir: string): string[] {
  const prefix = dir ? `${dir}/` : '';
  const entries = new Set<string>();
  for (const p of commit.tree.keys()) {
    if (!p.startsWith(prefix)) continue;
    const rest = p.slice(prefix.length);
    entries.add(prefix + rest.split('/')[0]!);
  }
  return [...entries].sort((a, b) => {
    const da = commit.tree.has(a) ? 1 : 0;
    const db = commit.tree.has(b) ? 1 : 0;
    return da - db || a.localeCompare(b);
  });
}

function contentsAt(ctx: Ctx, path: string): Reply {
  const { repo } = loadRepo(ctx);
  const ref = ctx.query.get('ref') || repo.defaultBranch;
  const commit = resolveRef(repo, ref);
  if (!commit) throw notFound(`object does not exist [id: ${ref}, rel_path: ]`);
  const clean = checkPath(path);
  if (commit.tree.has(clean))
    return json(200, toContent(ctx.world, ctx.state, repo, ref, commit, clean, true));
  const entries = listDir(commit, clean);
  if (!entries.length && clean) throw notFound(`object does not exist [id: , rel_path: ${clean}]`);
  // Gitea answers a directory with an array of entries (without content)
  return json(
    200,
    entries.map((p) => toContent(ctx.world, ctx.state, repo, ref, commit, p, false)),
  );
}

function fileCommitResponse(ctx: Ctx, repo: Repo, c: Commit): Record<string, unknown> {
  const full = toCommit(ctx.world, ctx.state, repo, c, ctx.doer, false) as any;
  const author = ctx.state.users.find((u) => u.id === c.authorId)!;
  return {
    url: full.url,
    sha: c.sha,
    created: c.date,
    html_url: full.html_url,
    author: toCommitUser(author, c.date),
    committer: toCommitUser(author, c.date),
    parents: full.parents,
    message: c.message + '\n',
    tree: full.commit.tree,
  };
}

const VERIFICATION = {
  verified: false,
  reason: 'gpg.error.not_signed_commit',
  signature: '',
  signer: null,
  payload: '',
};

type FileOp = {
  operation: 'create' | 'update' | 'delete';
  path: string;
  content?: string;
  sha?: string;
  from_path?: string;
};

function applyFileOps(
  ctx: Ctx,
  repo: Repo,
  b: Record<string, any>,
  ops: FileOp[],
  defaultMessage: string,
): { commit: Commit; branch: string } {
  const user = requireUser(ctx);
  const branch = b.branch || repo.defaultBranch;
  const startSha = repo.branches.get(branch);
  if (!startSha && repo.commits.size > 0) throw notFound(`branch does not exist [name: ${branch}]`);
  const target = b.new_branch || branch;
  if (b.new_branch && repo.branches.has(b.new_branch))
    throw unprocessable(`branch already exists [name: ${b.new_branch}]`);
  const tree = startSha ? repo.commits.get(startSha)!.tree : new Map<string, Buffer>();
  const changes: { path: string; content: Buffer | null }[] = [];
  for (const op of ops) {
    const path = checkPath(op.path ?? '');
    if (!path) throw unprocessable('path is required');
    const existing = tree.get(path);
    if (op.operation === 'create') {
      if (existing) throw unprocessable(`repository file already exists [path: ${path}]`);
    } else {
      const from = op.from_path ? checkPath(op.from_path) : path;
      const current = tree.get(from);
      if (!current) throw notFound(`repository file does not exist [path: ${from}]`);
      if (op.operation === 'delete' || op.sha !== undefined) {
        if (!op.sha) throw unprocessable('[SHA]: Required');
        if (op.sha !== blobSha(current))
          throw unprocessable(`sha does not match [given: ${op.sha}, expected: ${blobSha(current)}]`);
      }
      if (from !== path) changes.push({ path: from, content: null });
    }
    if (op.operation === 'delete') changes.push({ path, content: null });
    else {
      if (typeof op.content !== 'string') throw unprocessable('[Content]: Required');
      changes.push({ path, content: Buffer.from(op.content, 'base64') });
    }
  }
  if (target !== branch && startSha) repo.branches.set(target, startSha);
  const commit = commitFiles(ctx.state, repo, target, user, b.message || defaultMessage, changes);
  return { commit, branch: target };
}

const createFile: Handler = (ctx) => {
  const { repo } = loadRepo(ctx, 'write');
  const b = bodyOf(ctx);
  const path = checkPath(ctx.params.filepath ?? '');
  const { commit, branch } = applyFileOps(
    ctx,
    repo,
    b,
    [{ operation: 'create', path, content: b.content }],
    `Add ${path}`,
  );
  return json(201, {
    content: toContent(ctx.world, ctx.state, repo, branch, commit, path, true),
    commit: fileCommitResponse(ctx, repo, commit),
    verification: VERIFICATION,
  });
};

const updateFile: Handler = (ctx) => {
  const { repo } = loadRepo(ctx, 'write');
  const b = bodyOf(ctx);
  const path = checkPath(ctx.params.filepath ?? '');
  const tree = resolveRef(repo, b.branch)?.tree;
  const exists = !!tree?.has(b.from_path ? checkPath(b.from_path) : path);
  // Gitea 1.27: PUT without sha on a missing file creates it (201)
  const op: FileOp =
    exists || b.sha
      ? { operation: 'update', path, content: b.content, sha: b.sha ?? '', from_path: b.from_path }
      : { operation: 'create', path, content: b.content };
  const { commit, branch } = applyFileOps(ctx, repo, b, [op], `Update ${path}`);
  return json(op.operation === 'create' ? 201 : 200, {
    content: toContent(ctx.world, ctx.state, repo, branch, commit, path, true),
    commit: fileCommitResponse(ctx, repo, commit),
    verification: VERIFICATION,
  });
};

const deleteFile: Handler = (ctx) => {
  const { repo } = loadRepo(ctx, 'write');
  const b = bodyOf(ctx);
  requireFields(b, 'sha');
  const path = checkPath(ctx.params.filepath ?? '');
  const { commit } = applyFileOps(
    ctx,
    repo,
    b,
    [{ operation: 'delete', path, sha: b.sha }],
    `Delete ${path}`,
  );
  return json(200, {
    content: null,
    commit: fileCommitResponse(ctx, repo, commit),
    verification: VERIFICATION,
  });
};

const changeFiles: Handler = (ctx) => {
  const { repo } = loadRepo(ctx, 'write');
  const b = bodyOf(ctx);
  if (!Array.isArray(b.files) || b.files.length === 0) throw unprocessable('[Files]: Required');
  const { commit, branch } = applyFileOps(ctx, repo, b, b.files as FileOp[], 'Change files');
  return json(201, {
    files: (b.files as FileOp[]).map((f) =>
      f.operation === 'delete'
        ? null
        : toContent(ctx.world, ctx.state, repo, branch, commit, checkPath(f.path), true),
    ),
    commit: fileCommitResponse(ctx, repo, commit),
    verification: VERIFICATION,
  });
};

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  bin: 'application/octet-stream',
};

/**
 * Gitea's content sniffing for raw files: Go's http.DetectContentType names UTF-16 by its BOM,
 * calls bytes with a NUL (and no BOM) binary, and Gitea adds the charset it detects for text.
 */
function sniffTextType(data: Buffer): string {
  if (data[0] === 0xff && data[1] === 0xfe) return 'text/plain; charset=utf-16le';
  if (data[0] === 0xfe && data[1] === 0xff) return 'text/plain; charset=utf-16be';
  if (data.includes(0)) return 'application/octet-stream';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return 'text/plain; charset=utf-8';
  } catch {
    return 'text/plain; charset=iso-8859-1';
  }
}

const rawFile: Handler = (ctx): Reply => {
  const { repo } = loadRepo(ctx);
  let path = checkPath(ctx.params.filepath ?? '');
  let commit = ctx.query.get('ref') ? resolveRef(repo, ctx.query.get('ref')) : undefined;
  if (!ctx.query.get('ref')) {
    // without ?ref the first path segments may name the ref (legacy form raw/{ref}/{path})
    commit = resolveRef(repo, null);
    if (!commit?.tree.has(path)) {
      const segs = path.split('/');
      for (let i = 1; i < segs.length; i++) {
        const c = resolveRef(repo, segs.slice(0, i).join('/'));
        if (c?.tree.has(segs.slice(i).join('/'))) {
          commit = c;
          path = segs.slice(i).join('/');
          break;
        }
      }
    }
  }
  const data = commit?.tree.get(path);
  if (!data) throw notFound('object does not exist');
  const ext = path.split('.').pop()?.toLowerCase() ?? '';
  // Gitea serves raw files and LFS objects through httplib.ServeUserContentByReader (routers/common/
  // serve.go, modules/httplib/serve.go), its own minimal Range support rather than Go's
  // http.ServeContent: one "bytes=a-b" (or "bytes=a-") range of a non-empty file gives 206 with
  // Content-Range and Content-Length, an end past the file is clamped; a start that does not parse
  // or lies at or past the end is 416, an end before the start 400 (http.Error texts, no
  // Content-Range); an empty file, or no "bytes=" range, is 200. It sends no Accept-Ranges header.
  const rangeHeader = String(ctx.req.headers.range ?? '');
  if (data.length > 0 && rangeHeader.startsWith('bytes=')) {
    const parts = rangeHeader.slice('bytes='.length);
    const dash = parts.indexOf('-');
    const startText = dash === -1 ? parts : parts.slice(0, dash);
    const endText = dash === -1 ? '' : parts.slice(dash + 1);
    const start = /^[+-]?\d+$/.test(startText) ? Number(startText) : NaN;
    const plainError = (status: number, message: string): Reply => ({
      status,
      raw: Buffer.from(`${message}\n`),
      contentType: 'text/plain; charset=utf-8',
    });
    if (!Number.isFinite(start) || start < 0 || start >= data.length)
      return plainError(
        416,
        Number.isFinite(start)
          ? 'invalid start range'
          : `strconv.ParseInt: parsing ${JSON.stringify(startText)}: invalid syntax`,
      );
    let end =
      endText === '' && dash !== -1 ? data.length - 1 : /^[+-]?\d+$/.test(endText) ? Number(endText) : NaN;
    if (!Number.isFinite(end))
      return plainError(400, `strconv.ParseInt: parsing ${JSON.stringify(endText)}: invalid syntax`);
    if (end >= data.length) end = data.length - 1;
    if (end < start) return plainError(400, 'invalid end range');
    return {
      status: 206,
      raw: data.subarray(start, end + 1),
      contentType: MIME[ext] ?? sniffTextType(data),
      headers: {
        'Content-Range': `bytes ${start}-${end}/${data.length}`,
        'Content-Disposition': `inline; filename="${path.split('/').pop()}"`,
        'Cache-Control': 'private, max-age=300',
        ETag: `"${blobSha(data)}"`,
        'Last-Modified': new Date(commit!.date).toUTCString(),
      },
    };
  }
  return {
    status: 200,
    raw: data,
    contentType: MIME[ext] ?? sniffTextType(data),
    headers: {
      'Content-Disposition': `inline; filename="${path.split('/').pop()}"`,
      'Cache-Control': 'private, max-age=300',
      ETag: `"${blobSha(data)}"`,
      'Last-Modified': new Date(commit!.date).toUTCString(),
    },
  };
};

const editorConfig: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  const commit = resolveRef(repo, ctx.query.get('ref'));
  const cfg = commit?.tree.get('.editorconfig');
  if (!cfg) throw notFound('.editorconfig file does not exist');
  const file = ctx.params.filepath ?? '';
  const out: Record<string, string> = {};
  let applies = false;
  for (const line of cfg
    .toString('utf8')
    .split('\n')
    .map((l) => l.trim())) {
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[(.+)\]$/.exec(line);
    if (section) {
      const glob = section[1]!;
      const re = new RegExp(
        '^' +
          glob
            .replace(/[.+^$()|\\]/g, '\\$&')
            .replace(/\*\*/g, '.*')
            .replace(/(?<!\.)\*/g, '[^/]*') +
          '$',
      );
      applies = glob === '*' || re.test(file) || re.test(file.split('/').pop() ?? '');
      continue;
    }
    const kv = /^([^=]+)=(.*)$/.exec(line);
    if (kv && applies) out[kv[1]!.trim()] = kv[2]!.trim();
  }
  return json(200, out);
};

const archive: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  const m = /^(.+)\.(zip|tar\.gz|bundle)$/.exec(ctx.params.archive ?? '');
  if (!m) throw new HttpError(400, 'Unknown archive format');
  const commit = resolveRef(repo, m[1]);
  if (!commit) throw notFound();
  const prefix = repo.name;
  if (m[2] === 'zip') return { status: 200, raw: zip(prefix, commit.tree), contentType: 'application/zip' };
  if (m[2] === 'tar.gz')
    return { status: 200, raw: tarGz(prefix, commit.tree, commit.date), contentType: 'application/gzip' };
  return {
    status: 200,
    raw: Buffer.from(`# v2 git bundle\n${commit.sha} HEAD\n\n`),
    contentType: 'application/octet-stream',
  };
};

// ---- branches and tags -------------------------------------------------------------------

const listBranches: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  const names = [...repo.branches.keys()].sort();
  return paged(ctx, names, (n) => toBranch(ctx.world, ctx.state, repo, n, ctx.doer));
};
const getBranch: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  const name = ctx.params.branch ?? '';
  if (!repo.branches.has(name)) throw notFound("The target couldn't be found.");
  return json(200, toBranch(ctx.world, ctx.state, repo, name, ctx.doer));
};
const validRefName = (n: string): boolean =>
  !!n && !/(^|\/)\.|\.\.|[\s~^:?*[\\]|\/$|\.lock$|^\/|\/\/|@\{/.test(n);
const createBranch: Handler = (ctx) => {
  const { repo } = loadRepo(ctx, 'write');
  const b = bodyOf(ctx);
  requireFields(b, 'new_branch_name');
  if (!validRefName(b.new_branch_name)) throw unprocessable(`invalid branch name: ${b.new_branch_name}`);
  if (repo.branches.has(b.new_branch_name)) throw conflict('The branch already exists.');
  const from = resolveRef(repo, b.old_ref_name || b.old_branch_name || repo.defaultBranch);
  if (!from) throw notFound('The old branch does not exist');
  repo.branches.set(b.new_branch_name, from.sha);
  return json(201, toBranch(ctx.world, ctx.state, repo, b.new_branch_name, ctx.doer));
};
const deleteBranch: Handler = (ctx) => {
  const { repo } = loadRepo(ctx, 'write');
  const name = ctx.params.branch ?? '';
  if (!repo.branches.has(name)) throw notFound('branch not found');
  if (name === repo.defaultBranch) throw forbidden('can not delete default branch');
  repo.branches.delete(name);
  return empty();
};
const renameBranch: Handler = (ctx) => {
  const { repo } = loadRepo(ctx, 'write');
  const b = bodyOf(ctx);
  requireFields(b, 'name');
  const old = ctx.params.branch ?? '';
  const sha = repo.branches.get(old);
  if (!sha) throw notFound('branch not found');
  if (repo.branches.has(b.name)) throw unprocessable('branch already exists');
  repo.branches.delete(old);
  repo.branches.set(b.name, sha);
  if (repo.defaultBranch === old) repo.defaultBranch = b.name;
  return empty();
};
const listTags: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  return paged(ctx, [...repo.tags.keys()].sort().reverse(), (n) => toTag(ctx.world, ctx.state, repo, n));
};
const getTag: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  if (!repo.tags.has(ctx.params.tag ?? '')) throw notFound('tag not found');
  return json(200, toTag(ctx.world, ctx.state, repo, ctx.params.tag!));
};
const createTag: Handler = (ctx) => {
  const { repo } = loadRepo(ctx, 'write');
  const b = bodyOf(ctx);
  requireFields(b, 'tag_name');
  if (!validRefName(b.tag_name)) throw unprocessable(`invalid tag name: ${b.tag_name}`);
  if (repo.tags.has(b.tag_name)) throw conflict(`tag ${b.tag_name} already exists`);
  const c = resolveRef(repo, b.target);
  if (!c) throw notFound('target not found');
  repo.tags.set(b.tag_name, {
    name: b.tag_name,
    sha: c.sha,
    message: b.message ?? '',
    tagId: b.message ? newToken() : c.sha,
  });
  // the swagger declares 200 for repoCreateTag
  return json(200, toTag(ctx.world, ctx.state, repo, b.tag_name));
};
const deleteTag: Handler = (ctx) => {
  const { repo } = loadRepo(ctx, 'write');
  const name = ctx.params.tag ?? '';
  if (!repo.tags.has(name)) throw notFound('tag not found');
  if (repo.releases.some((r) => r.tagName === name && !r.draft))
    throw conflict('a tag attached to a release cannot be deleted directly');
  repo.tags.delete(name);
  return empty();
};

// ---- releases ----------------------------------------------------------------------------

const relJson = (ctx: Ctx, repo: Repo) => (r: Repo['releases'][number]) =>
  toRelease(ctx.world, ctx.state, repo, r, ctx.doer);
const listReleases: Handler = (ctx) => {
  const { repo, perm } = loadRepo(ctx);
  const draftOk = permAtLeast(perm, 'write');
  let list = repo.releases
    .filter((r) => draftOk || !r.draft)
    .slice()
    .reverse();
  if (ctx.query.has('draft')) list = list.filter((r) => String(r.draft) === ctx.query.get('draft'));
  if (ctx.query.has('pre-release'))
    list = list.filter((r) => String(r.prerelease) === ctx.query.get('pre-release'));
  return paged(ctx, list, relJson(ctx, repo));
};
const findRelease = (ctx: Ctx, repo: Repo, perm: string): Repo['releases'][number] => {
  const id = intParam(ctx, 'id');
  const r = repo.releases.find((x) => x.id === id && (!x.draft || perm !== 'read'));
  if (!r) throw notFound();
  return r;
};
const getRelease: Handler = (ctx) => {
  const { repo, perm } = loadRepo(ctx);
  return json(200, relJson(ctx, repo)(findRelease(ctx, repo, perm)));
};
const getReleaseByTag: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  const r = repo.releases.find((x) => x.tagName === ctx.params.tag && !x.draft);
  if (!r) throw notFound();
  return json(200, relJson(ctx, repo)(r));
};
const deleteReleaseByTag: Handler = (ctx) => {
  const { repo } = loadRepo(ctx, 'write');
  const r = repo.releases.find((x) => x.tagName === ctx.params.tag);
  if (!r) throw notFound();
  repo.releases = repo.releases.filter((x) => x !== r);
  return empty();
};
const latestRelease: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  const r = repo.releases.filter((x) => !x.draft && !x.prerelease).pop();
  if (!r) throw notFound();
  return json(200, relJson(ctx, repo)(r));
};
const createRelease: Handler = (ctx) => {
  const { repo } = loadRepo(ctx, 'write');
  const b = bodyOf(ctx);
  requireFields(b, 'tag_name');
  if (repo.releases.some((r) => r.tagName === b.tag_name)) throw conflict('Release is has no Tag');
  if (!repo.tags.has(b.tag_name)) {
    const c = resolveRef(repo, b.target_commitish);
    if (!c) throw notFound('target not found');
    if (!b.draft)
      repo.tags.set(b.tag_name, { name: b.tag_name, sha: c.sha, message: b.tag_message ?? '', tagId: c.sha });
  }
  const rel = {
    id: ctx.state.nextId(),
    tagName: b.tag_name,
    target: b.target_commitish || repo.defaultBranch,
    name: b.name ?? b.tag_name,
    body: b.body ?? '',
    draft: !!b.draft,
    prerelease: !!b.prerelease,
    authorId: ctx.doer!.id,
    created: nowIso(ctx.state),
  };
  repo.releases.push(rel);
  return json(201, relJson(ctx, repo)(rel));
};
const editRelease: Handler = (ctx) => {
  const { repo, perm } = loadRepo(ctx, 'write');
  const r = findRelease(ctx, repo, perm);
  const b = bodyOf(ctx);
  if (b.name !== undefined) r.name = b.name;
  if (b.body !== undefined) r.body = b.body;
  if (b.draft !== undefined) r.draft = !!b.draft;
  if (b.prerelease !== undefined) r.prerelease = !!b.prerelease;
  if (b.target_commitish) r.target = b.target_commitish;
  if (b.tag_name) r.tagName = b.tag_name;
  return json(200, relJson(ctx, repo)(r));
};
const deleteRelease: Handler = (ctx) => {
  const { repo, perm } = loadRepo(ctx, 'write');
  const r = findRelease(ctx, repo, perm);
  repo.releases = repo.releases.filter((x) => x !== r);
  return empty();
};

// ---- commits, refs, compare, statuses ----------------------------------------------------

/** The commit list headers Gitea adds besides Link/X-Total-Count. */
export function withCommitHeaders(ctx: Ctx, reply: Reply, total: number): Reply {
  const p = pageInfo(ctx.query);
  const pages = Math.max(1, Math.ceil(total / p.limit));
  Object.assign(reply.headers!, {
    'X-Total': String(total),
    'X-Page': String(p.page),
    'X-PerPage': String(p.limit),
    'X-PageCount': String(pages),
    'X-HasMore': String(p.page < pages),
  });
  return reply;
}

function history(repo: Repo, from: Commit | undefined): Commit[] {
  const out: Commit[] = [];
  let c = from;
  while (c) {
    out.push(c);
    c = c.parents[0] ? repo.commits.get(c.parents[0]) : undefined;
  }
  return out;
}

const allCommits: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  if (repo.commits.size === 0) throw new HttpError(409, 'Git Repository is empty.');
  const head = resolveRef(repo, ctx.query.get('sha'));
  if (!head) throw notFound(`object does not exist [id: ${ctx.query.get('sha')}, rel_path: ]`);
  let list = history(repo, head);
  const path = ctx.query.get('path');
  if (path)
    list = list.filter((c) => c.changed.some((f) => f.path === path || f.path.startsWith(path + '/')));
  const withFiles = ctx.query.get('stat') !== 'false' && ctx.query.get('files') !== 'false';
  return withCommitHeaders(
    ctx,
    paged(ctx, list, (c) => toCommit(ctx.world, ctx.state, repo, c, ctx.doer, withFiles)),
    list.length,
  );
};
const singleCommit: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  const c = resolveRef(repo, ctx.params.sha);
  if (!c) throw notFound(`object does not exist [id: ${ctx.params.sha}, rel_path: ]`);
  return json(200, toCommit(ctx.world, ctx.state, repo, c, ctx.doer));
};
function commitDiff(repo: Repo, c: Commit): string {
  const parent = c.parents[0] ? repo.commits.get(c.parents[0]) : undefined;
  return treeDiff(parent?.tree ?? new Map(), c.tree);
}
const commitDiffOrPatch: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  const c = resolveRef(repo, ctx.params.sha);
  if (!c) throw notFound();
  const diff = commitDiff(repo, c);
  if (ctx.params.diffType === 'diff')
    return { status: 200, raw: Buffer.from(diff), contentType: 'text/plain; charset=utf-8' };
  if (ctx.params.diffType === 'patch') {
    const author = ctx.state.users.find((u) => u.id === c.authorId)!;
    return {
      status: 200,
      raw: Buffer.from(formatPatch(c, author, diff)),
      contentType: 'text/plain; charset=utf-8',
    };
  }
  throw notFound();
};
function refsOf(ctx: Ctx, repo: Repo): Record<string, unknown>[] {
  const base = `${ctx.world.baseUrl}/api/v1/repos/${ctx.params.owner}/${repo.name}/git`;
  const refs = [
    ...[...repo.branches].map(([n, sha]) => ({ ref: `refs/heads/${n}`, sha, type: 'commit' })),
    ...[...repo.tags.values()].map((t) => ({
      ref: `refs/tags/${t.name}`,
      sha: t.tagId,
      type: t.tagId === t.sha ? 'commit' : 'tag',
    })),
  ].sort((a, b) => a.ref.localeCompare(b.ref));
  return refs.map((r) => ({
    ref: r.ref,
    url: `${base}/${r.ref.split('/').map(encodeURIComponent).join('/')}`,
    object: { type: r.type, sha: r.sha, url: `${base}/${r.type === 'tag' ? 'tags' : 'commits'}/${r.sha}` },
  }));
}
const allRefs: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  return json(200, refsOf(ctx, repo));
};
const refsByPrefix: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  const want = `refs/${(ctx.params.ref ?? '').replace(/^refs\//, '')}`;
  const list = refsOf(ctx, repo).filter(
    (r) => (r.ref as string) === want || (r.ref as string).startsWith(want.endsWith('/') ? want : want + '/'),
  );
  if (!list.length) throw notFound();
  return json(200, list);
};
const compare: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  const bh = ctx.params.basehead ?? '';
  const sep = bh.includes('...') ? '...' : '..';
  const [baseName, headName] = bh.split(sep);
  const base = resolveRef(repo, baseName);
  const head = resolveRef(repo, headName);
  if (!base || !head || !headName) throw notFound();
  const baseSet = new Set(history(repo, base).map((c) => c.sha));
  const commits = history(repo, head)
    .filter((c) => !baseSet.has(c.sha))
    .reverse();
  const all = commits.map((c) => toCommit(ctx.world, ctx.state, repo, c, ctx.doer));
  return json(200, { total_commits: all.length, commits: all });
};

const statusJson = (ctx: Ctx, repo: Repo) => (s: Repo['statuses'][number]) => ({
  id: s.id,
  status: s.state,
  target_url: s.targetUrl,
  description: s.description,
  url: `${ctx.world.baseUrl}/api/v1/repos/${ctx.params.owner}/${repo.name}/statuses/${s.sha}`,
  context: s.context,
  creator: toUser(
    ctx.world,
    ctx.state.users.find((u) => u.id === s.creatorId)!,
    ctx.doer,
  ),
  created_at: s.created,
  updated_at: s.created,
});
const STATES = ['pending', 'success', 'error', 'failure', 'warning', 'skipped'];
const createStatus: Handler = (ctx) => {
  const { repo } = loadRepo(ctx, 'write');
  const b = bodyOf(ctx);
  const sha = ctx.params.sha ?? '';
  const c = resolveRef(repo, sha);
  if (!c) throw notFound();
  if (!STATES.includes(b.state)) throw new HttpError(400, 'invalid commit status state');
  const s = {
    id: ctx.state.nextId(),
    sha: c.sha,
    state: b.state,
    context: b.context || 'default',
    description: b.description ?? '',
    targetUrl: b.target_url ?? '',
    creatorId: ctx.doer!.id,
    created: nowIso(ctx.state),
  };
  repo.statuses.push(s);
  return json(201, statusJson(ctx, repo)(s));
};
function statusesFor(ctx: Ctx, repo: Repo, ref: string): Repo['statuses'] {
  const c = resolveRef(repo, ref);
  if (!c) throw notFound();
  let list = repo.statuses
    .filter((s) => s.sha === c.sha)
    .slice()
    .reverse();
  const state = ctx.query.get('state');
  if (state) list = list.filter((s) => s.state === state);
  return list;
}
const listStatuses: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  return paged(ctx, statusesFor(ctx, repo, ctx.params.sha ?? ctx.params.ref ?? ''), statusJson(ctx, repo));
};
const combinedStatus: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  const c = resolveRef(repo, ctx.params.ref);
  if (!c) throw notFound();
  const latest = new Map<string, Repo['statuses'][number]>();
  for (const s of repo.statuses.filter((x) => x.sha === c.sha)) latest.set(s.context, s);
  const list = [...latest.values()];
  const rank = ['success', 'skipped', 'warning', 'pending', 'failure', 'error'];
  const state = list.length
    ? list.map((s) => s.state).sort((a, b) => rank.indexOf(b) - rank.indexOf(a))[0]!
    : 'pending';
  return json(200, {
    state,
    sha: c.sha,
    total_count: list.length,
    statuses: list.map(statusJson(ctx, repo)),
    repository: repoJson(ctx, repo),
    commit_url: `${ctx.world.baseUrl}/api/v1/repos/${ctx.params.owner}/${repo.name}/commits/${c.sha}`,
    url: `${ctx.world.baseUrl}/api/v1/repos/${ctx.params.owner}/${repo.name}/commits/${c.sha}/status`,
  });
};

// ---- collaborators, topics, forks --------------------------------------------------------

const listCollaborators: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  const users = [...repo.collaborators.keys()].map((id) => ctx.state.users.find((u) => u.id === id)!);
  return paged(ctx, users, (u) => toUser(ctx.world, u, ctx.doer));
};
const checkCollaborator: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  const u = findUser(ctx.state, ctx.params.collaborator ?? '');
  if (!u) throw unprocessable('user does not exist');
  if (!repo.collaborators.has(u.id)) throw notFound();
  return empty();
};
const addCollaborator: Handler = (ctx) => {
  const { repo } = loadRepo(ctx, 'admin');
  const u = findUser(ctx.state, ctx.params.collaborator ?? '');
  if (!u || u.isOrg) throw unprocessable('user does not exist');
  const p = bodyOf(ctx).permission ?? 'write';
  if (!['read', 'write', 'admin'].includes(p)) throw unprocessable('invalid permission');
  repo.collaborators.set(u.id, p);
  return empty();
};
const deleteCollaborator: Handler = (ctx) => {
  const { repo } = loadRepo(ctx, 'admin');
  const u = findUser(ctx.state, ctx.params.collaborator ?? '');
  if (!u) throw unprocessable('user does not exist');
  repo.collaborators.delete(u.id);
  return empty();
};
const collaboratorPermission: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  const u = findUser(ctx.state, ctx.params.collaborator ?? '');
  if (!u) throw notFound();
  const p = repoPerm(ctx.state, repo, u);
  const permission = p === 'owner' ? 'owner' : p === 'none' ? 'none' : p;
  return json(200, {
    permission: permission === 'owner' ? 'admin' : permission,
    role_name: permission,
    user: toUser(ctx.world, u, ctx.doer),
  });
};
const TOPIC = /^[a-z0-9][-.a-z0-9]{0,34}$/;
const listTopics: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  return json(200, { topics: repo.topics });
};
const updateTopics: Handler = (ctx) => {
  const { repo } = loadRepo(ctx, 'admin');
  const topics = (bodyOf(ctx).topics ?? []) as string[];
  const invalid = topics.filter((t) => !TOPIC.test(t.toLowerCase()));
  if (invalid.length) throw new HttpError(422, 'Invalid topics', { invalidTopics: invalid });
  repo.topics = [...new Set(topics.map((t) => t.toLowerCase()))].sort();
  return empty();
};
const addTopic: Handler = (ctx) => {
  const { repo } = loadRepo(ctx, 'admin');
  const t = (ctx.params.topic ?? '').toLowerCase();
  if (!TOPIC.test(t)) throw new HttpError(422, 'Topic names are invalid', { invalidTopics: [t] });
  if (!repo.topics.includes(t)) repo.topics = [...repo.topics, t].sort();
  return empty();
};
const deleteTopic: Handler = (ctx) => {
  const { repo } = loadRepo(ctx, 'admin');
  const t = (ctx.params.topic ?? '').toLowerCase();
  if (!repo.topics.includes(t)) throw notFound();
  repo.topics = repo.topics.filter((x) => x !== t);
  return empty();
};
const listForks: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  return paged(
    ctx,
    visibleRepos(ctx, (r) => r.forkOf === repo.id),
    (r) => repoJson(ctx, r),
  );
};
const createFork: Handler = (ctx) => {
  const { repo } = loadRepo(ctx);
  const user = requireUser(ctx);
  const b = bodyOf(ctx);
  const owner = b.organization ? loadOrg({ ...ctx, params: { org: b.organization } }, 'org', 'member') : user;
  const name = b.name || repo.name;
  if (ctx.state.repos.some((r) => r.ownerId === owner.id && r.name.toLowerCase() === name.toLowerCase()))
    throw conflict('The repository with the same name already exists.');
  const fork = addRepo(ctx.state, owner, name, {
    private: repo.private,
    description: repo.description,
    autoInit: false,
    defaultBranch: repo.defaultBranch,
  });
  fork.forkOf = repo.id;
  for (const [k, v] of repo.commits) fork.commits.set(k, v);
  for (const [k, v] of repo.branches) fork.branches.set(k, v);
  for (const [k, v] of repo.tags) fork.tags.set(k, v);
  return json(202, repoJson(ctx, fork));
};

// ---- hooks (repo, org, user) -------------------------------------------------------------

const HOOK_TYPES = [
  'dingtalk',
  'discord',
  'gitea',
  'gogs',
  'msteams',
  'slack',
  'telegram',
  'feishu',
  'wechatwork',
  'packagist',
  'matrix',
];
export function createHook(ctx: Ctx, list: Hook[]): Reply {
  const b = bodyOf(ctx);
  requireFields(b, 'type', 'config');
  if (!HOOK_TYPES.includes(b.type)) throw unprocessable('Invalid hook type');
  const config = b.config as Record<string, string>;
  if (!config.url || !/^https?:\/\//.test(config.url)) throw unprocessable('Invalid url');
  if (!config.content_type) throw unprocessable('Missing config option: content_type');
  const date = nowIso(ctx.state);
  const hook: Hook = {
    id: ctx.state.nextId(),
    type: b.type,
    config: { url: config.url, content_type: config.content_type, http_method: config.http_method ?? 'POST' },
    events: Array.isArray(b.events) && b.events.length ? b.events : ['push'],
    active: !!b.active,
    branchFilter: b.branch_filter ?? '',
    authorizationHeader: b.authorization_header ?? '',
    created: date,
    updated: date,
  };
  list.push(hook);
  // Gitea echoes authorization_header on creation (and on reads of the hook)
  return json(201, toHook(hook));
}
export function editHook(ctx: Ctx, list: Hook[]): Reply {
  const h = list.find((x) => x.id === intParam(ctx, 'id'));
  if (!h) throw notFound();
  const b = bodyOf(ctx);
  if (b.config) Object.assign(h.config, b.config);
  if (b.events) h.events = b.events;
  if (b.active !== undefined) h.active = !!b.active;
  if (b.branch_filter !== undefined) h.branchFilter = b.branch_filter;
  if (b.authorization_header !== undefined) h.authorizationHeader = b.authorization_header;
  h.updated = nowIso(ctx.state);
  return json(200, toHook(h));
}
export function getHook(ctx: Ctx, list: Hook[]): Reply {
  const h = list.find((x) => x.id === intParam(ctx, 'id'));
  if (!h) throw notFound();
  return json(200, toHook(h));
}
export function deleteHook(ctx: Ctx, list: Hook[]): Reply {
  const i = list.findIndex((x) => x.id === intParam(ctx, 'id'));
  if (i < 0) throw notFound();
  list.splice(i, 1);
  return empty();
}

// ---- Actions: secrets, variables, runner registration tokens -----------------------------

export type SecretStore = Map<string, { name: string; data: string; description: string; created: string }>;
export type VariableStore = Map<
  string,
  { name: string; value: string; description: string; ownerId: number; repoId: number }
>;
const SECRET_NAME = /^[A-Z_][A-Z0-9_]*$/i;

export const actions = {
  listSecrets: (ctx: Ctx, store: SecretStore): Reply =>
    paged(ctx, [...store.values()], (s) => ({
      name: s.name,
      description: s.description,
      created_at: s.created,
    })),
  putSecret(ctx: Ctx, store: SecretStore): Reply {
    const name = (ctx.params.secretname ?? '').toUpperCase();
    if (!SECRET_NAME.test(name) || name.startsWith('GITEA_') || name.startsWith('GITHUB_'))
      throw new HttpError(400, 'invalid secret name');
    const b = bodyOf(ctx);
    requireFields(b, 'data');
    const existed = store.has(name);
    store.set(name, {
      name,
      data: String(b.data),
      description: b.description ?? '',
      created: store.get(name)?.created ?? nowIso(ctx.state),
    });
    return empty(existed ? 204 : 201);
  },
  deleteSecret(ctx: Ctx, store: SecretStore): Reply {
    const name = (ctx.params.secretname ?? '').toUpperCase();
    if (!store.delete(name)) throw notFound('secret not found');
    return empty();
  },
  varJson: (v: VariableStore extends Map<string, infer V> ? V : never) => ({
    owner_id: v.ownerId,
    repo_id: v.repoId,
    name: v.name,
    data: v.value,
    description: v.description,
  }),
  listVars: (ctx: Ctx, store: VariableStore): Reply => paged(ctx, [...store.values()], actions.varJson),
  getVar(ctx: Ctx, store: VariableStore): Reply {
    const v = store.get((ctx.params.variablename ?? '').toUpperCase());
    if (!v) throw notFound('variable not found');
    return json(200, actions.varJson(v));
  },
  createVar(ctx: Ctx, store: VariableStore, ownerId: number, repoId: number): Reply {
    const name = (ctx.params.variablename ?? '').toUpperCase();
    if (!SECRET_NAME.test(name) || name.startsWith('GITEA_') || name.startsWith('GITHUB_'))
      throw new HttpError(400, 'invalid variable name');
    const b = bodyOf(ctx);
    requireFields(b, 'value');
    if (store.has(name)) throw conflict('variable name already exists');
    store.set(name, { name, value: String(b.value), description: b.description ?? '', ownerId, repoId });
    return empty(201);
  },
  updateVar(ctx: Ctx, store: VariableStore): Reply {
    const name = (ctx.params.variablename ?? '').toUpperCase();
    const v = store.get(name);
    if (!v) throw notFound('variable not found');
    const b = bodyOf(ctx);
    requireFields(b, 'value');
    v.value = String(b.value);
    if (b.description !== undefined) v.description = b.description;
    if (b.name && b.name.toUpperCase() !== name) {
      store.delete(name);
      v.name = b.name.toUpperCase();
      store.set(v.name, v);
    }
    return empty(204);
  },
  deleteVar(ctx: Ctx, store: VariableStore): Reply {
    if (!store.delete((ctx.params.variablename ?? '').toUpperCase())) throw notFound('variable not found');
    return empty(204);
  },
  /** Gitea returns the runner registration token in a `token` response header (body empty). */
  registrationToken(ctx: Ctx, scope: string): Reply {
    let t = ctx.state.runnerTokens.get(scope);
    if (!t) {
      t = newToken();
      ctx.state.runnerTokens.set(scope, t);
    }
    return { status: 200, headers: { token: t } };
  },
};

const repoScope = (ctx: Ctx, repo: Repo): string => `repo:${repo.id}`;

export const repoHandlers: Record<string, Handler> = {
  repoSearch: (ctx) => {
    const q = (ctx.query.get('q') ?? '').toLowerCase();
    const list = visibleRepos(
      ctx,
      (r) => !q || r.name.toLowerCase().includes(q) || r.description.toLowerCase().includes(q),
    );
    const reply = paged(ctx, list, (r) => repoJson(ctx, r));
    return { ...reply, json: { ok: true, data: reply.json } };
  },
  repoGet: (ctx) => json(200, repoJson(ctx, loadRepo(ctx).repo)),
  repoGetByID: (ctx) => {
    const r = ctx.state.repos.find((x) => x.id === intParam(ctx, 'id'));
    if (!r || repoPerm(ctx.state, r, ctx.doer) === 'none') throw notFound();
    return json(200, repoJson(ctx, r));
  },
  repoEdit: (ctx) => {
    const { repo, owner } = loadRepo(ctx, 'admin');
    const b = bodyOf(ctx);
    if (b.name && b.name !== repo.name) {
      if (
        ctx.state.repos.some((r) => r.ownerId === owner.id && r.name.toLowerCase() === b.name.toLowerCase())
      )
        throw unprocessable('repo name is already taken');
      repo.name = b.name;
    }
    if (b.description !== undefined) repo.description = b.description;
    if (b.website !== undefined) repo.website = b.website;
    if (b.private !== undefined) repo.private = !!b.private;
    if (b.template !== undefined) repo.template = !!b.template;
    if (b.archived !== undefined) repo.archived = !!b.archived;
    if (b.has_issues !== undefined) repo.hasIssues = !!b.has_issues;
    if (b.has_wiki !== undefined) repo.hasWiki = !!b.has_wiki;
    if (b.has_pull_requests !== undefined) repo.hasPullRequests = !!b.has_pull_requests;
    if (b.default_branch) {
      if (!repo.branches.has(b.default_branch)) throw notFound('branch does not exist');
      repo.defaultBranch = b.default_branch;
    }
    repo.updated = nowIso(ctx.state);
    return json(200, repoJson(ctx, repo));
  },
  repoDelete: (ctx) => {
    const { repo, owner } = loadRepo(ctx);
    requireUser(ctx);
    const perm = repoPerm(ctx.state, repo, ctx.doer);
    if (perm !== 'owner' && !(owner.isOrg && perm === 'admin'))
      throw forbidden('Given user is not owner of organization.');
    ctx.state.repos = ctx.state.repos.filter((r) => r !== repo);
    return empty();
  },
  createCurrentUserRepo: (ctx) => createRepoFor(ctx, requireUser(ctx)),
  createOrgRepo: (ctx) => {
    const org = loadOrg(ctx, 'org', 'member');
    const user = ctx.doer!;
    const canCreate =
      user.isAdmin ||
      ctx.state.teams.some(
        (t) =>
          t.orgId === org.id && t.members.has(user.id) && (t.canCreateOrgRepo || t.permission === 'owner'),
      );
    if (!canCreate) throw forbidden('Given user is not allowed to create repository in organization.');
    return createRepoFor(ctx, org);
  },
  adminCreateRepo: (ctx) => {
    if (!requireUser(ctx).isAdmin) throw forbidden('reqSiteAdmin');
    const u = findUser(ctx.state, ctx.params.username ?? '');
    if (!u) throw notFound();
    return createRepoFor(ctx, u);
  },
  userCurrentListRepos: (ctx) => {
    const u = requireUser(ctx);
    return paged(
      ctx,
      visibleRepos(ctx, (r) => permAtLeast(repoPerm(ctx.state, r, u), 'write') || r.ownerId === u.id),
      (r) => repoJson(ctx, r),
    );
  },
  userListRepos: (ctx) => {
    const owner = findUser(ctx.state, ctx.params.username ?? '');
    if (!owner) throw notFound();
    return paged(
      ctx,
      visibleRepos(ctx, (r) => r.ownerId === owner.id),
      (r) => repoJson(ctx, r),
    );
  },
  orgListRepos: (ctx) => {
    const org = loadOrg(ctx);
    return paged(
      ctx,
      visibleRepos(ctx, (r) => r.ownerId === org.id),
      (r) => repoJson(ctx, r),
    );
  },
  repoGetContentsList: (ctx) => contentsAt(ctx, ''),
  repoGetContents: (ctx) => contentsAt(ctx, ctx.params.filepath ?? ''),
  repoCreateFile: createFile,
  repoUpdateFile: updateFile,
  repoDeleteFile: deleteFile,
  repoChangeFiles: changeFiles,
  repoGetRawFile: rawFile,
  repoGetRawFileOrLFS: rawFile,
  repoGetEditorConfig: editorConfig,
  repoGetArchive: archive,
  repoListBranches: listBranches,
  repoGetBranch: getBranch,
  repoCreateBranch: createBranch,
  repoDeleteBranch: deleteBranch,
  repoRenameBranch: renameBranch,
  repoListTags: listTags,
  repoGetTag: getTag,
  repoCreateTag: createTag,
  repoDeleteTag: deleteTag,
  repoListReleases: listReleases,
  repoGetRelease: getRelease,
  repoGetReleaseByTag: getReleaseByTag,
  repoDeleteReleaseByTag: deleteReleaseByTag,
  repoGetLatestRelease: latestRelease,
  repoCreateRelease: createRelease,
  repoEditRelease: editRelease,
  repoDeleteRelease: deleteRelease,
  repoGetAllCommits: allCommits,
  repoGetSingleCommit: singleCommit,
  repoDownloadCommitDiffOrPatch: commitDiffOrPatch,
  repoListAllGitRefs: allRefs,
  repoListGitRefs: refsByPrefix,
  repoCompareDiff: compare,
  repoCreateStatus: createStatus,
  repoListStatuses: listStatuses,
  repoListStatusesByRef: listStatuses,
  repoGetCombinedStatusByRef: combinedStatus,
  repoListCollaborators: listCollaborators,
  repoCheckCollaborator: checkCollaborator,
  repoAddCollaborator: addCollaborator,
  repoDeleteCollaborator: deleteCollaborator,
  repoGetRepoPermissions: collaboratorPermission,
  repoListTopics: listTopics,
  repoUpdateTopics: updateTopics,
  repoAddTopic: addTopic,
  repoDeleteTopic: deleteTopic,
  listForks,
  createFork,
  repoListHooks: (ctx) => paged(ctx, loadRepo(ctx, 'admin').repo.hooks, toHook),
  repoCreateHook: (ctx) => createHook(ctx, loadRepo(ctx, 'admin').repo.hooks),
  repoGetHook: (ctx) => getHook(ctx, loadRepo(ctx, 'admin').repo.hooks),
  repoEditHook: (ctx) => editHook(ctx, loadRepo(ctx, 'admin').repo.hooks),
  repoDeleteHook: (ctx) => deleteHook(ctx, loadRepo(ctx, 'admin').repo.hooks),
  repoTestHook: (ctx) => {
    getHook(ctx, loadRepo(ctx, 'write').repo.hooks);
    return empty();
  },
  repoListActionsSecrets: (ctx) => actions.listSecrets(ctx, loadRepo(ctx, 'admin').repo.secrets),
  updateRepoSecret: (ctx) => actions.putSecret(ctx, loadRepo(ctx, 'admin').repo.secrets),
  deleteRepoSecret: (ctx) => actions.deleteSecret(ctx, loadRepo(ctx, 'admin').repo.secrets),
  getRepoVariablesList: (ctx) => actions.listVars(ctx, loadRepo(ctx, 'admin').repo.variables),
  getRepoVariable: (ctx) => actions.getVar(ctx, loadRepo(ctx, 'admin').repo.variables),
  createRepoVariable: (ctx) => {
    const { repo } = loadRepo(ctx, 'admin');
    return actions.createVar(ctx, repo.variables, 0, repo.id);
  },
  updateRepoVariable: (ctx) => actions.updateVar(ctx, loadRepo(ctx, 'admin').repo.variables),
  deleteRepoVariable: (ctx) => actions.deleteVar(ctx, loadRepo(ctx, 'admin').repo.variables),
  repoCreateRunnerRegistrationToken: (ctx) => {
    const { repo } = loadRepo(ctx, 'admin');
    return actions.registrationToken(ctx, repoScope(ctx, repo));
  },
  getRepoRunners: (ctx) => {
    loadRepo(ctx, 'admin');
    return json(200, { runners: [], total_count: 0 });
  },
  repoGetLanguages: (ctx) => {
    const { repo } = loadRepo(ctx);
    const c = resolveRef(repo, null);
    const out: Record<string, number> = {};
    for (const [p, d] of c?.tree ?? []) {
      const lang = p.endsWith('.ts') ? 'TypeScript' : p.endsWith('.md') ? 'Markdown' : null;
      if (lang) out[lang] = (out[lang] ?? 0) + d.length;
    }
    return json(200, out);
  },
};

export { toPayloadUser };
