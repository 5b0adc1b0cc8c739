// `npm run bench` orchestrator (compiled to dist/bench/run-bench.js; scripts/bench.mjs runs it).
// Every figure is measured against a reference taken in the same run, in interleaved rounds, so
// that the ratios hold on a noisy shared machine. All traffic stays on 127.0.0.1.
import { forkServer } from './lib/fork-server';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { hotAreas, hotFunctions, type CpuProfile } from './lib/cpu-profile.util';
import { describeServers, resolveProduction, type ProductionServices } from './lib/production-services';
import {
  checkedRow,
  formatNumber,
  formatTable,
  forConfig,
  infoRow,
  markdownTable,
  renderMarkdown,
  renderRows,
  sideBySideCells,
  unavailableRow,
  type BenchRow,
  type ConfigColumn,
} from './lib/report.util';
import { addedLatency, summarize } from './lib/stats.util';
import { startHealthProber, type HealthProber } from './lib/health-prober';
import { openRawSession, rawToolCall, type RawSession } from './load/jsonrpc-client';
import { httpCall } from './load/http-call';
import { mergeResults, runLoad, type Call, type LoadResult } from './load/load-runner';
import { PEER_PACKAGE, startPeer, type Peer } from './peer/openapi-peer';
import { BENCH_MCP_TOKEN, startSidecar, type Sidecar } from './sidecar/sidecar-process';
import { BENCH_OWNER, BENCH_REPO } from './upstream/fake-gitea';
import type { HeldOutFigure } from './secrets/secrets-bench';

type Options = { quick: boolean; profile: boolean; skipSidecar: boolean; writeMd: boolean };

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS_DIR = path.join(ROOT, 'bench', 'results');

function parseArgs(argv: string[]): Options {
  return {
    quick: argv.includes('--quick'),
    profile: argv.includes('--profile'),
    skipSidecar: argv.includes('--no-sidecar'),
    writeMd: argv.includes('--write-md') || !argv.includes('--quick'),
  };
}

function log(msg: string): void {
  process.stderr.write(`[bench] ${msg}\n`);
}

function errText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]?.slice(0, 160) ?? 'error';
}

type Workload = { name: string; tool: string; args: Record<string, unknown>; httpPath: string };

const WORKLOADS: Workload[] = [
  {
    name: 'read (repoGet)',
    tool: 'repoGet',
    args: { owner: BENCH_OWNER, repo: BENCH_REPO },
    httpPath: `/api/v1/repos/${BENCH_OWNER}/${BENCH_REPO}`,
  },
  {
    name: 'list (issueListIssues, 10 items)',
    tool: 'issueListIssues',
    args: { owner: BENCH_OWNER, repo: BENCH_REPO, page: 2, limit: 10 },
    httpPath: `/api/v1/repos/${BENCH_OWNER}/${BENCH_REPO}/issues?page=2&limit=10`,
  },
];

function mcpCall(clients: Client[], w: Workload): Call {
  let next = 0;
  return async () => {
    const client = clients[next++ % clients.length] as Client;
    const result = await client.callTool({ name: w.tool, arguments: w.args });
    if (result.isError) {
      const first = (result.content as Array<{ text?: string }> | undefined)?.[0]?.text ?? '';
      throw new Error(`tool error: ${first.slice(0, 200)}`);
    }
  };
}

type Target = {
  /** Unique key of the target in this run. */
  name: string;
  call: Call;
  pid?: number;
  /** Sidecar targets: the row label (without the configuration) and the configuration. */
  figure?: string;
  config?: 'embedded' | 'production';
  sdk?: boolean;
  /** The peer (@ivotoby/openapi-mcp-server) driven by the SDK client. */
  peer?: boolean;
  /** Sidecar targets: its /healthz, asked by the prober during the c=32 load (issue 18). */
  healthUrl?: string;
};

/** Marks the targets driven by the official SDK client (info rows, not checked against targets). */
const SDK_SUFFIX = '(SDK client)';

/** The peer's row label (issue 18: the generic OpenAPI bridge the sidecar is compared with). */
const PEER_LABEL = `peer ${PEER_PACKAGE} ${SDK_SUFFIX}`;

/** CPU time (user + system) a process has used, in ms, from /proc (Linux); null elsewhere. */
function processCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, USER_HZ = 100
  } catch {
    return null;
  }
}

/** CPU per call of the serving process and of this load generator, per target (all rounds). */
const cpuPerCall = new Map<string, { server: number; client: number; calls: number }>();

/** /healthz latencies (ms) of each sidecar target during the c=32 load, all rounds (issue 18). */
const healthDuringLoad = new Map<string, { latenciesMs: number[]; loadAverage: number[] }>();
/** Set while the load phases run: asks a sidecar's /healthz from a process of its own. */
let healthProber: HealthProber | null = null;
/** Issue 18: /healthz p99 during the c=32 load (nothing blocks the event loop), ms. */
const HEALTH_P99_TARGET_MS = 50;

/** Runs every target in interleaved rounds and merges each target's rounds. */
async function interleaved(
  targets: Target[],
  rounds: number,
  opts: { concurrency: number; maxCalls: number; maxMs: number; tag: string },
): Promise<Map<string, LoadResult>> {
  const acc = new Map<string, LoadResult[]>(targets.map((t) => [t.name, []]));
  for (const t of targets) await runLoad(t.call, { concurrency: opts.concurrency, maxCalls: 20, maxMs: 500 }); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const t of targets) {
      const s0 = t.pid ? processCpuMs(t.pid) : null;
      const c0 = process.cpuUsage();
      const key = `${opts.tag}: ${t.name}@c${opts.concurrency}`;
      let res: LoadResult;
      if (healthProber && t.healthUrl && opts.concurrency === 32) {
        const probed = await healthProber.during(t.healthUrl, () => runLoad(t.call, opts));
        res = probed.value;
        const h = healthDuringLoad.get(key) ?? { latenciesMs: [], loadAverage: [] };
        h.latenciesMs.push(...probed.latenciesMs);
        h.loadAverage.push(os.loadavg()[0] ?? 0);
        healthDuringLoad.set(key, h);
      } else res = await runLoad(t.call, opts);
      const c1 = process.cpuUsage(c0);
      const s1 = t.pid ? processCpuMs(t.pid) : null;
      acc.get(t.name)?.push(res);
      const cur = cpuPerCall.get(key) ?? { server: 0, client: 0, calls: 0 };
      cur.server += s0 !== null && s1 !== null ? s1 - s0 : Number.NaN;
      cur.client += (c1.user + c1.system) / 1000;
      cur.calls += res.latenciesMs.length + res.errors;
      cpuPerCall.set(key, cur);
    }
  }
  return new Map([...acc.entries()].map(([k, v]) => [k, mergeResults(v)]));
}

/**
 * Issue 18's "2x the peer" with both processes on the same cores: throughput follows the total CPU
 * per call (load generator + server + upstream). The ceiling is the ratio the sidecar would reach
 * if its server CPU per call were the pass-through's (the least any proxy spends), with its own
 * client's CPU: (peer server + peer client + upstream) / (pass-through server + this client +
 * upstream), all from this run at this concurrency. `atOwn` is the same ratio at the sidecar's
 * measured server CPU, the model's prediction of the measured × the peer.
 */
function peerCeiling(
  tool: string,
  target: string,
  concurrency: number,
): { ceiling: number; atOwn: number; note: string } | null {
  const per = (name: string) => {
    const c = cpuPerCall.get(`${tool}: ${name}@c${concurrency}`);
    return c && c.calls > 0 && Number.isFinite(c.server)
      ? { server: c.server / c.calls, client: c.client / c.calls }
      : null;
  };
  const peer = per(PEER_LABEL);
  const pass = per('pass-through');
  const up = per('direct');
  const own = per(target);
  if (!peer || !pass || !up || !own) return null;
  const peerTotal = peer.server + peer.client + up.server;
  const floor = pass.server + own.client + up.server;
  const ownTotal = own.server + own.client + up.server;
  const f = (v: number) => v.toFixed(2);
  return {
    ceiling: peerTotal / floor,
    atOwn: peerTotal / ownTotal,
    note:
      `(peer ${f(peer.server)} + its client ${f(peer.client)} + upstream ${f(up.server)} = ${f(peerTotal)} ms) / ` +
      `(pass-through ${f(pass.server)} + this client ${f(own.client)} + upstream ${f(up.server)} = ${f(floor)} ms); ` +
      `at this sidecar's own ${f(own.server)} ms: ${f(peerTotal / ownTotal)}×`,
  };
}

