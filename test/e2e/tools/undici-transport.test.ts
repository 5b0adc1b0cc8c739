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

  it('follows a same-origin API redirect but never one off the Gitea origin', async () => {
    const t = new UndiciGiteaTransport({ baseUrl: base });
    handler = (req, res) => {
      if (req.url === '/sub/api/v1/repos/old/r')
        res.writeHead(301, { location: '/sub/api/v1/repos/new/r' }).end();
      else if (req.url === '/sub/api/v1/away')
        res.writeHead(302, { location: 'http://127.0.0.2:1/steal' }).end();
      else res.end('{"ok":true}');
    };
    const moved = await t.send(
      { method: 'GET', path: '/repos/old/r', query: [], headers: {} },
      identity,
      limits,
    );
    expect(moved.status).toBe(200);
    expect(seen.map((s) => s.url)).toEqual(['/sub/api/v1/repos/old/r', '/sub/api/v1/repos/new/r']);
    const away = await t.send({ method: 'GET', path: '/away', query: [], headers: {} }, identity, limits);
    expect(away.status).toBe(302);
    await t.close();
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
