// `npm run bench` orchestrator (compiled to dist/bench/run-bench.js; scripts/bench.mjs runs it).
// Every figure is measured against a reference taken in the same run, in interleaved rounds, so
// that the ratios hold on a noisy shared machine. All traffic stays on 127.0.0.1.
import { fork, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { hotAreas, hotFunctions, type CpuProfile } from './lib/cpu-profile.util';
import {
  checkedRow,
  infoRow,
  renderMarkdown,
  renderRows,
  unavailableRow,
  type BenchRow,
} from './lib/report.util';
import { addedLatency, summarize } from './lib/stats.util';
import { openRawSession, rawToolCall, type RawSession } from './load/jsonrpc-client';
import { mergeResults, runLoad, type Call, type LoadResult } from './load/load-runner';
import { BENCH_GITEA_TOKEN, BENCH_MCP_TOKEN, startSidecar, type Sidecar } from './sidecar/sidecar-process';
import { BENCH_OWNER, BENCH_REPO } from './upstream/fake-gitea';

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

async function forkServer(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(path.join(__dirname, 'servers.process.js'), args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`helper server ${args[0]} did not start`)), 10_000);
    child.once('message', (m: unknown) => {
      clearTimeout(timer);
      resolve((m as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`helper server ${args[0]} exited with ${code}`)));
  });
  return { url, child };
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

function httpCall(base: string, pathAndQuery: string): Call {
  const url = base + pathAndQuery;
  const init = { headers: { Authorization: `token ${BENCH_GITEA_TOKEN}`, Accept: 'application/json' } };
  return async () => {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
  };
}

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

type Target = { name: string; call: Call; pid?: number };

/** Marks the targets driven by the official SDK client (info rows, not checked against targets). */
const SDK_SUFFIX = '(SDK client)';

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
      const res = await runLoad(t.call, opts);
      const c1 = process.cpuUsage(c0);
      const s1 = t.pid ? processCpuMs(t.pid) : null;
      acc.get(t.name)?.push(res);
      const key = `${opts.tag}: ${t.name}@c${opts.concurrency}`;
      const cur = cpuPerCall.get(key) ?? { server: 0, client: 0, calls: 0 };
      cur.server += s0 !== null && s1 !== null ? s1 - s0 : Number.NaN;
      cur.client += (c1.user + c1.system) / 1000;
      cur.calls += res.latenciesMs.length + res.errors;
      cpuPerCall.set(key, cur);
    }
  }
  return new Map([...acc.entries()].map(([k, v]) => [k, mergeResults(v)]));
}