function ms(v: number): string {
  return `${v.toFixed(2)} ms`;
}

type ConfigKey = 'embedded' | 'production';

/** The two sidecar configurations, as columns of the side-by-side table. */
const CONFIGS: ConfigColumn[] = [
  { key: 'embedded', title: 'embedded (PGlite + in-process queue)' },
  { key: 'production', title: 'production (PostgreSQL + Redis)' },
];

/** Issue 18: throughput at c=32 with the plain client, as a share of the bare pass-through (%). */
const PASS_THROUGH_SHARE_TARGET = 70;

/** Issue 18: RSS after the load runs, per configuration (MB). */
const RSS_TARGET_MB: Record<ConfigKey, number> = { embedded: 300, production: 200 };

type Masking = 'masking off' | 'masking on';
type Instance = {
  config: ConfigKey;
  label: Masking;
  sc: Sidecar;
  clients: Client[];
  sessions: RawSession[];
  /** Also driven by the official SDK client (info rows). */
  sdk: boolean;
};

/** Wall time of each phase of the run (ms), in the JSON and on stderr, to keep the run short. */
const phases: Record<string, number> = {};

async function phase<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await fn();
  } finally {
    const elapsed = performance.now() - t0;
    phases[name] = (phases[name] ?? 0) + Math.round(elapsed);
    log(`${name}: ${(elapsed / 1000).toFixed(1)} s`);
  }
}

type Machine = {
  nproc: number;
  cpu: string;
  memGiB: number;
  node: string;
  platform: string;
  loadAvg: number[];
  loadAvgEnd?: number[];
};

type RunInfo = {
  started: Date;
  /** When `npm run bench` started (scripts/bench.mjs), to report the whole wall time. */
  t0: number;
  buildMs: number;
  configs: Record<string, string>;
};

