// Issue 18, memory: the full run's load phases (bench/run-bench.ts) against one sidecar, with its
// memory read by part from inside it (bench/memory/memory-probe.cjs, preloaded) when ready, after
// each phase, after the load (where the full run reads RSS), after two forced full collections,
// and optionally after a pause. Built with the bench (`npm run bench -- --no-sidecar` or
// `npx tsc -p bench/tsconfig.bench.json`), then:
//   node dist/bench/memory/memory-by-part.js [--production] [--masking-off] [--no-sdk]
//     [--phases=c1,c8,c32,catalogue] [--fixed] [--pause=MS] [--node="--flag ..."] [--env="K=V ..."]
//     [--smaps-dir=DIR] [--label=NAME]
// --fixed: a fixed number of calls per round instead of the full run's time per round, so that
// variants measured on a busy machine see the same load. --node flags come after the image's flags
// (SERVICE_NODE_FLAGS), so `--node=--heap-growing-percent=0` measures V8's default. --production
// uses TEST_DATABASE_URL / TEST_REDIS_URL. Prints RSS (and its anonymous part), the main thread's
// heap, external memory and ArrayBuffers, V8's spaces, GC counts and pauses, the event loop's delay
// and each worker thread's heap and external memory.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openRawSession, rawToolCall, type RawSession } from '../load/jsonrpc-client';
import { runLoad, type Call } from '../load/load-runner';
import { BENCH_MCP_TOKEN, freePort, readCpuMs, readRss, startSidecar } from '../sidecar/sidecar-process';
import { startFakeGitea, BENCH_OWNER, BENCH_REPO } from '../upstream/fake-gitea';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PROBE = path.join(ROOT, 'bench', 'memory', 'memory-probe.cjs');

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined =>
  argv
    .find((a) => a.startsWith(`--${name}=`))
    ?.split('=')
    .slice(1)
    .join('=');
const production = argv.includes('--production');
const sdk = !argv.includes('--no-sdk');
const fixed = argv.includes('--fixed');
const detectionMode: 'off' | 'mask' = argv.includes('--masking-off') ? 'off' : 'mask';
const phases = (flag('phases') ?? 'c1,c8,c32,catalogue').split(',');
const nodeArgs = (flag('node') ?? '').split(' ').filter(Boolean);
const env: Record<string, string> = {};
for (const e of (flag('env') ?? '').split(' ').filter(Boolean)) {
  const [k, ...v] = e.split('=');
  if (k) env[k] = v.join('=');
}
const mainJs = flag('main') ?? path.join(ROOT, 'dist', 'src', 'main.js');
const label = flag('label') ?? (production ? 'production' : 'embedded');
const smapsDir = flag('smaps-dir');

type Figures = {
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  totalPhysical: number;
  threadId: number;
  spaces: Record<string, { committed: number }>;
};
type Probe = {
  gcs: Record<string, { n: number; ms: number; max: number }>;
  loop: { max: number; p99: number };
  main: Figures;
  workers: Record<string, Figures>;
  smaps: string;
};

const mb = (n: number | null | undefined): string => (n == null ? '-' : (n / 2 ** 20).toFixed(1));

function describe(tag: string, p: Probe, rss: number | null): string {
  const kb = (key: string): number =>
    Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(p.smaps)?.[1] ?? 0) * 1024;
  const m = p.main;
  const spaces = Object.entries(m.spaces)
    .filter(([, v]) => v.committed > 0)
    .map(([k, v]) => `${k.replace('_space', '')} ${mb(v.committed)}`)
    .join(', ');
  const workers = Object.values(p.workers)
    .map((w) => `t${w.threadId} heap ${mb(w.heapUsed)}/${mb(w.heapTotal)} external ${mb(w.external)}`)
    .join('; ');
  const gcs = Object.entries(p.gcs)
    .map(([k, v]) => `${k} ${v.n}× ${v.ms.toFixed(0)} ms (max ${v.max.toFixed(1)})`)
    .join(', ');
  return (
    `[${label}] ${tag}: RSS ${mb(rss)} MB (anonymous ${mb(kb('Anonymous'))}) | main heap used/total ${mb(m.heapUsed)}/${mb(m.heapTotal)}, ` +
    `external ${mb(m.external)}, arrayBuffers ${mb(m.arrayBuffers)} | spaces: ${spaces} | workers: ${workers || 'none'} | ` +
    `GC since the sessions opened: ${gcs || 'none'} | loop delay max ${p.loop.max.toFixed(1)} ms | load ${os.loadavg()[0]?.toFixed(2)}`
  );
}

