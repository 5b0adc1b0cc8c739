// Bench-only preload (`node -r bench/memory/memory-probe.cjs`; never in the image): memory by part
// from inside a sidecar, for bench/memory/memory-by-part.ts. It does nothing unless MEMPROBE_DIR is
// set. The main thread answers on 127.0.0.1:MEMPROBE_PORT: GET /mem (process.memoryUsage(), V8's
// heap spaces, GC counts and pauses, event-loop delay, /proc/self/smaps_rollup, and each worker
// thread's own figures), /smaps (/proc/self/smaps), /gc (two full collections; needs --expose-gc).
// Worker threads (the PGlite thread, scan workers) inherit the preload and write their figures to
// MEMPROBE_DIR/t<threadId>.json every 500 ms.
'use strict';
const { isMainThread, threadId } = require('node:worker_threads');
const v8 = require('node:v8');
const fs = require('node:fs');
const path = require('node:path');

const dir = process.env.MEMPROBE_DIR;

function figures() {
  const m = process.memoryUsage();
  const h = v8.getHeapStatistics();
  const spaces = {};
  for (const s of v8.getHeapSpaceStatistics())
    spaces[s.space_name] = { size: s.space_size, used: s.space_used_size, committed: s.physical_space_size };
  return {
    threadId,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    totalPhysical: h.total_physical_size,
    mallocedMemory: h.malloced_memory,
    peakMalloced: h.peak_malloced_memory,
    spaces,
  };
}

if (dir && isMainThread) {
  const http = require('node:http');
  const { PerformanceObserver, monitorEventLoopDelay, constants } = require('node:perf_hooks');
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak',
  };
  const gcs = {};
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const g = (gcs[kinds[e.detail.kind] || 'other'] ??= { n: 0, ms: 0, max: 0 });
      g.n++;
      g.ms += e.duration;
      g.max = Math.max(g.max, e.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://probe');
    if (url.pathname === '/smaps') return res.end(fs.readFileSync('/proc/self/smaps', 'utf8'));
    if (url.pathname === '/gc' && global.gc) {
      global.gc();
      global.gc();
    }
    const workers = {};
    for (const f of fs.readdirSync(dir))
      if (/^t\d+\.json$/.test(f))
        try {
          workers[f] = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
        } catch {
          // being rewritten: skipped this time
        }
    const delay = { max: loop.max / 1e6, p99: loop.percentile(99) / 1e6 };
    if (url.searchParams.has('reset')) {
      loop.reset();
      for (const k of Object.keys(gcs)) delete gcs[k];
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ gcs, loop: delay, main: figures(), workers, smaps: fs.readFileSync('/proc/self/smaps_rollup', 'utf8') }));
  });
  server.listen(Number(process.env.MEMPROBE_PORT), '127.0.0.1');
  server.unref();
} else if (dir) {
  const write = () => {
    try {
      fs.writeFileSync(path.join(dir, `t${threadId}.json`), JSON.stringify(figures()));
    } catch {
      // the directory is gone at shutdown
    }
  };
  setInterval(write, 500).unref();
  write();
}
