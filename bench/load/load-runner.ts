// Closed-loop load: `concurrency` workers each issue the next call as soon as the last one ends.
// Every run is bounded both in count and in time, so a stuck target cannot hang the benchmark.
import { performance } from 'node:perf_hooks';

export type Call = () => Promise<void>;

export type LoadResult = {
  latenciesMs: number[];
  errors: number;
  firstError: string | null;
  elapsedMs: number;
  /** Completed calls per second (successful or not). */
  throughput: number;
};

export async function runLoad(
  call: Call,
  opts: { concurrency: number; maxCalls: number; maxMs: number },
): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  let issued = 0;
  const start = performance.now();
  const deadline = start + opts.maxMs;
  const worker = async (): Promise<void> => {
    while (issued < opts.maxCalls && performance.now() < deadline) {
      issued++;
      const t0 = performance.now();
      try {
        await call();
        latenciesMs.push(performance.now() - t0);
      } catch (err) {
        errors++;
        firstError ??= err instanceof Error ? err.message : String(err);
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  const elapsedMs = performance.now() - start;
  return {
    latenciesMs,
    errors,
    firstError,
    elapsedMs,
    throughput: ((latenciesMs.length + errors) * 1000) / elapsedMs,
  };
}

/** Merges rounds of the same target (interleaved with other targets to share the machine's noise). */
export function mergeResults(results: readonly LoadResult[]): LoadResult {
  const latenciesMs = results.flatMap((r) => r.latenciesMs);
  const errors = results.reduce((a, r) => a + r.errors, 0);
  const elapsedMs = results.reduce((a, r) => a + r.elapsedMs, 0);
  return {
    latenciesMs,
    errors,
    firstError: results.find((r) => r.firstError)?.firstError ?? null,
    elapsedMs,
    throughput: elapsedMs > 0 ? ((latenciesMs.length + errors) * 1000) / elapsedMs : 0,
  };
}
