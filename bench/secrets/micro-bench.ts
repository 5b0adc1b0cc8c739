// Reproducible micro-benchmark of the masking speed, for a shared machine: best-of-N and median of
// N runs, and the same figures for a native JSON.stringify of the same 1 MB result in the same run,
// so the ratio (scrub time / stringify time) can be compared across runs whatever the load.
// Run: npx tsc -p bench/secrets/tsconfig.micro.json && node /tmp/secrets-micro/bench/secrets/micro-bench.js
// Two engines: `... micro-bench.js 61 --against <dir>` with <dir> another build's output directory
// (the same tsc command with its outDir changed, from another checkout) times both on the 1 MB result
// in one process, run by run alternately (the order flips every run), with JSON.stringify between.
import { existsSync, readFileSync } from 'node:fs';
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

/** CPU medians of both engines and of JSON.stringify on the 1 MB result, interleaved run by run. */
export function compareEngines(otherDir: string, runs: number): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const other = require(`${otherDir}/src/core/secrets`) as { scrubResult: typeof scrubResult };
  const ctx = {
    exactSecrets: ['0123456789abcdef0123456789abcdef01234567', 'hunter2-secret'],
    mode: 'mask' as const,
    skipPatterns: false,
  };
  const value1 = JSON.parse(JSON.stringify(buildIssueList(1 << 20, mulberry32(7)))) as unknown[];
  const fns: Array<[string, () => unknown]> = [
    ['this build', () => scrubResult(value1, ctx)],
    [otherDir, () => other.scrubResult(value1, ctx)],
    ['JSON.stringify', () => JSON.stringify(value1)],
  ];
  const masks = [scrubResult(value1, ctx).masks, other.scrubResult(value1, ctx).masks];
  for (let w = 0; w < 6; w++) for (const [, f] of fns) f();
  const cpu: number[][] = fns.map(() => []);
  for (let r = 0; r < runs; r++) {
    const order = r % 2 === 0 ? [0, 1, 2] : [2, 1, 0];
    for (const i of order) {
      const c0 = process.cpuUsage();
      fns[i]![1]();
      const c = process.cpuUsage(c0);
      cpu[i]!.push((c.user + c.system) / 1000);
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  fns.forEach(([name], i) =>
    console.log(
      `${name.padEnd(40)} cpu median ${median(cpu[i]!).toFixed(2).padStart(7)} ms${i < 2 ? `  masks ${masks[i]}` : ''}`,
    ),
  );
  const load = existsSync('/proc/loadavg')
    ? readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
    : '?';
  console.log(`${runs} runs each, both orders; load average ${load}`);
}

if (require.main === module) {
  const against = process.argv.indexOf('--against');
  if (against > 0) {
    compareEngines(process.argv[against + 1]!, Number(process.argv[2] ?? 61));
    process.exit(0);
  }
  const { stringify1MB, figures } = runMicroBench(Number(process.argv[2] ?? 31));
  for (const f of [stringify1MB, ...figures])
    console.log(
      `${f.name.padEnd(40)} ${String(f.bytes).padStart(9)} B  best ${f.bestMs.toFixed(2).padStart(7)} ms  median ${f.medianMs.toFixed(2).padStart(7)} ms  cpu ${f.cpuMedianMs.toFixed(2).padStart(7)} ms  x${f.ratio.toFixed(2)} stringify`,
    );
}
