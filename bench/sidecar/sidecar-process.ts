// Runs the production build of the sidecar as a child process for the benchmark: service-token
// identity, bound to 127.0.0.1; embedded PGlite in a DATA_DIR and the in-process queue by default,
// or PostgreSQL + Redis (the Helm deployment's storage) when databaseUrl and redisUrl are given.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const BENCH_GITEA_TOKEN = 'bench-gitea-service-token-0123456789';
export const BENCH_MCP_TOKEN = 'bench-mcp-bearer-token-0123456789abcdef';

export type SidecarOptions = {
  mainJs: string;
  upstreamUrl: string;
  toolMode: 'full' | 'discovery';
  detectionMode: 'off' | 'mask' | 'block';
  label: string;
  cpuProfDir?: string;
  readyTimeoutMs?: number;
  /** An existing DATA_DIR (kept on stop); by default a fresh temporary one (removed on stop). */
  dataDir?: string;
  /** PostgreSQL instead of embedded PGlite (DATABASE_URL). */
  databaseUrl?: string;
  /** BullMQ on Redis instead of the in-process queue (REDIS_URL). */
  redisUrl?: string;
  /** Extra Node flags before the entry point (e.g. to compare a V8 flag before/after). */
  nodeArgs?: string[];
  /** Extra environment for the service (e.g. MALLOC_ARENA_MAX). */
  env?: Record<string, string>;
};

export type Sidecar = {
  label: string;
  mcpUrl: string;
  pid: number;
  startToReadyMs: number;
  /** CPU time (user + system) the process had used when it was ready: steadier than wall time on a shared machine. */
  cpuToReadyMs: number;
  /** 1-minute load average when it was ready. */
  loadAtReady: number;
  /** Epoch ms when the process was spawned (to line a CPU profile up with the load). */
  startedAt: number;
  logFile: string;
  rssBytes(): number | null;
  connect(name?: string): Promise<Client>;
  stop(): Promise<void>;
  /** Immediate SIGKILL (time limit reached). */
  kill(): void;
};

/**
 * The Node flags the image runs the service with (the Dockerfile's CMD, package.json start:prod,
 * scripts/start.mjs; test/unit/startup/node-flags.test.ts keeps them in step): the bench measures
 * what production runs. `nodeArgs` come after them, so a later flag overrides one of these.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--heap-growing-percent=50'];

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** CPU time (user + system, ms) a live process has used, from /proc (Linux); NaN elsewhere. */
export function readCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU time (ms) of a live process's main thread alone (the event loop: every request's own work),
 * without V8's helper threads, the embedded database thread or the scan workers; NaN elsewhere.
 */
export function readMainThreadCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Resident set size of a live process from /proc (Linux); null elsewhere or when gone. */
export function readRss(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export async function connectClient(mcpUrl: string, name = 'aegis-bench'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${BENCH_MCP_TOKEN}` } },
  });
  await client.connect(transport);
  return client;
}

function tail(file: string, lines = 15): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

export async function startSidecar(opts: SidecarOptions): Promise<Sidecar> {
  const port = await freePort();
  const ownDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `aegis-bench-${opts.label}-`));
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), `aegis-bench-log-${opts.label}-`));
  const logFile = path.join(logDir, 'sidecar.log');
  const logFd = fs.openSync(logFile, 'w');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    METRICS_PORT: '0', // a free one: sidecars run side by side
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    GITEA_URL: opts.upstreamUrl,
    GITEA_TOKEN: BENCH_GITEA_TOKEN,
    MCP_BEARER_TOKEN: BENCH_MCP_TOKEN,
    TOOL_MODE: opts.toolMode,
    SECRET_DETECTION_MODE: opts.detectionMode,
    SPEC_SOURCE: 'bundled',
    DATA_DIR: dataDir,
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
    ...(opts.redisUrl ? { REDIS_URL: opts.redisUrl } : {}),
    LOG_LEVEL: 'info',
    // The load itself must not trip the per-identity limits (they are measured elsewhere).
    RATE_LIMIT_PER_MINUTE: '0',
    MAX_CONCURRENT_PER_IDENTITY: '256',
    MAX_CONCURRENT_TOTAL: '1024',
    ...opts.env,
  };
  const args = [
    ...SERVICE_NODE_FLAGS,
    ...(opts.nodeArgs ?? []),
    ...(opts.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProfDir}`] : []),
    opts.mainJs,
  ];
  const t0 = performance.now();
  const startedAt = Date.now();
  const child: ChildProcess = spawn(process.execPath, args, { env, stdio: ['ignore', logFd, logFd] });
  fs.closeSync(logFd);
  let exited: string | null = null;
  child.once('exit', (code, signal) => {
    exited = `exited with ${signal ?? code}`;
  });
  const mcpUrl = `http://127.0.0.1:${port}/mcp`;
  const timeoutMs = opts.readyTimeoutMs ?? 90_000;
  const deadline = t0 + timeoutMs;
  let probe: Client | null = null;
  let lastErr = '';
  // Ready = an MCP initialize and a tools/list succeed (the full catalogue is being served).
  while (!probe) {
    if (exited) throw new Error(`sidecar ${opts.label} ${exited} before ready:\n${tail(logFile)}`);
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `sidecar ${opts.label} not ready after ${timeoutMs} ms (${lastErr}):\n${tail(logFile)}`,
      );
    }
    if (/\b404\b|Cannot POST/.test(lastErr)) {
      // Listening but without an MCP route: waiting longer cannot help.
      child.kill('SIGKILL');
      throw new Error(`sidecar ${opts.label} serves no POST /mcp (${lastErr.slice(0, 120)})`);
    }
    try {
      const c = await connectClient(mcpUrl, 'aegis-bench-probe');
      await c.listTools();
      probe = c;
    } catch (err) {
      lastErr = err instanceof Error ? err.message : String(err);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  const startToReadyMs = performance.now() - t0;
  const pid = child.pid as number;
  const cpuToReadyMs = readCpuMs(pid);
  const loadAtReady = os.loadavg()[0] ?? Number.NaN;
  await probe.close().catch(() => undefined);
  return {
    label: opts.label,
    mcpUrl,
    pid,
    startToReadyMs,
    cpuToReadyMs,
    loadAtReady,
    startedAt,
    logFile,
    rssBytes: () => readRss(pid),
    connect: (name) => connectClient(mcpUrl, name),
    kill: () => {
      child.kill('SIGKILL');
      if (ownDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
    stop: async () => {
      if (!exited) {
        const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await gone;
        clearTimeout(timer);
      }
      if (ownDir) fs.rmSync(dataDir, { recursive: true, force: true });
      if (!opts.cpuProfDir) fs.rmSync(logDir, { recursive: true, force: true });
    },
  };
}
