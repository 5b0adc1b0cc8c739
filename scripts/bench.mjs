#!/usr/bin/env node
// `npm run bench [-- --quick] [-- --profile] [-- --no-sidecar] [-- --no-build] [-- --protocols ...] [-- --latency ...] [-- --startup ...] [-- --bounded [--quick]]`: builds what is
// stale, then runs dist/bench/run-bench.js (table on stdout, JSON in bench/results/latest.json) and
// prints the wall time. The "production" configuration (PostgreSQL + Redis) is measured when
// BENCH_DATABASE_URL + BENCH_REDIS_URL, or TEST_DATABASE_URL + TEST_REDIS_URL, are set.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const t0 = Date.now();
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const bin = (name) => join(root, 'node_modules', '.bin', name);

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'results' || entry.name === 'node_modules') continue;
    const p = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else if (entry.name.endsWith('.ts') || entry.name.endsWith('.json'))
      newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

function mtime(p) {
  return existsSync(p) ? statSync(p).mtimeMs : 0;
}

const mainJs = join(root, 'dist', 'src', 'main.js');
// `--protocols`: only the per-revision hot-path bench (bench/protocols/protocols-bench.ts).
// `--startup`: only start to ready, several starts (bench/startup/startup-bench.ts).
// `--bounded`: only the bounded-work part of the secrets bench (bench/secrets/bounded-work.ts).
// `--latency`: only the added latency at c=1 per revision, with the CPU per call (bench/latency/c1-latency.ts).
const runner = args.includes('--protocols')
  ? join(root, 'dist', 'bench', 'protocols', 'protocols-bench.js')
  : args.includes('--latency')
    ? join(root, 'dist', 'bench', 'latency', 'c1-latency.js')
    : args.includes('--startup')
      ? join(root, 'dist', 'bench', 'startup', 'startup-bench.js')
      : args.includes('--bounded')
        ? join(root, 'dist', 'bench', 'secrets', 'bounded-work.js')
        : join(root, 'dist', 'bench', 'run-bench.js');
const srcStale = existsSync(join(root, 'src', 'main.ts')) && mtime(mainJs) < newestMtime(join(root, 'src'));
const benchStale = mtime(runner) < newestMtime(join(root, 'bench'));

if (srcStale && !args.includes('--no-build')) {
  process.stderr.write('[bench] building the service (nest build)...\n');
  const r = spawnSync(bin('nest'), ['build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0)
    process.stderr.write('[bench] nest build failed: the sidecar figures use whatever dist/ holds\n');
  // The embedded database's template data directory (what `npm run build` adds after nest build).
  spawnSync(process.execPath, [join(root, 'scripts', 'pglite-template.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
}
if (benchStale || !existsSync(runner)) {
  process.stderr.write('[bench] compiling bench/ ...\n');
  // tsc emits even when unrelated files have type errors; only a missing runner is fatal.
  spawnSync(bin('tsc'), ['-p', join(root, 'bench', 'tsconfig.bench.json')], { cwd: root, stdio: 'inherit' });
}
if (!existsSync(runner)) {
  process.stderr.write('[bench] dist/bench/run-bench.js is missing after the build\n');
  process.exit(1);
}
const buildMs = Date.now() - t0;
const run = spawnSync(process.execPath, [runner, ...args], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, BENCH_T0: String(t0), BENCH_BUILD_MS: String(buildMs) },
});
const wall = (Date.now() - t0) / 1000;
process.stderr.write(
  `[bench] wall time ${wall.toFixed(1)} s${buildMs > 500 ? ` (build ${(buildMs / 1000).toFixed(1)} s)` : ''}, load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}\n`,
);
process.exit(run.status ?? 1);
