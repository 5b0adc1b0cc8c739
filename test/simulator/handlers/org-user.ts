// Users, access tokens, OAuth2 applications, organisations, teams, org/user Actions and hooks,
// the admin operations the service's tests use, and /version.
import {
  canSeeOwner,
  findUser,
  intParam,
  isOrgMember,
  isOrgOwner,
  loadOrg,
  loadUser,
  paged,
  requireAdmin,
  requireFields,
  requireUser,
  bodyOf,
  type Ctx,
  type Handler,
} from '../context';
import { toLabel, toOrg, toRepo, toTeam, toUser } from '../convert';
import { empty, forbidden, HttpError, json, notFound, unprocessable } from '../http.util';
import { createApp } from '../oauth';
import { addOrg, addToken, addUser, sha256, type Hook, type Team, type User } from '../state';
import { actions, createHook, deleteHook, editHook, getHook } from './repo';

const VALID_SCOPES = new Set(
  ['activitypub', 'admin', 'issue', 'misc', 'notification', 'organization', 'package', 'repository', 'user']
    .flatMap((c) => [`read:${c}`, `write:${c}`])
    .concat(['all', 'public-only']),
);

function tokenJson(
  t: { id: number; name: string; token: string; scopes: string[]; created: string; lastUsed: string | null },
  reveal: boolean,
): Record<string, unknown> {
  return {
    id: t.id,
    name: t.name,
    sha1: reveal ? t.token : '',
    token_last_eight: t.token.slice(-8),
    scopes: t.scopes,
    created_at: t.created,
    last_used_at: t.lastUsed ?? '0001-01-01T00:00:00Z',
  };
}

/** Token management is reachable with basic auth only (reqBasicOrRevProxyAuth), as the doer itself or a site admin. */
function tokenOwner(ctx: Ctx): User {
  if (ctx.authKind !== 'basic') throw new HttpError(401, 'auth required');
  const user = loadUser(ctx);
  if (user.id !== ctx.doer!.id && !ctx.doer!.isAdmin)
    throw forbidden('user should be the owner of the token or a site admin');
  return user;
}

function appJson(
  app: {
    id: number;
    name: string;
    clientId: string;
    redirectUris: string[];
    confidential: boolean;
    skipSecondaryAuthorization: boolean;
    created: string;
  },
  secret?: string,
): Record<string, unknown> {
  return {
    id: app.id,
    name: app.name,
    client_id: app.clientId,
    client_secret: secret ?? '',
    confidential_client: app.confidential,
    skip_secondary_authorization: app.skipSecondaryAuthorization,
    redirect_uris: app.redirectUris,
    created: app.created,
  };
}

function findApp(ctx: Ctx) {
  const user = requireUser(ctx);
  const app = ctx.state.oauthApps.find((a) => a.id === intParam(ctx, 'id') && a.userId === user.id);
  if (!app) throw notFound(`OAuth Application not found [id: ${ctx.params.id}]`);
  return app;
}

function loadTeam(ctx: Ctx, need: 'read' | 'owner' = 'read'): { team: Team; org: User } {
  const user = requireUser(ctx);
  const team = ctx.state.teams.find((t) => t.id === intParam(ctx, 'id'));
  if (!team) throw notFound();
  const org = ctx.state.users.find((u) => u.id === team.orgId)!;
  if (!isOrgMember(ctx.state, org, user) && !user.isAdmin) throw notFound();
  if (need === 'owner' && !isOrgOwner(ctx.state, org, user)) throw forbidden('Must be an organization owner');
  return { team, org };
}

const store = <V>(map: Map<number, Map<string, V>>, id: number): Map<string, V> => {
  let m = map.get(id);
  if (!m) {
    m = new Map();
    map.set(id, m);
  }
  return m;
};
const orgHooks = (ctx: Ctx, id: number): Hook[] => {
  let list = ctx.state.orgHooks.get(id);
  if (!list) {
    list = [];
    ctx.state.orgHooks.set(id, list);
  }
  return list;
};

