// Per-request context, permissions and the lookups every handler shares.
import type { IncomingMessage } from 'node:http';
import { HttpError, notFound, pageInfo, linkHeader, type Reply } from './http.util';
import type { Route } from './router';
import type { AccessToken, Repo, SimState, User } from './state';

export type World = {
  state: SimState;
  /** e.g. http://127.0.0.1:PORT (no trailing slash); Gitea's ROOT_URL is this plus '/'. */
  baseUrl: string;
};

export type Ctx = {
  world: World;
  state: SimState;
  req: IncomingMessage;
  method: string;
  /** Raw path relative to /api/v1 (still encoded). */
  rawPath: string;
  query: URLSearchParams;
  params: Record<string, string>;
  body: any;
  route: Route;
  doer: User | null;
  token: AccessToken | null;
  /** How the caller authenticated: scopes apply to 'token' and 'oauth'. */
  authKind: 'token' | 'oauth' | 'basic' | null;
  /** The token carries Gitea's public-only scope: private repos, orgs and users are invisible. */
  publicOnly?: boolean;
};

export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

export type RepoPerm = 'none' | 'read' | 'write' | 'admin' | 'owner';
const RANK: Record<RepoPerm, number> = { none: 0, read: 1, write: 2, admin: 3, owner: 4 };

export const apiUrl = (w: World): string => `${w.baseUrl}/api/v1`;

export function findUser(state: SimState, login: string): User | undefined {
  const l = login.toLowerCase();
  return state.users.find((u) => u.login.toLowerCase() === l);
}

export function isOrgOwner(state: SimState, org: User, user: User | null): boolean {
  if (!user) return false;
  if (user.isAdmin) return true;
  return state.teams.some((t) => t.orgId === org.id && t.permission === 'owner' && t.members.has(user.id));
}

export function isOrgMember(state: SimState, org: User, user: User | null): boolean {
  return !!user && (state.orgMembers.get(org.id)?.has(user.id) ?? false);
}

/** Whether `user` may see the user or org `owner` (private/limited visibility). */
export function canSeeOwner(state: SimState, owner: User, user: User | null): boolean {
  if (owner.visibility === 'public') return true;
  if (!user) return false;
  if (user.isAdmin || user.id === owner.id) return true;
  if (owner.visibility === 'limited') return true;
  return owner.isOrg && isOrgMember(state, owner, user);
}

export function repoPerm(state: SimState, repo: Repo, user: User | null): RepoPerm {
  const owner = state.users.find((u) => u.id === repo.ownerId)!;
  let perm: RepoPerm = 'none';
  const raise = (p: RepoPerm): void => {
    if (RANK[p] > RANK[perm]) perm = p;
  };
  if (!repo.private && canSeeOwner(state, owner, user)) raise('read');
  if (!user) return perm;
  if (user.isAdmin || repo.ownerId === user.id) return 'owner';
  if (owner.isOrg) {
    for (const t of state.teams) {
      if (t.orgId !== owner.id || !t.members.has(user.id)) continue;
      if (t.permission === 'owner') return 'owner';
      if (t.includesAllRepositories || t.repos.has(repo.id)) raise(t.permission);
    }
  }
  const collab = repo.collaborators.get(user.id);
  if (collab) raise(collab);
  return perm;
}

export const permAtLeast = (p: RepoPerm, need: RepoPerm): boolean => RANK[p] >= RANK[need];

export function requireUser(ctx: Ctx): User {
  if (!ctx.doer) throw new HttpError(401, 'token is required');
  return ctx.doer;
}

export function requireAdmin(ctx: Ctx): User {
  const u = requireUser(ctx);
  if (!u.isAdmin) throw new HttpError(403, 'reqSiteAdmin');
  return u;
}

