// Issue 12, bounded work: how long /healthz waits while the service fetches huge bodies. One
// process, as in production: a Gitea stand-in streaming a 30 MiB text file and serving a zip with
// 24 MiB of members, the real call path (undici transport, secrets scrubber) and a /healthz server
// on the same event loop. Calls run back to back (2 at a time) for a few seconds while /healthz is
// asked every 5 ms; the figures are its latency percentiles and the event loop's delay.
import { createServer, type Server } from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { loadBundledSpec } from '../../src/infra/gitea/spec-source';
import { buildCatalogue } from '../../src/core/catalogue/tool-catalogue';
import { createToolService } from '../../src/core/executor/tool-executor';
import { GlobalPolicyProvider } from '../../src/core/policy/global-policy';
import type { CallIdentity } from '../../src/core/ports';
import { UndiciGiteaTransport } from '../../src/infra/gitea/undici-gitea-transport';
import { closeScrubWorkers, resolveResultScrubber } from '../../src/modules/tools/result-scrubber.provider';

export type LoadFigure = {
  calls: number;
  healthChecks: number;
  healthP50Ms: number;
  healthP99Ms: number;
  healthMaxMs: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** The machine's 1-minute load average at the end of the phase (2 cores shared: read figures beside it). */
  loadAverage: number;
};
export type BoundedWorkResult = {
  idle: LoadFigure;
  /** with the default scan workers (SECRET_SCAN_WORKERS=1): large results scanned off the event loop */
  rawFile30MiB: LoadFigure;
  archive24MiB: LoadFigure;
  /** the same with SECRET_SCAN_WORKERS=0 (everything scanned on the event loop), same run */
  rawFile30MiBOnLoop: LoadFigure;
  archive24MiBOnLoop: LoadFigure;
};

const LINE = '2026-11-30T10:00:00Z INFO worker processed job in 12 ms, queue depth 3\n';