const loadAvg = (): number[] => os.loadavg().map((x) => +x.toFixed(2));

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const rows: BenchRow[] = [];
  const raw: Record<string, unknown> = {};
  const started = new Date();
  const run: RunInfo = {
    started,
    t0: Number(process.env.BENCH_T0) || started.getTime(),
    buildMs: Number(process.env.BENCH_BUILD_MS) || 0,
    configs: {
      embedded: 'PGlite in a DATA_DIR + in-process queue (the defaults, single replica)',
      production: 'not measured',
    },
  };
  const cpus = os.cpus();
  const machine: Machine = {
    nproc: os.availableParallelism?.() ?? cpus.length,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    memGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAvg: loadAvg(),
  };
  log(`${opts.quick ? 'quick' : 'full'} run on ${machine.nproc} x ${machine.cpu}, node ${machine.node}`);
  const profDir = opts.profile ? path.join(RESULTS_DIR, 'profiles') : undefined;
  if (profDir) fs.mkdirSync(profDir, { recursive: true });

  const helpers: ChildProcess[] = [];
  const sidecars: Sidecar[] = [];
  const clients: Client[] = [];
  const dirs: string[] = [];
  let production: ProductionServices | null = null;
  let peer = null as Peer | null; // set inside a phase callback: no narrowing to null
  let productionReason = 'not measured';
  const abort = async (why: string): Promise<never> => {
    log(`${why}, stopping`);
    for (const h of helpers) h.kill('SIGKILL');
    for (const sc of sidecars) sc.kill();
    peer?.kill();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    await production?.cleanup().catch(() => undefined);
    writeReport(opts, run, machine, rows, raw, why);
    process.exit(2);
  };
  // The full run took about 19 min on a quiet machine before the /healthz prober and the bounded-work
  // part grew it; the stop is a guard against a hung phase, not a budget.
  const hardStop = setTimeout(() => void abort('time limit reached'), opts.quick ? 480_000 : 2_100_000);
  hardStop.unref();
  const onSignal = (): void => void abort('interrupted');
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    const upstream = await forkServer(['upstream']);
    helpers.push(upstream.child);
    const proxy = await forkServer(['proxy', upstream.url]);
    helpers.push(proxy.child);
    log(`upstream ${upstream.url}, pass-through ${proxy.url}`);

    // --- the sidecar: embedded and production configurations -----------------------------------
    const mainJs = path.join(ROOT, 'dist', 'src', 'main.js');
    let sidecarMissing: string | null = null;
    if (opts.skipSidecar) sidecarMissing = 'skipped (--no-sidecar)';
    else if (!fs.existsSync(mainJs)) sidecarMissing = 'not available yet (no dist/src/main.js)';
    if (!sidecarMissing) {
      const res = await resolveProduction();
      production = res.services;
      if (res.services) {
        run.configs.production = `${await describeServers(res.services)}: ${res.services.source}`;
      } else {
        productionReason = res.reason;
        run.configs.production = res.reason;
      }
      log(`production configuration: ${run.configs.production}`);
    }
    const instances: Instance[] = [];
    const instanceDir = (template: string): string => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aegis-bench-data-'));
      fs.cpSync(template, dir, { recursive: true });
      dirs.push(dir);
      return dir;
    };
    // The quick run measures the default (masking on) of each configuration, with the plain client.
    const plan: Array<{ config: ConfigKey; label: Masking; sdk: boolean }> = opts.quick
      ? [
          { config: 'embedded', label: 'masking on', sdk: true },
          { config: 'production', label: 'masking on', sdk: true },
        ]
      : [
          { config: 'embedded', label: 'masking off', sdk: false },
          { config: 'embedded', label: 'masking on', sdk: true },
          { config: 'production', label: 'masking on', sdk: true },
        ];
    const startRows: BenchRow[] = [];
    let template: string | null = null;
    await phase('sidecar starts', async () => {
      if (sidecarMissing) return;
      try {
        template = await prepareDataDir(opts, mainJs, upstream.url, profDir, startRows);
      } catch (err) {
        log(`sidecar first start failed: ${errText(err)}`);
        sidecarMissing = `not available yet (${errText(err)})`;
        return;
      }
      // Production, full run: first start on the empty scratch database (migrations), then restarts.
      let productionFirst = opts.quick;
      if (production && !opts.quick) {
        try {
          const sc = await startSidecar({
            mainJs,
            upstreamUrl: upstream.url,
            toolMode: 'full',
            detectionMode: 'mask',
            label: 'first-production',
            cpuProfDir: profDir,
            databaseUrl: production.databaseUrl,
            redisUrl: production.redisUrl,
          });
          await sc.stop();
          startRows.push(
            forConfig(
              infoRow('catalogue', FIRST_START, sc.startToReadyMs / 1000, 's', 'empty database: migrations'),
              'production',
            ),
          );
        } catch (err) {
          log(`production sidecar first start failed: ${errText(err)}`);
          productionReason = `failed to start (${errText(err)})`;
          production = null;
        }
      }
      for (const p of plan) {
        if (p.config === 'production' && !production) continue;
        try {
          const sc = await startSidecar({
            mainJs,
            upstreamUrl: upstream.url,
            toolMode: 'full',
            detectionMode: p.label === 'masking on' ? 'mask' : 'off',
            label: `${p.config}-${p.label.replace(' ', '-')}`,
            cpuProfDir: profDir,
            ...(p.config === 'production' && production
              ? { databaseUrl: production.databaseUrl, redisUrl: production.redisUrl }
              : { dataDir: instanceDir(template as string) }),
          });
          sidecars.push(sc);
          const note = p.config === 'production' && productionFirst ? ' (first start: migrations)' : '';
          productionFirst &&= p.config !== 'production';
          log(
            `sidecar ${p.config}, ${p.label} ready in ${sc.startToReadyMs.toFixed(0)} ms${note} (pid ${sc.pid})`,
          );
          const cs: Client[] = [];
          if (p.sdk) for (let i = 0; i < 8; i++) cs.push(await sc.connect(`aegis-bench-${i}`));
          clients.push(...cs);
          const sessions: RawSession[] = [];
          for (let i = 0; i < 8; i++)
            sessions.push(await openRawSession(sc.mcpUrl, BENCH_MCP_TOKEN, `aegis-bench-raw-${i}`));
          instances.push({ ...p, sc, clients: cs, sessions });
          const start = checkedRow(
            'catalogue',
            `start to ready, full catalogue, ${p.label}`,
            sc.startToReadyMs / 1000,
            's',
            '<=',
            3,
          );
          start.value += `${note} (CPU ${(sc.cpuToReadyMs / 1000).toFixed(2)} s, load ${sc.loadAtReady.toFixed(1)})`;
          startRows.push(forConfig(start, p.config));
        } catch (err) {
          log(`sidecar ${p.config}, ${p.label} failed: ${errText(err)}`);
          if (p.config === 'production') {
            productionReason = `failed to start (${errText(err)})`;
            production = null;
          } else {
            sidecarMissing = `not available yet (${errText(err)})`;
            break;
          }
        }
      }
    });
    if (!production)
      rows.push(
        forConfig(
          unavailableRow('sidecar', 'production configuration (PostgreSQL + Redis)', productionReason),
          'production',
        ),
      );

    // --- the peer: the generic OpenAPI bridge on the same upstream (issue 18) --------------------
    const peerClients: Client[] = [];
    await phase('peer starts', async () => {
      try {
        peer = await startPeer({ root: ROOT, upstreamUrl: upstream.url });
        for (let i = 0; i < 8; i++) peerClients.push(await peer.connect(`aegis-bench-peer-${i}`));
        log(
          `peer ${PEER_PACKAGE} ${peer.version} ready in ${peer.startToReadyMs.toFixed(0)} ms (pid ${peer.pid})`,
        );
        rows.push(
          forConfig(
            infoRow(
              'peer',
              `${PEER_PACKAGE} ${peer.version}: start to ready`,
              peer.startToReadyMs / 1000,
              's',
            ),
            '*',
          ),
        );
      } catch (err) {
        log(`peer failed: ${errText(err)}`);
        rows.push(forConfig(unavailableRow('peer', PEER_PACKAGE, `failed to start (${errText(err)})`), '*'));
        peer = null;
      }
    });

    // --- latency and throughput ----------------------------------------------------------------
    const c1 = opts.quick ? { rounds: 3, calls: 50, maxMs: 800 } : { rounds: 6, calls: 150, maxMs: 3000 };
    const cN = opts.quick ? { rounds: 2, maxMs: 500 } : { rounds: 3, maxMs: 1500 };
    const concurrencies = opts.quick ? [32] : [8, 32];
    if (instances.length) {
      healthProber = await startHealthProber();
      helpers.push(healthProber.child);
    }
    for (const w of WORKLOADS) {
      const targets: Target[] = [
        // The upstream's pid: its CPU per direct call is what every target's call costs upstream.
        { name: 'direct', call: httpCall(upstream.url, w.httpPath), pid: upstream.child.pid },
        { name: 'pass-through', call: httpCall(proxy.url, w.httpPath), pid: proxy.child.pid },
      ];
      const peerTool =
        peer && peerClients.length ? await peer.toolFor(peerClients[0] as Client, w.tool) : null;
      if (peer && peerTool) {
        targets.push({
          name: PEER_LABEL,
          peer: true,
          call: mcpCall(peerClients, { ...w, tool: peerTool }),
          pid: peer.pid,
        });
      } else if (peer)
        rows.push(
          forConfig(unavailableRow(`latency c=1, ${w.name}`, PEER_LABEL, `no tool for ${w.tool}`), '*'),
        );
      for (const i of instances) {
        // Checked figures: the same plain HTTP client as direct and pass-through (like with like).
        targets.push({
          name: `${i.config}: ${i.label}`,
          figure: `sidecar, ${i.label}`,
          config: i.config,
          call: rawToolCall(i.sessions, w.tool, w.args),
          pid: i.sc.pid,
          healthUrl: new URL('/healthz', i.sc.mcpUrl).href,
        });
        // Info: the official SDK client, whose own per-call work is part of what it measures.
        if (i.sdk)
          targets.push({
            name: `${i.config}: ${i.label} ${SDK_SUFFIX}`,
            figure: `sidecar, ${i.label} ${SDK_SUFFIX}`,
            config: i.config,
            sdk: true,
            call: mcpCall(i.clients, w),
            pid: i.sc.pid,
            healthUrl: new URL('/healthz', i.sc.mcpUrl).href,
          });
      }
      const lat = await phase(`load c=1, ${w.tool}`, () =>
        interleaved(targets, c1.rounds, { concurrency: 1, maxCalls: c1.calls, maxMs: c1.maxMs, tag: w.tool }),
      );
      const direct = summarize(lat.get('direct')?.latenciesMs ?? []);
      raw[`${w.tool}.c1`] = Object.fromEntries(
        [...lat.entries()].map(([k, v]) => [k, { ...summarize(v.latenciesMs), errors: v.errors }]),
      );
      const section = `latency c=1, ${w.name}`;
      const triple = (s: { p50: number; p95: number; p99: number }): string =>
        `${ms(s.p50)} / ${ms(s.p95)} / ${ms(s.p99)}`;
      rows.push(
        forConfig(
          {
            ...infoRow(section, 'direct call p50 / p95 / p99 (reference)', direct.p50, 'ms'),
            value: triple(direct),
          },
          '*',
        ),
      );
      for (const t of targets) {
        if (t.name === 'direct') continue;
        const res = lat.get(t.name) as LoadResult;
        const s = summarize(res.latenciesMs);
        const tag = t.config ?? '*';
        if (res.errors && !res.latenciesMs.length) {
          rows.push(
            forConfig(
              unavailableRow(section, t.figure ?? t.name, `failed: ${res.firstError ?? ''}`.slice(0, 120)),
              tag,
            ),
          );
          continue;
        }
        const add = addedLatency(s, direct);
        const note = `${t.name}: p50 ${ms(s.p50)}, p95 ${ms(s.p95)}, p99 ${ms(s.p99)}, errors ${res.errors}`;
        if (t.peer) {
          rows.push(
            forConfig(
              {
                ...infoRow(section, `${t.name}: added p50 / p95 / p99`, add.p50, 'ms', note),
                value: triple(add),
              },
              '*',
            ),
          );
        } else if (!t.config) {
          rows.push(
            forConfig(
              {
                ...infoRow(section, 'pass-through added p50 / p95 / p99 (reference)', add.p50, 'ms', note),
                value: triple(add),
              },
              '*',
            ),
          );
        } else if (t.sdk) {
          rows.push(
            forConfig(
              {
                ...infoRow(section, `${t.figure}: added p50 / p95 / p99`, add.p50, 'ms', note),
                value: triple(add),
              },
              tag,
            ),
          );
        } else {
          rows.push(
            forConfig(checkedRow(section, `${t.figure}: added p50`, add.p50, 'ms', '<=', 1, note), tag),
          );
          rows.push(forConfig(infoRow(section, `${t.figure}: added p95`, add.p95, 'ms'), tag));
          rows.push(forConfig(checkedRow(section, `${t.figure}: added p99`, add.p99, 'ms', '<=', 5), tag));
        }
        if (res.errors)
          rows.push(
            forConfig(
              unavailableRow(
                section,
                `${t.figure ?? t.name}: errors`,
                `${res.errors} (${res.firstError ?? ''})`.slice(0, 120),
              ),
              tag,
            ),
          );
      }
      for (const concurrency of concurrencies) {
        const tp = await phase(`load c=${concurrency}, ${w.tool}`, () =>
          interleaved(targets, cN.rounds, { concurrency, maxCalls: 1_000_000, maxMs: cN.maxMs, tag: w.tool }),
        );
        raw[`${w.tool}.c${concurrency}`] = Object.fromEntries(
          [...tp.entries()].map(([k, v]) => [
            k,
            { throughput: v.throughput, ...summarize(v.latenciesMs), errors: v.errors },
          ]),
        );
        const sec = `throughput c=${concurrency}, ${w.name}`;
        const ref = tp.get('pass-through') as LoadResult;
        const dir = tp.get('direct') as LoadResult;
        const reqs = (r: LoadResult): string =>
          `${formatNumber(r.throughput, 'req/s')} (p99 ${ms(summarize(r.latenciesMs).p99)})`;
        rows.push(
          forConfig(
            { ...infoRow(sec, 'direct req/s (p99) (reference)', dir.throughput, 'req/s'), value: reqs(dir) },
            '*',
          ),
        );
        rows.push(
          forConfig(
            {
              ...infoRow(sec, 'pass-through req/s (p99) (reference)', ref.throughput, 'req/s'),
              value: reqs(ref),
            },
            '*',
          ),
        );
        const peerRes = tp.get(PEER_LABEL);
        // The peer answers tools/call with 202 and sends the result on its GET event stream, which
        // the plain request/response client does not open: the peer is driven by the SDK client only.
        for (const [label, r] of [[PEER_LABEL, peerRes]] as const) {
          if (!r) continue;
          const errors = r.errors ? `, errors ${r.errors} (${(r.firstError ?? '').slice(0, 80)})` : '';
          rows.push(
            forConfig(
              {
                ...infoRow(sec, `${label}: req/s (p99) (reference)`, r.throughput, 'req/s'),
                value: reqs(r) + errors,
              },
              '*',
            ),
          );
        }
        for (const t of targets) {
          if (!t.config) continue;
          const res = tp.get(t.name) as LoadResult;
          // Issue 18: with the SDK client, at least twice the peer's throughput, in both configurations.
          if (t.sdk && peerRes && peerRes.throughput > 0) {
            rows.push(
              forConfig(
                checkedRow(
                  sec,
                  `${t.figure}: × the peer's req/s`,
                  res.throughput / peerRes.throughput,
                  '×',
                  '>=',
                  2,
                  `${res.throughput.toFixed(0)} vs ${peerRes.throughput.toFixed(0)} req/s`,
                ),
                t.config,
              ),
            );
            const ceiling = peerCeiling(w.tool, t.name, concurrency);
            rows.push(
              forConfig(
                ceiling
                  ? infoRow(
                      sec,
                      `${t.figure}: ceiling at the pass-through's CPU`,
                      ceiling.ceiling,
                      '×',
                      ceiling.note,
                    )
                  : unavailableRow(
                      sec,
                      `${t.figure}: ceiling at the pass-through's CPU`,
                      'CPU per call not measured',
                    ),
                t.config,
              ),
            );
          }
          const ratio = (100 * res.throughput) / ref.throughput;
          const note = `${res.throughput.toFixed(0)} req/s, p99 ${ms(summarize(res.latenciesMs).p99)}, errors ${res.errors}`;
          rows.push(
            forConfig(
              concurrency === 32 && !t.sdk
                ? checkedRow(
                    sec,
                    `${t.figure}: % of pass-through`,
                    ratio,
                    '%',
                    '>=',
                    PASS_THROUGH_SHARE_TARGET,
                    note,
                  )
                : infoRow(sec, `${t.figure}: % of pass-through`, ratio, '%', note),
              t.config,
            ),
          );
          rows.push(
            forConfig(
              { ...infoRow(sec, `${t.figure}: req/s (p99)`, res.throughput, 'req/s'), value: reqs(res) },
              t.config,
            ),
          );
          if (res.errors)
            rows.push(
              forConfig(
                unavailableRow(
                  sec,
                  `${t.figure}: errors`,
                  `${res.errors} (${res.firstError ?? ''})`.slice(0, 120),
                ),
                t.config,
              ),
            );
        }
        if (concurrency === 32) {
          // Issue 18: the sidecar's /healthz while it serves the c=32 load (its event loop held).
          for (const t of targets) {
            const h = healthDuringLoad.get(`${w.tool}: ${t.name}@c32`);
            if (!h || !t.config) continue;
            if (!h.latenciesMs.length) {
              rows.push(
                forConfig(
                  unavailableRow(sec, `${t.figure}: /healthz p99 during the load`, 'no answer'),
                  t.config,
                ),
              );
              continue;
            }
            const s = summarize(h.latenciesMs);
            const load = `load average ${Math.min(...h.loadAverage).toFixed(1)}–${Math.max(...h.loadAverage).toFixed(1)}`;
            const note = `p50 ${ms(s.p50)}, max ${ms(Math.max(...h.latenciesMs))}, ${h.latenciesMs.length} checks; ${load}`;
            rows.push(
              forConfig(
                t.sdk
                  ? infoRow(sec, `${t.figure}: /healthz p99 during the load`, s.p99, 'ms', note)
                  : checkedRow(
                      sec,
                      `${t.figure}: /healthz p99 during the load`,
                      s.p99,
                      'ms',
                      '<=',
                      HEALTH_P99_TARGET_MS,
                      note,
                    ),
                t.config,
              ),
            );
          }
          // CPU per call does not depend on how busy the machine is: the steadiest comparison here.
          for (const t of targets) {
            const c = cpuPerCall.get(`${w.tool}: ${t.name}@c32`);
            if (!c || !c.calls) continue;
            const figure =
              t.name === 'direct'
                ? 'direct: upstream CPU / load-generator CPU per call (reference)'
                : t.config
                  ? `${t.figure}: server CPU / load-generator CPU per call`
                  : t.peer
                    ? `${t.name}: server CPU / load-generator CPU per call (reference)`
                    : 'pass-through: server CPU / load-generator CPU per call (reference)';
            rows.push(
              forConfig(
                {
                  ...infoRow(sec, figure, c.server / c.calls, 'ms'),
                  value: `${ms(c.server / c.calls)} / ${ms(c.client / c.calls)}`,
                },
                t.config ?? '*',
              ),
            );
          }
        }
      }
    }
    healthProber?.close();
    healthProber = null;
    raw.healthDuringLoad = Object.fromEntries(
      [...healthDuringLoad.entries()].map(([k, h]) => [
        k,
        { ...summarize(h.latenciesMs), loadAverage: h.loadAverage },
      ]),
    );
    if (sidecarMissing)
      rows.push(
        forConfig(
          unavailableRow(
            'sidecar',
            'latency and throughput',
            sidecarMissing,
            `added p50 <= 1 ms, p99 <= 5 ms; c=32 >= ${PASS_THROUGH_SHARE_TARGET} %`,
          ),
          '*',
        ),
      );

    // --- catalogue through the sidecar -----------------------------------------------------------
    const cat = 'catalogue';
    const measured = instances.filter((i) => i.label === 'masking on');
    if (measured.length) {
      await phase('catalogue through the sidecar', async () => {
        for (const i of measured) {
          const client = await i.sc.connect('aegis-bench-catalogue');
          const times: number[] = [];
          let bytes = 0;
          let count = 0;
          for (let n = 0; n < (opts.quick ? 5 : 15); n++) {
            const t0 = performance.now();
            const res = await client.listTools();
            times.push(performance.now() - t0);
            bytes = Buffer.byteLength(JSON.stringify(res));
            count = res.tools.length;
          }
          await client.close().catch(() => undefined);
          const t = summarize(times);
          raw[`catalogueFull.${i.config}`] = { bytes, tools: count, listMs: t };
          if (i === measured[0]) {
            rows.push(
              forConfig(
                {
                  ...infoRow(cat, 'full tools/list, bytes', bytes / 1024, 'KB'),
                  value: `${count} tools, ${formatNumber(bytes / 1024, 'KB')} (~${Math.round(bytes / 4 / 1000)}k tokens)`,
                },
                '*',
              ),
            );
          }
          rows.push(
            forConfig(
              checkedRow(
                cat,
                'full tools/list produced (median, client-measured)',
                t.p50,
                'ms',
                '<=',
                50,
                `max ${ms(t.max)}`,
              ),
              i.config,
            ),
          );
        }
      });
    }
    rows.push(...startRows);
    if (instances.length) {
      for (const i of instances) {
        const rss = i.sc.rssBytes();
        if (rss !== null)
          rows.push(
            forConfig(
              checkedRow(
                cat,
                `RSS after load, ${i.label}`,
                rss / 2 ** 20,
                'MB',
                '<=',
                RSS_TARGET_MB[i.config],
              ),
              i.config,
            ),
          );
      }
      raw.rss = Object.fromEntries(instances.map((i) => [`${i.config}: ${i.label}`, i.sc.rssBytes()]));
      const peerRss = peer?.rssBytes() ?? null;
      if (peerRss !== null) {
        rows.push(
          forConfig(infoRow(cat, `RSS after load, ${PEER_LABEL} (reference)`, peerRss / 2 ** 20, 'MB'), '*'),
        );
        (raw.rss as Record<string, unknown>).peer = peerRss;
      }
    } else {
      rows.push(
        forConfig(
          unavailableRow(
            cat,
            'full tools/list, start to ready, RSS',
            sidecarMissing ?? 'not available yet',
            `<= 50 ms, <= 3 s, <= ${RSS_TARGET_MB.embedded} MB embedded / <= ${RSS_TARGET_MB.production} MB production`,
          ),
          '*',
        ),
      );
    }
    // Stop the load instances before the discovery instance, so its start is not competing.
    for (const c of peerClients.splice(0)) await c.close().catch(() => undefined);
    await peer?.stop().catch(() => undefined);
    peer = null;
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    for (const s of sidecars.splice(0)) await s.stop();
    if (template && instances.length) {
      if (opts.quick) {
        rows.push(
          unavailableRow(
            cat,
            'discovery tools/list through the sidecar',
            'not measured in a quick run (in-process figure below)',
            '<= 16.0 KB',
          ),
        );
      } else {
        await phase('discovery sidecar', async () => {
          try {
            const sc = await startSidecar({
              mainJs,
              upstreamUrl: upstream.url,
              toolMode: 'discovery',
              detectionMode: 'mask',
              label: 'discovery',
              cpuProfDir: profDir,
              dataDir: instanceDir(template as string),
            });
            sidecars.push(sc);
            const client = await sc.connect();
            clients.push(client);
            const res = await client.listTools();
            const bytes = Buffer.byteLength(JSON.stringify(res));
            raw.catalogueDiscovery = {
              bytes,
              tools: res.tools.map((x) => x.name),
              startToReadyMs: sc.startToReadyMs,
            };
            rows.push(
              checkedRow(
                cat,
                `discovery tools/list through the sidecar: ${res.tools.length} tools, bytes`,
                bytes / 1024,
                'KB',
                '<=',
                16,
              ),
            );
            rows[rows.length - 1]!.value += ` (~${Math.round(bytes / 4)} tokens)`;
            rows.push(
              infoRow(
                cat,
                'start to ready, discovery mode (embedded, migrated DATA_DIR)',
                sc.startToReadyMs / 1000,
                's',
              ),
            );
          } catch (err) {
            rows.push(unavailableRow(cat, 'discovery tools/list', `failed: ${errText(err)}`, '<= 16 KB'));
          }
          for (const c of clients.splice(0)) await c.close().catch(() => undefined);
          for (const s of sidecars.splice(0)) await s.stop();
        });
      }
    }
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
    rows.push(...(await phase('catalogue in process', async () => inProcessCatalogueRows(raw))));
    rows.push(...(await phase('agent economy (issue 17)', () => agentEconomyRows(raw))));

    for (const h of helpers.splice(0)) h.kill('SIGTERM');

    // --- secrets and audit (other engineers' in-process benches) -------------------------------
    rows.push(
      ...(await phase('secrets bench', () =>
        externalBench(
          'secrets',
          'secrets/secrets-bench',
          'runSecretsBench',
          { quick: opts.quick },
          raw,
          'secrets',
        ),
      )),
    );
    const audit = async (config: ConfigKey, databaseUrl: string | null): Promise<void> => {
      // The audit bench falls back to BENCH_DATABASE_URL: hide it for the embedded figures.
      const saved = process.env.BENCH_DATABASE_URL;
      if (!databaseUrl) delete process.env.BENCH_DATABASE_URL;
      const out = await phase(`audit bench, ${config}`, () =>
        externalBench(
          'audit',
          'audit/audit-bench',
          'runAuditBench',
          { quick: opts.quick, databaseUrl },
          raw,
          `audit.${config}`,
        ),
      );
      if (saved !== undefined) process.env.BENCH_DATABASE_URL = saved;
      rows.push(...out.map((r) => forConfig(r, config)));
    };
    await audit('embedded', null);
    if (production) await audit('production', production.databaseUrl);

    if (profDir) printProfiles(profDir);
  } finally {
    for (const c of clients) await c.close().catch(() => undefined);
    for (const s of sidecars) await s.stop().catch(() => undefined);
    await peer?.stop().catch(() => undefined);
    for (const h of helpers) h.kill('SIGTERM');
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    await production?.cleanup().catch(() => undefined);
    clearTimeout(hardStop);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  raw.cpuPerCall = Object.fromEntries(cpuPerCall);
  writeReport(opts, run, machine, rows, raw, null);
}