async function main(): Promise<void> {
  const upstream = await startFakeGitea();
  const memDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aegis-memprobe-'));
  const port = await freePort();
  const sc = await startSidecar({
    mainJs,
    upstreamUrl: upstream.url,
    toolMode: 'full',
    detectionMode,
    label: 'memory',
    nodeArgs: ['--expose-gc', '-r', PROBE, ...nodeArgs],
    env: { MEMPROBE_DIR: memDir, MEMPROBE_PORT: String(port), ...env },
    ...(production
      ? { databaseUrl: process.env.TEST_DATABASE_URL, redisUrl: process.env.TEST_REDIS_URL }
      : {}),
  });
  const probe = async (what: string): Promise<Probe> =>
    (await (await fetch(`http://127.0.0.1:${port}/${what}`)).json()) as Probe;
  const report = async (tag: string, opts: { gc?: boolean; reset?: boolean } = {}): Promise<void> => {
    await new Promise((r) => setTimeout(r, 700)); // the workers' figures are written every 500 ms
    const rss = readRss(sc.pid);
    console.log(describe(tag, await probe(opts.reset ? 'mem?reset' : 'mem'), rss));
    if (smapsDir) {
      fs.mkdirSync(smapsDir, { recursive: true });
      const file = path.join(smapsDir, `${label}-${tag.replace(/[^a-z0-9=]+/gi, '_')}.smaps`);
      fs.writeFileSync(file, await (await fetch(`http://127.0.0.1:${port}/smaps`)).text());
    }
    if (opts.gc) {
      await probe('gc');
      await new Promise((r) => setTimeout(r, 700));
      console.log(describe(`${tag}, after two full GCs`, await probe('mem'), readRss(sc.pid)));
    }
  };
  await report('ready');
  const clients: Client[] = [];
  if (sdk) for (let i = 0; i < 8; i++) clients.push(await sc.connect(`aegis-bench-${i}`));
  const sessions: RawSession[] = [];
  for (let i = 0; i < 8; i++)
    sessions.push(await openRawSession(sc.mcpUrl, BENCH_MCP_TOKEN, `aegis-bench-raw-${i}`));
  await report('sessions open', { reset: true });
  let calls = 0;
  const cpu0 = readCpuMs(sc.pid);
  const workloads = [
    { tool: 'repoGet', args: { owner: BENCH_OWNER, repo: BENCH_REPO } },
    { tool: 'issueListIssues', args: { owner: BENCH_OWNER, repo: BENCH_REPO, page: 2, limit: 10 } },
  ];
  for (const w of workloads) {
    const targets: Call[] = [rawToolCall(sessions, w.tool, w.args)];
    if (sdk) {
      let next = 0;
      targets.push(async () => {
        const result = await (clients[next++ % clients.length] as Client).callTool({
          name: w.tool,
          arguments: w.args,
        });
        if (result.isError) throw new Error('tool error');
      });
    }
    // The full run's rounds: a warm-up, then rounds interleaved over the client kinds.
    const run = async (
      concurrency: number,
      rounds: number,
      maxCalls: number,
      maxMs: number,
    ): Promise<void> => {
      for (const call of targets) await runLoad(call, { concurrency, maxCalls: 20, maxMs: 500 });
      for (let r = 0; r < rounds; r++)
        for (const call of targets) {
          const res = await runLoad(call, { concurrency, maxCalls, maxMs });
          calls += res.latenciesMs.length + res.errors;
          if (res.errors) console.log(`[${label}] ${res.errors} errors: ${res.firstError}`);
        }
    };
    if (phases.includes('c1')) {
      await run(1, 6, 150, 3000);
      await report(`${w.tool} c=1`);
    }
    if (phases.includes('c8')) {
      await run(8, 3, fixed ? 300 : 1_000_000, fixed ? 60_000 : 1500);
      await report(`${w.tool} c=8`);
    }
    if (phases.includes('c32')) {
      await run(32, 3, fixed ? 500 : 1_000_000, fixed ? 60_000 : 1500);
      await report(`${w.tool} c=32`);
    }
  }
  if (phases.includes('catalogue')) {
    const client = await sc.connect('aegis-bench-catalogue');
    for (let n = 0; n < 15; n++) await client.listTools();
    await client.close().catch(() => undefined);
    await report('catalogue');
  }
  const cpuMs = readCpuMs(sc.pid) - cpu0;
  console.log(
    `[${label}] ${calls} calls, server CPU ${(cpuMs / 1000).toFixed(1)} s, ${(cpuMs / Math.max(calls, 1)).toFixed(2)} ms per call`,
  );
  await report('after the load (where the full run reads RSS)', { gc: true });
  const pause = Number(flag('pause') ?? 0);
  if (pause) {
    await new Promise((r) => setTimeout(r, pause));
    await report(`after a ${pause / 1000} s pause`, { gc: true });
  }
  for (const c of clients) await c.close().catch(() => undefined);
  await sc.stop();
  await upstream.close();
  fs.rmSync(memDir, { recursive: true, force: true });
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
