// `npm run bench -- --latency [--main <other dist/src/main.js>] [--production] [--rounds N]
// [--calls N] [--only <version>] [--both]`: the added latency at c=1 over a direct call (issue 18's
// p50 <= 1 ms, p99 <= 5 ms), for each protocol revision and both tools of the full bench (repoGet,
// issueListIssues), with the same plain JSON-RPC client, and the sidecar's CPU per call at c=1
// (wall time minus CPU is what the call waited for; the main thread's alone, per round, is the
// figure the event loop's own work moves). With --main, a second sidecar of another build
// runs beside this one and the rounds interleave both, so a before/after shares the minutes
// (`--this <main.js>` replaces this build, `--tool <name>` keeps one tool; `--both` runs each build
// embedded and with PostgreSQL + Redis side by side, so the rounds show what production adds).
import { forkUpstream } from '../lib/fork-server';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { requireProduction } from '../lib/production-services';
import { addedLatency, percentile, summarize } from '../lib/stats.util';
import {
  BENCH_PROTOCOL_VERSIONS,
  openRawSession,
  rawToolCall,
  type RawSession,
} from '../load/jsonrpc-client';
import { httpCall } from '../load/http-call';
import { runLoad, type Call } from '../load/load-runner';
import {
  BENCH_MCP_TOKEN,
  readCpuMs,
  readMainThreadCpuMs,
  startSidecar,
  type Sidecar,
} from '../sidecar/sidecar-process';
import { BENCH_OWNER, BENCH_REPO } from '../upstream/fake-gitea';

const ROOT = path.resolve(__dirname, '..', '..', '..');

const TOOLS = [
  {
    tool: 'repoGet',
    args: { owner: BENCH_OWNER, repo: BENCH_REPO },
    http: `/api/v1/repos/${BENCH_OWNER}/${BENCH_REPO}`,
  },
  {
    tool: 'issueListIssues',
    args: { owner: BENCH_OWNER, repo: BENCH_REPO, page: 2, limit: 10 },
    http: `/api/v1/repos/${BENCH_OWNER}/${BENCH_REPO}/issues?page=2&limit=10`,
  },
] as const;

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

