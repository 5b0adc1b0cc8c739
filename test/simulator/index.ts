// The Gitea simulator: a plain node:http server that behaves like Gitea 1.27 where this
// service and its agents depend on it. Start it in-process with startGiteaSimulator().
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { apiUrl, findUser, type Ctx, type Handler, type World } from './context';
import { deepJson, FaultSwitches, hugeJson, type FaultRule } from './faults';
import { HttpError, parseBody, readBody, type Reply } from './http.util';
import { basicUser, OAuthProvider, signInProhibited } from './oauth';
import { loadSwagger, Router, swaggerPath } from './router';
import { actionsJobLog, seed, type SeededTokens, type SeedName } from './seed';
import { createState, type AccessToken, type SimState, type User } from './state';
import { handlers } from './handlers';
import { ActionRunStore } from './action-runs';
import { ArtifactStore } from './artifacts';

export type { FaultRule } from './faults';
export type { SimState } from './state';
export type { Artifact, ArtifactStore, StorageRequest } from './artifacts';
export type { ActionJob, ActionRun, ActionRunStore } from './action-runs';
export {
  secretFileContent,
  leakFileText,
  leakFiles,
  HUGE_FILE_BYTES,
  actionsJobLog,
  ACTIONS_LOG_BYTES,
} from './seed';

export const GITEA_VERSION = '1.27.1';

export type GiteaSimulatorOptions = {
  port?: number;
  host?: string;
  seed?: SeedName;
  /**
   * The API description published at /swagger.v1.json, as another Gitea version could publish it
   * (SPEC_SOURCE=live tests); the bundled one by default. The routes served stay the bundled ones.
   */
  swaggerText?: string;
};

export type GiteaSimulator = {
  /** Base URL (ROOT_URL without the trailing slash); the API is under `${url}/api/v1`. */
  url: string;
  apiUrl: string;
  close(): Promise<void>;
  state: SimState;
  faults: FaultSwitches;
  /** Ready API tokens of the seeded users; readOnly is alice's token with read:* scopes only. */
  tokens: SeededTokens;
  /** Seeded logins' passwords, for basic auth (e.g. creating tokens as Gitea requires). */
  passwords: Record<string, string>;
  oauth: OAuthProvider;
  /** Actions artifacts; `serveDirect` sends downloads to the storage host (`storageUrl`, another origin). */
  artifacts: ArtifactStore;
  /** Actions workflow runs, their jobs and the jobs' logs (seeded: acme/widgets run 1, see README). */
  actionRuns: ActionRunStore;
  swaggerPath: string;
  /** Operation ids the simulator serves; every other swagger operation answers 501. */
  servedOperations: string[];
  /** Moves the simulator's clock (OAuth token expiry) forward. */
  advanceTime(ms: number): void;
};

const SWAGGER_URL_SUFFIX = '/api/swagger';

type Auth = {
  doer: User | null;
  token: AccessToken | null;
  kind: Ctx['authKind'];
  /** Effective scopes of a personal access token or an OAuth grant (basic auth has none). */
  scopes: string[] | null;
};

function scopeCategory(path: string): string {
  if (path.startsWith('/admin')) return 'admin';
  if (
    /^\/repos\/[^/]+\/[^/]+\/(issues|labels|milestones)(\/|$)/.test(path) ||
    path.startsWith('/repos/issues')
  )
    return 'issue';
  if (/^\/repos\/[^/]+\/[^/]+\/notifications/.test(path) || path.startsWith('/notifications'))
    return 'notification';
  if (path.startsWith('/repos') || /^\/users?\/([^/]+\/)?repos/.test(path) || path.startsWith('/user/repos'))
    return 'repository';
  if (
    path.startsWith('/orgs') ||
    path.startsWith('/teams') ||
    path.startsWith('/user/orgs') ||
    /^\/users\/[^/]+\/orgs/.test(path)
  )
    return 'organization';
  if (path.startsWith('/user')) return 'user';
  if (path.startsWith('/packages')) return 'package';
  if (path.startsWith('/activitypub')) return 'activitypub';
  return 'misc';
}

