// Reproducible micro-benchmark of the masking speed, for a shared machine: best-of-N and median of
// N runs, and the same figures for a native JSON.stringify of the same 1 MB result in the same run,
// so the ratio (scrub time / stringify time) can be compared across runs whatever the load.
// Run: npx tsc -p bench/secrets/tsconfig.micro.json && node /tmp/secrets-micro/bench/secrets/micro-bench.js
import { scrubResult, scrubText } from '../../src/core/secrets';
import { mulberry32 } from './corpus';
import { measure, Measured } from './measure';
import { ADVERSARIAL, buildIssueList } from './secrets-bench';

export type MicroFigure = Measured & { name: string; bytes: number };

export function runMicroBench(runs = 31): { stringify1MB: MicroFigure; figures: MicroFigure[] } {
  const ctx = {
    exactSecrets: ['0123456789abcdef0123456789abcdef01234567', 'hunter2-secret'],
    mode: 'mask' as const,
    skipPatterns: false,
  };
  // As the executor gets them: parsed from JSON text.
  const value1 = JSON.parse(JSON.stringify(buildIssueList(1 << 20, mulberry32(7)))) as unknown[];
  const text1 = JSON.stringify(buildIssueList(1 << 20, mulberry32(8)));
  const bytes1 = JSON.stringify(value1).length;
  const baseline = (): unknown => JSON.stringify(value1);
  const fig = (name: string, bytes: number, fn: () => unknown, n = runs): MicroFigure => ({
    name,
    bytes,
    ...measure(fn, baseline, n),
  });
  const figures = [
    fig('scrubResult 1 MB JSON (mask)', bytes1, () => scrubResult(value1, ctx)),
    fig('scrubResult 1 MB JSON (block)', bytes1, () => scrubResult(value1, { ...ctx, mode: 'block' })),
    fig('scrubResult 1 MB JSON (off: exact only)', bytes1, () =>
      scrubResult(value1, { ...ctx, mode: 'off' }),
    ),
    fig('scrubText 1 MB text', text1.length, () => scrubText(text1, ctx)),
  ];
  const value10 = JSON.parse(JSON.stringify(buildIssueList(10 << 20, mulberry32(7)))) as unknown[];
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