function createOrgFor(ctx: Ctx, owner: User): ReturnType<Handler> {
  const b = bodyOf(ctx);
  requireFields(b, 'username');
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(b.username)) throw unprocessable('[UserName]: invalid username');
  if (findUser(ctx.state, b.username)) throw unprocessable('user already exists [name: ' + b.username + ']');
  const org = addOrg(ctx.state, b.username, owner, { visibility: b.visibility, description: b.description });
  org.fullName = b.full_name ?? '';
  org.website = b.website ?? '';
  org.location = b.location ?? '';
  org.email = b.email ?? '';
  return json(201, toOrg(ctx.world, org));
}

function applyTeam(team: Team, b: Record<string, any>): void {
  if (b.name !== undefined) team.name = b.name;
  if (b.description !== undefined) team.description = b.description;
  if (b.permission !== undefined) {
    if (!['read', 'write', 'admin'].includes(b.permission))
      throw unprocessable('[Permission]: invalid permission');
    team.permission = b.permission;
  }
  if (b.includes_all_repositories !== undefined) team.includesAllRepositories = !!b.includes_all_repositories;
  if (b.can_create_org_repo !== undefined) team.canCreateOrgRepo = !!b.can_create_org_repo;
  if (Array.isArray(b.units)) team.units = b.units;
  if (b.units_map && typeof b.units_map === 'object') team.units = Object.keys(b.units_map);
}

const orgLabels = (ctx: Ctx, orgId: number) => {
  let l = ctx.state.orgLabels.get(orgId);
  if (!l) {
    l = [];
    ctx.state.orgLabels.set(orgId, l);
  }
  return l;
};

