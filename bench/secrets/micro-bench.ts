// Reproducible micro-benchmark of the masking speed, for a shared machine: best-of-N and median of
// N runs, and the same figures for a native JSON.stringify of the same 1 MB result in the same run,
// so the ratio (scrub time / stringify time) can be compared across runs whatever the load.
// Run: npx tsc -p bench/secrets/tsconfig.micro.json && node /tmp/secrets-micro/bench/secrets/micro-bench.js
import { performance } from 'node:perf_hooks';
import { scrubResult, scrubText } from '../../src/core/secrets';
import { mulberry32 } from './corpus';
import { ADVERSARIAL, buildIssueList } from './secrets-bench';

export type MicroFigure = { name: string; bytes: number; bestMs: number; medianMs: number; ratio: number };

function samples(fn: () => unknown, runs: number): number[] {
  for (let i = 0; i < 3; i++) fn(); // warm-up (JIT)
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out.sort((a, b) => a - b);
}

const r2 = (x: number): number => Math.round(x * 100) / 100;

export function runMicroBench(runs = 31): { stringify1MB: MicroFigure; figures: MicroFigure[] } {
  const ctx = {
    exactSecrets: ['0123456789abcdef0123456789abcdef01234567', 'hunter2-secret'],
    mode: 'mask' as const,
    skipPatterns: false,
  };
  const value1 = buildIssueList(1 << 20, mulberry32(7));
  const value10 = buildIssueList(10 << 20, mulberry32(7));
  const text1 = JSON.stringify(buildIssueList(1 << 20, mulberry32(8)));
  const bytes1 = JSON.stringify(value1).length;
  const base = samples(() => JSON.stringify(value1), runs);
  const baseMedian = base[runs >> 1]!;
  const fig = (name: string, bytes: number, fn: () => unknown, n = runs): MicroFigure => {
    const s = samples(fn, n);
    const medianMs = s[n >> 1]!;
    return { name, bytes, bestMs: r2(s[0]!), medianMs: r2(medianMs), ratio: r2(medianMs / baseMedian) };
  };
  const figures = [
    fig('scrubResult 1 MB JSON (mask)', bytes1, () => scrubResult(value1, ctx)),
    fig('scrubResult 1 MB JSON (block)', bytes1, () => scrubResult(value1, { ...ctx, mode: 'block' })),
    fig('scrubResult 1 MB JSON (off: exact only)', bytes1, () =>
      scrubResult(value1, { ...ctx, mode: 'off' }),
    ),
    fig('scrubText 1 MB text', text1.length, () => scrubText(text1, ctx)),
    fig('scrubResult 10 MB JSON (mask)', JSON.stringify(value10).length, () => scrubResult(value10, ctx), 7),
  ];
  for (const { name, make } of ADVERSARIAL) {
    const t = make(1 << 20);
    figures.push(fig(`adversarial ${name} 1 MB`, t.length, () => scrubText(t, ctx), 7));
  }
  return {
    stringify1MB: {
      name: 'JSON.stringify 1 MB (baseline)',
      bytes: bytes1,
      bestMs: r2(base[0]!),
      medianMs: r2(baseMedian),
      ratio: 1,
    },
    figures,
  };
}

if (require.main === module) {
  const { stringify1MB, figures } = runMicroBench(Number(process.argv[2] ?? 31));
  for (const f of [stringify1MB, ...figures])
    console.log(
      `${f.name.padEnd(44)} ${String(f.bytes).padStart(9)} B  best ${f.bestMs.toFixed(2).padStart(7)} ms  median ${f.medianMs.toFixed(2).padStart(7)} ms  x${f.ratio.toFixed(2)} stringify`,
    );
}
