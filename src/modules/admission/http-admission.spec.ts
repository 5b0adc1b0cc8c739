import { tokenCaller } from '../../core/testing/tool-service-fixture';
// The admission pipeline used by a route other than /mcp (as /api/admin/* will): its own error
// format, the same origin, authentication, body and call limits.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { AuditEntry } from '../../core/ports';
import type { IdentityResolver } from '../auth/identity-resolver';
import { HttpAdmission, type AdmissionRoute } from './http-admission';

const identity = tokenCaller({ login: 'svc', token: 'gitea-token', isSiteAdmin: true });

const resolver: IdentityResolver & { calls: number } = {
  calls: 0,
  async authenticate(authorization) {
    this.calls += 1;
    return authorization === 'Bearer good'
      ? { ok: true, identity }
      : { ok: false, status: 401, error: 'invalid_token', message: 'no' };
  },
  upstreamUnauthorized: () => undefined,
  challenge: () => 'Bearer realm="test"',
};

describe('HttpAdmission for another route', () => {
  const audits: AuditEntry[] = [];
  const admission = new HttpAdmission({
    allowedOrigins: ['https://console.example'],
    publicUrl: null,
    identityResolver: resolver,
    authFailuresPerMinute: 0,
    rateLimitPerMinute: 2,
    maxConcurrentPerIdentity: 1,
    maxConcurrentTotal: 4,
    queueWaitMs: 50,
    audit: { record: (e) => audits.push(e) },
    logger: pino({ level: 'silent' }),
  });
  const route: AdmissionRoute = {
    name: 'admin',
    methods: ['GET', 'POST'],
    allowHeaders: 'Authorization, Content-Type',
    exposeHeaders: 'Retry-After',
    reject: (res, refusal) => {
      res.statusCode = refusal.status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: refusal.reason, message: refusal.message }));
    },
  };
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      void (async () => {
        const admitted = await admission.admit(req, res, route);
        if (!admitted) return;
        if (admitted.method === 'POST') {
          const body = await admission.body(req, res, route, {
            maxBytes: 32,
            contentTypes: ['application/json'],
            json: true,
          });
          if (!body) return;
          const call = await admission.call(admitted.identity);
          if (!call.ok)
            return route.reject(res, { status: call.status, reason: call.reason, message: call.message });
          call.release();
          res.end(JSON.stringify({ ok: true, body: body.parsed }));
          return;
        }
        res.end(JSON.stringify({ login: admitted.identity.login }));
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/admin/x`;
  });
  afterAll(async () => {
    admission.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const send = (init: RequestInit & { headers?: Record<string, string> }) =>
    fetch(url, { ...init, headers: { authorization: 'Bearer good', ...init.headers } });

  it('refuses a foreign origin before authenticating, and a method the route does not serve', async () => {
    const before = resolver.calls;
    expect((await send({ headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect(resolver.calls).toBe(before);
    const put = await send({ method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
  });

  it('authenticates once per request through the resolver and audits a failure under the route name', async () => {
    const before = resolver.calls;
    const ok = await send({ headers: { origin: 'https://console.example' } });
    expect(await ok.json()).toEqual({ login: 'svc' });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://console.example');
    expect(resolver.calls).toBe(before + 1);
    const bad = await send({ headers: { authorization: 'Bearer bad' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe('Bearer realm="test"');
    expect(await bad.json()).toEqual({ error: 'unauthorized', message: 'no' });
    expect(audits.at(-1)).toMatchObject({
      tool: 'admin.authenticate',
      kind: 'admin_unauthorized',
      status: 401,
    });
  });

  it('limits the body (415, 413, 400) and the calls of an identity (429)', async () => {
    const post = (body: string, type = 'application/json') =>
      send({ method: 'POST', body, headers: { 'content-type': type } });
    expect((await post('{}', 'text/plain')).status).toBe(415);
    expect((await post(JSON.stringify({ pad: 'x'.repeat(64) }))).status).toBe(413);
    expect((await post('{nope')).status).toBe(400);
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await post('{"a":1}')).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