/** CPU (user + system) of this process and of its children that have exited, in ms (Linux). */
function runCpuMs(): number | null {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const children = ((Number(f[13]) + Number(f[14])) * 1000) / 100; // cutime + cstime, USER_HZ = 100
    const own = process.cpuUsage();
    return children + (own.user + own.system) / 1000;
  } catch {
    return null;
  }
}

const FIRST_START = 'start to ready, first start (empty store: init + migrations)';

function writeReport(
  opts: Options,
  run: RunInfo,
  machine: Machine,
  rows: BenchRow[],
  raw: Record<string, unknown>,
  incomplete: string | null,
): void {
  machine.loadAvgEnd = loadAvg();
  const wallMs = Date.now() - run.t0;
  const cpuMs = runCpuMs();
  const kind = `${opts.quick ? 'quick' : 'full'} run${incomplete ? `, INCOMPLETE: ${incomplete}` : ''}`;
  const header = [
    `AegisGitea-MCP benchmark (${kind}), ${run.started.toISOString()}, wall time ${(wallMs / 1000).toFixed(1)} s${run.buildMs ? ` (of which build ${(run.buildMs / 1000).toFixed(1)} s)` : ''}`,
    ...(cpuMs !== null
      ? [
          `CPU time of the run ${(cpuMs / 1000).toFixed(1)} s (this runner, the sidecars and helper servers; PostgreSQL and Redis not counted)`,
        ]
      : []),
    `machine: ${machine.nproc} CPU x ${machine.cpu}, ${machine.memGiB} GiB, ${machine.platform}, node ${machine.node}`,
    `load average (1 / 5 / 15 min): ${machine.loadAvg.join(' / ')} at start, ${machine.loadAvgEnd.join(' / ')} at end${Math.max(machine.loadAvg[0] ?? 0, machine.loadAvgEnd[0] ?? 0) > machine.nproc ? ` (above ${machine.nproc}: other work shared the CPUs, figures are noisier)` : ''}`,
    `embedded = ${run.configs.embedded}`,
    `production = ${run.configs.production}`,
  ];
  const byConfig = sideBySideCells(rows, CONFIGS);
  const others = rows.filter((r) => !r.config);
  const counts = (['PASS', 'FAIL', 'n/a'] as const).map((v) => rows.filter((r) => r.verdict === v).length);
  const summary = `${counts[0]} pass, ${counts[1]} fail, ${counts[2]} not measured`;
  const sideTitle = 'Sidecar: the two configurations side by side (same upstream, same references, same run)';
  const otherTitle = 'Figures that do not depend on the configuration';
  process.stdout.write(
    `\n${header.join('\n')}\n\n${sideTitle}\n\n${formatTable(byConfig.headers, byConfig.cells)}\n\n${otherTitle}\n\n${renderRows(others)}\n\n${summary}\n`,
  );

  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const json = {
    started: run.started.toISOString(),
    quick: opts.quick,
    incomplete,
    wallMs,
    buildMs: run.buildMs,
    cpuMs,
    machine,
    configs: run.configs,
    phases,
    rows,
    raw,
  };
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.json'), JSON.stringify(json, null, 2));
  const md = [
    `<!-- written by npm run bench; ${opts.quick ? 'quick' : 'full'} run -->`,
    '',
    header.map((l) => `${l}  `).join('\n'),
    '',
    `### ${sideTitle}`,
    '',
    markdownTable(byConfig.headers, byConfig.cells),
    '',
    `### ${otherTitle}`,
    '',
    renderMarkdown(others),
    '',
    summary,
    '',
  ].join('\n');
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.md'), md);
  if (opts.writeMd && !incomplete) fs.writeFileSync(path.join(ROOT, 'bench', 'results-latest.md'), md);
  log(
    `wrote ${path.relative(ROOT, path.join(RESULTS_DIR, 'latest.json'))}${opts.writeMd && !incomplete ? ' and bench/results-latest.md' : ''}`,
  );
}

