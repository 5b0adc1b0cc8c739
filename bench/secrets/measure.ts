// Timing for a shared machine: each run of the measured function follows a run of a native
// baseline (JSON.stringify of the same data), so both see the same load, and the median of the
// per-run ratios is comparable across runs and machines whatever else is running.
import { performance } from 'node:perf_hooks';

export type Measured = {
  /** wall time, fastest and median run */
  bestMs: number;
  medianMs: number;
  /** process CPU time, median run (time spent descheduled on a busy machine is not in it) */
  cpuMedianMs: number;
  /** baseline (JSON.stringify) wall time, median run */
  baselineMedianMs: number;
  /** median over runs of (this run / the baseline run just before it) */
  ratio: number;
};

const r2 = (x: number): number => Math.round(x * 100) / 100;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export function measure(fn: () => unknown, baseline: () => unknown, runs: number): Measured {
  // Warm-up: JIT, and the garbage left by building the input collected before timing starts.
  for (let i = 0; i < 6; i++) {
    fn();
    baseline();
  }
  const wall: number[] = [];
  const cpu: number[] = [];
  const base: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t0 = performance.now();
    baseline();
    const b = performance.now() - t0;
    const c0 = process.cpuUsage();
    t0 = performance.now();
    fn();
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    wall.push(ms);
    base.push(b);
    cpu.push((c.user + c.system) / 1000);
    ratios.push(ms / b);
  }
  return {
    bestMs: r2(Math.min(...wall)),
    medianMs: r2(median(wall)),
    cpuMedianMs: r2(median(cpu)),
    baselineMedianMs: r2(median(base)),
    ratio: r2(median(ratios)),
  };
}
