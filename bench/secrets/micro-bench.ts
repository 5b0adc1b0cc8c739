// Reproducible micro-benchmark of the masking speed, for a shared machine: best-of-N and median of
// N runs, and the same figures for a native JSON.stringify of the same 1 MB result in the same run,
// so the ratio (scrub time / stringify time) can be compared across runs whatever the load.
// Run: npx tsc -p bench/secrets/tsconfig.micro.json && node /tmp/secrets-micro/bench/secrets/micro-bench.js
import { performance } from 'node:perf_hooks';
import { scrubResult, scrubText } from '../../src/core/secrets';
import { mulberry32 } from './corpus';
import { ADVERSARIAL, buildIssueList } from './secrets-bench';

export type MicroFigure = {
  name: string;
  bytes: number;
  /** wall time, fastest and median run */
  bestMs: number;
  medianMs: number;
  /** process CPU time of the median run (time spent descheduled on a busy machine is not in it) */
  cpuMedianMs: number;
  /** median over runs of (this run / the JSON.stringify run just before it): load-independent */
  ratio: number;
};

const r2 = (x: number): number => Math.round(x * 100) / 100;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** Runs fn interleaved with the baseline, so both see the same load; returns wall, CPU and ratio. */
function measure(name: string, bytes: number, fn: () => unknown, baseline: () => unknown, runs: number) {
  for (let i = 0; i < 3; i++) fn(); // warm-up (JIT)
  const wall: number[] = [];
  const cpu: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t0 = performance.now();
    baseline();
    const base = performance.now() - t0;
    const c0 = process.cpuUsage();
    t0 = performance.now();
    fn();
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    wall.push(ms);
    cpu.push((c.user + c.system) / 1000);
    ratios.push(ms / base);
  }
  return {
    name,
    bytes,
    bestMs: r2(Math.min(...wall)),
    medianMs: r2(median(wall)),
    cpuMedianMs: r2(median(cpu)),
    ratio: r2(median(ratios)),
  };
}

export function runMicroBench(runs = 31): { stringify1MB: MicroFigure; figures: MicroFigure[] } {
  const ctx = {
    exactSecrets: ['0123456789abcdef0123456789abcdef01234567', 'hunter2-secret'],
    mode: 'mask' as const,
    skipPatterns: false,
  };
  const value1 = buildIssueList(1 << 20, mulberry32(7));
  const text1 = JSON.stringify(buildIssueList(1 << 20, mulberry32(8)));
  const bytes1 = JSON.stringify(value1).length;
  const baseline = (): unknown => JSON.stringify(value1);
  const fig = (name: string, bytes: number, fn: () => unknown, n = runs): MicroFigure =>
    measure(name, bytes, fn, baseline, n);
  const figures = [
    fig('scrubResult 1 MB JSON (mask)', bytes1, () => scrubResult(value1, ctx)),
    fig('scrubResult 1 MB JSON (block)', bytes1, () => scrubResult(value1, { ...ctx, mode: 'block' })),
    fig('scrubResult 1 MB JSON (off: exact only)', bytes1, () =>
      scrubResult(value1, { ...ctx, mode: 'off' }),
    ),
    fig('scrubText 1 MB text', text1.length, () => scrubText(text1, ctx)),
  ];
  const value10 = buildIssueList(10 << 20, mulberry32(7));
  const bytes10 = JSON.stringify(value10).length;
  figures.push(
    fig('JSON.stringify 10 MB', bytes10, () => JSON.stringify(value10), 7),
    fig('scrubResult 10 MB JSON (mask)', bytes10, () => scrubResult(value10, ctx), 7),
  );
  for (const { name, make } of ADVERSARIAL) {
    const t = make(1 << 20);
    figures.push(fig(`adversarial ${name} 1 MB`, t.length, () => scrubText(t, ctx), 7));
  }
  return { stringify1MB: fig('JSON.stringify 1 MB (baseline)', bytes1, baseline), figures };
}

if (require.main === module) {
  const { stringify1MB, figures } = runMicroBench(Number(process.argv[2] ?? 31));
  for (const f of [stringify1MB, ...figures])
    console.log(
      `${f.name.padEnd(40)} ${String(f.bytes).padStart(9)} B  best ${f.bestMs.toFixed(2).padStart(7)} ms  median ${f.medianMs.toFixed(2).padStart(7)} ms  cpu ${f.cpuMedianMs.toFixed(2).padStart(7)} ms  x${f.ratio.toFixed(2)} stringify`,
    );
}