function ms(v: number): string {
  return `${v.toFixed(2)} ms`;
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const rows: BenchRow[] = [];
  const raw: Record<string, unknown> = {};
  const started = new Date();
  const cpus = os.cpus();
  const machine = {
    nproc: os.availableParallelism?.() ?? cpus.length,
    cpu: cpus[0]?.model ?? 'unknown',
    memGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAvg: os.loadavg().map((x) => +x.toFixed(1)),
  };
  log(`${opts.quick ? 'quick' : 'full'} run on ${machine.nproc} x ${machine.cpu}, node ${machine.node}`);
  const profDir = opts.profile ? path.join(RESULTS_DIR, 'profiles') : undefined;
  if (profDir) fs.mkdirSync(profDir, { recursive: true });

  const helpers: ChildProcess[] = [];
  const sidecars: Sidecar[] = [];
  const clients: Client[] = [];
  const dirs: string[] = [];
  const hardStop = setTimeout(
    () => {
      log('time limit reached, stopping');
      for (const h of helpers) h.kill('SIGKILL');
      for (const sc of sidecars) sc.kill();
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
      writeReport(opts, started, machine, rows, raw, true);
      process.exit(2);
    },
    opts.quick ? 240_000 : 1_200_000,
  );
  hardStop.unref();

  try {
    const upstream = await forkServer(['upstream']);
    helpers.push(upstream.child);
    const proxy = await forkServer(['proxy', upstream.url]);
    helpers.push(proxy.child);
    log(`upstream ${upstream.url}, pass-through ${proxy.url}`);

    // --- the sidecar, masking off and on (both full mode) -------------------------------------
    const mainJs = path.join(ROOT, 'dist', 'src', 'main.js');
    let sidecarMissing: string | null = null;
    if (opts.skipSidecar) sidecarMissing = 'skipped (--no-sidecar)';
    else if (!fs.existsSync(mainJs)) sidecarMissing = 'not available yet (no dist/src/main.js)';
    const instances: Array<{ label: string; sc: Sidecar; clients: Client[]; sessions: RawSession[] }> = [];
    const startRows: BenchRow[] = [];
    const instanceDir = (template: string): string => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aegis-bench-data-'));
      fs.cpSync(template, dir, { recursive: true });
      dirs.push(dir);
      return dir;
    };
    let template: string | null = null;
    if (!sidecarMissing) {
      try {
        template = await prepareDataDir(opts, mainJs, upstream.url, profDir, startRows);
      } catch (err) {
        log(`sidecar first start failed: ${errText(err)}`);
        sidecarMissing = `not available yet (${errText(err)})`;
      }
    }
    if (!sidecarMissing && template) {
      for (const [label, detectionMode] of [
        ['masking off', 'off'],
        ['masking on', 'mask'],
      ] as const) {
        try {
          const sc = await startSidecar({
            mainJs,
            upstreamUrl: upstream.url,
            toolMode: 'full',
            detectionMode,
            label: label.replace(' ', '-'),
            cpuProfDir: profDir,
            dataDir: instanceDir(template),
          });
          sidecars.push(sc);
          log(
            `sidecar (${label}) ready in ${sc.startToReadyMs.toFixed(0)} ms (pid ${sc.pid}, log ${sc.logFile})`,
          );
          const cs: Client[] = [];
          for (let i = 0; i < 8; i++) cs.push(await sc.connect(`aegis-bench-${i}`));
          clients.push(...cs);
          const sessions: RawSession[] = [];
          for (let i = 0; i < 8; i++)
            sessions.push(await openRawSession(sc.mcpUrl, BENCH_MCP_TOKEN, `aegis-bench-raw-${i}`));
          instances.push({ label, sc, clients: cs, sessions });
        } catch (err) {
          log(`sidecar (${label}) failed: ${errText(err)}`);
          sidecarMissing = `not available yet (${errText(err)})`;
          break;
        }
      }
    }

    // --- latency and throughput ----------------------------------------------------------------
    const c1 = opts.quick ? { rounds: 4, calls: 60, maxMs: 1500 } : { rounds: 10, calls: 250, maxMs: 6000 };
    const cN = opts.quick ? { rounds: 2, maxMs: 600 } : { rounds: 3, maxMs: 2500 };
    for (const w of WORKLOADS) {
      const targets: Target[] = [
        { name: 'direct', call: httpCall(upstream.url, w.httpPath) },
        { name: 'pass-through', call: httpCall(proxy.url, w.httpPath), pid: proxy.child.pid },
        // Checked figures: the same plain HTTP client as direct and pass-through (like with like).
        ...instances.map((i) => ({
          name: `sidecar, ${i.label}`,
          call: rawToolCall(i.sessions, w.tool, w.args),
          pid: i.sc.pid,
        })),
        // Info: the official SDK client, whose own per-call work is part of what it measures.
        ...instances.map((i) => ({
          name: `sidecar, ${i.label} ${SDK_SUFFIX}`,
          call: mcpCall(i.clients, w),
          pid: i.sc.pid,
        })),
      ];
      log(`${w.name}: concurrency 1`);
      const lat = await interleaved(targets, c1.rounds, {
        concurrency: 1,
        maxCalls: c1.calls,
        maxMs: c1.maxMs,
        tag: w.tool,
      });
      const direct = summarize(lat.get('direct')?.latenciesMs ?? []);
      raw[`${w.tool}.c1`] = Object.fromEntries(
        [...lat.entries()].map(([k, v]) => [k, { ...summarize(v.latenciesMs), errors: v.errors }]),
      );
      const section = `latency c=1, ${w.name}`;
      rows.push(infoRow(section, 'direct call p50 / p95 / p99', direct.p50, 'ms'));
      rows[rows.length - 1]!.value = `${ms(direct.p50)} / ${ms(direct.p95)} / ${ms(direct.p99)}`;
      for (const [name, res] of lat) {
        if (name === 'direct') continue;
        const s = summarize(res.latenciesMs);
        if (res.errors && !res.latenciesMs.length) {
          rows.push(unavailableRow(section, `${name}`, `failed: ${res.firstError ?? ''}`.slice(0, 120)));
          continue;
        }
        const add = addedLatency(s, direct);
        const note = `${name}: p50 ${ms(s.p50)}, p95 ${ms(s.p95)}, p99 ${ms(s.p99)}, errors ${res.errors}`;
        if (name === 'pass-through') {
          rows.push(infoRow(section, 'pass-through added p50 / p95 / p99', add.p50, 'ms', note));
          rows[rows.length - 1]!.value = `${ms(add.p50)} / ${ms(add.p95)} / ${ms(add.p99)}`;
        } else if (name.endsWith(SDK_SUFFIX)) {
          rows.push(infoRow(section, `${name}: added p50 / p95 / p99`, add.p50, 'ms', note));
          rows[rows.length - 1]!.value = `${ms(add.p50)} / ${ms(add.p95)} / ${ms(add.p99)}`;
        } else {
          rows.push(checkedRow(section, `${name}: added p50`, add.p50, 'ms', '<=', 1, note));
          rows.push(infoRow(section, `${name}: added p95`, add.p95, 'ms'));
          rows.push(checkedRow(section, `${name}: added p99`, add.p99, 'ms', '<=', 5));
          if (res.errors)
            rows.push(
              unavailableRow(
                section,
                `${name}: errors`,
                `${res.errors} (${res.firstError ?? ''})`.slice(0, 120),
              ),
            );
        }
      }
      for (const concurrency of [8, 32]) {
        log(`${w.name}: concurrency ${concurrency}`);
        const tp = await interleaved(targets, cN.rounds, {
          concurrency,
          maxCalls: 1_000_000,
          maxMs: cN.maxMs,
          tag: w.tool,
        });
        raw[`${w.tool}.c${concurrency}`] = Object.fromEntries(
          [...tp.entries()].map(([k, v]) => [
            k,
            { throughput: v.throughput, ...summarize(v.latenciesMs), errors: v.errors },
          ]),
        );
        const sec = `throughput c=${concurrency}, ${w.name}`;
        const ref = tp.get('pass-through') as LoadResult;
        const dir = tp.get('direct') as LoadResult;
        rows.push(
          infoRow(
            sec,
            'direct req/s (p99)',
            dir.throughput,
            'req/s',
            `p99 ${ms(summarize(dir.latenciesMs).p99)}`,
          ),
        );
        rows[rows.length - 1]!.value += ` (p99 ${ms(summarize(dir.latenciesMs).p99)})`;
        rows.push(infoRow(sec, 'pass-through req/s (p99)', ref.throughput, 'req/s'));
        rows[rows.length - 1]!.value += ` (p99 ${ms(summarize(ref.latenciesMs).p99)})`;
        for (const [name, res] of tp) {
          if (!name.startsWith('sidecar')) continue;
          const s = summarize(res.latenciesMs);
          const ratio = (100 * res.throughput) / ref.throughput;
          const note = `${res.throughput.toFixed(0)} req/s, p99 ${ms(s.p99)}, errors ${res.errors}`;
          if (concurrency === 32 && !name.endsWith(SDK_SUFFIX))
            rows.push(checkedRow(sec, `${name}: % of pass-through`, ratio, '%', '>=', 50, note));
          else rows.push(infoRow(sec, `${name}: % of pass-through`, ratio, '%', note));
          rows.push(infoRow(sec, `${name}: req/s (p99)`, res.throughput, 'req/s'));
          rows[rows.length - 1]!.value += ` (p99 ${ms(s.p99)})`;
          if (res.errors)
            rows.push(
              unavailableRow(sec, `${name}: errors`, `${res.errors} (${res.firstError ?? ''})`.slice(0, 120)),
            );
        }
        if (concurrency === 32) {
          // CPU per call does not depend on how busy the machine is: the steadiest comparison here.
          for (const name of [
            'pass-through',
            ...instances.map((i) => `sidecar, ${i.label}`),
            ...instances.map((i) => `sidecar, ${i.label} ${SDK_SUFFIX}`),
          ]) {
            const c = cpuPerCall.get(`${w.tool}: ${name}@c32`);
            if (!c || !c.calls) continue;
            rows.push(
              infoRow(sec, `${name}: server CPU / load-generator CPU per call`, c.server / c.calls, 'ms'),
            );
            rows[rows.length - 1]!.value = `${ms(c.server / c.calls)} / ${ms(c.client / c.calls)}`;
          }
        }
      }
    }
    if (sidecarMissing)
      rows.push(
        unavailableRow(
          'sidecar',
          'latency and throughput',
          sidecarMissing,
          'added p50 <= 1 ms, p99 <= 5 ms; c=32 >= 50 %',
        ),
      );

    // --- catalogue -----------------------------------------------------------------------------
    const cat = 'catalogue';
    const full = instances[0];
    if (full) {
      const client = full.clients[0] as Client;
      const times: number[] = [];
      let bytes = 0;
      let count = 0;
      for (let i = 0; i < (opts.quick ? 5 : 15); i++) {
        const t0 = performance.now();
        const res = await client.listTools();
        times.push(performance.now() - t0);
        bytes = Buffer.byteLength(JSON.stringify(res));
        count = res.tools.length;
      }
      const t = summarize(times);
      raw.catalogueFull = { bytes, tools: count, listMs: t };
      rows.push(
        infoRow(
          cat,
          `full tools/list: ${count} tools, bytes`,
          bytes / 1024,
          'KB',
          `~${Math.round(bytes / 4)} tokens`,
        ),
      );
      rows[rows.length - 1]!.value += ` (~${Math.round(bytes / 4 / 1000)}k tokens)`;
      rows.push(
        checkedRow(
          cat,
          'full tools/list produced (median, client-measured)',
          t.p50,
          'ms',
          '<=',
          50,
          `max ${ms(t.max)}`,
        ),
      );
      rows.push(...startRows);
      for (const i of instances) {
        rows.push(
          checkedRow(
            cat,
            `start to ready, full catalogue, restart on a migrated DATA_DIR (${i.label})`,
            i.sc.startToReadyMs / 1000,
            's',
            '<=',
            3,
          ),
        );
        const rss = i.sc.rssBytes();
        if (rss !== null)
          rows.push(checkedRow(cat, `RSS after load (${i.label})`, rss / 2 ** 20, 'MB', '<=', 250));
      }
      raw.rss = Object.fromEntries(instances.map((i) => [i.label, i.sc.rssBytes()]));
    } else {
      rows.push(
        unavailableRow(
          cat,
          'full tools/list, start to ready, RSS',
          sidecarMissing ?? 'not available yet',
          '<= 50 ms, <= 3 s, <= 250 MB',
        ),
      );
    }
    // Stop the load instances before the discovery instance, so its start is not competing.
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    for (const s of sidecars.splice(0)) await s.stop();
    if (full) {
      try {
        const sc = await startSidecar({
          mainJs,
          upstreamUrl: upstream.url,
          toolMode: 'discovery',
          detectionMode: 'mask',
          label: 'discovery',
          cpuProfDir: profDir,
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
            `discovery tools/list: ${res.tools.length} tools, bytes`,
            bytes / 1024,
            'KB',
            '<=',
            16,
          ),
        );
        rows[rows.length - 1]!.value += ` (~${Math.round(bytes / 4)} tokens)`;
        rows.push(infoRow(cat, 'start to ready (discovery mode)', sc.startToReadyMs / 1000, 's'));
      } catch (err) {
        rows.push(unavailableRow(cat, 'discovery tools/list', `failed: ${errText(err)}`, '<= 16 KB'));
      }
      for (const c of clients.splice(0)) await c.close().catch(() => undefined);
      for (const s of sidecars.splice(0)) await s.stop();
    }
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
    rows.push(...inProcessCatalogueRows(raw));

    for (const h of helpers.splice(0)) h.kill('SIGTERM');

    // --- secrets and audit (other engineers' in-process benches) -------------------------------
    rows.push(...(await externalBench('secrets', 'secrets/secrets-bench', 'runSecretsBench', opts, raw)));
    rows.push(...(await externalBench('audit', 'audit/audit-bench', 'runAuditBench', opts, raw)));

    if (profDir) printProfiles(profDir);
  } finally {
    for (const c of clients) await c.close().catch(() => undefined);
    for (const s of sidecars) await s.stop().catch(() => undefined);
    for (const h of helpers) h.kill('SIGTERM');
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    clearTimeout(hardStop);
  }

  raw.cpuPerCall = Object.fromEntries(cpuPerCall);
  writeReport(opts, started, machine, rows, raw, false);
}