function hasScope(scopes: string[], level: 'read' | 'write', category: string): boolean {
  if (scopes.includes('all')) return true;
  if (category === 'misc' && level === 'read') return true; // /version, /settings/*: public
  if (scopes.includes(`write:${category}`)) return true;
  return level === 'read' && scopes.includes(`read:${category}`);
}

export async function startGiteaSimulator(options: GiteaSimulatorOptions = {}): Promise<GiteaSimulator> {
  const state = createState();
  const world: World = { state, baseUrl: '' };
  const tokens = seed(state, options.seed ?? 'test');
  const swagger = loadSwagger();
  const router = new Router(swagger);
  const faults = new FaultSwitches();
  const oauth = new OAuthProvider(world);
  const artifacts = new ArtifactStore(state, () => world.baseUrl);
  const actionRuns = new ActionRunStore(state);
  const allHandlers: Record<string, Handler> = { ...handlers, ...artifacts.handlers, ...actionRuns.handlers };
  if ((options.seed ?? 'test') !== 'empty') {
    const acme = findUser(state, 'acme');
    const widgets = acme && state.repos.find((r) => r.ownerId === acme.id && r.name === 'widgets');
    if (widgets) {
      artifacts.add(widgets, 'build-output', {
        'report.txt': 'build ok: 3 targets, 0 warnings\n',
        'dist/VERSION': '1.0.0\n',
      });
      actionRuns.add(widgets, 'ci.yml', widgets.branches.get('main')!, [
        {
          name: 'build',
          status: 'success',
          steps: ['Set up job', 'npm ci', 'npm run build'],
          log: Buffer.from(
            '2026-11-30T10:00:00.0000000Z ::group::npm ci\n2026-11-30T10:00:04.0000000Z added 812 packages\n',
          ),
        },
        {
          name: 'test',
          status: 'failure',
          steps: ['Set up job', 'npm test'],
          log: actionsJobLog(tokens.admin),
        },
        { name: 'deploy', status: 'waiting', steps: [], log: Buffer.alloc(0) },
      ]);
    }
  }
  const swaggerText = options.swaggerText ?? JSON.stringify(swagger);
  const errUrl = (): string => `${world.baseUrl}${SWAGGER_URL_SUFFIX}`;

  const authenticate = (req: IncomingMessage): Auth => {
    const header = req.headers.authorization?.trim() ?? '';
    if (!header) return { doer: null, token: null, kind: null, scopes: null };
    const bad = new HttpError(401, 'invalid username, password or token');
    const m = /^(token|bearer)\s+(.+)$/i.exec(header);
    if (m) {
      const value = m[2]!.trim();
      const t = state.tokens.find((x) => x.token === value);
      if (t)
        return {
          doer: state.users.find((u) => u.id === t.userId)!,
          token: t,
          kind: 'token',
          scopes: t.scopes,
        };
      const access = oauth.accessFor(value);
      if (access) return { doer: access.user, token: null, kind: 'oauth', scopes: access.scopes };
      throw bad;
    }
    if (/^basic\s/i.test(header)) {
      const u = basicUser(state, req);
      if (u) return { doer: u, token: null, kind: 'basic', scopes: null };
      // Gitea also accepts an access token as the basic-auth password
      const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
      const secret = decoded.slice(decoded.indexOf(':') + 1);
      const t = state.tokens.find((x) => x.token === secret);
      if (t)
        return {
          doer: state.users.find((x) => x.id === t.userId)!,
          token: t,
          kind: 'token',
          scopes: t.scopes,
        };
      throw bad;
    }
    throw bad;
  };

  const handleApi = async (req: IncomingMessage, rawPath: string, query: URLSearchParams): Promise<Reply> => {
    const method = (req.method ?? 'GET').toUpperCase();
    if (rawPath === '/swagger.v1.json' || rawPath === '/swagger')
      return { status: 200, raw: Buffer.from(swaggerText), contentType: 'application/json' };
    // DownloadArtifactRaw is outside the swagger; the signature in its query is its credential.
    if (method === 'GET' || method === 'HEAD') {
      const raw = artifacts.raw(rawPath, query, (owner, name) => {
        const o = findUser(state, owner);
        return (
          o && state.repos.find((r) => r.ownerId === o.id && r.name.toLowerCase() === name.toLowerCase())
        );
      });
      if (raw) return raw;
    }
    const match = router.match(method, rawPath);
    if (match === null) throw new HttpError(404, 'not found');
    if (match === 'method') throw new HttpError(405, 'method not allowed');
    const auth = authenticate(req);
    // api.go: a signed-in user who may not sign in (prohibit_login, inactive) is refused everywhere.
    const prohibited = auth.doer ? signInProhibited(auth.doer) : null;
    if (prohibited) throw new HttpError(403, prohibited);
    let doer = auth.doer;
    const sudo = (req.headers.sudo as string | undefined) ?? query.get('sudo');
    if (sudo && doer) {
      if (!doer.isAdmin) throw new HttpError(403, 'Only administrators allowed to sudo.');
      const target = findUser(state, sudo);
      if (!target || target.isOrg) throw new HttpError(404, `user redirect does not exist [name: ${sudo}]`);
      doer = target;
    }
    // Scopes bind personal access tokens and OAuth tokens alike (OAuth: the grant's scope).
    if (auth.scopes) {
      const level = method === 'GET' || method === 'HEAD' ? 'read' : 'write';
      const category = scopeCategory(rawPath);
      if (!hasScope(auth.scopes, level, category)) {
        throw new HttpError(
          403,
          `token does not have at least one of required scope(s), required=[${level}:${category}], token scope=${auth.scopes.join(',')}`,
        );
      }
      if (auth.token) auth.token.lastUsed = new Date().toISOString();
    }
    const handler: Handler | undefined = allHandlers[match.route.operation.operationId];
    if (!handler) {
      throw new HttpError(
        501,
        `${match.route.operation.operationId} is not implemented by the Gitea simulator`,
      );
    }
    const raw = method === 'GET' || method === 'HEAD' ? Buffer.alloc(0) : await readBody(req);
    const ctx: Ctx = {
      world,
      state,
      req,
      method,
      rawPath,
      query,
      params: match.params,
      body: parseBody(raw, req.headers['content-type']),
      route: match.route,
      doer,
      token: auth.token,
      authKind: auth.kind,
      publicOnly: auth.scopes?.includes('public-only') ?? false,
    };
    return handler(ctx);
  };

  const handleWeb = async (req: IncomingMessage, path: string, query: URLSearchParams): Promise<Reply> => {
    const method = (req.method ?? 'GET').toUpperCase();
    if (path === '/swagger.v1.json' && method === 'GET')
      return { status: 200, raw: Buffer.from(swaggerText), contentType: 'application/json' };
    // Form or JSON bodies (Gitea's binding accepts both on the OAuth endpoints).
    const form: Record<string, string> = {};
    if (method === 'POST') {
      const body = parseBody(await readBody(req), req.headers['content-type']);
      for (const [k, v] of Object.entries((body ?? {}) as Record<string, unknown>))
        if (typeof v === 'string') form[k] = v;
    }
    const oauthReply = oauth.handleWeb(req, method, path, query, () => form);
    if (oauthReply) return oauthReply;
    if (path === '/' || path === '')
      return {
        status: 200,
        contentType: 'text/html; charset=utf-8',
        raw: Buffer.from('<!DOCTYPE html><title>Gitea simulator</title>'),
      };
    return {
      status: 404,
      contentType: 'text/plain; charset=utf-8',
      raw: Buffer.from('404 page not found\n'),
    };
  };

  const send = async (res: ServerResponse, reply: Reply, fault: FaultRule | null): Promise<void> => {
    let body: Buffer;
    let contentType = reply.contentType;
    if (reply.raw !== undefined) body = reply.raw;
    else if (reply.json !== undefined) {
      body = Buffer.from(JSON.stringify(reply.json));
      contentType ??= 'application/json;charset=utf-8';
    } else body = Buffer.alloc(0);
    const headers: Record<string, string> = { ...(reply.headers ?? {}) };
    if (contentType) headers['Content-Type'] = contentType;
    headers['Content-Length'] = String(body.length);
    headers['X-Content-Type-Options'] = 'nosniff';
    res.writeHead(reply.status, headers);
    if (res.req.method === 'HEAD') return void res.end();
    if (fault?.slowBodyMs && body.length > 0) {
      const cut = Math.max(1, Math.floor(body.length / 2));
      res.write(body.subarray(0, cut));
      await new Promise((r) => setTimeout(r, fault.slowBodyMs));
      if (!res.destroyed) res.end(body.subarray(cut));
      return;
    }
    res.end(body);
  };

  const onRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const rawPath = q >= 0 ? rawUrl.slice(0, q) : rawUrl;
    const query = new URLSearchParams(q >= 0 ? rawUrl.slice(q + 1) : '');
    const method = (req.method ?? 'GET').toUpperCase();
    const fault = faults.take(method, rawPath);
    if (fault?.latencyMs) await new Promise((r) => setTimeout(r, fault.latencyMs));
    if (fault?.resetConnection) {
      req.socket.destroy();
      return;
    }
    let reply: Reply;
    try {
      if (fault?.nextStatus)
        throw new HttpError(fault.nextStatus, `simulated failure (status ${fault.nextStatus})`);
      if (fault?.hugeBodyBytes)
        reply = {
          status: 200,
          raw: Buffer.from(hugeJson(fault.hugeBodyBytes)),
          contentType: 'application/json;charset=utf-8',
        };
      else if (fault?.deepJsonLevels)
        reply = {
          status: 200,
          raw: Buffer.from(deepJson(fault.deepJsonLevels)),
          contentType: 'application/json;charset=utf-8',
        };
      else if (rawPath === '/api/v1' || rawPath.startsWith('/api/v1/'))
        reply = await handleApi(req, rawPath.slice('/api/v1'.length) || '/', query);
      else reply = await handleWeb(req, rawPath, query);
    } catch (err) {
      if (err instanceof HttpError)
        reply = { status: err.status, json: { message: err.message, url: errUrl(), ...(err.extra ?? {}) } };
      else
        reply = {
          status: 500,
          json: { message: err instanceof Error ? err.message : 'internal error', url: errUrl() },
        };
    }
    // Drain an unread request body so keep-alive connections stay usable.
    req.resume();
    await send(res, reply, fault);
  };

  const server: Server = createServer((req, res) => {
    onRequest(req, res).catch(() => res.destroy());
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  world.baseUrl = `http://${host}:${addr.port}`;
  await artifacts.startStorage(options.host ?? '127.0.0.1');

  const passwords: Record<string, string> = {};
  for (const u of state.users) if (!u.isOrg) passwords[u.login] = u.password;

  return {
    url: world.baseUrl,
    apiUrl: apiUrl(world),
    state,
    faults,
    tokens,
    passwords,
    oauth,
    artifacts,
    actionRuns,
    swaggerPath,
    servedOperations: router.routes.map((r) => r.operation.operationId).filter((id) => id in allHandlers),
    advanceTime: (ms: number) => {
      state.clockOffsetMs += ms;
    },
    close: async () => {
      await artifacts.closeStorage();
      await new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      });
    },
  };
}
