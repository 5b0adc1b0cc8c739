// Actions artifacts and their downloads, as Gitea 1.27 serves them (routers/api/v1/repo/action.go):
// GET .../actions/artifacts/{id}/zip never answers with the bytes. It answers 302 to
//  - with SERVE_DIRECT storage: a presigned link on the storage host (MinIO/S3; another origin), or
//  - otherwise: Gitea's own .../zip/raw?sig=<HMAC>&expires=<unix>, built from the URL Gitea is
//    served at (DownloadArtifactRaw checks the signature itself: bad 404, expired 401).
// The storage host is a second node:http server of the simulator (its own port, so its own
// origin). Like S3 it refuses a request that carries an Authorization header besides the signed
// query ("Only one auth mechanism allowed"), and it records what it was sent so tests can check
// that no credential reached it.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { apiUrl, loadRepo, type Ctx, type Handler } from './context';
import { zip } from './git.util';
import { HttpError, type Reply } from './http.util';
import { nowIso, type Repo, type SimState } from './state';

export type Artifact = {
  id: number;
  repoId: number;
  name: string;
  zip: Buffer;
  created: string;
  expired: boolean;
};

export type StorageRequest = { method: string; path: string; headers: IncomingHttpHeaders };

const LINK_TTL_SECONDS = 3600; // Gitea: 60 minutes; presigned storage links: the same
const BUCKET = 'gitea-actions';