type Machine = {
  nproc: number;
  cpu: string;
  memGiB: number;
  node: string;
  platform: string;
  loadAvg: number[];
};

function writeReport(
  opts: Options,
  started: Date,
  machine: Machine,
  rows: BenchRow[],
  raw: Record<string, unknown>,
  incomplete: boolean,
): void {
  const table = renderRows(rows);
  const header = `AegisGitea-MCP benchmark (${opts.quick ? 'quick' : 'full'}${incomplete ? ', INCOMPLETE: time limit' : ''}), ${started.toISOString()}\nmachine: ${machine.nproc} CPU x ${machine.cpu}, ${machine.memGiB} GiB, ${machine.platform}, node ${machine.node}, load average at start ${machine.loadAvg.join(' ')}`;
  process.stdout.write(`\n${header}\n\n${table}\n\n`);
  const failed = rows.filter((r) => r.verdict === 'FAIL').length;
  const pending = rows.filter((r) => r.verdict === 'n/a').length;
  process.stdout.write(
    `${rows.filter((r) => r.verdict === 'PASS').length} pass, ${failed} fail, ${pending} not measured\n`,
  );

  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const json = { started: started.toISOString(), quick: opts.quick, incomplete, machine, rows, raw };
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.json'), JSON.stringify(json, null, 2));
  const md = `<!-- written by npm run bench; ${opts.quick ? 'quick' : 'full'} run -->\n\n${header.replace('\n', '\n\n')}\n\n${renderMarkdown(rows)}\n`;
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.md'), md);
  if (opts.writeMd && !incomplete) fs.writeFileSync(path.join(ROOT, 'bench', 'results-latest.md'), md);
  log(
    `wrote ${path.relative(ROOT, path.join(RESULTS_DIR, 'latest.json'))}${opts.writeMd ? ' and bench/results-latest.md' : ''}`,
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
  opts: Options,
  raw: Record<string, unknown>,
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
    const result = (await (fn as (o: { quick: boolean }) => Promise<unknown>)({
      quick: opts.quick,
    })) as Record<string, unknown>;
    raw[section] = result;
    if (section === 'secrets' && result.throughput) return secretsRows(result);
    if (section === 'audit' && typeof result.recordsPerSecond === 'number') return auditRows(result);
    return externalRows(section, result);
  } catch (err) {
    return [unavailableRow(section, fnName, `failed: ${errText(err)}`)];
  }
}

