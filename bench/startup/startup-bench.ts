// `npm run bench -- --startup [--production] [--rounds N] [--profile] [--main other/dist/src/main.js] [--env K=V ...]`:
// start to ready of the service, N starts in a row, each on a fresh DATA_DIR (embedded) or a fresh
// scratch database (production). For each start: wall time to ready (an MCP initialize and a full
// tools/list answered), the CPU time the process had used by then (steadier than wall time on a
// shared machine), the 1-minute load average, and RSS when ready. The first start also fills Node's
// compile cache where Node has one (>= 22.1); later starts read it. With --profile each start runs
// under --cpu-prof and the self time by area up to ready is printed. The DATA_DIRs are removed
// only after the last start: on an ext4 without a journal (this machine) each new inode skips the
// inodes freed in the last half minute, so deleting a data directory just before the next start
// made that start's template extraction several times dearer than on a machine at rest.
import { forkUpstream } from '../lib/fork-server';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { hotAreas, type CpuProfile } from '../lib/cpu-profile.util';
import { resolveProduction } from '../lib/production-services';
import { startSidecar } from '../sidecar/sidecar-process';

const ROOT = path.resolve(__dirname, '..', '..', '..');

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

/** Every `--env K=V` (an A/B of a setting in the same minutes). */
function extraEnv(argv: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  argv.forEach((a, i) => {
    const kv = a === '--env' ? argv[i + 1] : undefined;
    const eq = kv?.indexOf('=') ?? -1;
    if (kv && eq > 0) env[kv.slice(0, eq)] = kv.slice(eq + 1);
  });
  return env;
}

function statusMb(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

export type StartRow = { wallMs: number; cpuMs: number; load: number; rssMb: number; peakMb: number };
export type StartupReport = {
  config: 'embedded' | 'production';
  node: string;
  rows: StartRow[];
  areas?: Array<{ area: string; share: number }>;
};

export async function runStartupBench(argv: string[]): Promise<StartupReport> {
  const production = argv.includes('--production');
  const rounds = Number(arg(argv, '--rounds') ?? '3');
  const profile = argv.includes('--profile');
  const upstream = await forkUpstream();
  const report: StartupReport = {
    config: production ? 'production' : 'embedded',
    node: process.version,
    rows: [],
  };
  const profiles: CpuProfile[] = [];
  const dataDirs: string[] = [];
  try {
    for (let r = 0; r < rounds; r++) {
      let services: Awaited<ReturnType<typeof resolveProduction>>['services'] = null;
      if (production) {
        const resolved = await resolveProduction(); // a fresh scratch database per start
        if (!resolved.services) throw new Error(`--production: ${resolved.reason}`);
        services = resolved.services;
      }
      const profDir = profile ? fs.mkdtempSync(path.join(os.tmpdir(), 'aegis-bench-startprof-')) : undefined;
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `aegis-bench-start-${report.config}-`));
      dataDirs.push(dataDir);
      try {
        const sc = await startSidecar({
          dataDir,
          mainJs: arg(argv, '--main') ?? path.join(ROOT, 'dist', 'src', 'main.js'),
          upstreamUrl: upstream.url,
          toolMode: 'full',
          detectionMode: 'mask',
          label: `startup-${report.config}`,
          env: extraEnv(argv),
          ...(profDir ? { cpuProfDir: profDir } : {}),
          ...(services ? { databaseUrl: services.databaseUrl, redisUrl: services.redisUrl } : {}),
        });
        report.rows.push({
          wallMs: sc.startToReadyMs,
          cpuMs: sc.cpuToReadyMs,
          load: sc.loadAtReady,
          rssMb: statusMb(sc.pid, 'VmRSS'),
          peakMb: statusMb(sc.pid, 'VmHWM'),
        });
        const readyAt = Date.now();
        await sc.stop();
        if (profDir) {
          const file = fs.readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
          if (file)
            profiles.push(
              upTo(JSON.parse(fs.readFileSync(path.join(profDir, file), 'utf8')), readyAt - sc.startedAt),
            );
          fs.rmSync(profDir, { recursive: true, force: true });
        }
      } finally {
        await services?.cleanup().catch(() => undefined);
      }
    }
  } finally {
    upstream.child.send('stop');
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  }
  if (profiles[profiles.length - 1]) report.areas = hotAreas(profiles[profiles.length - 1] as CpuProfile, 16);
  return report;
}

type Sampled = CpuProfile & { samples?: number[]; timeDeltas?: number[] };

/** The profile with hit counts recounted from the samples taken in its first `untilMs`. */
function upTo(profile: Sampled, untilMs: number): CpuProfile {
  const { samples, timeDeltas } = profile;
  if (!samples || !timeDeltas) return profile;
  const hits = new Map<number, number>();
  let t = profile.startTime;
  const end = profile.startTime + untilMs * 1000;
  for (let i = 0; i < samples.length; i++) {
    t += timeDeltas[i] as number;
    if (t > end) break;
    hits.set(samples[i] as number, (hits.get(samples[i] as number) ?? 0) + 1);
  }
  return {
    ...profile,
    endTime: Math.min(profile.endTime, end),
    nodes: profile.nodes.map((n) => ({ ...n, hitCount: hits.get(n.id) ?? 0 })),
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export function renderStartupReport(report: StartupReport): string {
  const later = report.rows.slice(1);
  const lines = [
    `start to ready, ${report.config}, node ${report.node} (fresh ${report.config === 'embedded' ? 'DATA_DIR' : 'scratch database'} each start; target <= 3 s on the embedded default)`,
    '| start | wall to ready | CPU to ready | load average (1 min) | RSS when ready | peak RSS |',
    '|---|---|---|---|---|---|',
    ...report.rows.map(
      (r, i) =>
        `| ${i + 1}${i === 0 ? ' (fills the compile cache)' : ''} | ${(r.wallMs / 1000).toFixed(2)} s | ${(r.cpuMs / 1000).toFixed(2)} s | ${r.load.toFixed(1)} | ${r.rssMb.toFixed(0)} MB | ${r.peakMb.toFixed(0)} MB |`,
    ),
  ];
  if (later.length)
    lines.push(
      `| median of starts 2-${report.rows.length} | ${(median(later.map((r) => r.wallMs)) / 1000).toFixed(2)} s | ${(median(later.map((r) => r.cpuMs)) / 1000).toFixed(2)} s | ${median(later.map((r) => r.load)).toFixed(1)} | ${median(later.map((r) => r.rssMb)).toFixed(0)} MB | ${median(later.map((r) => r.peakMb)).toFixed(0)} MB |`,
    );
  if (report.areas) {
    lines.push('', 'self time by area up to ready (last start):');
    for (const a of report.areas) lines.push(`  ${(a.share * 100).toFixed(1).padStart(5)} %  ${a.area}`);
  }
  return lines.join('\n');
}

if (require.main === module) {
  void runStartupBench(process.argv.slice(2))
    .then((report) => {
      process.stdout.write(`${renderStartupReport(report)}\n`);
      const out = path.join(ROOT, 'bench', 'results');
      fs.mkdirSync(out, { recursive: true });
      fs.writeFileSync(path.join(out, `startup-${report.config}.json`), JSON.stringify(report, null, 2));
    })
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    });
}
