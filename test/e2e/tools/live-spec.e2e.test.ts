// Issue 16: SPEC_SOURCE=live. The service reads Gitea's own description, fetched with the service
// token; a changed live document that renames a disabled operation (and its route's parameters)
// does not move it out of DISABLED_TOOLS: through /mcp with the official SDK client, the renamed
// tool is not listed and its call is refused, by name and through the raw tool, and Gitea never
// sees the request.
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { connect, envelope, type McpClient } from '../mcp/helpers/clients';
import { startGitea, type TestGitea } from '../mcp/helpers/gitea';
import { BEARER, startMcpApp, testConfig, type McpApp } from '../mcp/helpers/mcp-app';

/** The bundled description as a newer Gitea could serve it: repoDelete renamed, its route's parameters too. */
function renamedDescription(): string {
  const spec = JSON.parse(readFileSync(join(__dirname, '../../../gitea/swagger.v1.json'), 'utf8')) as {
    info: { version: string };
    paths: Record<
      string,
      Record<string, { operationId: string; parameters?: Array<{ name: string; in: string }> }>
    >;
  };
  const item = spec.paths['/repos/{owner}/{repo}']!;
  delete spec.paths['/repos/{owner}/{repo}'];
  for (const op of Object.values(item)) {
    if (op.operationId === 'repoDelete') op.operationId = 'repoRemove';
    for (const p of op.parameters ?? [])
      if (p.in === 'path') p.name = p.name === 'owner' ? 'username' : p.name === 'repo' ? 'reponame' : p.name;
  }
  spec.paths['/repos/{username}/{reponame}'] = item;
  spec.info.version = '1.99.0-live';
  return JSON.stringify(spec);
}

describe('SPEC_SOURCE=live with a document that renames a disabled operation', () => {
  let gitea: TestGitea;
  let front: Server;
  let app: McpApp;
  let client: McpClient;
  const specRequests: IncomingHttpHeaders[] = [];
  const deletes: string[] = [];

  beforeAll(async () => {
    gitea = await startGitea();
    const description = renamedDescription();
    const upstream = new URL(gitea.url);
    // Gitea as the service sees it: the changed description at /swagger.v1.json, the simulator behind.
    front = createServer((req, res) => {
      if (req.url === '/swagger.v1.json') {
        specRequests.push(req.headers);
        res.setHeader('content-type', 'application/json');
        res.end(description);
        return;
      }
      if (req.method === 'DELETE') deletes.push(req.url ?? '');
      const proxied = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      proxied.on('error', () => res.destroy());
      req.pipe(proxied);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    app = await startMcpApp(
      testConfig(url, gitea.tokens.admin, { SPEC_SOURCE: 'live', DISABLED_TOOLS: 'repoDelete' }),
    );
    client = await connect(app.url, 'sdk2', '2025-11-25', { authorization: `Bearer ${BEARER}` });
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await app?.close();
    await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
    await gitea?.close();
  }, 60_000);

  it('fetches the description once, with the service token', () => {
    expect(specRequests).toHaveLength(1);
    expect(specRequests[0]!.authorization).toBe(`token ${gitea.tokens.admin}`);
  });

  it('lists the live catalogue without the renamed disabled operation', async () => {
    const names = (await client.listTools()).map((t) => t.name);
    expect(names).toContain('repoGet'); // the live document is in use (its route is renamed too)
    expect(names).not.toContain('repoRemove');
    expect(names).not.toContain('repoDelete');
    const get = envelope(await client.callTool('repoGet', { username: 'acme', reponame: 'widgets' }));
    expect(get).toMatchObject({ status: 200, request: { method: 'GET', path: '/repos/acme/widgets' } });
  });

  it('refuses the renamed operation by its new name, and the same route through the raw tool', async () => {
    const byName = envelope(await client.callTool('repoRemove', { username: 'acme', reponame: 'widgets' }));
    expect(byName.error).toMatchObject({ kind: 'tool_disabled' });
    expect(byName.error.message).toContain(
      'tool repoRemove is disabled by the administrator (DISABLED_TOOLS: repoDelete)',
    );
    const raw = envelope(
      await client.callTool('gitea_api_request', { method: 'DELETE', path: '/repos/acme/widgets' }),
    );
    expect(raw.error).toMatchObject({ kind: 'tool_disabled' });
    expect(deletes).toEqual([]);
    // the repository is still there
    const still = envelope(await client.callTool('repoGet', { username: 'acme', reponame: 'widgets' }));
    expect(still).toMatchObject({ status: 200, data: { full_name: 'acme/widgets' } });
  });
});
