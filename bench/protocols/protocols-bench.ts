// `npm run bench -- --protocols [--production] [--only <version>] [--profile] [--seconds N]
// [--concurrency 8,32] [--no-peer]`: the hot path of each MCP protocol revision side by side. One
// sidecar (embedded by default, or PostgreSQL + Redis with --production), the bench's fake Gitea,
// the plain JSON-RPC client at c=8 and c=32 calling repoGet, in interleaved rounds per revision and
// against the peer (@ivotoby/openapi-mcp-server on the same upstream, driven by the same plain
// client through its GET event stream): calls per second (and as a multiple of the peer's, target
// 2x), server CPU per call, and
// the sidecar's start to ready, resident memory when ready and its peak (VmHWM) after the load.
// With --profile the sidecar runs under --cpu-prof and the self time by area and the hottest
// functions are printed (use --only to profile one revision).
import { forkUpstream } from '../lib/fork-server';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { hotAreas, hotFunctions, type CpuProfile } from '../lib/cpu-profile.util';
import { requireProduction } from '../lib/production-services';
import { summarize } from '../lib/stats.util';
import {
  BENCH_PROTOCOL_VERSIONS,
  openRawSession,
  openStreamSession,
  rawToolCall,
  streamToolCall,
  type RawSession,
  type StreamSession,
} from '../load/jsonrpc-client';
import { PEER_PACKAGE, startPeer, type Peer } from '../peer/openapi-peer';
import { mergeResults, runLoad, type LoadResult } from '../load/load-runner';
import { BENCH_MCP_TOKEN, startSidecar } from '../sidecar/sidecar-process';
import { BENCH_OWNER, BENCH_REPO } from '../upstream/fake-gitea';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PEER = 'peer';

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

function log(msg: string): void {
  process.stderr.write(`[bench:protocols] ${msg}\n`);
}

