// The Gitea the MCP tests talk to: the project's simulator (test/simulator) when it loads, else a
// minimal stand-in that knows the seeded users, /user and the Sudo header (enough for these tests).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type TestGitea = {
  url: string;
  tokens: { admin: string; alice: string; bob: string };
  close(): Promise<void>;
  kind: 'simulator' | 'stand-in';
};

const USERS: Record<string, { id: number; login: string; is_admin: boolean }> = {
  admin: { id: 1, login: 'admin', is_admin: true },
  alice: { id: 2, login: 'alice', is_admin: false },
  bob: { id: 3, login: 'bob', is_admin: false },
};

export async function startGitea(): Promise<TestGitea> {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const sim = require('../../../simulator') as typeof import('../../../simulator');
    const started = await sim.startGiteaSimulator({ host: '127.0.0.1', port: 0 });
    return { url: started.url, tokens: started.tokens, close: () => started.close(), kind: 'simulator' };
  } catch (error) {
    if (!/Cannot find module/.test(String((error as { message?: unknown } | null)?.message))) throw error;
  }
  const tokens = { admin: 'a'.repeat(40), alice: 'b'.repeat(40), bob: 'c'.repeat(40) };
  const byToken = new Map(Object.entries(tokens).map(([login, token]) => [token, login]));
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const token = /^token (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const doer = token ? byToken.get(token) : undefined;
    if (!doer) return send(401, { message: 'invalid username, password or token' });
    let login = doer;
    const sudo = req.headers.sudo as string | undefined;
    if (sudo) {
      if (!USERS[doer]?.is_admin) return send(403, { message: 'Only administrators allowed to sudo.' });
      if (!USERS[sudo]) return send(404, { message: `user redirect does not exist [name: ${sudo}]` });
      login = sudo;
    }
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/api/v1/user') return send(200, USERS[login]);
    return send(404, { message: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    tokens,
    kind: 'stand-in',
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