/** Loads another engineer's bench module if it has been built; otherwise one clear row. */
function loadOptional(rel: string): Record<string, unknown> | null {
  const file = path.join(__dirname, rel);
  if (!fs.existsSync(`${file}.js`)) return null;
  return requireCompiled<Record<string, unknown>>(file);
}

/** Loads a compiled module from dist/ whose path is only known at run time (it may not be built). */
function requireCompiled<T>(file: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- run-time path into dist/, no static import possible
  return require(file) as T;
}

async function externalBench(
  section: string,
  rel: string,
  fnName: string,
  args: Record<string, unknown>,
  raw: Record<string, unknown>,
  rawKey: string,
): Promise<BenchRow[]> {
  let mod: Record<string, unknown> | null;
  try {
    mod = loadOptional(rel);
  } catch (err) {
    return [unavailableRow(section, fnName, `failed to load: ${errText(err)}`)];
  }
  const fn = mod?.[fnName];
  if (typeof fn !== 'function')
    return [unavailableRow(section, `bench/${rel}.ts ${fnName}()`, 'not available yet')];
  log(`${section}: running ${fnName}`);
  try {
    const result = (await (fn as (o: Record<string, unknown>) => Promise<unknown>)(args)) as Record<
      string,
      unknown
    >;
    raw[rawKey] = result;
    if (section === 'secrets' && result.throughput) return secretsRows(result);
    if (section === 'audit' && typeof result.recordsPerSecond === 'number') return auditRows(result);
    return externalRows(section, result);
  } catch (err) {
    return [unavailableRow(section, fnName, `failed: ${errText(err)}`)];
  }
}