export class ArtifactStore {
  readonly items: Artifact[] = [];
  /** Gitea's `[storage.actions_artifacts] SERVE_DIRECT`: downloads go to the storage host. */
  serveDirect = false;
  /** What the storage host was asked (method, path with query, headers). */
  readonly storageRequests: StorageRequest[] = [];
  storageUrl = '';
  private readonly secret = randomBytes(32);
  private nextArtifactId = 1;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly state: SimState,
    private readonly baseUrl: () => string,
  ) {}

  add(repo: Repo, name: string, files: Record<string, string | Buffer>): Artifact {
    const tree = new Map(Object.entries(files).map(([p, v]) => [p, Buffer.isBuffer(v) ? v : Buffer.from(v)]));
    const artifact: Artifact = {
      id: this.nextArtifactId++, // its own sequence: seeding one shifts no other id
      repoId: repo.id,
      name,
      zip: zip('', tree),
      created: nowIso(this.state),
      expired: false,
    };
    this.items.push(artifact);
    return artifact;
  }

  /** getArtifactByPathParam: the artifact of this repo, 404 otherwise. */
  private find(repoId: number, rawId: string | undefined): Artifact {
    const id = Number(rawId);
    const artifact = this.items.find((a) => a.id === id && a.repoId === repoId);
    if (!artifact) throw new HttpError(404, 'artifact not found');
    return artifact;
  }

  json(ctx: Ctx, repo: Repo, owner: string, a: Artifact): Record<string, unknown> {
    const base = `${apiUrl(ctx.world)}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo.name)}/actions/artifacts/${a.id}`;
    return {
      id: a.id,
      name: a.name,
      size_in_bytes: a.zip.length,
      url: base,
      archive_download_url: `${base}/zip`,
      expired: a.expired,
      created_at: a.created,
      updated_at: a.created,
      expires_at: new Date(Date.parse(a.created) + 90 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
  }

  readonly handlers: Record<string, Handler> = {
    getArtifact: (ctx) => {
      const { repo, owner } = loadRepo(ctx);
      return {
        status: 200,
        json: this.json(ctx, repo, owner.login, this.find(repo.id, ctx.params.artifact_id)),
      };
    },
    downloadArtifact: (ctx) => {
      const { repo, owner } = loadRepo(ctx);
      const artifact = this.find(repo.id, ctx.params.artifact_id);
      if (artifact.expired) throw new HttpError(404, 'Artifact has expired');
      const expires = Math.floor((Date.now() + this.state.clockOffsetMs) / 1000) + LINK_TTL_SECONDS;
      const location = this.serveDirect
        ? this.presigned(artifact, expires)
        : `${this.baseUrl()}/${rawEndpoint(owner.login, repo.name, artifact.id)}?sig=${this.sign(rawEndpoint(owner.login, repo.name, artifact.id), expires, artifact.id)}&expires=${expires}`;
      return { status: 302, headers: { Location: location }, raw: Buffer.alloc(0) };
    },
  };

  /** DownloadArtifactRaw (not in the swagger): `/repos/{o}/{r}/actions/artifacts/{id}/zip/raw`, or null. */
  raw(
    rawPath: string,
    query: URLSearchParams,
    repoOf: (owner: string, name: string) => Repo | undefined,
  ): Reply | null {
    const m = /^\/repos\/([^/]+)\/([^/]+)\/actions\/artifacts\/(\d+)\/zip\/raw$/.exec(rawPath);
    if (!m) return null;
    const [owner, name, id] = [decodeURIComponent(m[1]!), decodeURIComponent(m[2]!), Number(m[3])];
    const expires = Number(query.get('expires'));
    const given = Buffer.from(query.get('sig') ?? '', 'base64url');
    const wanted = Buffer.from(this.sign(rawEndpoint(owner, name, id), expires, id), 'base64url');
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted))
      throw new HttpError(404, 'not found');
    if (expires * 1000 < Date.now() + this.state.clockOffsetMs)
      throw new HttpError(401, 'Error link expired');
    const repo = repoOf(owner, name);
    if (!repo) throw new HttpError(404, 'not found');
    const artifact = this.find(repo.id, String(id));
    if (artifact.expired) throw new HttpError(404, 'Artifact has expired');
    return this.zipReply(artifact);
  }

  private zipReply(artifact: Artifact): Reply {
    return {
      status: 200,
      raw: artifact.zip,
      contentType: 'application/zip',
      headers: {
        'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(artifact.name)}.zip`,
      },
    };
  }

  private sign(endpoint: string, expires: number, id: number): string {
    return createHmac('sha256', this.secret).update(`api${endpoint}${expires}${id}`).digest('base64url');
  }

  /** A presigned GET on the storage host, in the shape MinIO/S3 give them (the signature is the credential). */
  private presigned(artifact: Artifact, expires: number): string {
    const key = `${BUCKET}/${artifact.repoId}/${artifact.id}/${encodeURIComponent(artifact.name)}.zip`;
    const date = new Date((expires - LINK_TTL_SECONDS) * 1000).toISOString().replace(/[-:]|\.\d{3}/g, '');
    const query = new URLSearchParams({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': `simulator/${date.slice(0, 8)}/us-east-1/s3/aws4_request`,
      'X-Amz-Date': date,
      'X-Amz-Expires': String(LINK_TTL_SECONDS),
      'X-Amz-SignedHeaders': 'host',
    });
    query.set('X-Amz-Signature', this.storageSignature(`/${key}`, query));
    return `${this.storageUrl}/${key}?${query.toString()}`;
  }

  private storageSignature(path: string, query: URLSearchParams): string {
    const unsigned = new URLSearchParams(query);
    unsigned.delete('X-Amz-Signature');
    return createHmac('sha256', this.secret).update(`GET\n${path}\n${unsigned.toString()}`).digest('hex');
  }

  /** The storage host's answer (S3 errors are XML). */
  private storageReply(
    method: string,
    url: string,
    headers: IncomingHttpHeaders,
  ): { status: number; body: Buffer; type: string } {
    const xml = (code: string, message: string) =>
      Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
      );
    const q = url.indexOf('?');
    const path = q >= 0 ? url.slice(0, q) : url;
    const query = new URLSearchParams(q >= 0 ? url.slice(q + 1) : '');
    if (method !== 'GET' && method !== 'HEAD')
      return {
        status: 405,
        body: xml('MethodNotAllowed', 'The specified method is not allowed against this resource.'),
        type: 'application/xml',
      };
    if (headers.authorization && query.has('X-Amz-Signature'))
      return {
        status: 400,
        body: xml(
          'InvalidArgument',
          'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
        ),
        type: 'application/xml',
      };
    const signature = query.get('X-Amz-Signature') ?? '';
    if (signature !== this.storageSignature(path, query))
      return {
        status: 403,
        body: xml(
          'SignatureDoesNotMatch',
          'The request signature we calculated does not match the signature you provided.',
        ),
        type: 'application/xml',
      };
    const signedAt = Date.parse(
      (query.get('X-Amz-Date') ?? '').replace(
        /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/,
        '$1-$2-$3T$4:$5:$6Z',
      ),
    );
    if (signedAt + Number(query.get('X-Amz-Expires')) * 1000 < Date.now() + this.state.clockOffsetMs)
      return { status: 403, body: xml('AccessDenied', 'Request has expired'), type: 'application/xml' };
    const m = new RegExp(`^/${BUCKET}/(\\d+)/(\\d+)/`).exec(path);
    const artifact = m && this.items.find((a) => a.repoId === Number(m[1]) && a.id === Number(m[2]));
    if (!artifact)
      return {
        status: 404,
        body: xml('NoSuchKey', 'The specified key does not exist.'),
        type: 'application/xml',
      };
    return { status: 200, body: artifact.zip, type: 'application/zip' };
  }

  async startStorage(host: string): Promise<void> {
    const server = createServer((req, res) => {
      const method = (req.method ?? 'GET').toUpperCase();
      this.storageRequests.push({ method, path: req.url ?? '/', headers: { ...req.headers } });
      const reply = this.storageReply(method, req.url ?? '/', req.headers);
      req.resume();
      res.writeHead(reply.status, {
        'Content-Type': reply.type,
        'Content-Length': String(reply.body.length),
      });
      res.end(method === 'HEAD' ? undefined : reply.body);
    });
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => resolve());
    });
    const addr = server.address() as AddressInfo;
    this.storageUrl = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
    this.server = server;
  }

  closeStorage(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => server.close(() => resolve()));
  }
}

/** Gitea's buildDownloadRawEndpoint (relative to ROOT_URL). */
function rawEndpoint(owner: string, repo: string, id: number): string {
  return `api/v1/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/actions/artifacts/${id}/zip/raw`;
}
