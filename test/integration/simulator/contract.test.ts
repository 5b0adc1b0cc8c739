// Contract test: every operation the simulator serves is exercised, and each response is
// validated against the schema Gitea's swagger declares for that operation and status
// (errors against APIError). The router must map each request to the operation named.
import { startGiteaSimulator, type GiteaSimulator } from '../../simulator';
import { loadSwagger, Router } from '../../simulator/router';
import { SwaggerValidator } from './swagger-validator';

type Call = {
  op: string;
  method: string;
  path: string;
  as?: 'admin' | 'alice' | 'bob' | 'anon' | 'basic:alice' | 'readOnly';
  body?: unknown;
  expect?: number;
};

const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('simulator contract against the bundled swagger', () => {
  let sim: GiteaSimulator;
  const validator = new SwaggerValidator();
  const router = new Router(loadSwagger());
  const exercised = new Set<string>();
  const problems: string[] = [];

  beforeAll(async () => {
    sim = await startGiteaSimulator({ seed: 'test' });
  });
  afterAll(async () => {
    await sim.close();
  });

  async function call(c: Call): Promise<{ status: number; json: any; text: string; headers: Headers }> {
    const [rawPath] = c.path.split('?');
    const m = router.match(c.method, rawPath!);
    if (!m || m === 'method' || m.route.operation.operationId !== c.op) {
      problems.push(
        `${c.op}: ${c.method} ${c.path} routes to ${m && m !== 'method' ? m.route.operation.operationId : String(m)}`,
      );
    }
    const headers: Record<string, string> = {};
    const as = c.as ?? 'alice';
    if (as.startsWith('basic:')) {
      const login = as.slice(6);
      headers.Authorization = `Basic ${b64(`${login}:${sim.passwords[login]}`)}`;
    } else if (as !== 'anon') headers.Authorization = `token ${sim.tokens[as]}`;
    if (c.body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${sim.apiUrl}${c.path}`, {
      method: c.method,
      headers,
      body: c.body === undefined ? undefined : JSON.stringify(c.body),
      redirect: 'manual',
    });
    const text = await res.text();
    const label = `${c.op} ${c.method} ${c.path} -> ${res.status}`;
    if (c.expect !== undefined && res.status !== c.expect)
      problems.push(`${label}: expected ${c.expect}: ${text.slice(0, 200)}`);
    const declared = validator.declared(c.op, res.status);
    let parsed: any;
    // Gitea's middleware answers 401 (no or bad credentials), 403 (scopes, sudo, permissions) and
    // 404 (repo/org assignment) on every route, though the swagger declares them only on some.
    const middleware = [401, 403, 404].includes(res.status);
    if (!declared && !middleware) problems.push(`${label}: status not declared by the swagger`);
    else if (!declared) {
      const errs = validator.validate({ $ref: '#/definitions/APIError' }, JSON.parse(text));
      if (errs.length) problems.push(`${label}: error body ${errs.join('; ')}`);
    }
    if (!declared) {
      // checked above
    } else if (res.status >= 400) {
      parsed = JSON.parse(text);
      const errs = validator.validate({ $ref: '#/definitions/APIError' }, parsed);
      if (errs.length || typeof parsed.message !== 'string')
        problems.push(`${label}: error body ${errs.join('; ')}`);
    } else if (declared.schema && (declared.schema as any).type !== 'file') {
      if ((declared.schema as any).type === 'string') {
        if (!text) problems.push(`${label}: empty text body`);
      } else {
        try {
          parsed = JSON.parse(text);
        } catch {
          problems.push(`${label}: body is not JSON`);
        }
        const errs = validator.validate(declared.schema, parsed);
        if (errs.length) problems.push(`${label}: ${errs.slice(0, 5).join('; ')}`);
      }
    } else if (
      !declared.schema &&
      res.status !== 200 &&
      text.length > 0 &&
      !(declared.headers && res.status === 200)
    ) {
      problems.push(`${label}: declared without a body but returned ${text.length} bytes`);
    }
    for (const h of Object.keys((declared?.headers as object) ?? {})) {
      if (res.status < 300 && !res.headers.get(h)) problems.push(`${label}: declared header ${h} missing`);
    }
    if (res.status < 300) exercised.add(c.op);
    if (parsed === undefined && text && (res.headers.get('content-type') ?? '').includes('json'))
      parsed = JSON.parse(text);
    return { status: res.status, json: parsed, text, headers: res.headers };
  }

  const run = async (calls: Call[]): Promise<void> => {
    for (const c of calls) await call(c);
  };

  it('serves users, tokens, OAuth2 apps and user Actions data as the swagger declares', async () => {
    await run([
      { op: 'getVersion', method: 'GET', path: '/version', as: 'anon', expect: 200 },
      { op: 'userGetCurrent', method: 'GET', path: '/user', expect: 200 },
      { op: 'userGetCurrent', method: 'GET', path: '/user', as: 'anon', expect: 401 },
      { op: 'userGet', method: 'GET', path: '/users/bob', expect: 200 },
      { op: 'userGet', method: 'GET', path: '/users/nobody', expect: 404 },
      { op: 'userSearch', method: 'GET', path: '/users/search?q=a', expect: 200 },
      { op: 'userGetTokens', method: 'GET', path: '/users/alice/tokens', as: 'basic:alice', expect: 200 },
      {
        op: 'userCreateToken',
        method: 'POST',
        path: '/users/alice/tokens',
        as: 'basic:alice',
        body: { name: 'ci', scopes: ['read:repository'] },
        expect: 201,
      },
      {
        op: 'userCreateToken',
        method: 'POST',
        path: '/users/alice/tokens',
        as: 'basic:alice',
        body: { name: 'ci', scopes: ['read:repository'] },
        expect: 400,
      },
      {
        op: 'userCreateToken',
        method: 'POST',
        path: '/users/alice/tokens',
        body: { name: 'x', scopes: ['all'] },
        expect: 401,
      },
      {
        op: 'userDeleteAccessToken',
        method: 'DELETE',
        path: '/users/alice/tokens/ci',
        as: 'basic:alice',
        expect: 204,
      },
    ]);
    const app = await call({
      op: 'userCreateOAuth2Application',
      method: 'POST',
      path: '/user/applications/oauth2',
      body: { name: 'tool', redirect_uris: ['http://127.0.0.1:9/cb'], confidential_client: true },
      expect: 201,
    });
    expect(app.json.client_secret).toBeTruthy();
    const id = app.json.id as number;
    await run([
      { op: 'userGetOauth2Application', method: 'GET', path: '/user/applications/oauth2', expect: 200 },
      { op: 'userGetOAuth2Application', method: 'GET', path: `/user/applications/oauth2/${id}`, expect: 200 },
      {
        op: 'userGetOAuth2Application',
        method: 'GET',
        path: `/user/applications/oauth2/${id}`,
        as: 'bob',
        expect: 404,
      },
      {
        op: 'userUpdateOAuth2Application',
        method: 'PATCH',
        path: `/user/applications/oauth2/${id}`,
        body: { name: 'tool2', redirect_uris: ['http://127.0.0.1:9/cb'] },
        expect: 200,
      },
      {
        op: 'userDeleteOAuth2Application',
        method: 'DELETE',
        path: `/user/applications/oauth2/${id}`,
        expect: 204,
      },
      { op: 'userListTeams', method: 'GET', path: '/user/teams', as: 'bob', expect: 200 },
      {
        op: 'userCreateRunnerRegistrationToken',
        method: 'POST',
        path: '/user/actions/runners/registration-token',
        expect: 200,
      },
      { op: 'getUserRunners', method: 'GET', path: '/user/actions/runners', expect: 200 },
      {
        op: 'updateUserSecret',
        method: 'PUT',
        path: '/user/actions/secrets/MY_SECRET',
        body: { data: 'hunter22' },
        expect: 201,
      },
      {
        op: 'updateUserSecret',
        method: 'PUT',
        path: '/user/actions/secrets/MY_SECRET',
        body: { data: 'hunter23' },
        expect: 204,
      },
      { op: 'deleteUserSecret', method: 'DELETE', path: '/user/actions/secrets/MY_SECRET', expect: 204 },
      {
        op: 'createUserVariable',
        method: 'POST',
        path: '/user/actions/variables/MY_VAR',
        body: { value: 'v1' },
        expect: 201,
      },
      {
        op: 'createUserVariable',
        method: 'POST',
        path: '/user/actions/variables/MY_VAR',
        body: { value: 'v1' },
        expect: 409,
      },
      { op: 'getUserVariablesList', method: 'GET', path: '/user/actions/variables', expect: 200 },
      { op: 'getUserVariable', method: 'GET', path: '/user/actions/variables/MY_VAR', expect: 200 },
      {
        op: 'updateUserVariable',
        method: 'PUT',
        path: '/user/actions/variables/MY_VAR',
        body: { value: 'v2' },
        expect: 204,
      },
      { op: 'deleteUserVariable', method: 'DELETE', path: '/user/actions/variables/MY_VAR', expect: 204 },
    ]);
    const hook = await call({
      op: 'userCreateHook',
      method: 'POST',
      path: '/user/hooks',
      body: {
        type: 'gitea',
        config: { url: 'https://hooks.example.com/x', content_type: 'json' },
        events: ['push'],
        active: true,
      },
      expect: 201,
    });
    await run([
      { op: 'userListHooks', method: 'GET', path: '/user/hooks', expect: 200 },
      { op: 'userGetHook', method: 'GET', path: `/user/hooks/${hook.json.id}`, expect: 200 },
      {
        op: 'userEditHook',
        method: 'PATCH',
        path: `/user/hooks/${hook.json.id}`,
        body: { active: false },
        expect: 200,
      },
      { op: 'userDeleteHook', method: 'DELETE', path: `/user/hooks/${hook.json.id}`, expect: 204 },
      { op: 'orgListCurrentUserOrgs', method: 'GET', path: '/user/orgs', expect: 200 },
      { op: 'orgListUserOrgs', method: 'GET', path: '/users/alice/orgs', expect: 200 },
      { op: 'orgGetUserPermissions', method: 'GET', path: '/users/alice/orgs/acme/permissions', expect: 200 },
      { op: 'userCurrentListRepos', method: 'GET', path: '/user/repos', expect: 200 },
      {
        op: 'createCurrentUserRepo',
        method: 'POST',
        path: '/user/repos',
        body: { name: 'scratch', auto_init: true },
        expect: 201,
      },
      {
        op: 'createCurrentUserRepo',
        method: 'POST',
        path: '/user/repos',
        body: { name: 'scratch' },
        expect: 409,
      },
      { op: 'createCurrentUserRepo', method: 'POST', path: '/user/repos', body: {}, expect: 422 },
      { op: 'userListRepos', method: 'GET', path: '/users/alice/repos', expect: 200 },
    ]);
  });

  it('serves organisations, teams, org hooks, labels and Actions data', async () => {
    await run([
      { op: 'orgGetAll', method: 'GET', path: '/orgs', expect: 200 },
      {
        op: 'orgCreate',
        method: 'POST',
        path: '/orgs',
        body: { username: 'neworg', full_name: 'New Org' },
        expect: 201,
      },
      { op: 'orgGet', method: 'GET', path: '/orgs/neworg', expect: 200 },
      { op: 'orgEdit', method: 'PATCH', path: '/orgs/neworg', body: { description: 'edited' }, expect: 200 },
      {
        op: 'orgEdit',
        method: 'PATCH',
        path: '/orgs/acme',
        as: 'bob',
        body: { description: 'x' },
        expect: 403,
      },
      { op: 'orgListRepos', method: 'GET', path: '/orgs/acme/repos', expect: 200 },
      {
        op: 'createOrgRepo',
        method: 'POST',
        path: '/orgs/neworg/repos',
        body: { name: 'r1', auto_init: true },
        expect: 201,
      },
      { op: 'orgListMembers', method: 'GET', path: '/orgs/acme/members', expect: 200 },
      { op: 'orgIsMember', method: 'GET', path: '/orgs/acme/members/bob', expect: 204 },
      { op: 'orgListTeams', method: 'GET', path: '/orgs/acme/teams', expect: 200 },
    ]);
    const team = await call({
      op: 'orgCreateTeam',
      method: 'POST',
      path: '/orgs/neworg/teams',
      body: { name: 'qa', permission: 'write', units: ['repo.code'] },
      expect: 201,
    });
    const t = team.json.id as number;
    await run([
      { op: 'orgGetTeam', method: 'GET', path: `/teams/${t}`, expect: 200 },
      {
        op: 'orgEditTeam',
        method: 'PATCH',
        path: `/teams/${t}`,
        body: { name: 'qa', description: 'Quality' },
        expect: 200,
      },
      { op: 'orgAddTeamMember', method: 'PUT', path: `/teams/${t}/members/bob`, expect: 204 },
      { op: 'orgListTeamMembers', method: 'GET', path: `/teams/${t}/members`, expect: 200 },
      { op: 'orgListTeamMember', method: 'GET', path: `/teams/${t}/members/bob`, expect: 200 },
      { op: 'orgRemoveTeamMember', method: 'DELETE', path: `/teams/${t}/members/bob`, expect: 204 },
      { op: 'orgAddTeamMember', method: 'PUT', path: `/teams/${t}/members/bob`, expect: 204 },
      { op: 'orgDeleteMember', method: 'DELETE', path: '/orgs/neworg/members/bob', expect: 204 },
      { op: 'orgAddTeamRepository', method: 'PUT', path: `/teams/${t}/repos/neworg/r1`, expect: 204 },
      { op: 'orgListTeamRepos', method: 'GET', path: `/teams/${t}/repos`, expect: 200 },
      { op: 'orgListTeamRepo', method: 'GET', path: `/teams/${t}/repos/neworg/r1`, expect: 200 },
      { op: 'orgRemoveTeamRepository', method: 'DELETE', path: `/teams/${t}/repos/neworg/r1`, expect: 204 },
      { op: 'orgDeleteTeam', method: 'DELETE', path: `/teams/${t}`, expect: 204 },
      { op: 'repoDelete', method: 'DELETE', path: '/repos/neworg/r1', expect: 204 },
      { op: 'orgDelete', method: 'DELETE', path: '/orgs/neworg', expect: 204 },
    ]);
    const hook = await call({
      op: 'orgCreateHook',
      method: 'POST',
      path: '/orgs/acme/hooks',
      body: {
        type: 'gitea',
        config: { url: 'https://hooks.example.com/org', content_type: 'json' },
        authorization_header: 'Bearer abc123',
        active: true,
      },
      expect: 201,
    });
    const label = await call({
      op: 'orgCreateLabel',
      method: 'POST',
      path: '/orgs/acme/labels',
      body: { name: 'org-wide', color: '#00ff00' },
      expect: 201,
    });
    await run([
      { op: 'orgListHooks', method: 'GET', path: '/orgs/acme/hooks', expect: 200 },
      { op: 'orgGetHook', method: 'GET', path: `/orgs/acme/hooks/${hook.json.id}`, expect: 200 },
      {
        op: 'orgEditHook',
        method: 'PATCH',
        path: `/orgs/acme/hooks/${hook.json.id}`,
        body: { events: ['issues'] },
        expect: 200,
      },
      { op: 'orgDeleteHook', method: 'DELETE', path: `/orgs/acme/hooks/${hook.json.id}`, expect: 204 },
      { op: 'orgListLabels', method: 'GET', path: '/orgs/acme/labels', expect: 200 },
      { op: 'orgGetLabel', method: 'GET', path: `/orgs/acme/labels/${label.json.id}`, expect: 200 },
      { op: 'orgDeleteLabel', method: 'DELETE', path: `/orgs/acme/labels/${label.json.id}`, expect: 204 },
      {
        op: 'updateOrgSecret',
        method: 'PUT',
        path: '/orgs/acme/actions/secrets/DEPLOY_KEY',
        body: { data: 'abc' },
        expect: 201,
      },
      { op: 'orgListActionsSecrets', method: 'GET', path: '/orgs/acme/actions/secrets', expect: 200 },
      { op: 'deleteOrgSecret', method: 'DELETE', path: '/orgs/acme/actions/secrets/DEPLOY_KEY', expect: 204 },
      {
        op: 'createOrgVariable',
        method: 'POST',
        path: '/orgs/acme/actions/variables/REGION',
        body: { value: 'eu' },
        expect: 201,
      },
      { op: 'getOrgVariablesList', method: 'GET', path: '/orgs/acme/actions/variables', expect: 200 },
      { op: 'getOrgVariable', method: 'GET', path: '/orgs/acme/actions/variables/REGION', expect: 200 },
      {
        op: 'updateOrgVariable',
        method: 'PUT',
        path: '/orgs/acme/actions/variables/REGION',
        body: { value: 'us' },
        expect: 204,
      },
      { op: 'deleteOrgVariable', method: 'DELETE', path: '/orgs/acme/actions/variables/REGION', expect: 204 },
      {
        op: 'orgCreateRunnerRegistrationToken',
        method: 'POST',
        path: '/orgs/acme/actions/runners/registration-token',
        expect: 200,
      },
      { op: 'getOrgRunners', method: 'GET', path: '/orgs/acme/actions/runners', expect: 200 },
    ]);
  });

  it('serves the admin operations', async () => {
    await run([
      { op: 'adminSearchUsers', method: 'GET', path: '/admin/users', as: 'admin', expect: 200 },
      { op: 'adminSearchUsers', method: 'GET', path: '/admin/users', as: 'alice', expect: 403 },
      { op: 'adminGetAllOrgs', method: 'GET', path: '/admin/orgs', as: 'admin', expect: 200 },
      {
        op: 'adminCreateUser',
        method: 'POST',
        path: '/admin/users',
        as: 'admin',
        body: { username: 'dave', email: 'dave@example.com', password: 'dave-secret-pw' },
        expect: 201,
      },
      {
        op: 'adminCreateUser',
        method: 'POST',
        path: '/admin/users',
        as: 'admin',
        body: { username: 'dave', email: 'dave@example.com' },
        expect: 422,
      },
      {
        op: 'adminEditUser',
        method: 'PATCH',
        path: '/admin/users/dave',
        as: 'admin',
        body: { full_name: 'Dave' },
        expect: 200,
      },
      {
        op: 'adminCreateOrg',
        method: 'POST',
        path: '/admin/users/dave/orgs',
        as: 'admin',
        body: { username: 'daveorg' },
        expect: 201,
      },
      {
        op: 'adminCreateRepo',
        method: 'POST',
        path: '/admin/users/daveorg/repos',
        as: 'admin',
        body: { name: 'x' },
        expect: 201,
      },
      {
        op: 'adminCreateUser',
        method: 'POST',
        path: '/admin/users',
        as: 'admin',
        body: { username: 'eve', email: 'eve@example.com' },
        expect: 201,
      },
      { op: 'adminDeleteUser', method: 'DELETE', path: '/admin/users/eve', as: 'admin', expect: 204 },
      {
        op: 'adminCreateRunnerRegistrationToken',
        method: 'POST',
        path: '/admin/actions/runners/registration-token',
        as: 'admin',
        expect: 200,
      },
      { op: 'getAdminRunners', method: 'GET', path: '/admin/actions/runners', as: 'admin', expect: 200 },
    ]);
  });

  it('serves repositories, contents, refs, releases, statuses, hooks and Actions data', async () => {
    const widgets = sim.state.repos.find((r) => r.name === 'widgets')!;
    const mainSha = widgets.branches.get('main')!;
    const readme = await call({
      op: 'repoGetContents',
      method: 'GET',
      path: '/repos/alice/scratch/contents/README.md',
      expect: 200,
    });
    await run([
      { op: 'repoSearch', method: 'GET', path: '/repos/search?q=wid', expect: 200 },
      { op: 'repoGet', method: 'GET', path: '/repos/acme/widgets', expect: 200 },
      { op: 'repoGet', method: 'GET', path: '/repos/acme/internal', as: 'anon', expect: 404 },
      { op: 'repoGetByID', method: 'GET', path: `/repositories/${widgets.id}`, expect: 200 },
      {
        op: 'repoEdit',
        method: 'PATCH',
        path: '/repos/alice/scratch',
        body: { description: 'scratch space', website: 'https://example.com' },
        expect: 200,
      },
      {
        op: 'repoEdit',
        method: 'PATCH',
        path: '/repos/acme/widgets',
        as: 'bob',
        body: { description: 'x' },
        expect: 403,
      },
      { op: 'repoGetLanguages', method: 'GET', path: '/repos/acme/widgets/languages', expect: 200 },
      {
        op: 'repoGetContentsList',
        method: 'GET',
        path: '/repos/acme/widgets/contents?ref=main',
        expect: 200,
      },
      {
        op: 'repoGetContents',
        method: 'GET',
        path: '/repos/acme/widgets/contents/docs/guide/intro.md?ref=feature%2Fx',
        expect: 200,
      },
      { op: 'repoGetContents', method: 'GET', path: '/repos/acme/widgets/contents/missing.txt', expect: 404 },
      {
        op: 'repoCreateFile',
        method: 'POST',
        path: '/repos/alice/scratch/contents/dir/new.txt',
        body: { content: b64('hello\n'), message: 'add new' },
        expect: 201,
      },
      {
        op: 'repoCreateFile',
        method: 'POST',
        path: '/repos/alice/scratch/contents/dir/new.txt',
        body: { content: b64('again\n') },
        expect: 422,
      },
      {
        op: 'repoUpdateFile',
        method: 'PUT',
        path: '/repos/alice/scratch/contents/README.md',
        body: { content: b64('# changed\n'), sha: readme.json.sha },
        expect: 200,
      },
      {
        op: 'repoUpdateFile',
        method: 'PUT',
        path: '/repos/alice/scratch/contents/README.md',
        body: { content: b64('# stale\n'), sha: readme.json.sha },
        expect: 422,
      },
      {
        op: 'repoChangeFiles',
        method: 'POST',
        path: '/repos/alice/scratch/contents',
        body: { files: [{ operation: 'create', path: 'a/b.txt', content: b64('b') }] },
        expect: 201,
      },
    ]);
    const created = await call({
      op: 'repoGetContents',
      method: 'GET',
      path: '/repos/alice/scratch/contents/dir/new.txt',
      expect: 200,
    });
    await run([
      {
        op: 'repoDeleteFile',
        method: 'DELETE',
        path: '/repos/alice/scratch/contents/dir/new.txt',
        body: { sha: created.json.sha },
        expect: 200,
      },
      {
        op: 'repoGetRawFile',
        method: 'GET',
        path: '/repos/acme/widgets/raw/src/index.ts?ref=main',
        expect: 200,
      },
      {
        op: 'repoGetRawFileOrLFS',
        method: 'GET',
        path: '/repos/acme/widgets/media/src/index.ts',
        expect: 200,
      },
      {
        op: 'repoGetEditorConfig',
        method: 'GET',
        path: '/repos/acme/widgets/editorconfig/src%2Findex.ts',
        expect: 200,
      },
      { op: 'repoGetArchive', method: 'GET', path: '/repos/acme/widgets/archive/main.zip', expect: 200 },
      { op: 'repoListBranches', method: 'GET', path: '/repos/acme/widgets/branches', expect: 200 },
      { op: 'repoGetBranch', method: 'GET', path: '/repos/acme/widgets/branches/feature/x', expect: 200 },
      {
        op: 'repoCreateBranch',
        method: 'POST',
        path: '/repos/alice/scratch/branches',
        body: { new_branch_name: 'topic/a' },
        expect: 201,
      },
      {
        op: 'repoCreateBranch',
        method: 'POST',
        path: '/repos/alice/scratch/branches',
        body: { new_branch_name: 'topic/a' },
        expect: 409,
      },
      {
        op: 'repoRenameBranch',
        method: 'PATCH',
        path: '/repos/alice/scratch/branches/topic/a',
        body: { name: 'topic/b' },
        expect: 204,
      },
      {
        op: 'repoDeleteBranch',
        method: 'DELETE',
        path: '/repos/alice/scratch/branches/topic/b',
        expect: 204,
      },
      { op: 'repoListTags', method: 'GET', path: '/repos/acme/widgets/tags', expect: 200 },
      { op: 'repoGetTag', method: 'GET', path: '/repos/acme/widgets/tags/rel/1.0', expect: 200 },
      {
        op: 'repoCreateTag',
        method: 'POST',
        path: '/repos/alice/scratch/tags',
        body: { tag_name: 't/1', message: 'annotated' },
        expect: 200,
      },
      { op: 'repoDeleteTag', method: 'DELETE', path: '/repos/alice/scratch/tags/t/1', expect: 204 },
      { op: 'repoListReleases', method: 'GET', path: '/repos/acme/widgets/releases', expect: 200 },
      {
        op: 'repoGetReleaseByTag',
        method: 'GET',
        path: '/repos/acme/widgets/releases/tags/rel%2F1.0',
        expect: 200,
      },
      { op: 'repoGetLatestRelease', method: 'GET', path: '/repos/acme/widgets/releases/latest', expect: 200 },
    ]);
    const rel = await call({
      op: 'repoCreateRelease',
      method: 'POST',
      path: '/repos/alice/scratch/releases',
      body: { tag_name: 'v9', name: 'nine' },
      expect: 201,
    });
    await run([
      {
        op: 'repoCreateRelease',
        method: 'POST',
        path: '/repos/alice/scratch/releases',
        body: { tag_name: 'v9' },
        expect: 409,
      },
      {
        op: 'repoGetRelease',
        method: 'GET',
        path: `/repos/alice/scratch/releases/${rel.json.id}`,
        expect: 200,
      },
      {
        op: 'repoEditRelease',
        method: 'PATCH',
        path: `/repos/alice/scratch/releases/${rel.json.id}`,
        body: { body: 'notes' },
        expect: 200,
      },
      {
        op: 'repoDeleteRelease',
        method: 'DELETE',
        path: `/repos/alice/scratch/releases/${rel.json.id}`,
        expect: 204,
      },
      {
        op: 'repoCreateRelease',
        method: 'POST',
        path: '/repos/alice/scratch/releases',
        body: { tag_name: 'rel/2.0' },
        expect: 201,
      },
      {
        op: 'repoDeleteReleaseByTag',
        method: 'DELETE',
        path: '/repos/alice/scratch/releases/tags/rel%2F2.0',
        expect: 204,
      },
      {
        op: 'repoGetAllCommits',
        method: 'GET',
        path: '/repos/acme/widgets/commits?sha=feature%2Fx&limit=2',
        expect: 200,
      },
      {
        op: 'repoGetSingleCommit',
        method: 'GET',
        path: `/repos/acme/widgets/git/commits/${mainSha}`,
        expect: 200,
      },
      {
        op: 'repoDownloadCommitDiffOrPatch',
        method: 'GET',
        path: `/repos/acme/widgets/git/commits/${mainSha}.diff`,
        expect: 200,
      },
      {
        op: 'repoDownloadCommitDiffOrPatch',
        method: 'GET',
        path: `/repos/acme/widgets/git/commits/${mainSha}.patch`,
        expect: 200,
      },
      {
        op: 'repoCompareDiff',
        method: 'GET',
        path: '/repos/acme/widgets/compare/main...feature/x',
        expect: 200,
      },
      { op: 'repoListAllGitRefs', method: 'GET', path: '/repos/acme/widgets/git/refs', expect: 200 },
      {
        op: 'repoListGitRefs',
        method: 'GET',
        path: '/repos/acme/widgets/git/refs/heads/feature',
        expect: 200,
      },
      {
        op: 'repoCreateStatus',
        method: 'POST',
        path: `/repos/acme/widgets/statuses/${mainSha}`,
        body: { state: 'pending', context: 'ci/test' },
        expect: 201,
      },
      {
        op: 'repoCreateStatus',
        method: 'POST',
        path: `/repos/acme/widgets/statuses/${mainSha}`,
        body: { state: 'bogus' },
        expect: 400,
      },
      { op: 'repoListStatuses', method: 'GET', path: `/repos/acme/widgets/statuses/${mainSha}`, expect: 200 },
      {
        op: 'repoListStatusesByRef',
        method: 'GET',
        path: '/repos/acme/widgets/commits/release/v1/statuses',
        expect: 200,
      },
      {
        op: 'repoGetCombinedStatusByRef',
        method: 'GET',
        path: '/repos/acme/widgets/commits/main/status',
        expect: 200,
      },
      {
        op: 'repoAddCollaborator',
        method: 'PUT',
        path: '/repos/alice/scratch/collaborators/bob',
        body: { permission: 'read' },
        expect: 204,
      },
      { op: 'repoListCollaborators', method: 'GET', path: '/repos/alice/scratch/collaborators', expect: 200 },
      {
        op: 'repoCheckCollaborator',
        method: 'GET',
        path: '/repos/alice/scratch/collaborators/bob',
        expect: 204,
      },
      {
        op: 'repoGetRepoPermissions',
        method: 'GET',
        path: '/repos/alice/scratch/collaborators/bob/permission',
        expect: 200,
      },
      {
        op: 'repoDeleteCollaborator',
        method: 'DELETE',
        path: '/repos/alice/scratch/collaborators/bob',
        expect: 204,
      },
      {
        op: 'repoUpdateTopics',
        method: 'PUT',
        path: '/repos/alice/scratch/topics',
        body: { topics: ['go', 'demo'] },
        expect: 204,
      },
      {
        op: 'repoUpdateTopics',
        method: 'PUT',
        path: '/repos/alice/scratch/topics',
        body: { topics: ['Not Valid!'] },
        expect: 422,
      },
      { op: 'repoListTopics', method: 'GET', path: '/repos/alice/scratch/topics', expect: 200 },
      { op: 'repoAddTopic', method: 'PUT', path: '/repos/alice/scratch/topics/extra', expect: 204 },
      { op: 'repoDeleteTopic', method: 'DELETE', path: '/repos/alice/scratch/topics/extra', expect: 204 },
      {
        op: 'createFork',
        method: 'POST',
        path: '/repos/acme/widgets/forks',
        as: 'bob',
        body: {},
        expect: 202,
      },
      { op: 'listForks', method: 'GET', path: '/repos/acme/widgets/forks', expect: 200 },
    ]);
    const hook = await call({
      op: 'repoCreateHook',
      method: 'POST',
      path: '/repos/acme/widgets/hooks',
      body: {
        type: 'gitea',
        config: { url: 'https://hooks.example.com/r', content_type: 'json' },
        authorization_header: 'Bearer s3cr3t-value',
        active: true,
      },
      expect: 201,
    });
    expect(hook.json.authorization_header).toBe('Bearer s3cr3t-value');
    await run([
      { op: 'repoListHooks', method: 'GET', path: '/repos/acme/widgets/hooks', expect: 200 },
      { op: 'repoListHooks', method: 'GET', path: '/repos/acme/widgets/hooks', as: 'bob', expect: 403 },
      { op: 'repoGetHook', method: 'GET', path: `/repos/acme/widgets/hooks/${hook.json.id}`, expect: 200 },
      {
        op: 'repoEditHook',
        method: 'PATCH',
        path: `/repos/acme/widgets/hooks/${hook.json.id}`,
        body: { active: false },
        expect: 200,
      },
      {
        op: 'repoTestHook',
        method: 'POST',
        path: `/repos/acme/widgets/hooks/${hook.json.id}/tests`,
        expect: 204,
      },
      {
        op: 'repoDeleteHook',
        method: 'DELETE',
        path: `/repos/acme/widgets/hooks/${hook.json.id}`,
        expect: 204,
      },
      {
        op: 'updateRepoSecret',
        method: 'PUT',
        path: '/repos/acme/widgets/actions/secrets/NPM_TOKEN',
        body: { data: 'npm-secret-value' },
        expect: 201,
      },
      {
        op: 'repoListActionsSecrets',
        method: 'GET',
        path: '/repos/acme/widgets/actions/secrets',
        expect: 200,
      },
      {
        op: 'deleteRepoSecret',
        method: 'DELETE',
        path: '/repos/acme/widgets/actions/secrets/NPM_TOKEN',
        expect: 204,
      },
      {
        op: 'createRepoVariable',
        method: 'POST',
        path: '/repos/acme/widgets/actions/variables/STAGE',
        body: { value: 'dev' },
        expect: 201,
      },
      {
        op: 'getRepoVariablesList',
        method: 'GET',
        path: '/repos/acme/widgets/actions/variables',
        expect: 200,
      },
      {
        op: 'getRepoVariable',
        method: 'GET',
        path: '/repos/acme/widgets/actions/variables/STAGE',
        expect: 200,
      },
      {
        op: 'updateRepoVariable',
        method: 'PUT',
        path: '/repos/acme/widgets/actions/variables/STAGE',
        body: { value: 'prod' },
        expect: 204,
      },
      {
        op: 'deleteRepoVariable',
        method: 'DELETE',
        path: '/repos/acme/widgets/actions/variables/STAGE',
        expect: 204,
      },
      {
        op: 'repoCreateRunnerRegistrationToken',
        method: 'POST',
        path: '/repos/acme/widgets/actions/runners/registration-token',
        expect: 200,
      },
      { op: 'getRepoRunners', method: 'GET', path: '/repos/acme/widgets/actions/runners', expect: 200 },
    ]);
  });

  it('serves issues, comments, labels, milestones and pull requests', async () => {
    const label = await call({
      op: 'issueCreateLabel',
      method: 'POST',
      path: '/repos/acme/widgets/labels',
      body: { name: 'triage', color: 'ff0000' },
      expect: 201,
    });
    const l = label.json.id as number;
    const issue = await call({
      op: 'issueCreateIssue',
      method: 'POST',
      path: '/repos/acme/widgets/issues',
      body: { title: 'New bug', body: 'b', labels: [l] },
      expect: 201,
    });
    const n = issue.json.number as number;
    const c1 = await call({
      op: 'issueCreateComment',
      method: 'POST',
      path: `/repos/acme/widgets/issues/${n}/comments`,
      body: { body: 'first' },
      expect: 201,
    });
    const c2 = await call({
      op: 'issueCreateComment',
      method: 'POST',
      path: `/repos/acme/widgets/issues/${n}/comments`,
      body: { body: 'second' },
      as: 'bob',
      expect: 201,
    });
    const ms = await call({
      op: 'issueCreateMilestone',
      method: 'POST',
      path: '/repos/acme/widgets/milestones',
      body: { title: 'v2' },
      expect: 201,
    });
    await run([
      { op: 'issueCreateIssue', method: 'POST', path: '/repos/acme/widgets/issues', body: {}, expect: 422 },
      { op: 'issueListIssues', method: 'GET', path: '/repos/acme/widgets/issues?state=all', expect: 200 },
      { op: 'issueSearchIssues', method: 'GET', path: '/repos/issues/search?q=bug', expect: 200 },
      { op: 'issueGetIssue', method: 'GET', path: `/repos/acme/widgets/issues/${n}`, expect: 200 },
      { op: 'issueGetIssue', method: 'GET', path: '/repos/acme/widgets/issues/999', expect: 404 },
      {
        op: 'issueEditIssue',
        method: 'PATCH',
        path: `/repos/acme/widgets/issues/${n}`,
        body: { state: 'closed', milestone: ms.json.id },
        expect: 201,
      },
      {
        op: 'issueGetComments',
        method: 'GET',
        path: `/repos/acme/widgets/issues/${n}/comments`,
        expect: 200,
      },
      { op: 'issueGetRepoComments', method: 'GET', path: '/repos/acme/widgets/issues/comments', expect: 200 },
      {
        op: 'issueGetComment',
        method: 'GET',
        path: `/repos/acme/widgets/issues/comments/${c1.json.id}`,
        expect: 200,
      },
      {
        op: 'issueEditComment',
        method: 'PATCH',
        path: `/repos/acme/widgets/issues/comments/${c1.json.id}`,
        body: { body: 'edited' },
        expect: 200,
      },
      {
        op: 'issueEditComment',
        method: 'PATCH',
        path: `/repos/acme/widgets/issues/comments/${c1.json.id}`,
        as: 'readOnly',
        body: { body: 'no' },
        expect: 403,
      },
      {
        op: 'issueEditCommentDeprecated',
        method: 'PATCH',
        path: `/repos/acme/widgets/issues/${n}/comments/${c2.json.id}`,
        as: 'bob',
        body: { body: 'edited' },
        expect: 200,
      },
      {
        op: 'issueDeleteCommentDeprecated',
        method: 'DELETE',
        path: `/repos/acme/widgets/issues/${n}/comments/${c2.json.id}`,
        as: 'bob',
        expect: 204,
      },
      {
        op: 'issueDeleteComment',
        method: 'DELETE',
        path: `/repos/acme/widgets/issues/comments/${c1.json.id}`,
        expect: 204,
      },
      { op: 'issueListLabels', method: 'GET', path: '/repos/acme/widgets/labels', expect: 200 },
      { op: 'issueGetLabel', method: 'GET', path: `/repos/acme/widgets/labels/${l}`, expect: 200 },
      {
        op: 'issueEditLabel',
        method: 'PATCH',
        path: `/repos/acme/widgets/labels/${l}`,
        body: { color: '#00aa00' },
        expect: 200,
      },
      { op: 'issueGetLabels', method: 'GET', path: `/repos/acme/widgets/issues/${n}/labels`, expect: 200 },
      {
        op: 'issueAddLabel',
        method: 'POST',
        path: `/repos/acme/widgets/issues/${n}/labels`,
        body: { labels: ['bug'] },
        expect: 200,
      },
      {
        op: 'issueReplaceLabels',
        method: 'PUT',
        path: `/repos/acme/widgets/issues/${n}/labels`,
        body: { labels: [l] },
        expect: 200,
      },
      {
        op: 'issueRemoveLabel',
        method: 'DELETE',
        path: `/repos/acme/widgets/issues/${n}/labels/${l}`,
        expect: 204,
      },
      {
        op: 'issueClearLabels',
        method: 'DELETE',
        path: `/repos/acme/widgets/issues/${n}/labels`,
        expect: 204,
      },
      { op: 'issueDeleteLabel', method: 'DELETE', path: `/repos/acme/widgets/labels/${l}`, expect: 204 },
      {
        op: 'issueGetMilestonesList',
        method: 'GET',
        path: '/repos/acme/widgets/milestones?state=all',
        expect: 200,
      },
      {
        op: 'issueGetMilestone',
        method: 'GET',
        path: `/repos/acme/widgets/milestones/${ms.json.id}`,
        expect: 200,
      },
      {
        op: 'issueEditMilestone',
        method: 'PATCH',
        path: `/repos/acme/widgets/milestones/${ms.json.id}`,
        body: { state: 'closed' },
        expect: 200,
      },
      {
        op: 'issueDeleteMilestone',
        method: 'DELETE',
        path: `/repos/acme/widgets/milestones/${ms.json.id}`,
        expect: 204,
      },
      { op: 'repoGetAssignees', method: 'GET', path: '/repos/acme/widgets/assignees', expect: 200 },
      { op: 'issueDelete', method: 'DELETE', path: `/repos/acme/widgets/issues/${n}`, expect: 204 },
      { op: 'repoListPullRequests', method: 'GET', path: '/repos/acme/widgets/pulls?state=all', expect: 200 },
      { op: 'repoGetPullRequest', method: 'GET', path: '/repos/acme/widgets/pulls/4', expect: 200 },
      {
        op: 'repoGetPullRequestByBaseHead',
        method: 'GET',
        path: '/repos/acme/widgets/pulls/main/feature/x',
        expect: 200,
      },
      {
        op: 'repoDownloadPullDiffOrPatch',
        method: 'GET',
        path: '/repos/acme/widgets/pulls/4.diff',
        expect: 200,
      },
      {
        op: 'repoDownloadPullDiffOrPatch',
        method: 'GET',
        path: '/repos/acme/widgets/pulls/4.patch',
        expect: 200,
      },
      {
        op: 'repoGetPullRequestFiles',
        method: 'GET',
        path: '/repos/acme/widgets/pulls/4/files',
        expect: 200,
      },
      {
        op: 'repoCreateBranch',
        method: 'POST',
        path: '/repos/acme/widgets/branches',
        body: { new_branch_name: 'feature/y', old_ref_name: 'feature/x' },
        expect: 201,
      },
    ]);
    const pr = await call({
      op: 'repoCreatePullRequest',
      method: 'POST',
      path: '/repos/acme/widgets/pulls',
      body: { base: 'main', head: 'feature/y', title: 'Y' },
      as: 'bob',
      expect: 201,
    });
    await run([
      {
        op: 'repoCreatePullRequest',
        method: 'POST',
        path: '/repos/acme/widgets/pulls',
        body: { base: 'main', head: 'feature/y', title: 'Y again' },
        as: 'bob',
        expect: 409,
      },
      {
        op: 'repoEditPullRequest',
        method: 'PATCH',
        path: `/repos/acme/widgets/pulls/${pr.json.number}`,
        body: { body: 'details' },
        as: 'bob',
        expect: 201,
      },
      {
        op: 'repoPullRequestIsMerged',
        method: 'GET',
        path: `/repos/acme/widgets/pulls/${pr.json.number}/merge`,
        expect: 404,
      },
      {
        op: 'repoMergePullRequest',
        method: 'POST',
        path: `/repos/acme/widgets/pulls/${pr.json.number}/merge`,
        body: { do: 'merge' },
        expect: 200,
      },
      {
        op: 'repoPullRequestIsMerged',
        method: 'GET',
        path: `/repos/acme/widgets/pulls/${pr.json.number}/merge`,
        expect: 204,
      },
      { op: 'repoDelete', method: 'DELETE', path: '/repos/alice/scratch', expect: 204 },
    ]);
  });

  it('answers an artifact download with a redirect, as Gitea does (signed raw link, or SERVE_DIRECT storage)', async () => {
    const [artifact] = sim.artifacts.items;
    const meta = await call({
      op: 'getArtifact',
      method: 'GET',
      path: `/repos/acme/widgets/actions/artifacts/${artifact!.id}`,
      expect: 200,
    });
    expect(meta.json).toMatchObject({ name: 'build-output', size_in_bytes: artifact!.zip.length });
    await call({
      op: 'getArtifact',
      method: 'GET',
      path: '/repos/acme/widgets/actions/artifacts/999',
      expect: 404,
    });
    const download = `/repos/acme/widgets/actions/artifacts/${artifact!.id}/zip`;
    const own = await call({ op: 'downloadArtifact', method: 'GET', path: download, expect: 302 });
    const rawLink = new URL(own.headers.get('location')!);
    expect(rawLink.origin).toBe(sim.url);
    expect(rawLink.pathname).toBe(`/api/v1${download}/raw`);
    expect([...rawLink.searchParams.keys()]).toEqual(['sig', 'expires']);
    // The signature is the credential: no token needed, a changed one is 404, an old link 401.
    const bytes = await fetch(rawLink);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('application/zip');
    expect(
      Buffer.from(await bytes.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
    const forged = new URL(rawLink);
    forged.searchParams.set('sig', Buffer.alloc(32).toString('base64url'));
    expect((await fetch(forged)).status).toBe(404);
    sim.advanceTime(2 * 3600_000);
    expect((await fetch(rawLink)).status).toBe(401);
    sim.advanceTime(-2 * 3600_000);

    sim.artifacts.serveDirect = true;
    try {
      const direct = await call({ op: 'downloadArtifact', method: 'GET', path: download, expect: 302 });
      const signed = new URL(direct.headers.get('location')!);
      expect(signed.origin).toBe(sim.artifacts.storageUrl);
      expect(signed.origin).not.toBe(sim.url);
      expect(signed.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
      const fromStorage = await fetch(signed);
      expect(fromStorage.status).toBe(200);
      expect(Buffer.from(await fromStorage.arrayBuffer()).equals(artifact!.zip)).toBe(true);
      // Like S3: a second credential next to the signed query is refused, a changed signature 403.
      expect((await fetch(signed, { headers: { authorization: 'token x' } })).status).toBe(400);
      const tampered = new URL(signed);
      tampered.searchParams.set('X-Amz-Expires', '999999');
      expect((await fetch(tampered)).status).toBe(403);
    } finally {
      sim.artifacts.serveDirect = false;
    }
    // Only the redirect is declared (302, no body): counted here since call() counts 2xx only.
    if (own.status === 302) exercised.add('downloadArtifact');
  });

  it('serves workflow jobs and a job log as Gitea does (http.ServeContent: Range, 206, 416)', async () => {
    const [run] = sim.actionRuns.runs;
    const [build, test, deploy] = run!.jobs;
    const job = await call({
      op: 'getWorkflowJob',
      method: 'GET',
      path: `/repos/acme/widgets/actions/jobs/${test!.id}`,
      expect: 200,
    });
    expect(job.json).toMatchObject({
      id: test!.id,
      run_id: run!.id,
      name: 'test',
      status: 'completed',
      conclusion: 'failure',
    });
    await call({
      op: 'getWorkflowJob',
      method: 'GET',
      path: '/repos/acme/widgets/actions/jobs/999',
      expect: 404,
    });
    const jobs = await call({
      op: 'listWorkflowRunJobs',
      method: 'GET',
      path: `/repos/acme/widgets/actions/runs/${run!.id}/jobs?limit=2`,
      expect: 200,
    });
    expect(jobs.json.total_count).toBe(3);
    expect(jobs.json.jobs.map((j: { name: string }) => j.name)).toEqual(['build', 'test']);
    expect(jobs.headers.get('link')).toContain('rel="next"');
    const logPath = (id: number) => `/repos/acme/widgets/actions/jobs/${id}/logs`;
    const whole = await call({
      op: 'downloadActionsRunJobLogs',
      method: 'GET',
      path: logPath(build!.id),
      expect: 200,
    });
    expect(whole.text).toBe(build!.log.toString('utf8'));
    expect(whole.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-disposition')).toMatch(/^attachment; filename="ci-build-\d+\.log"/);
    await call({ op: 'downloadActionsRunJobLogs', method: 'GET', path: logPath(deploy!.id), expect: 404 });
    const ranged = (range: string) =>
      fetch(`${sim.apiUrl}${logPath(test!.id)}`, {
        headers: { Authorization: `token ${sim.tokens.alice}`, Range: range },
      });
    const size = test!.log.length;
    const part = await ranged('bytes=100-199');
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${size}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(test!.log.subarray(100, 200))).toBe(true);
    const suffix = await ranged('bytes=-10');
    expect(suffix.headers.get('content-range')).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
    await suffix.arrayBuffer();
    const past = await ranged(`bytes=${size}-`);
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
    await past.arrayBuffer();
    const malformed = await ranged('lines=1-2');
    expect(malformed.status).toBe(416);
    expect(malformed.headers.get('content-range')).toBeNull();
    await malformed.arrayBuffer();
  });

  it('left no served operation unexercised and found no mismatch', () => {
    const missing = sim.servedOperations.filter((op) => !exercised.has(op));
    expect(problems).toEqual([]);
    expect(missing).toEqual([]);
    // A figure for the README: served operations out of the swagger's total.
    expect(sim.servedOperations.length).toBeGreaterThanOrEqual(150);
  });
});