type Target = {
  name: string;
  call: Call;
  pid?: number;
  lat: number[];
  cpuMs: number;
  /** The main thread's CPU per call in each round (the median of rounds is steadier than the sum). */
  mainPerRound: number[];
  calls: number;
  errors: number;
  firstError: string | null;
};

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const rounds = Number(arg(argv, '--rounds') ?? '6');
  const calls = Number(arg(argv, '--calls') ?? '150');
  const only = arg(argv, '--only');
  const other = arg(argv, '--main');
  const tools = TOOLS.filter((t) => !arg(argv, '--tool') || t.tool === arg(argv, '--tool'));
  // --both: each build runs twice, embedded and production, interleaved (what production adds per call).
  const both = argv.includes('--both');
  const production = argv.includes('--production') || both;
  // --profile: the sidecars run under --cpu-prof; the profiles are kept and their paths printed.
  const profDir = argv.includes('--profile')
    ? fs.mkdtempSync(path.join(os.tmpdir(), 'aegis-c1-prof-'))
    : undefined;
  const versions = BENCH_PROTOCOL_VERSIONS.filter((v) => !only || v === only);
  const services = production ? await requireProduction() : null;
  const upstream = await forkUpstream();
  const builds = [
    { label: 'this', mainJs: arg(argv, '--this') ?? path.join(ROOT, 'dist', 'src', 'main.js') },
    ...(other ? [{ label: 'other', mainJs: other }] : []),
  ];
  const sidecars: Array<{ label: string; sc: Sidecar }> = [];
  const load0 = os.loadavg()[0] ?? Number.NaN;
  try {
    for (const b of builds)
      for (const prod of both ? [false, true] : [production]) {
        const label = both ? `${b.label} ${prod ? 'production' : 'embedded'}` : b.label;
        const sc = await startSidecar({
          mainJs: b.mainJs,
          upstreamUrl: upstream.url,
          toolMode: 'full',
          detectionMode: 'mask',
          label: `latency-${label.replace(' ', '-')}`,
          ...(profDir ? { cpuProfDir: path.join(profDir, label.replace(' ', '-')) } : {}),
          ...(services && prod ? { databaseUrl: services.databaseUrl, redisUrl: services.redisUrl } : {}),
        });
        sidecars.push({ label, sc });
      }
    for (const t of tools) {
      const targets: Target[] = [
        {
          name: 'direct',
          call: httpCall(upstream.url, t.http),
          lat: [],
          cpuMs: 0,
          mainPerRound: [],
          calls: 0,
          errors: 0,
          firstError: null,
        },
      ];
      for (const { label, sc } of sidecars)
        for (const version of versions) {
          const sessions: RawSession[] = [
            await openRawSession(sc.mcpUrl, BENCH_MCP_TOKEN, `lat-${label}-${version}`, version),
          ];
          const call = rawToolCall(sessions, t.tool, t.args);
          await runLoad(call, { concurrency: 1, maxCalls: 100, maxMs: 3000 }); // warm-up
          targets.push({
            name: `${label} ${version}`,
            call,
            pid: sc.pid,
            lat: [],
            cpuMs: 0,
            mainPerRound: [],
            calls: 0,
            errors: 0,
            firstError: null,
          });
        }
      for (let r = 0; r < rounds; r++) {
        // Each round in another order, so no target always follows the same one.
        const order = r % 2 === 0 ? targets : [...targets].reverse();
        for (const target of order) {
          const c0 = target.pid ? readCpuMs(target.pid) : 0;
          const m0 = target.pid ? readMainThreadCpuMs(target.pid) : 0;
          const res = await runLoad(target.call, { concurrency: 1, maxCalls: calls, maxMs: 4000 });
          if (target.pid) {
            target.cpuMs += readCpuMs(target.pid) - c0;
            const n = res.latenciesMs.length + res.errors;
            if (n > 0) target.mainPerRound.push((readMainThreadCpuMs(target.pid) - m0) / n);
          }
          target.lat.push(...res.latenciesMs);
          target.calls += res.latenciesMs.length + res.errors;
          target.errors += res.errors;
          target.firstError ??= res.firstError;
        }
      }
      const ref = summarize(targets[0]!.lat);
      process.stdout.write(
        `\n${t.tool}: direct p50 ${ref.p50.toFixed(2)} / p99 ${ref.p99.toFixed(2)} ms (${ref.count} calls)\n` +
          '| target | p25 / p50 / p99 | added p25 / p50 / p99 | wall per call (mean) | server CPU per call | main thread, median of rounds | errors |\n|---|---|---|---|---|---|---|\n',
      );
      for (const target of targets.slice(1)) {
        const s = summarize(target.lat);
        const add = addedLatency(s, ref);
        // p25 too: on a shared machine the low quantiles show the path's own cost best.
        const p25 = percentile(target.lat, 25);
        const add25 = p25 - percentile(targets[0]!.lat, 25);
        process.stdout.write(
          `| ${target.name} | ${p25.toFixed(2)} / ${s.p50.toFixed(2)} / ${s.p99.toFixed(2)} ms | ${add25.toFixed(2)} / ${add.p50.toFixed(2)} / ${add.p99.toFixed(2)} ms | ` +
            `${s.mean.toFixed(2)} ms | ${(target.cpuMs / Math.max(1, target.calls)).toFixed(2)} ms | ${percentile(target.mainPerRound, 50).toFixed(3)} ms | ${target.errors}${target.firstError ? ` (${target.firstError.slice(0, 60)})` : ''} |\n`,
        );
      }
    }
  } finally {
    for (const { sc } of sidecars) await sc.stop().catch(() => undefined);
    upstream.child.send('stop');
    await services?.cleanup().catch(() => undefined);
  }
  process.stdout.write(
    `\nconfiguration ${both ? 'embedded and production' : production ? 'production' : 'embedded'}; load average ${load0.toFixed(2)} at the start, ${(os.loadavg()[0] ?? Number.NaN).toFixed(2)} at the end\n`,
  );
  if (profDir) process.stdout.write(`CPU profiles kept in ${profDir}\n`);
}

if (require.main === module) {
  void main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