/** Gitea's repoAssignment + reqRepoReader/Writer/Admin: invisible repos are 404. */
export function loadRepo(
  ctx: Ctx,
  need: 'read' | 'write' | 'admin' = 'read',
): { repo: Repo; owner: User; perm: RepoPerm } {
  const owner = findUser(ctx.state, ctx.params.owner ?? '');
  const name = (ctx.params.repo ?? '').toLowerCase();
  const repo = owner && ctx.state.repos.find((r) => r.ownerId === owner.id && r.name.toLowerCase() === name);
  if (!owner || !repo) throw notFound();
  // api.go checkTokenPublicOnly
  if (ctx.publicOnly && (repo.private || owner.visibility !== 'public'))
    throw new HttpError(403, 'token scope is limited to public repos');
  const perm = repoPerm(ctx.state, repo, ctx.doer);
  if (perm === 'none') throw notFound();
  if (need !== 'read') {
    requireUser(ctx);
    if (need === 'write' && !permAtLeast(perm, 'write'))
      throw new HttpError(403, 'user should have a permission to write to a repo');
    if (need === 'admin' && !permAtLeast(perm, 'admin'))
      throw new HttpError(403, 'user should be an owner or a collaborator with admin write of a repository');
    if (repo.archived && ctx.method !== 'GET' && need === 'write')
      throw new HttpError(423, 'repo is archived');
  }
  return { repo, owner, perm };
}

/** Loads an org the caller may see; 404 otherwise (Gitea hides private orgs). */
export function loadOrg(ctx: Ctx, param = 'org', need: 'read' | 'member' | 'owner' = 'read'): User {
  const org = findUser(ctx.state, ctx.params[param] ?? '');
  if (!org || !org.isOrg || !canSeeOwner(ctx.state, org, ctx.doer)) throw notFound();
  if (ctx.publicOnly && org.visibility !== 'public')
    throw new HttpError(403, 'token scope is limited to public orgs');
  if (need === 'member' && !isOrgMember(ctx.state, org, requireUser(ctx)) && !ctx.doer!.isAdmin)
    throw new HttpError(403, 'Must be an organization member');
  if (need === 'owner' && !isOrgOwner(ctx.state, org, requireUser(ctx)))
    throw new HttpError(403, 'Must be an organization owner');
  return org;
}

export function loadUser(ctx: Ctx, param = 'username'): User {
  const user = findUser(ctx.state, ctx.params[param] ?? '');
  if (!user || !canSeeOwner(ctx.state, user, ctx.doer))
    throw notFound(`user redirect does not exist [name: ${ctx.params[param]}]`);
  return user;
}

/** Applies Gitea's paging to a full list: slices it and sets X-Total-Count and Link. */
export function paged<T, R>(ctx: Ctx, items: T[], map: (item: T) => R, status = 200): Reply {
  const p = pageInfo(ctx.query);
  const slice = items.slice((p.page - 1) * p.limit, p.page * p.limit);
  const headers: Record<string, string> = {
    'X-Total-Count': String(items.length),
    'Access-Control-Expose-Headers': 'X-Total-Count, Link',
  };
  const link = linkHeader(`${ctx.world.baseUrl}/api/v1`, ctx.rawPath, ctx.query, items.length, p);
  if (link) headers.Link = link;
  return { status, json: slice.map(map), headers };
}

export function bodyOf(ctx: Ctx): Record<string, any> {
  const b = ctx.body;
  if (b === undefined) return {};
  if (typeof b !== 'object' || b === null || Array.isArray(b))
    throw new HttpError(422, 'invalid request body');
  return b as Record<string, any>;
}

export function requireFields(body: Record<string, any>, ...names: string[]): void {
  const missing = names.filter((n) => body[n] === undefined || body[n] === null || body[n] === '');
  if (missing.length)
    throw new HttpError(422, `[${missing.map((m) => m[0]!.toUpperCase() + m.slice(1)).join(' ')}]: Required`);
}

export const intParam = (ctx: Ctx, name: string): number => {
  const n = Number.parseInt(ctx.params[name] ?? '', 10);
  if (!Number.isFinite(n)) throw new HttpError(422, `invalid ${name}`);
  return n;
};
