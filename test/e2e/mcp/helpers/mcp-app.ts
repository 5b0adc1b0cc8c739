// Starts the service's MCP path (config + tools + auth + mcp modules), or with `full` the whole
// service as src/main.ts composes it, in a child process on 127.0.0.1:0 against the Gitea
// simulator, with configuration overrides. A child process because NestJS 12
// is ESM-only and Jest's module runtime cannot load it on Node 20 (plain Node can).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { parseConfig } from '../../../../src/config/env.schema';
import type { AppConfig } from '../../../../src/config/app-config';

export const BEARER = 'test-mcp-bearer-token-0123456789';

export type McpApp = {
  /** The MCP endpoint (`${base}/mcp`). */
  url: string;
  /** The service's base URL (health, metrics). */
  base: string;
  config: AppConfig;
  logs(): string;
  /** Audit entries the service recorded (only with `recordAudit`), in order. */
  audits(): Array<Record<string, unknown>>;
  close(): Promise<void>;
};

export function testConfig(
  giteaUrl: string,
  giteaToken: string,
  env: Record<string, string> = {},
): AppConfig {
  const parsed = parseConfig({
    GITEA_URL: giteaUrl,
    GITEA_TOKEN: giteaToken,
    MCP_BEARER_TOKEN: BEARER,
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'info',
    PUBLIC_URL: 'http://127.0.0.1:1',
    ...env,
  });
  if (!parsed.ok) throw new Error(`bad test config: ${JSON.stringify(parsed.issues)}`);
  return parsed.config;
}

export async function startMcpApp(
  config: AppConfig,
  options: {
    bodyParser?: boolean;
    full?: boolean;
    recordAudit?: boolean;
    port?: number;
    entry?: string;
    /** How long the boot may take (the whole service transpiled under load takes a while). */
    startTimeoutMs?: number;
  } = {},
): Promise<McpApp> {
  const helpers = __dirname;
  const child: ChildProcess = spawn(
    process.execPath,
    ['-r', join(helpers, 'ts-register.cjs'), options.entry ?? join(helpers, 'app-process.ts')],
    {
      cwd: join(helpers, '..', '..', '..', '..'),
      env: {
        ...process.env,
        AEGIS_TEST_CONFIG: JSON.stringify(config),
        AEGIS_TEST_BODY_PARSER: String(options.bodyParser ?? false),
        AEGIS_TEST_FULL: String(options.full ?? false),
        AEGIS_TEST_RECORD_AUDIT: String(options.recordAudit ?? false),
        AEGIS_TEST_PORT: String(options.port ?? 0),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    // A child that misses the deadline is ended: left running, it would keep Jest from exiting.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`service did not start: ${err}`));
    }, options.startTimeoutMs ?? 150_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /READY (\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}: ${err}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    base: `http://127.0.0.1:${port}`,
    config,
    logs: () => out,
    audits: () =>
      out
        .split('\n')
        .filter((line) => line.startsWith('AUDIT '))
        .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        // 'close' rather than 'exit': stdout (logs, audit lines written at shutdown) is read to its end.
        child.once('close', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}