function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function statusMb(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

export type ProtocolRow = {
  /** A protocol revision, or "peer". */
  version: string;
  concurrency: number;
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  serverCpuMsPerCall: number;
  errors: number;
  firstError: string | null;
};

export type ProtocolsReport = {
  config: 'embedded' | 'production';
  startToReadyMs: number;
  cpuToReadyMs: number;
  loadAtReady: number;
  rssReadyMb: number;
  peakRssMb: number;
  rssAfterMb: number;
  rows: ProtocolRow[];
  peer?: { version: string; peakRssMb: number } | { error: string };
  profile?: {
    areas: Array<{ area: string; share: number }>;
    functions: Array<{ fn: string; file: string; share: number }>;
  };
};

export async function runProtocolsBench(argv: string[]): Promise<ProtocolsReport> {
  const production = argv.includes('--production');
  const profile = argv.includes('--profile');
  const only = arg(argv, '--only');
  const seconds = Number(arg(argv, '--seconds') ?? '4');
  const rounds = Number(arg(argv, '--rounds') ?? '3');
  const versions = BENCH_PROTOCOL_VERSIONS.filter((v) => !only || v === only);
  const concurrencies = (arg(argv, '--concurrency') ?? '8,32').split(',').map(Number);
  const withPeer = !argv.includes('--no-peer') && !profile;
  const services = production ? await requireProduction() : null;
  const upstream = await forkUpstream();
  const profDir = profile ? fs.mkdtempSync(path.join(os.tmpdir(), 'aegis-bench-prof-')) : undefined;
  const sc = await startSidecar({
    // --main: another build of the service (e.g. the commit before a change, for before/after).
    mainJs: arg(argv, '--main') ?? path.join(ROOT, 'dist', 'src', 'main.js'),
    upstreamUrl: upstream.url,
    toolMode: 'full',
    detectionMode: 'mask',
    label: production ? 'protocols-production' : 'protocols-embedded',
    ...(profDir ? { cpuProfDir: profDir } : {}),
    ...(services ? { databaseUrl: services.databaseUrl, redisUrl: services.redisUrl } : {}),
  });
  let loadStartedAt: number | undefined;
  const report: ProtocolsReport = {
    config: production ? 'production' : 'embedded',
    startToReadyMs: Math.round(sc.startToReadyMs),
    cpuToReadyMs: Math.round(sc.cpuToReadyMs),
    loadAtReady: sc.loadAtReady,
    rssReadyMb: statusMb(sc.pid, 'VmRSS'),
    peakRssMb: 0,
    rssAfterMb: 0,
    rows: [],
  };
  let peer: Peer | null = null;
  const streams: StreamSession[] = [];
  try {
    const maxConcurrency = Math.max(...concurrencies);
    const calls = new Map<string, { call: ReturnType<typeof rawToolCall>; pid: number }>();
    for (const version of versions) {
      const sessions: RawSession[] = [];
      for (let i = 0; i < maxConcurrency; i++)
        sessions.push(await openRawSession(sc.mcpUrl, BENCH_MCP_TOKEN, `bench-${version}-${i}`, version));
      const call = rawToolCall(sessions, 'repoGet', { owner: BENCH_OWNER, repo: BENCH_REPO });
      await runLoad(call, { concurrency: 8, maxCalls: 200, maxMs: 3000 }); // warm-up
      calls.set(version, { call, pid: sc.pid });
    }
    if (withPeer) {
      try {
        peer = await startPeer({ root: ROOT, upstreamUrl: upstream.url });
        const probe = await peer.connect('aegis-bench-peer-probe');
        const tool = await peer.toolFor(probe, 'repoGet');
        await probe.close();
        if (!tool) throw new Error('the peer has no tool for repoGet');
        for (let i = 0; i < maxConcurrency; i++)
          streams.push(await openStreamSession(peer.mcpUrl, `bench-peer-${i}`));
        const call = streamToolCall(streams, tool, { owner: BENCH_OWNER, repo: BENCH_REPO });
        await runLoad(call, { concurrency: 8, maxCalls: 200, maxMs: 3000 }); // warm-up
        calls.set(PEER, { call, pid: peer.pid });
      } catch (error) {
        report.peer = { error: error instanceof Error ? error.message : String(error) };
        log(`peer not measured: ${report.peer.error}`);
      }
    }
    loadStartedAt = Date.now();
    const targets = [...calls.keys()];
    for (const concurrency of concurrencies) {
      const results = new Map<string, LoadResult[]>(targets.map((v) => [v, []]));
      const cpu = new Map<string, { ms: number; calls: number }>(
        targets.map((v) => [v, { ms: 0, calls: 0 }]),
      );
      for (let r = 0; r < rounds; r++) {
        for (const target of targets) {
          const { call, pid } = calls.get(target)!;
          const c0 = cpuMs(pid);
          const res = await runLoad(call, { concurrency, maxCalls: 1_000_000, maxMs: seconds * 1000 });
          const acc = cpu.get(target)!;
          acc.ms += cpuMs(pid) - c0;
          acc.calls += res.latenciesMs.length + res.errors;
          results.get(target)!.push(res);
        }
      }
      for (const target of targets) {
        const merged = mergeResults(results.get(target)!);
        const lat = summarize(merged.latenciesMs);
        const acc = cpu.get(target)!;
        report.rows.push({
          version: target,
          concurrency,
          callsPerSecond: Math.round(merged.throughput),
          p50Ms: lat.p50,
          p99Ms: lat.p99,
          serverCpuMsPerCall: acc.calls ? acc.ms / acc.calls : Number.NaN,
          errors: merged.errors,
          firstError: merged.firstError,
        });
      }
    }
    if (peer) report.peer = { version: peer.version, peakRssMb: statusMb(peer.pid, 'VmHWM') };
    report.peakRssMb = statusMb(sc.pid, 'VmHWM');
    report.rssAfterMb = statusMb(sc.pid, 'VmRSS');
  } finally {
    for (const stream of streams) stream.close();
    await peer?.stop().catch(() => undefined);
    await sc.stop();
    upstream.child.send('stop');
    await services?.cleanup().catch(() => undefined);
  }
  if (profDir) {
    const file = fs.readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
    if (file) {
      // Only the samples taken under load: start-up (module loading, the database) is left out.
      const prof = loadWindow(
        JSON.parse(fs.readFileSync(path.join(profDir, file), 'utf8')) as CpuProfile & WindowedProfile,
        (loadStartedAt ?? sc.startedAt) - sc.startedAt,
      );
      report.profile = {
        areas: hotAreas(prof, 14),
        functions: hotFunctions(prof, 25).map((h) => ({ fn: h.fn, file: h.file, share: h.share })),
      };
      log(`profile kept in ${path.join(profDir, file)}`);
    }
  }
  return report;
}

type WindowedProfile = { samples?: number[]; timeDeltas?: number[] };

/** The profile with hit counts recounted from the samples taken `skipMs` after its start. */
function loadWindow(profile: CpuProfile & WindowedProfile, skipMs: number): CpuProfile {
  const { samples, timeDeltas } = profile;
  if (!samples || !timeDeltas || samples.length !== timeDeltas.length) return profile;
  const hits = new Map<number, number>();
  let t = profile.startTime;
  const from = profile.startTime + skipMs * 1000;
  let first = Number.NaN;
  for (let i = 0; i < samples.length; i++) {
    t += timeDeltas[i] as number;
    if (t < from) continue;
    if (Number.isNaN(first)) first = t;
    hits.set(samples[i] as number, (hits.get(samples[i] as number) ?? 0) + 1);
  }
  return {
    ...profile,
    startTime: Number.isNaN(first) ? profile.startTime : first,
    nodes: profile.nodes.map((n) => ({ ...n, hitCount: hits.get(n.id) ?? 0 })),
  };
}

export function renderProtocolsReport(report: ProtocolsReport): string {
  const lines = [
    `configuration: ${report.config}; start to ready ${(report.startToReadyMs / 1000).toFixed(1)} s ` +
      `(CPU ${(report.cpuToReadyMs / 1000).toFixed(2)} s, load ${report.loadAtReady.toFixed(1)}); ` +
      `RSS when ready ${report.rssReadyMb.toFixed(0)} MB; peak RSS ${report.peakRssMb.toFixed(0)} MB ` +
      `(after the load: ${report.rssAfterMb.toFixed(0)} MB); load average ${os.loadavg()[0]?.toFixed(1)}`,
    report.peer && 'version' in report.peer
      ? `peer: ${PEER_PACKAGE} ${report.peer.version}, plain client on its GET event stream; its peak RSS ${report.peer.peakRssMb.toFixed(0)} MB`
      : `peer: not measured${report.peer && 'error' in report.peer ? ` (${report.peer.error})` : ''}`,
    '| protocol | concurrency | calls/s (repoGet) | × the peer (target >= 2) | p50 / p99 | server CPU per call | errors |',
    '|---|---|---|---|---|---|---|',
    ...report.rows.map((r) => {
      const peer = report.rows.find((p) => p.version === PEER && p.concurrency === r.concurrency);
      const ratio =
        r.version === PEER || !peer || !peer.callsPerSecond
          ? ''
          : `${(r.callsPerSecond / peer.callsPerSecond).toFixed(2)}× ${r.callsPerSecond / peer.callsPerSecond >= 2 ? 'PASS' : 'FAIL'}`;
      return (
        `| ${r.version === PEER ? `peer ${PEER_PACKAGE}` : r.version} | ${r.concurrency} | ${r.callsPerSecond} | ${ratio} | ` +
        `${r.p50Ms.toFixed(1)} / ${r.p99Ms.toFixed(1)} ms | ${r.serverCpuMsPerCall.toFixed(2)} ms | ` +
        `${r.errors}${r.firstError ? ` (${r.firstError.slice(0, 80)})` : ''} |`
      );
    }),
  ];
  if (report.profile) {
    lines.push('', 'self time by area:');
    for (const a of report.profile.areas)
      lines.push(`  ${(a.share * 100).toFixed(1).padStart(5)} %  ${a.area}`);
    lines.push('hottest functions:');
    for (const f of report.profile.functions)
      lines.push(`  ${(f.share * 100).toFixed(1).padStart(5)} %  ${f.fn}  ${f.file.replace(ROOT, '')}`);
  }
  return lines.join('\n');
}

if (require.main === module) {
  void runProtocolsBench(process.argv.slice(2))
    .then((report) => {
      process.stdout.write(`${renderProtocolsReport(report)}\n`);
      const out = path.join(ROOT, 'bench', 'results');
      fs.mkdirSync(out, { recursive: true });
      fs.writeFileSync(path.join(out, `protocols-${report.config}.json`), JSON.stringify(report, null, 2));
    })
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    });
}
