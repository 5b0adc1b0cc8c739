// Issue 18: "/healthz p99 during the c=32 load <= 50 ms (nothing blocks the event loop)". A prober
// in a child process of its own asks a sidecar's /healthz every 10 ms while a load phase runs, so
// that the load generator's own event loop (busy with 32 calls in flight) is not in the figure.
import { spawn, type ChildProcess } from 'node:child_process';

const PROBER_JS = `
let url = null, latencies = [], generation = 0, buf = '';
async function probe(g) {
  while (g === generation) {
    const t0 = performance.now();
    try { const res = await fetch(url); await res.arrayBuffer(); } catch {}
    if (g !== generation) break;
    latencies.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 10));
  }
}
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buf += d;
  for (let i; (i = buf.indexOf('\\n')) >= 0; ) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    if (line.startsWith('start ')) { url = line.slice(6); latencies = []; void probe(++generation); }
    else if (line === 'stop') { generation++; process.stdout.write(JSON.stringify(latencies) + '\\n'); }
  }
});
process.stdin.on('end', () => process.exit(0));
process.stdout.write('ready\\n');
`;

export type HealthProber = {
  /** Probes `url` while `fn` runs; the latencies (ms) of the answers that came back meanwhile. */
  during<T>(url: string, fn: () => Promise<T>): Promise<{ value: T; latenciesMs: number[] }>;
  close(): void;
  /** The prober's process (stopped by close(), or killed with the bench's other helpers). */
  child: ChildProcess;
};

export async function startHealthProber(): Promise<HealthProber> {
  const child = spawn(process.execPath, ['-e', PROBER_JS], { stdio: ['pipe', 'pipe', 'inherit'] });
  let buf = '';
  const waiting: Array<(line: string) => void> = [];
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (d: string) => {
    buf += d;
    for (let i; (i = buf.indexOf('\n')) >= 0;) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      waiting.shift()?.(line);
    }
  });
  const next = (): Promise<string> => new Promise((resolve) => waiting.push(resolve));
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    void next().then(() => resolve());
  });
  return {
    async during<T>(url: string, fn: () => Promise<T>) {
      child.stdin!.write(`start ${url}\n`);
      const stop = async (): Promise<number[]> => {
        const answer = next();
        child.stdin!.write('stop\n');
        return JSON.parse(await answer) as number[];
      };
      let value: T;
      try {
        value = await fn();
      } catch (error) {
        await stop();
        throw error;
      }
      return { value, latenciesMs: await stop() };
    },
    close: () => child.stdin!.end(),
    child,
  };
}
