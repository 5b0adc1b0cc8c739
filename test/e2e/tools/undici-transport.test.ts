import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TransportError, type CallIdentity } from '../../../src/core/ports';
import { UndiciGiteaTransport } from '../../../src/infra/gitea/undici-gitea-transport';

const identity: CallIdentity = {
  login: 'alice',
  mode: 'token',
  sudo: null,
  token: 'tok-123',
  isSiteAdmin: true,
  subject: 'token:svc',
};
const limits = { timeoutMs: 1000, maxBodyBytes: 1000 };

describe('UndiciGiteaTransport', () => {
  let server: Server;
  let base: string;
  const seen: Array<{ url: string; headers: IncomingMessage['headers']; port: number; body: string }> = [];
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('{}');

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', headers: req.headers, port: req.socket.remotePort ?? 0, body });
        handler(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sub`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    seen.length = 0;
    handler = (_req, res) => res.end('{}');
  });

  it('sends Authorization and Sudo, keeps the connection, honours the sub path and query', async () => {
    const t = new UndiciGiteaTransport({ baseUrl: base });
    await t.send(
      {
        method: 'GET',
        path: '/user',
        query: [
          ['a', '1'],
          ['a', '2'],
        ],
        headers: { Authorization: 'evil' },
      },
      { ...identity, sudo: 'bob' },
      limits,
    );
    await t.send({ method: 'GET', path: '/again', query: [], headers: {} }, identity, limits);
    await t.send(
      { method: 'POST', path: '/x', query: [], headers: {}, body: { kind: 'json', value: { n: 1 } } },
      identity,
      limits,
    );
    expect(seen[0]!.url).toBe('/sub/api/v1/user?a=1&a=2');
    expect(seen[0]!.headers.authorization).toBe('token tok-123');
    expect(seen[0]!.headers.sudo).toBe('bob');
    expect(seen[1]!.headers.sudo).toBeUndefined();
    expect(seen[2]!.body).toBe('{"n":1}');
    await t.send({ method: 'GET', path: '/more', query: [], headers: {} }, identity, limits);
    // Keep-alive: sequential calls share the pooled connection(s) instead of one socket per call.
    expect(new Set(seen.map((x) => x.port)).size).toBeLessThan(seen.length);
    await t.close();
  });

  it('sends a person’s OAuth token only as Bearer', async () => {
    const t = new UndiciGiteaTransport({ baseUrl: base });
    await t.send(
      { method: 'GET', path: '/user', query: [], headers: {} },
      { ...identity, mode: 'oauth' },
      limits,
    );
    expect(seen[0]!.headers.authorization).toBe('Bearer tok-123');
    await t.close();
  });

  it('sends multipart uploads', async () => {
    const t = new UndiciGiteaTransport({ baseUrl: base });
    await t.send(
      {
        method: 'POST',
        path: '/up',
        query: [],
        headers: {},
        body: {
          kind: 'multipart',
          fields: [],
          files: [
            { field: 'attachment', filename: 'a.txt', contentType: 'text/plain', data: Buffer.from('hello') },
          ],
        },
      },
      identity,
      limits,
    );
    expect(seen[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[0]!.body).toContain('filename="a.txt"');
    expect(seen[0]!.body).toContain('hello');
    await t.close();
  });

  it('follows a same-origin API redirect; a redirect to the Gitea web pages is not followed', async () => {
    const t = new UndiciGiteaTransport({ baseUrl: base });
    handler = (req, res) => {
      if (req.url === '/sub/api/v1/repos/old/r')
        res.writeHead(301, { location: '/sub/api/v1/repos/new/r' }).end();
      else if (req.url === '/sub/api/v1/web') res.writeHead(302, { location: '/sub/user/login' }).end();
      else res.end('{"ok":true}');
    };
    const moved = await t.send(
      { method: 'GET', path: '/repos/old/r', query: [], headers: {} },
      identity,
      limits,
    );
    expect(moved.status).toBe(200);
    expect(seen.map((s) => s.url)).toEqual(['/sub/api/v1/repos/old/r', '/sub/api/v1/repos/new/r']);
    const web = await t.send({ method: 'GET', path: '/web', query: [], headers: {} }, identity, limits);
    expect(web.status).toBe(302);
    expect(web.offOrigin).toBeUndefined();
    await t.close();
  });

  it('fetches an off-origin download link (artifact zip) once, without any credential (ADR 0019)', async () => {
    const storageSeen: Array<{ url: string; headers: IncomingMessage['headers'] }> = [];
    const storage = createServer((req, res) => {
      storageSeen.push({ url: req.url ?? '', headers: req.headers });
      if (req.url?.startsWith('/bucket/again')) res.writeHead(302, { location: `${base}/api/v1/x` }).end();
      else res.writeHead(200, { 'content-type': 'application/zip' }).end(Buffer.from('PK\x03\x04zip'));
    });
    await new Promise<void>((resolve) => storage.listen(0, '127.0.0.1', resolve));
    const storageOrigin = `http://127.0.0.1:${(storage.address() as AddressInfo).port}`;
    try {
      const t = new UndiciGiteaTransport({ baseUrl: base });
      handler = (req, res) => {
        if (req.url === '/sub/api/v1/repos/o/r/actions/artifacts/1/zip')
          res.writeHead(302, { location: `${storageOrigin}/bucket/a.zip?X-Amz-Signature=sig` }).end();
        else if (req.url === '/sub/api/v1/again')
          res.writeHead(302, { location: `${storageOrigin}/bucket/again` }).end();
        else if (req.url === '/sub/api/v1/userinfo')
          res.writeHead(302, { location: `http://u:p@127.0.0.1:9/x` }).end();
        else res.end('{}');
      };
      const sudoIdentity = { ...identity, sudo: 'bob' };
      const zip = await t.send(
        { method: 'GET', path: '/repos/o/r/actions/artifacts/1/zip', query: [], headers: { cookie: 'c=1' } },
        sudoIdentity,
        limits,
      );
      expect(zip.status).toBe(200);
      expect(Buffer.from(zip.body).toString('latin1')).toBe('PK\x03\x04zip');
      expect(zip.offOrigin).toEqual({ origin: storageOrigin, followed: true });
      expect(storageSeen).toHaveLength(1);
      expect(storageSeen[0]!.url).toBe('/bucket/a.zip?X-Amz-Signature=sig');
      expect(storageSeen[0]!.headers.authorization).toBeUndefined();
      expect(storageSeen[0]!.headers.sudo).toBeUndefined();
      expect(storageSeen[0]!.headers.cookie).toBeUndefined();
      // One hop off the origin, no more: a redirect back from the storage host is returned as is.
      const again = await t.send({ method: 'GET', path: '/again', query: [], headers: {} }, identity, limits);
      expect(again.status).toBe(302);
      expect(seen.filter((s) => s.url === '/sub/api/v1/x')).toHaveLength(0);
      // A link with credentials in it is not fetched, and says why.
      const userinfo = await t.send(
        { method: 'GET', path: '/userinfo', query: [], headers: {} },
        identity,
        limits,
      );
      expect(userinfo.status).toBe(302);
      expect(userinfo.offOrigin).toMatchObject({ origin: 'http://127.0.0.1:9', followed: false });
      // Switched off: returned as the redirect, with the reason.
      const off = new UndiciGiteaTransport({ baseUrl: base, followOffOrigin: false });
      const kept = await off.send(
        { method: 'GET', path: '/repos/o/r/actions/artifacts/1/zip', query: [], headers: {} },
        identity,
        limits,
      );
      expect(kept.status).toBe(302);
      expect(kept.offOrigin).toMatchObject({ origin: storageOrigin, followed: false });
      expect(storageSeen.map((s) => s.url)).toEqual(['/bucket/a.zip?X-Amz-Signature=sig', '/bucket/again']);
      await t.close();
      await off.close();
    } finally {
      storage.closeAllConnections();
      await new Promise((resolve) => storage.close(resolve));
    }
  });

  it('caps the body, times out, and reports network errors', async () => {
    const t = new UndiciGiteaTransport({ baseUrl: base });
    handler = (_req, res) => res.end('x'.repeat(5000));
    await expect(
      t.send({ method: 'GET', path: '/big', query: [], headers: {} }, identity, limits),
    ).rejects.toMatchObject({ kind: 'payload_too_large' });
    handler = (_req, res) => {
      res.writeHead(200);
      res.write('x'.repeat(600));
      res.end('y'.repeat(600));
    };
    await expect(
      t.send({ method: 'GET', path: '/chunked', query: [], headers: {} }, identity, limits),
    ).rejects.toMatchObject({ kind: 'payload_too_large' });
    handler = (_req, res) => setTimeout(() => res.end('{}'), 800);
    await expect(
      t.send({ method: 'GET', path: '/slow', query: [], headers: {} }, identity, {
        ...limits,
        timeoutMs: 200,
      }),
    ).rejects.toMatchObject({ kind: 'timeout' });
    await t.close();
    const dead = new UndiciGiteaTransport({ baseUrl: 'http://127.0.0.1:1' });
    const error = await dead
      .send({ method: 'GET', path: '/x', query: [], headers: {} }, identity, limits)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).kind).toBe('network_error');
    expect((error as TransportError).message).not.toContain('tok-123');
    await dead.close();
  });
});
