// The MCP conformance suite's authorization-server scenarios against this service's issuer, run
// with Node 22: `conformance authorization --url <issuer>` with a client registered here and the
// suite's loopback callback; the person's part (consent, Gitea sign-in) is done by the test when
// the suite prints the authorization URL. Every check must pass.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conformanceTools } from './helpers/conformance';
import {
  Browserless,
  freePort,
  personAuthorizes,
  startOAuthStack,
  type OAuthStack,
} from './helpers/oauth-stack';

jest.setTimeout(300_000);

function checksIn(dir: string): Array<{ id: string; status: string; errorMessage?: string }> {
  const out: Array<{ id: string; status: string; errorMessage?: string }> = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name === 'checks.json') out.push(...(JSON.parse(readFileSync(p, 'utf8')) as typeof out));
    }
  };
  walk(dir);
  return out;
}

describe('MCP conformance suite: authorization server scenarios', () => {
  let stack: OAuthStack;
  let tools: { node: string; cli: string };

  beforeAll(async () => {
    tools = conformanceTools();
    stack = await startOAuthStack({}, { postgres: false });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('passes every check', async () => {
    const port = await freePort();
    const reg = await fetch(`${stack.base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'MCP conformance suite',
        redirect_uris: [`http://127.0.0.1:${port}/callback`],
        application_type: 'native',
      }),
    });
    const clientId = ((await reg.json()) as { client_id: string }).client_id;
    const outDir = mkdtempSync(join(tmpdir(), 'aegis-conformance-'));
    const child = spawn(
      tools.node,
      [
        tools.cli,
        'authorization',
        '--url',
        stack.base,
        '--client-id',
        clientId,
        '--resource',
        stack.mcpUrl,
        '--port',
        String(port),
        '--output-dir',
        outDir,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const browser = new Browserless();
    const handled = new Set<string>();
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      for (const match of output.matchAll(/(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/g)) {
        const url = match[1]!;
        if (handled.has(url)) continue;
        handled.add(url);
        void personAuthorizes(stack, browser, url, 'alice')
          .then((back) => fetch(back.toString()))
          .then((r) => r.text())
          .catch((error: unknown) => (output += `\n[test] person failed: ${String(error)}\n`));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    process.stdout.write(`conformance output:\n${output}\n`);
    const checks = checksIn(outDir);
    const failed = checks.filter((c) => c.status !== 'SUCCESS' && c.status !== 'INFO');
    expect({ code, failed }).toEqual({ code: 0, failed: [] });
    // Both authorization-server scenarios of 0.2.x ran: the metadata endpoint and the code grant.
    expect(checks.map((c) => c.id)).toEqual(
      expect.arrayContaining(['authorization-server-metadata', 'authorization-code-grant']),
    );
    expect(output).toMatch(/Total: \d+ passed, 0 failed/);
  });
});