type Throughput = { bytes: number; medianMs: number; mbPerSecond: number; masks: number };
type Adversarial = { name: string; msSmall: number; msLarge: number; ratio: number; linear: boolean };

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
  const t = r.throughput as {
    json1MB?: Throughput;
    json10MB?: Throughput;
    text1MB?: Throughput;
    adversarial?: Adversarial[];
  };
  const tp = (name: string, f: Throughput | undefined, checked: boolean): void => {
    if (!f) return;
    const note = `${f.mbPerSecond} MB/s, ${f.masks} masks`;
    rows.push(
      checked
        ? checkedRow(s, `mask ${name}`, f.medianMs, 'ms', '<=', 10, note)
        : infoRow(s, `mask ${name}`, f.medianMs, 'ms', note),
    );
    rows[rows.length - 1]!.value += ` (${f.mbPerSecond} MB/s)`;
  };
  tp('1 MB Gitea JSON result', t.json1MB, true);
  tp('10 MB Gitea JSON result', t.json10MB, false);
  tp('1 MB plain text', t.text1MB, true);
  for (const a of t.adversarial ?? []) {
    rows.push({
      section: s,
      figure: `adversarial "${a.name}": time x for larger input`,
      value: `x${a.ratio} (${a.msSmall} -> ${a.msLarge} ms)`,
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
  return [
    infoRow(
      s,
      `records written per second (${String(r.database ?? '')}, batch ${String(r.batchSize ?? '')})`,
      Number(r.recordsPerSecond),
      'rec/s',
    ),
    infoRow(s, 'time record() adds to a call, p50', Number(r.recordP50Ms), 'ms'),
    infoRow(s, 'time record() adds to a call, p99', Number(r.recordP99Ms), 'ms'),
  ];
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
    toolListSizes(spec?: unknown): { full: Size; discovery: Size };
    discoverySearchAccuracy(
      tasks: unknown[],
      k?: number,
    ): { accuracy: number; total: number; misses: unknown[] };
  };
  try {
    loader = requireCompiled<typeof loader>(path.join(dir, 'spec-loader'));
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
    const acc = metrics.discoverySearchAccuracy(tasks, 3);
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
    rows.push(
      unavailableRow(
        'catalogue',
        'start to ready, first start (empty DATA_DIR)',
        'not measured in a quick run',
      ),
    );
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
    infoRow(
      'catalogue',
      'start to ready, first start (empty DATA_DIR: PGlite init + migrations)',
      sc.startToReadyMs / 1000,
      's',
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