type Throughput = {
  bytes: number;
  medianMs: number;
  mbPerSecond: number;
  masks: number;
  bestMs?: number;
  ratioToStringify?: number;
};
type Adversarial = {
  name: string;
  msSmall: number;
  msMid?: number;
  msLarge: number;
  ratio: number;
  linear: boolean;
};

/** A corpus's totals as secrets-bench reports them; results written before the counts lack them. */
type CorpusFigure = Omit<HeldOutFigure, 'missed' | 'falsePositives'> &
  Partial<Pick<HeldOutFigure, 'missed' | 'falsePositives'>>;

/**
 * The held-out corpus's two checked rows. The verdicts come from the counts (missed against the most
 * the target allows), and the values carry two decimals and the counts, so a recall of 98.96 % is
 * never printed as a passing "99.0 %".
 */
export function heldOutRows(s: string, h: CorpusFigure): BenchRow[] {
  const what = ` (${h.secrets} secrets in ${h.formats} formats, ${h.negatives} look-alikes; not tuned on)`;
  const missed = h.missed ?? Math.round((1 - h.recall) * h.secrets);
  const allowedMissed = Math.floor(h.secrets * 0.01 + 1e-9);
  const flagged = h.falsePositives ?? Math.round(h.falsePositiveRate * h.negatives);
  const allowedFlagged = Math.floor(h.negatives * 0.005 + 1e-9);
  const recallRow = checkedRow(s, `recall on the held-out corpus${what}`, 100 * h.recall, '%', '>=', 99);
  const fpRow = checkedRow(
    s,
    'false-positive rate on the held-out corpus',
    100 * h.falsePositiveRate,
    '%',
    '<=',
    0.5,
  );
  return [
    {
      ...recallRow,
      value: `${(100 * h.recall).toFixed(2)} % (${missed} missed, at most ${allowedMissed})`,
      verdict: missed <= allowedMissed ? 'PASS' : 'FAIL',
    },
    {
      ...fpRow,
      value: `${(100 * h.falsePositiveRate).toFixed(2)} % (${flagged} flagged, at most ${allowedFlagged})`,
      verdict: flagged <= allowedFlagged ? 'PASS' : 'FAIL',
    },
  ];
}

/** Rows for bench/secrets runSecretsBench() (its SecretsBenchResult shape). */
export function secretsRows(r: Record<string, unknown>): BenchRow[] {
  const s = 'secrets';
  const rows: BenchRow[] = [];
  const corpus = r.corpus as { positives: number; negatives: number; formats: number } | undefined;
  const label = corpus
    ? ` (${corpus.positives} secrets, ${corpus.negatives} look-alikes, ${corpus.formats} formats)`
    : '';
  rows.push(infoRow(s, `recall on the labelled corpus${label}`, 100 * Number(r.recall), '%'));
  rows.push(infoRow(s, 'false-positive rate on the labelled corpus', 100 * Number(r.falsePositiveRate), '%'));
  const h = r.heldOut as CorpusFigure | undefined;
  if (h) rows.push(...heldOutRows(s, h));
  const b = r.blindTuning as HeldOutFigure | undefined;
  if (b)
    rows.push(
      infoRow(
        s,
        `blind-written tuning corpus: recall (${b.secrets} secrets in ${b.formats} formats; tuned on)`,
        100 * b.recall,
        '%',
        `${b.missed} missed`,
      ),
      infoRow(
        s,
        `blind-written tuning corpus: false-positive rate (${b.negatives} look-alikes; tuned on)`,
        100 * b.falsePositiveRate,
        '%',
        `${b.falsePositives} flagged`,
      ),
    );
  const bw = r.boundedWork as Record<string, Record<string, number>> | undefined;
  if (bw) {
    for (const [key, label] of [
      ['idle', 'no load (same run, reference)'],
      ['rawFile30MiB', 'repoGetRawFile of a 30 MiB file, 2 at a time'],
      ['archive24MiB', 'repoGetArchive of a zip with 24 MiB of members, 2 at a time'],
      ['rawFile30MiBOnLoop', 'repoGetRawFile of a 30 MiB file, 2 at a time, SECRET_SCAN_WORKERS=0'],
      ['archive24MiBOnLoop', 'repoGetArchive of a 24 MiB zip, 2 at a time, SECRET_SCAN_WORKERS=0'],
    ] as const) {
      const f = bw[key];
      if (!f) continue;
      if (key === 'rawFile30MiB' || key === 'archive24MiB')
        rows.push(checkedRow(s, `event-loop delay max during ${label}`, f.loopDelayMaxMs!, 'ms', '<=', 50));
      rows.push(
        infoRow(
          s,
          `/healthz p99 during ${label}`,
          f.healthP99Ms!,
          'ms',
          `p50 ${f.healthP50Ms} ms, max ${f.healthMaxMs} ms, ${f.healthChecks} checks, ${f.calls} calls; event-loop delay p99 ${f.loopDelayP99Ms} ms, max ${f.loopDelayMaxMs} ms`,
        ),
      );
    }
  }
  const t = r.throughput as {
    json1MB?: Throughput;
    json10MB?: Throughput;
    text1MB?: Throughput;
    jsonText1MB?: Throughput;
    adversarial?: Adversarial[];
  };
  const tp = (name: string, f: Throughput | undefined, checked: boolean): void => {
    if (!f) return;
    const note = `median of the runs; ${f.mbPerSecond} MB/s, ${f.masks} masks`;
    rows.push(
      checked
        ? checkedRow(s, `mask ${name}`, f.medianMs, 'ms', '<=', 10, note)
        : infoRow(s, `mask ${name}`, f.medianMs, 'ms', note),
    );
    // Best run and the ratio to JSON.stringify of the same data: what a busy machine leaves intact.
    const extra = [
      `${f.mbPerSecond} MB/s`,
      ...(typeof f.bestMs === 'number' ? [`best ${f.bestMs} ms`] : []),
      ...(typeof f.ratioToStringify === 'number' ? [`x${f.ratioToStringify} JSON.stringify`] : []),
    ];
    rows[rows.length - 1]!.value += ` (${extra.join(', ')})`;
  };
  tp('1 MB Gitea JSON result', t.json1MB, true);
  tp('10 MB Gitea JSON result', t.json10MB, false);
  tp('1 MB plain text', t.text1MB, true);
  tp('1 MB Gitea JSON text (parse included)', t.jsonText1MB, false);
  for (const a of t.adversarial ?? []) {
    rows.push({
      section: s,
      figure: `adversarial "${a.name}": time x per 4x input (32 K -> 128 K -> 512 K)`,
      value: `x${a.ratio} (${a.msSmall} -> ${a.msMid ?? '?'} -> ${a.msLarge} ms)`,
      target: 'linear',
      verdict: a.linear ? 'PASS' : 'FAIL',
      raw: a.ratio,
    });
  }
  return rows;
}