export const orgUserHandlers: Record<string, Handler> = {
  getVersion: () => json(200, { version: '1.27.1' }),

  // ---- users ----
  userGetCurrent: (ctx) => json(200, toUser(ctx.world, requireUser(ctx), ctx.doer)),
  userGet: (ctx) => json(200, toUser(ctx.world, loadUser(ctx), ctx.doer)),
  userSearch: (ctx) => {
    const q = (ctx.query.get('q') ?? '').toLowerCase();
    const uid = Number(ctx.query.get('uid') ?? 0);
    const list = ctx.state.users.filter(
      (u) =>
        !u.isOrg &&
        canSeeOwner(ctx.state, u, ctx.doer) &&
        (uid
          ? u.id === uid
          : !q || u.login.toLowerCase().includes(q) || u.fullName.toLowerCase().includes(q)),
    );
    const reply = paged(ctx, list, (u) => toUser(ctx.world, u, ctx.doer));
    return { ...reply, json: { ok: true, data: reply.json } };
  },
  userGetTokens: (ctx) => {
    const user = tokenOwner(ctx);
    return paged(
      ctx,
      ctx.state.tokens.filter((t) => t.userId === user.id),
      (t) => tokenJson(t, false),
    );
  },
  userCreateToken: (ctx) => {
    const user = tokenOwner(ctx);
    const b = bodyOf(ctx);
    requireFields(b, 'name');
    if (ctx.state.tokens.some((t) => t.userId === user.id && t.name === b.name))
      throw new HttpError(400, 'access token name has been used already');
    const scopes = (Array.isArray(b.scopes) ? b.scopes : String(b.scopes ?? '').split(','))
      .map((s: string) => s.trim())
      .filter(Boolean);
    if (!scopes.length) throw new HttpError(400, 'access token must have a scope');
    const bad = scopes.filter((s: string) => !VALID_SCOPES.has(s));
    if (bad.length)
      throw new HttpError(400, `invalid access token scope provided: invalid access token scope: ${bad[0]}`);
    const t = addToken(ctx.state, user, b.name, scopes);
    return json(201, tokenJson(t, true));
  },
  userDeleteAccessToken: (ctx) => {
    const user = tokenOwner(ctx);
    const key = ctx.params.token ?? '';
    const matches = ctx.state.tokens.filter(
      (t) => t.userId === user.id && (String(t.id) === key || t.name === key),
    );
    if (matches.length > 1) throw unprocessable('multiple matches for token name');
    if (!matches.length) throw notFound('token does not exist');
    ctx.state.tokens = ctx.state.tokens.filter((t) => t !== matches[0]);
    return empty();
  },
  userGetOauth2Application: (ctx) => {
    const user = requireUser(ctx);
    return paged(
      ctx,
      ctx.state.oauthApps.filter((a) => a.userId === user.id),
      (a) => appJson(a),
    );
  },
  userCreateOAuth2Application: (ctx) => {
    const user = requireUser(ctx);
    const b = bodyOf(ctx);
    requireFields(b, 'name');
    const uris = (b.redirect_uris ?? []) as string[];
    if (!Array.isArray(uris) || uris.some((u) => typeof u !== 'string' || !/^[a-z][a-z0-9+.-]*:/i.test(u)))
      throw new HttpError(400, 'invalid redirect URI');
    const { app, secret } = createApp(ctx.state, user, b.name, uris, b.confidential_client ?? true);
    app.skipSecondaryAuthorization = !!b.skip_secondary_authorization;
    return json(201, appJson(app, secret));
  },
  userGetOAuth2Application: (ctx) => json(200, appJson(findApp(ctx))),
  userUpdateOAuth2Application: (ctx) => {
    const app = findApp(ctx);
    const b = bodyOf(ctx);
    requireFields(b, 'name');
    app.name = b.name;
    if (Array.isArray(b.redirect_uris)) app.redirectUris = b.redirect_uris;
    if (b.confidential_client !== undefined) app.confidential = !!b.confidential_client;
    // Gitea regenerates the secret on update and returns it once
    const secret = 'gto_' + sha256(String(Math.random())).slice(0, 52);
    app.clientSecretHash = sha256(secret);
    return json(200, appJson(app, secret));
  },
  userDeleteOAuth2Application: (ctx) => {
    const app = findApp(ctx);
    ctx.state.oauthApps = ctx.state.oauthApps.filter((a) => a !== app);
    ctx.state.oauthGrants = ctx.state.oauthGrants.filter((g) => g.appId !== app.id);
    return empty();
  },
  userListTeams: (ctx) => {
    const user = requireUser(ctx);
    return paged(
      ctx,
      ctx.state.teams.filter((t) => t.members.has(user.id)),
      (t) => toTeam(ctx.world, ctx.state, t),
    );
  },
  userCreateRunnerRegistrationToken: (ctx) => actions.registrationToken(ctx, `user:${requireUser(ctx).id}`),
  getUserRunners: (ctx) => {
    requireUser(ctx);
    return json(200, { runners: [], total_count: 0 });
  },
  updateUserSecret: (ctx) => actions.putSecret(ctx, store(ctx.state.userSecrets, requireUser(ctx).id)),
  deleteUserSecret: (ctx) => actions.deleteSecret(ctx, store(ctx.state.userSecrets, requireUser(ctx).id)),
  getUserVariablesList: (ctx) => actions.listVars(ctx, store(ctx.state.userVariables, requireUser(ctx).id)),
  getUserVariable: (ctx) => actions.getVar(ctx, store(ctx.state.userVariables, requireUser(ctx).id)),
  createUserVariable: (ctx) => {
    const u = requireUser(ctx);
    return actions.createVar(ctx, store(ctx.state.userVariables, u.id), u.id, 0);
  },
  updateUserVariable: (ctx) => actions.updateVar(ctx, store(ctx.state.userVariables, requireUser(ctx).id)),
  deleteUserVariable: (ctx) => actions.deleteVar(ctx, store(ctx.state.userVariables, requireUser(ctx).id)),
  userListHooks: (ctx) => paged(ctx, orgHooks(ctx, requireUser(ctx).id), hookOut),
  userCreateHook: (ctx) => createHook(ctx, orgHooks(ctx, requireUser(ctx).id)),
  userGetHook: (ctx) => getHook(ctx, orgHooks(ctx, requireUser(ctx).id)),
  userEditHook: (ctx) => editHook(ctx, orgHooks(ctx, requireUser(ctx).id)),
  userDeleteHook: (ctx) => deleteHook(ctx, orgHooks(ctx, requireUser(ctx).id)),

  // ---- organisations ----
  orgGetAll: (ctx) =>
    paged(
      ctx,
      ctx.state.users.filter((u) => u.isOrg && canSeeOwner(ctx.state, u, ctx.doer)),
      (o) => toOrg(ctx.world, o),
    ),
  orgCreate: (ctx) => createOrgFor(ctx, requireUser(ctx)),
  orgGet: (ctx) => json(200, toOrg(ctx.world, loadOrg(ctx))),
  orgEdit: (ctx) => {
    const org = loadOrg(ctx, 'org', 'owner');
    const b = bodyOf(ctx);
    if (b.full_name !== undefined) org.fullName = b.full_name;
    if (b.description !== undefined) org.description = b.description;
    if (b.website !== undefined) org.website = b.website;
    if (b.location !== undefined) org.location = b.location;
    if (b.email !== undefined) org.email = b.email;
    if (b.visibility !== undefined) org.visibility = b.visibility;
    return json(200, toOrg(ctx.world, org));
  },
  orgDelete: (ctx) => {
    const org = loadOrg(ctx, 'org', 'owner');
    if (ctx.state.repos.some((r) => r.ownerId === org.id))
      throw unprocessable('organization still has ownership of repositories');
    ctx.state.users = ctx.state.users.filter((u) => u !== org);
    ctx.state.teams = ctx.state.teams.filter((t) => t.orgId !== org.id);
    return empty();
  },
  orgListCurrentUserOrgs: (ctx) => {
    const user = requireUser(ctx);
    return paged(
      ctx,
      ctx.state.users.filter((o) => o.isOrg && isOrgMember(ctx.state, o, user)),
      (o) => toOrg(ctx.world, o),
    );
  },
  orgListUserOrgs: (ctx) => {
    const user = loadUser(ctx);
    return paged(
      ctx,
      ctx.state.users.filter(
        (o) => o.isOrg && isOrgMember(ctx.state, o, user) && canSeeOwner(ctx.state, o, ctx.doer),
      ),
      (o) => toOrg(ctx.world, o),
    );
  },
  orgGetUserPermissions: (ctx) => {
    const user = loadUser(ctx);
    const org = loadOrg(ctx);
    const teams = ctx.state.teams.filter((t) => t.orgId === org.id && t.members.has(user.id));
    const owner = teams.some((t) => t.permission === 'owner');
    const admin = owner || teams.some((t) => t.permission === 'admin');
    return json(200, {
      is_owner: owner,
      is_admin: admin,
      can_write: admin || teams.some((t) => t.permission === 'write'),
      can_read: isOrgMember(ctx.state, org, user) || org.visibility === 'public',
      can_create_repository: owner || teams.some((t) => t.canCreateOrgRepo),
    });
  },
  orgListMembers: (ctx) => {
    const org = loadOrg(ctx);
    const ids = [...(ctx.state.orgMembers.get(org.id) ?? [])];
    return paged(
      ctx,
      ids.map((id) => ctx.state.users.find((u) => u.id === id)!),
      (u) => toUser(ctx.world, u, ctx.doer),
    );
  },
  orgIsMember: (ctx) => {
    const org = loadOrg(ctx);
    const user = findUser(ctx.state, ctx.params.username ?? '');
    if (!user || !isOrgMember(ctx.state, org, user)) throw notFound();
    if (!isOrgMember(ctx.state, org, ctx.doer) && !ctx.doer?.isAdmin)
      return {
        status: 302,
        headers: { Location: `${ctx.world.baseUrl}/api/v1/orgs/${org.login}/public_members/${user.login}` },
      };
    return empty();
  },
  orgDeleteMember: (ctx) => {
    const org = loadOrg(ctx, 'org', 'owner');
    const user = findUser(ctx.state, ctx.params.username ?? '');
    if (!user) throw notFound();
    ctx.state.orgMembers.get(org.id)?.delete(user.id);
    for (const t of ctx.state.teams) if (t.orgId === org.id) t.members.delete(user.id);
    return empty();
  },
  orgListTeams: (ctx) => {
    const org = loadOrg(ctx, 'org', 'member');
    return paged(
      ctx,
      ctx.state.teams.filter((t) => t.orgId === org.id),
      (t) => toTeam(ctx.world, ctx.state, t),
    );
  },
  orgCreateTeam: (ctx) => {
    const org = loadOrg(ctx, 'org', 'owner');
    const b = bodyOf(ctx);
    requireFields(b, 'name');
    if (
      ctx.state.teams.some((t) => t.orgId === org.id && t.name.toLowerCase() === String(b.name).toLowerCase())
    )
      throw unprocessable(`team already exists [org_id: ${org.id}, name: ${b.name}]`);
    const team: Team = {
      id: ctx.state.nextId(),
      orgId: org.id,
      name: b.name,
      description: '',
      permission: 'read',
      includesAllRepositories: false,
      canCreateOrgRepo: false,
      units: ['repo.code', 'repo.issues', 'repo.pulls', 'repo.releases'],
      members: new Set(),
      repos: new Set(),
    };
    applyTeam(team, b);
    ctx.state.teams.push(team);
    return json(201, toTeam(ctx.world, ctx.state, team));
  },
  orgGetTeam: (ctx) => json(200, toTeam(ctx.world, ctx.state, loadTeam(ctx).team)),
  orgEditTeam: (ctx) => {
    const { team } = loadTeam(ctx, 'owner');
    if (team.permission === 'owner' && bodyOf(ctx).permission)
      throw unprocessable('cannot change the permission of the owners team');
    applyTeam(team, bodyOf(ctx));
    return json(200, toTeam(ctx.world, ctx.state, team));
  },
  orgDeleteTeam: (ctx) => {
    const { team } = loadTeam(ctx, 'owner');
    if (team.permission === 'owner') throw unprocessable('cannot delete the owners team');
    ctx.state.teams = ctx.state.teams.filter((t) => t !== team);
    return empty();
  },
  orgListTeamMembers: (ctx) => {
    const { team } = loadTeam(ctx);
    return paged(
      ctx,
      [...team.members].map((id) => ctx.state.users.find((u) => u.id === id)!),
      (u) => toUser(ctx.world, u, ctx.doer),
    );
  },
  orgListTeamMember: (ctx) => {
    const { team } = loadTeam(ctx);
    const u = findUser(ctx.state, ctx.params.username ?? '');
    if (!u || !team.members.has(u.id)) throw notFound();
    return json(200, toUser(ctx.world, u, ctx.doer));
  },
  orgAddTeamMember: (ctx) => {
    const { team, org } = loadTeam(ctx, 'owner');
    const u = findUser(ctx.state, ctx.params.username ?? '');
    if (!u || u.isOrg) throw notFound();
    team.members.add(u.id);
    ctx.state.orgMembers.get(org.id)!.add(u.id);
    return empty();
  },
  orgRemoveTeamMember: (ctx) => {
    const { team } = loadTeam(ctx, 'owner');
    const u = findUser(ctx.state, ctx.params.username ?? '');
    if (!u) throw notFound();
    if (team.permission === 'owner' && team.members.size === 1 && team.members.has(u.id))
      throw unprocessable('cannot remove the last owner');
    team.members.delete(u.id);
    return empty();
  },
  orgListTeamRepos: (ctx) => {
    const { team } = loadTeam(ctx);
    const repos = ctx.state.repos.filter(
      (r) => r.ownerId === team.orgId && (team.includesAllRepositories || team.repos.has(r.id)),
    );
    return paged(ctx, repos, (r) => toRepo(ctx.world, ctx.state, r, ctx.doer));
  },
  orgListTeamRepo: (ctx) => {
    const { team } = loadTeam(ctx);
    const r = ctx.state.repos.find(
      (x) => x.ownerId === team.orgId && x.name.toLowerCase() === (ctx.params.repo ?? '').toLowerCase(),
    );
    if (!r || !(team.includesAllRepositories || team.repos.has(r.id))) throw notFound();
    return json(200, toRepo(ctx.world, ctx.state, r, ctx.doer));
  },
  orgAddTeamRepository: (ctx) => {
    const { team } = loadTeam(ctx, 'owner');
    const r = ctx.state.repos.find(
      (x) => x.ownerId === team.orgId && x.name.toLowerCase() === (ctx.params.repo ?? '').toLowerCase(),
    );
    if (!r) throw notFound();
    team.repos.add(r.id);
    return empty();
  },
  orgRemoveTeamRepository: (ctx) => {
    const { team } = loadTeam(ctx, 'owner');
    const r = ctx.state.repos.find(
      (x) => x.ownerId === team.orgId && x.name.toLowerCase() === (ctx.params.repo ?? '').toLowerCase(),
    );
    if (!r) throw notFound();
    team.repos.delete(r.id);
    return empty();
  },
  orgListHooks: (ctx) => paged(ctx, orgHooks(ctx, loadOrg(ctx, 'org', 'owner').id), hookOut),
  orgCreateHook: (ctx) => createHook(ctx, orgHooks(ctx, loadOrg(ctx, 'org', 'owner').id)),
  orgGetHook: (ctx) => getHook(ctx, orgHooks(ctx, loadOrg(ctx, 'org', 'owner').id)),
  orgEditHook: (ctx) => editHook(ctx, orgHooks(ctx, loadOrg(ctx, 'org', 'owner').id)),
  orgDeleteHook: (ctx) => deleteHook(ctx, orgHooks(ctx, loadOrg(ctx, 'org', 'owner').id)),
  orgListLabels: (ctx) => {
    const org = loadOrg(ctx);
    return paged(ctx, orgLabels(ctx, org.id), (l) =>
      toLabel(ctx.world, `${ctx.world.baseUrl}/api/v1/orgs/${org.login}`, l),
    );
  },
  orgCreateLabel: (ctx) => {
    const org = loadOrg(ctx, 'org', 'owner');
    const b = bodyOf(ctx);
    requireFields(b, 'name', 'color');
    if (!/^#?[0-9a-fA-F]{6}$/.test(b.color)) throw unprocessable('[Color]: invalid color');
    const l = {
      id: ctx.state.nextId(),
      name: b.name,
      color: String(b.color).replace(/^#/, ''),
      description: b.description ?? '',
      exclusive: !!b.exclusive,
      archived: false,
    };
    orgLabels(ctx, org.id).push(l);
    return json(201, toLabel(ctx.world, `${ctx.world.baseUrl}/api/v1/orgs/${org.login}`, l));
  },
  orgGetLabel: (ctx) => {
    const org = loadOrg(ctx);
    const l = orgLabels(ctx, org.id).find((x) => x.id === intParam(ctx, 'id'));
    if (!l) throw notFound();
    return json(200, toLabel(ctx.world, `${ctx.world.baseUrl}/api/v1/orgs/${org.login}`, l));
  },
  orgDeleteLabel: (ctx) => {
    const org = loadOrg(ctx, 'org', 'owner');
    const list = orgLabels(ctx, org.id);
    const i = list.findIndex((x) => x.id === intParam(ctx, 'id'));
    if (i < 0) throw notFound();
    list.splice(i, 1);
    return empty();
  },
  orgListActionsSecrets: (ctx) =>
    actions.listSecrets(ctx, store(ctx.state.orgSecrets, loadOrg(ctx, 'org', 'owner').id)),
  updateOrgSecret: (ctx) =>
    actions.putSecret(ctx, store(ctx.state.orgSecrets, loadOrg(ctx, 'org', 'owner').id)),
  deleteOrgSecret: (ctx) =>
    actions.deleteSecret(ctx, store(ctx.state.orgSecrets, loadOrg(ctx, 'org', 'owner').id)),
  getOrgVariablesList: (ctx) =>
    actions.listVars(ctx, store(ctx.state.orgVariables, loadOrg(ctx, 'org', 'owner').id)),
  getOrgVariable: (ctx) =>
    actions.getVar(ctx, store(ctx.state.orgVariables, loadOrg(ctx, 'org', 'owner').id)),
  createOrgVariable: (ctx) => {
    const org = loadOrg(ctx, 'org', 'owner');
    return actions.createVar(ctx, store(ctx.state.orgVariables, org.id), org.id, 0);
  },
  updateOrgVariable: (ctx) =>
    actions.updateVar(ctx, store(ctx.state.orgVariables, loadOrg(ctx, 'org', 'owner').id)),
  deleteOrgVariable: (ctx) =>
    actions.deleteVar(ctx, store(ctx.state.orgVariables, loadOrg(ctx, 'org', 'owner').id)),
  orgCreateRunnerRegistrationToken: (ctx) =>
    actions.registrationToken(ctx, `org:${loadOrg(ctx, 'org', 'owner').id}`),
  getOrgRunners: (ctx) => {
    loadOrg(ctx, 'org', 'owner');
    return json(200, { runners: [], total_count: 0 });
  },

  // ---- admin ----
  adminSearchUsers: (ctx) => {
    requireAdmin(ctx);
    return paged(
      ctx,
      ctx.state.users.filter((u) => !u.isOrg),
      (u) => toUser(ctx.world, u, ctx.doer),
    );
  },
  adminGetAllOrgs: (ctx) => {
    requireAdmin(ctx);
    return paged(
      ctx,
      ctx.state.users.filter((u) => u.isOrg),
      (o) => toOrg(ctx.world, o),
    );
  },
  adminCreateUser: (ctx) => {
    requireAdmin(ctx);
    const b = bodyOf(ctx);
    requireFields(b, 'username', 'email');
    if (findUser(ctx.state, b.username)) throw unprocessable(`user already exists [name: ${b.username}]`);
    if (!/^[^@\s]+@[^@\s]+$/.test(b.email)) throw unprocessable(`e-mail invalid [email: ${b.email}]`);
    const u = addUser(ctx.state, b.username, {
      email: b.email,
      fullName: b.full_name ?? '',
      password: b.password ?? `${b.username}-password`,
      visibility: b.visibility,
    });
    return json(201, toUser(ctx.world, u, ctx.doer));
  },
  adminEditUser: (ctx) => {
    requireAdmin(ctx);
    const u = findUser(ctx.state, ctx.params.username ?? '');
    if (!u || u.isOrg) throw unprocessable('user does not exist');
    const b = bodyOf(ctx);
    if (b.full_name !== undefined) u.fullName = b.full_name;
    if (b.email !== undefined) u.email = b.email;
    if (b.admin !== undefined) u.isAdmin = !!b.admin;
    if (b.password !== undefined) u.password = b.password;
    if (b.visibility !== undefined) u.visibility = b.visibility;
    if (b.active !== undefined) u.isActive = !!b.active;
    if (b.prohibit_login !== undefined) u.prohibitLogin = !!b.prohibit_login;
    return json(200, toUser(ctx.world, u, ctx.doer));
  },
  adminDeleteUser: (ctx) => {
    requireAdmin(ctx);
    const u = findUser(ctx.state, ctx.params.username ?? '');
    if (!u || u.isOrg) throw notFound();
    if (ctx.state.repos.some((r) => r.ownerId === u.id))
      throw unprocessable('user still has ownership of repositories');
    ctx.state.users = ctx.state.users.filter((x) => x !== u);
    ctx.state.tokens = ctx.state.tokens.filter((t) => t.userId !== u.id);
    // Deleting a user deletes their OAuth2 grants and codes (and so every token of theirs).
    ctx.state.oauthGrants = ctx.state.oauthGrants.filter((g) => g.userId !== u.id);
    for (const [code, c] of ctx.state.oauthCodes) if (c.userId === u.id) ctx.state.oauthCodes.delete(code);
    return empty();
  },
  adminCreateOrg: (ctx) => {
    requireAdmin(ctx);
    const u = findUser(ctx.state, ctx.params.username ?? '');
    if (!u || u.isOrg) throw unprocessable('user does not exist');
    return createOrgFor(ctx, u);
  },
  adminCreateRunnerRegistrationToken: (ctx) => {
    requireAdmin(ctx);
    return actions.registrationToken(ctx, 'global');
  },
  getAdminRunners: (ctx) => {
    requireAdmin(ctx);
    return json(200, { runners: [], total_count: 0 });
  },
};

function hookOut(h: Hook): Record<string, unknown> {
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
