// Large results are scanned in a worker thread (src/infra/secrets/scrub-worker-pool.ts, ADR 0018):
// same result as on the event loop, the main thread free meanwhile, and the deadline's abort stops it.
import { scrubResult } from '../../../src/core/secrets';
import { ScrubWorkerPool } from '../../../src/infra/secrets/scrub-worker-pool';

const ctx = { exactSecrets: ['exact-secret-value-123'], mode: 'mask' as const, skipPatterns: false };
const token = ['gh', 'p_'].join('') + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';

function bigResult(items: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < items; i++)
    out.push({
      id: i,
      title: `issue ${i}`,
      body:
        `the deploy fails when the runner starts; see logs ${i}\n`.repeat(20) +
        (i % 100 === 7 ? `leaked ${token} and exact-secret-value-123\n` : ''),
    });
  return out;
}

describe('scan worker pool', () => {
  // The idle timeout stays far above a thread's start: from the TypeScript sources with a cold
  // transpile cache (a changed source file) the thread takes 1.5-2 s to load, and an idle timeout
  // shorter than that ended the thread under its first task ("Unexpected message from Worker").
  const pool = new ScrubWorkerPool({ threads: 1, minBytes: 1024, idleTimeoutMs: 60_000 });
  afterAll(() => pool.close(), 60_000);

  it("survives a thread's late answer to an aborted task (piscina's pool 'error')", async () => {
    const seen: Error[] = [];
    const own = new ScrubWorkerPool({
      threads: 1,
      minBytes: 1024,
      idleTimeoutMs: 60_000,
      onError: (e) => seen.push(e),
    });
    try {
      await own.scrub(bigResult(2), ctx);
      await own.scrub(bigResult(2), ctx);
      // What piscina emits when an answer arrives for a task its abort already removed; without a
      // listener, emit('error') throws, and from a port's message handler that ends the process.
      const late = new Error('Unexpected message from Worker: { taskId: 4 }');
      const piscina = (own as unknown as { pool: { emit(e: string, err: Error): boolean } }).pool;
      expect(() => piscina.emit('error', late)).not.toThrow();
      // one listener, however many tasks ran: told once
      expect(seen).toEqual([late]);
    } finally {
      await own.close();
    }
  }, 60_000);

  it('sends only results at or above the threshold, and none when workers are off', () => {
    expect(pool.wants(1023)).toBe(false);
    expect(pool.wants(1024)).toBe(true);
    expect(new ScrubWorkerPool({ threads: 0, minBytes: 0 }).wants(10 << 20)).toBe(false);
  });

  it('gives the same result as the scan on the event loop', async () => {
    const value = bigResult(400);
    const inWorker = await pool.scrub(value, ctx);
    const here = scrubResult(value, ctx);
    expect(inWorker.value).toEqual(here.value);
    expect(inWorker.masks).toBe(here.masks);
    expect(inWorker.redactions).toBe(here.redactions);
    expect(inWorker.masks).toBeGreaterThan(0);
    expect(JSON.stringify(inWorker.value)).not.toContain(token);
    expect(pool.threads).toBe(1);
  }, 60_000);

  it('leaves the event loop free while it scans', async () => {
    const value = bigResult(4000);
    let settled = false;
    const scan = pool.scrub(value, ctx).then((r) => {
      settled = true;
      return r;
    });
    // On the event loop the scan would be over (and its promise settled) before this callback ran.
    const settledWhenLoopTurned = await new Promise<boolean>((resolve) =>
      setImmediate(() => resolve(settled)),
    );
    expect(settledWhenLoopTurned).toBe(false);
    expect((await scan).masks).toBeGreaterThan(0);
  }, 60_000);

  it('stops when the call is abandoned (the deadline aborts the signal), and goes on working', async () => {
    const abandon = new AbortController();
    const scan = pool.scrub(bigResult(20_000), ctx, abandon.signal);
    abandon.abort();
    await expect(scan).rejects.toThrow(/abort/i);
    const after = await pool.scrub(bigResult(200), ctx);
    expect(after.masks).toBeGreaterThan(0);
  }, 60_000);
});