/** Rows for bench/audit runAuditBench() (its AuditBenchResult shape). */
export function auditRows(r: Record<string, unknown>): BenchRow[] {
  const s = 'audit';
  const rows = [
    infoRow(
      s,
      `records written per second, burst (audit bench: in-process queue, batch ${String(r.batchSize ?? '')})`,
      Number(r.recordsPerSecond),
      'rec/s',
      String(r.database ?? ''),
    ),
    infoRow(s, 'time record() adds to a call, p50', Number(r.recordP50Ms), 'ms'),
    infoRow(s, 'time record() adds to a call, p99', Number(r.recordP99Ms), 'ms'),
  ];
  const steady = r.steady as
    | {
        callsPerSecond: number;
        cpuPerRecordMs: number;
        recordsPerTransaction: number;
        eventLoopDelayP99Ms: number;
      }
    | undefined;
  if (steady) {
    const at = `at a steady ${steady.callsPerSecond} calls/s`;
    rows.push(infoRow(s, `CPU per record written, ${at}`, steady.cpuPerRecordMs, 'ms'));
    rows.push(infoRow(s, `records per transaction, ${at}`, steady.recordsPerTransaction, ''));
    rows.push(infoRow(s, `event-loop delay p99, ${at}`, steady.eventLoopDelayP99Ms, 'ms'));
  }
  return rows;
}

/** Known targets for figures reported by the secrets and audit benches (matched by key). */
const EXTERNAL_TARGETS: Array<{ match: RegExp; op: '<=' | '>='; limit: number; unit: string }> = [
  { match: /^(mask|masking)?.*1\s*mb.*ms$|ms.*1\s*mb/i, op: '<=', limit: 10, unit: 'ms' },
  { match: /exponent|scaling/i, op: '<=', limit: 1.3, unit: '' },
];

/**
 * Renders another bench's result: its own `rows` when it gives them (BenchRow shape), else each
 * numeric field (nested objects flattened with dots), checked against a known target by key.
 */
export function externalRows(section: string, result: Record<string, unknown>): BenchRow[] {
  if (Array.isArray(result.rows)) {
    return (result.rows as Array<Partial<BenchRow>>).map((r) => ({
      section,
      figure: String(r.figure ?? ''),
      value: String(r.value ?? ''),
      target: String(r.target ?? ''),
      verdict: r.verdict ?? 'info',
      raw: r.raw ?? null,
    }));
  }
  const out: BenchRow[] = [];
  const walk = (prefix: string, v: unknown, depth: number): void => {
    if (typeof v === 'number') {
      const t = EXTERNAL_TARGETS.find((x) => x.match.test(prefix));
      const unit =
        t?.unit ??
        (/rate|recall|precision|accuracy/i.test(prefix) && v <= 1
          ? ''
          : /ms$/i.test(prefix)
            ? 'ms'
            : /mbps|mb\/s|mbpersec/i.test(prefix)
              ? 'MB/s'
              : '');
      out.push(t ? checkedRow(section, prefix, v, t.unit, t.op, t.limit) : infoRow(section, prefix, v, unit));
    } else if (typeof v === 'boolean') {
      out.push({ section, figure: prefix, value: String(v), target: '', verdict: 'info' });
    } else if (v && typeof v === 'object' && depth < 3 && !Array.isArray(v)) {
      for (const [k, x] of Object.entries(v)) walk(prefix ? `${prefix}.${k}` : k, x, depth + 1);
    }
  };
  walk('', result, 0);
  return out;
}

/**
 * The catalogue built in this process from the compiled core (cold: first load of these modules):
 * spec parse, tool generation and serialisation; and the discovery search's top-3 accuracy on the
 * catalogue engineer's task list (test/unit/catalogue/discovery-tasks.json).
 */
function inProcessCatalogueRows(raw: Record<string, unknown>): BenchRow[] {
  const section = 'catalogue';
  const dir = path.join(ROOT, 'dist', 'src', 'core', 'catalogue');
  type Size = { tools: number; bytes: number; approxTokens: number };
  let loader: { loadBundledSpec(): unknown };
  let metrics: {
    toolListSizes(spec: unknown): { full: Size; discovery: Size };
    discoverySearchAccuracy(
      tasks: unknown[],
      k: number,
      spec: unknown,
    ): { accuracy: number; total: number; misses: unknown[] };
  };
  try {
    loader = requireCompiled<typeof loader>(path.join(ROOT, 'dist', 'src', 'infra', 'gitea', 'spec-source'));
    metrics = requireCompiled<typeof metrics>(path.join(dir, 'catalogue-metrics'));
  } catch (err) {
    return [
      unavailableRow(
        section,
        'in-process catalogue, discovery top-3 accuracy',
        `not available yet (${errText(err)})`,
      ),
    ];
  }
  const rows: BenchRow[] = [];
  try {
    const t0 = performance.now();
    const spec = loader.loadBundledSpec();
    const t1 = performance.now();
    const sizes = metrics.toolListSizes(spec);
    const t2 = performance.now();
    raw.catalogueInProcess = { specParseMs: t1 - t0, buildBothModesMs: t2 - t1, ...sizes };
    rows.push(
      checkedRow(
        section,
        'tools/list built + serialised in process, both modes (cold)',
        t2 - t1,
        'ms',
        '<=',
        50,
      ),
      infoRow(section, 'bundled spec parse (cold, once at start)', t1 - t0, 'ms'),
    );
    rows.push(
      infoRow(
        section,
        `in process: full tools/list, ${sizes.full.tools} tools`,
        sizes.full.bytes / 1024,
        'KB',
      ),
    );
    rows[rows.length - 1]!.value += ` (~${sizes.full.approxTokens} tokens)`;
    rows.push(
      checkedRow(
        section,
        `in process: discovery tools/list, ${sizes.discovery.tools} tools`,
        sizes.discovery.bytes / 1024,
        'KB',
        '<=',
        16,
      ),
    );
    rows[rows.length - 1]!.value += ` (~${sizes.discovery.approxTokens} tokens)`;
    const tasksFile = path.join(ROOT, 'test', 'unit', 'catalogue', 'discovery-tasks.json');
    if (!fs.existsSync(tasksFile)) {
      rows.push(
        unavailableRow(
          section,
          'discovery search top-3 accuracy',
          'not available yet (no task list)',
          '>= 90 %',
        ),
      );
      return rows;
    }
    const tasks = JSON.parse(fs.readFileSync(tasksFile, 'utf8')) as unknown[];
    const acc = metrics.discoverySearchAccuracy(tasks, 3, spec);
    raw.discoveryAccuracy = acc;
    rows.push(
      checkedRow(
        section,
        `discovery search top-3 accuracy (${acc.total} tasks)`,
        acc.accuracy * 100,
        '%',
        '>=',
        90,
      ),
    );
  } catch (err) {
    rows.push(unavailableRow(section, 'in-process catalogue', `failed: ${errText(err)}`));
  }
  return rows;
}

