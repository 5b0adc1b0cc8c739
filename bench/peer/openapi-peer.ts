// The peer the benchmark compares against (issue 18): @ivotoby/openapi-mcp-server, the generic
// "every OpenAPI operation as a tool" bridge, serving the same Gitea description. Gitea ships
// Swagger 2.0; the peer reads OpenAPI 3, so the bundled swagger is converted at bench time with
// swagger2openapi and served against the same fake upstream, as the service account, over
// Streamable HTTP on 127.0.0.1. Its tool names are our operation ids in kebab case.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BENCH_GITEA_TOKEN, freePort, readRss } from '../sidecar/sidecar-process';

export const PEER_PACKAGE = '@ivotoby/openapi-mcp-server';

export type Peer = {
  mcpUrl: string;
  pid: number;
  version: string;
  startToReadyMs: number;
  /** The peer's tool for a Gitea operation id (repoGet → repo-get), or null. */
  toolFor(client: Client, operationId: string): Promise<string | null>;
  connect(name?: string): Promise<Client>;
  rssBytes(): number | null;
  stop(): Promise<void>;
  kill(): void;
};

type Swagger = { host?: string; basePath?: string; schemes?: string[]; paths: Record<string, unknown> };

/** The bundled Gitea swagger as OpenAPI 3 (swagger2openapi), with the upstream as its server. */
export async function convertedSpec(
  swaggerPath: string,
  upstreamUrl: string,
  outFile: string,
): Promise<void> {
  // swagger2openapi is CommonJS without types of its own.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const converter = require('swagger2openapi') as {
    convertObj(
      spec: unknown,
      options: Record<string, unknown>,
    ): Promise<{ openapi: Record<string, unknown> }>;
  };
  const swagger = JSON.parse(fs.readFileSync(swaggerPath, 'utf8')) as Swagger;
  const { openapi } = await converter.convertObj(swagger, {
    patch: true,
    warnOnly: true,
    resolveInternal: false,
  });
  openapi.servers = [{ url: `${upstreamUrl.replace(/\/+$/, '')}/api/v1` }];
  fs.writeFileSync(outFile, JSON.stringify(openapi));
}

function packageVersion(): string {
  try {
    const file = require.resolve(`${PEER_PACKAGE}/package.json`);
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

async function connectTo(mcpUrl: string, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  return client;
}

export async function startPeer(options: {
  root: string;
  upstreamUrl: string;
  readyTimeoutMs?: number;
}): Promise<Peer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aegis-bench-peer-'));
  const specFile = path.join(dir, 'gitea-openapi3.json');
  await convertedSpec(path.join(options.root, 'gitea', 'swagger.v1.json'), options.upstreamUrl, specFile);
  const port = await freePort();
  const bin = path.join(options.root, 'node_modules', ...PEER_PACKAGE.split('/'), 'bin', 'mcp-server.js');
  const logFile = path.join(dir, 'peer.log');
  const log = fs.openSync(logFile, 'w');
  const t0 = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      bin,
      '--api-base-url',
      `${options.upstreamUrl.replace(/\/+$/, '')}/api/v1`,
      '--openapi-spec',
      specFile,
      '--headers',
      `Authorization:token ${BENCH_GITEA_TOKEN}`,
      '--transport',
      'http',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--path',
      '/mcp',
      '--disable-abbreviation',
      'true',
    ],
    { stdio: ['ignore', log, log], env: { ...process.env, NODE_ENV: 'production' } },
  );
  const mcpUrl = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? -1));
  // Ready once an MCP client can initialize (the peer has no health endpoint).
  for (;;) {
    if (exited !== null)
      throw new Error(
        `${PEER_PACKAGE} exited with ${exited}: ${fs.readFileSync(logFile, 'utf8').slice(-500)}`,
      );
    try {
      const probe = await connectTo(mcpUrl, 'aegis-bench-peer-probe');
      await probe.close();
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${PEER_PACKAGE} did not answer within the start deadline`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const startToReadyMs = performance.now() - t0;
  let tools: Array<{ name: string }> | null = null;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve();
        }, 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    fs.closeSync(log);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return {
    mcpUrl,
    pid: child.pid as number,
    version: packageVersion(),
    startToReadyMs,
    connect: (name = 'aegis-bench-peer') => connectTo(mcpUrl, name),
    async toolFor(client, operationId) {
      tools ??= (await client.listTools()).tools;
      // With abbreviation off, the peer names a tool after its operationId in kebab case.
      const kebab = operationId.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
      const flat = operationId.toLowerCase();
      const hit =
        tools.find((t) => t.name === kebab) ??
        tools.find((t) => t.name.toLowerCase().replace(/[^a-z0-9]/g, '') === flat);
      return hit?.name ?? null;
    },
    rssBytes: () => readRss(child.pid as number),
    stop,
    kill: () => child.kill('SIGKILL'),
  };
}