// The Gitea stand-in runs in a child process (plain JavaScript, no build step), so its own work does
// not count against the measured event loop.
const UPSTREAM_JS = `
const http = require('node:http');
const zlib = require('node:zlib');
const LINE = ${JSON.stringify(LINE)};
function bigZip() {
  const local = [], central = [];
  let offset = 0;
  const data = Buffer.alloc(1 << 20); data.fill(LINE);
  const deflated = zlib.deflateRawSync(data);
  for (let i = 0; i < 24; i++) {
    const name = Buffer.from('app/logs/part-' + i + '.log');
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0); lh.writeUInt16LE(20, 4); lh.writeUInt16LE(8, 8);
    lh.writeUInt32LE(deflated.length, 18); lh.writeUInt32LE(data.length, 22); lh.writeUInt16LE(name.length, 26);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0); ch.writeUInt16LE(20, 4); ch.writeUInt16LE(20, 6); ch.writeUInt16LE(8, 10);
    ch.writeUInt32LE(deflated.length, 20); ch.writeUInt32LE(data.length, 24); ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(offset, 42);
    local.push(lh, name, deflated); central.push(ch, name);
    offset += 30 + name.length + deflated.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(24, 8); end.writeUInt16LE(24, 10);
  end.writeUInt32LE(cd.length, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, cd, end]);
}
const zip = bigZip();
const chunk = Buffer.alloc(64 * 1024); chunk.fill(LINE);
const total = 30 * 1024 * 1024;
const server = http.createServer((req, res) => {
  if (req.url.includes('/archive/')) {
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(zip.length) });
    return res.end(zip);
  }
  // Raw files answer Range as Gitea's ServeUserContentByReader does: one "bytes=a-b" range gives 206
  // with Content-Range and Content-Length (end clamped), a start at or past the end 416.
  const m = /^bytes=(\\d+)-(\\d*)$/.exec(req.headers.range || '');
  let from = 0, to = total;
  if (m) {
    from = Number(m[1]);
    to = Math.min(total, m[2] ? Number(m[2]) + 1 : total);
    if (from >= total) { res.writeHead(416, { 'content-type': 'text/plain; charset=utf-8' }); return res.end('invalid start range\\n'); }
    res.writeHead(206, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(to - from), 'content-range': 'bytes ' + from + '-' + (to - 1) + '/' + total });
  } else res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(total) });
  // The file is chunk repeated: byte i is chunk[i % chunk.length].
  let sent = from;
  const pump = () => {
    while (sent < to) {
      const off = sent % chunk.length, n = Math.min(chunk.length - off, to - sent);
      sent += n;
      if (!res.write(chunk.subarray(off, off + n))) return res.once('drain', pump);
    }
    res.end();
  };
  res.on('close', () => (sent = to));
  pump();
});
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

export function startUpstream(): Promise<{ port: number; stop: () => void }> {
  const child = spawn(process.execPath, ['-e', UPSTREAM_JS], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', (d: Buffer) =>
      resolve({ port: Number(d.toString().trim()), stop: () => child.kill() }),
    );
  });
}

const listen = (s: Server): Promise<number> =>
  new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)));
const pct = (xs: number[], p: number): number =>
  xs.length
    ? Math.round([...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]! * 100) /
      100
    : 0;

export async function runBoundedWorkBench({
  quick = false,
}: { quick?: boolean } = {}): Promise<BoundedWorkResult> {
  const up = await startUpstream();
  const upPort = up.port;
  const health = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"status":"ok"}');
  });
  const healthPort = await listen(health);
  const transport = new UndiciGiteaTransport({ baseUrl: `http://127.0.0.1:${upPort}` });
  const tools = {
    specSource: 'bundled',
    toolsets: [],
    mode: 'full' as const,
    readOnly: false,
    disabledTools: [],
    allowSudo: false,
    maxResponseItems: 100,
    maxResponseChars: 100_000,
    maxBinaryBytes: 4 * 1024 * 1024,
  };
  const serviceWith = (scanWorkers: number) =>
    createToolService(
      buildCatalogue(loadBundledSpec(), { maxBinaryBytes: tools.maxBinaryBytes }),
      {
        tools,
        secrets: { detectionMode: 'mask' },
        exactSecrets: ['0123456789abcdef0123456789abcdef01234567'],
        timeoutMs: 30_000,
      },
      {
        transport,
        policy: new GlobalPolicyProvider({ disabledTools: [], detectionMode: 'mask' }),
        audit: { record: () => undefined },
        clock: { now: () => Date.now() },
        scrubber: resolveResultScrubber({
          secrets: { detectionMode: 'mask', encryptionKey: null, previousEncryptionKeys: [], scanWorkers },
        }),
      },
    );
  const service = serviceWith(1);
  const onLoop = serviceWith(0);
  const who: CallIdentity = {
    login: 'bench',
    mode: 'token',
    sudo: null,
    token: 'bench-token-0000',
    isSiteAdmin: false,
    subject: 'token:bench',
  };
  const seconds = quick ? 2 : 5;

  const under = async (call: (() => Promise<unknown>) | null): Promise<LoadFigure> => {
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const latencies: number[] = [];
    let calls = 0;
    const until = performance.now() + seconds * 1000;
    const workers = call
      ? [0, 1].map(async () => {
          while (performance.now() < until) {
            await call();
            calls++;
          }
        })
      : [];
    const checks = (async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const res = await fetch(`http://127.0.0.1:${healthPort}/healthz`);
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await Promise.all([...workers, checks]);
    loop.disable();
    return {
      calls,
      healthChecks: latencies.length,
      healthP50Ms: pct(latencies, 0.5),
      healthP99Ms: pct(latencies, 0.99),
      healthMaxMs: pct(latencies, 1),
      loopDelayP99Ms: Math.round(loop.percentile(99) / 1e4) / 100,
      loopDelayMaxMs: Math.round(loop.max / 1e4) / 100,
      loadAverage: Math.round(loadavg()[0]! * 10) / 10,
    };
  };
  try {
    const idle = await under(null);
    const rawFile30MiB = await under(() =>
      service.callTool('repoGetRawFile', { owner: 'o', repo: 'r', filepath: 'big.log' }, who),
    );
    const archive24MiB = await under(() =>
      service.callTool('repoGetArchive', { owner: 'o', repo: 'r', archive: 'main.zip' }, who),
    );
    const rawFile30MiBOnLoop = await under(() =>
      onLoop.callTool('repoGetRawFile', { owner: 'o', repo: 'r', filepath: 'big.log' }, who),
    );
    const archive24MiBOnLoop = await under(() =>
      onLoop.callTool('repoGetArchive', { owner: 'o', repo: 'r', archive: 'main.zip' }, who),
    );
    return { idle, rawFile30MiB, archive24MiB, rawFile30MiBOnLoop, archive24MiBOnLoop };
  } finally {
    await closeScrubWorkers();
    await transport.close();
    up.stop();
    await new Promise((r) => health.close(r));
  }
}

// `npm run bench -- --bounded [--quick]`: only this part, the figures as JSON on stdout.
if (require.main === module) {
  void runBoundedWorkBench({ quick: process.argv.includes('--quick') })
    .then((r) => {
      for (const [name, f] of Object.entries(r))
        process.stdout.write(
          `${name.padEnd(20)} loop max ${String(f.loopDelayMaxMs).padStart(7)} ms, p99 ${String(f.loopDelayP99Ms).padStart(6)} ms; /healthz p50 ${f.healthP50Ms} p99 ${f.healthP99Ms} max ${f.healthMaxMs} ms; ${f.calls} calls; load ${f.loadAverage}\n`,
        );
      process.stdout.write(`${JSON.stringify(r)}\n`);
    })
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    });
}