/**
 * Issue 17: tokens an agent reads before and after fields / cursor / table / text pages, and the
 * discovery search's top-1 / top-3 on the tuning set and on the held-out set, reported separately.
 */
async function agentEconomyRows(raw: Record<string, unknown>): Promise<BenchRow[]> {
  const section = 'agent economy';
  const mod = loadOptional('discovery/agent-economy-bench');
  if (!mod) return [unavailableRow(section, 'agent economy bench', 'not built')];
  type Scenario = { task: string; before: number; after: number; note: string };
  type Figures = { total: number; top1: number; top3: number };
  const result = (await (mod.runAgentEconomyBench as () => Promise<unknown>)()) as {
    tokenizer: string;
    scenarios: Scenario[];
    search: {
      tuning: Figures;
      blindA: Figures;
      blindB: Figures;
      heldout: Figures;
      lexical: { tuning: Figures; blindA: Figures; blindB: Figures; heldout: Figures };
      embeddings: {
        model: string;
        firstSearchMs: number;
        firstSearchCpuMs: number;
        rssMb: number;
        rssAfter300Mb: number;
        searchMs: number;
        searchCpuMs: number;
        lexicalCpuMs: number;
        loadAverage: number;
      };
    };
  };
  raw.agentEconomy = result;
  const rows: BenchRow[] = [];
  for (const s of result.scenarios) {
    rows.push(infoRow(section, `${s.task}: tokens before`, s.before, 'tokens'));
    rows.push(infoRow(section, `${s.task}: tokens after`, s.after, 'tokens', s.note));
  }
  const { tuning, blindA, blindB, heldout } = result.search;
  rows.push(
    infoRow(section, `discovery search top-1, tuning set (${tuning.total} tasks)`, tuning.top1 * 100, '%'),
    infoRow(section, `discovery search top-3, tuning set (${tuning.total} tasks)`, tuning.top3 * 100, '%'),
  );
  for (const [name, f] of [
    ['blind tuning set, half A (tuned on)', blindA],
    ['blind tuning set, half B (only measured)', blindB],
  ] as const)
    rows.push(
      infoRow(section, `discovery search top-1, ${name} (${f.total} tasks)`, f.top1 * 100, '%'),
      infoRow(section, `discovery search top-3, ${name} (${f.total} tasks)`, f.top3 * 100, '%'),
    );
  if (heldout.total) {
    rows.push(
      checkedRow(
        section,
        `discovery search top-1, held-out set (${heldout.total} tasks)`,
        heldout.top1 * 100,
        '%',
        '>=',
        70,
      ),
      checkedRow(
        section,
        `discovery search top-3, held-out set (${heldout.total} tasks)`,
        heldout.top3 * 100,
        '%',
        '>=',
        90,
      ),
    );
  } else
    rows.push(
      unavailableRow(section, 'discovery search, held-out set', 'no bench/discovery/heldout/tasks.json'),
    );
  // The same sets with words only (DISCOVERY_EMBEDDINGS=off), and what the sentence encoder costs.
  const lexical = result.search.lexical;
  for (const [name, f] of [
    ['tuning set', lexical.tuning],
    ['blind half A', lexical.blindA],
    ['blind half B', lexical.blindB],
    ['held-out set', lexical.heldout],
  ] as const)
    if (f.total)
      rows.push(
        infoRow(section, `words only: top-1, ${name} (${f.total} tasks)`, f.top1 * 100, '%'),
        infoRow(section, `words only: top-3, ${name} (${f.total} tasks)`, f.top3 * 100, '%'),
      );
  const cost = result.search.embeddings;
  rows.push(
    infoRow(
      section,
      'sentence encoder: first search (loads the model)',
      cost.firstSearchMs,
      'ms',
      cost.model,
    ),
    infoRow(section, 'sentence encoder: CPU time of the first search', cost.firstSearchCpuMs, 'ms'),
    infoRow(section, 'sentence encoder: memory added by the first search (RSS)', cost.rssMb, 'MiB'),
    infoRow(section, 'sentence encoder: memory added after 300 searches (RSS)', cost.rssAfter300Mb, 'MiB'),
    infoRow(section, 'sentence encoder: one search after that', cost.searchMs, 'ms'),
    infoRow(
      section,
      'sentence encoder: CPU time of one search after that',
      cost.searchCpuMs,
      'ms',
      `words only: ${cost.lexicalCpuMs.toFixed(1)} ms; load average ${cost.loadAverage.toFixed(1)}`,
    ),
  );
  return rows;
}

/**
 * A migrated DATA_DIR to copy for each instance. The full run measures the first start on an
 * empty DATA_DIR (embedded PostgreSQL init + migrations, a one-time cost); the quick run reuses
 * the template cached under bench/results when the migrations have not changed.
 */
async function prepareDataDir(
  opts: Options,
  mainJs: string,
  upstreamUrl: string,
  profDir: string | undefined,
  rows: BenchRow[],
): Promise<string> {
  const template = path.join(RESULTS_DIR, 'data-dir-template');
  const stamp = path.join(RESULTS_DIR, 'data-dir-template.stamp');
  const migrations = path.join(ROOT, 'prisma', 'migrations');
  const key = fs.existsSync(migrations) ? fs.readdirSync(migrations).sort().join(',') : 'none';
  const fresh = fs.existsSync(template) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === key;
  if (opts.quick && fresh) {
    rows.push(forConfig(unavailableRow('catalogue', FIRST_START, 'not measured in a quick run'), 'embedded'));
    return template;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aegis-bench-first-'));
  log('sidecar first start on an empty DATA_DIR (database init + migrations)...');
  const sc = await startSidecar({
    mainJs,
    upstreamUrl,
    toolMode: 'full',
    detectionMode: 'mask',
    label: 'first',
    cpuProfDir: profDir,
    dataDir: dir,
  });
  await sc.stop();
  log(`sidecar first start ready in ${sc.startToReadyMs.toFixed(0)} ms`);
  rows.push(
    forConfig(
      infoRow(
        'catalogue',
        FIRST_START,
        sc.startToReadyMs / 1000,
        's',
        'empty DATA_DIR: PGlite init + migrations',
      ),
      'embedded',
    ),
  );
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.rmSync(template, { recursive: true, force: true });
  fs.cpSync(dir, template, { recursive: true });
  fs.writeFileSync(stamp, key);
  fs.rmSync(dir, { recursive: true, force: true });
  return template;
}

function printProfiles(dir: string): void {
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as CpuProfile;
    log(`profile ${f}: self time by area`);
    for (const a of hotAreas(profile)) log(`  ${(a.share * 100).toFixed(1).padStart(5)} %  ${a.area}`);
    log(`profile ${f}: hottest functions`);
    for (const h of hotFunctions(profile))
      log(`  ${(h.share * 100).toFixed(1).padStart(5)} %  ${h.fn}  ${h.file}`);
  }
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
