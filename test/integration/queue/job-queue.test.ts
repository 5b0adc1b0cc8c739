// One behaviour suite for both JobQueue implementations: the in-process queue always, BullMQ
// on a real Redis when TEST_REDIS_URL is set (otherwise it says it was skipped and why).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { BullJobQueue } from '../../../src/infra/queue/bullmq-queue';
import { InProcessJobQueue } from '../../../src/infra/queue/in-process-queue';
import type { Job, JobQueue } from '../../../src/infra/queue/job-queue';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL?.trim() || null;
const SKIP_REASON = 'TEST_REDIS_URL is not set (run .ci/run, or point it at a Redis server)';

type Target = { name: string; create(): JobQueue; cleanup(): Promise<void> };

const inProcess: Target = {
  name: 'in-process',
  create: () => new InProcessJobQueue(),
  cleanup: async () => undefined,
};

function bullmq(redisUrl: string): Target {
  const prefixes: string[] = [];
  return {
    name: 'bullmq',
    create() {
      const prefix = `aegis-test-${randomBytes(4).toString('hex')}`;
      prefixes.push(prefix);
      return new BullJobQueue({ redisUrl, prefix });
    },
    async cleanup() {
      const redis = new Redis(redisUrl);
      for (const prefix of prefixes.splice(0)) {
        const keys = await redis.keys(`${prefix}:*`);
        if (keys.length > 0) await redis.del(...keys);
      }
      await redis.quit();
    },
  };
}

async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for condition');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function suite(target: Target) {
  let queue: JobQueue;
  beforeEach(() => {
    queue = target.create();
  });
  afterEach(async () => {
    await queue.close();
    await target.cleanup();
  });

  it('runs jobs added before and after process() in FIFO order', async () => {
    const seen: number[] = [];
    for (const n of [1, 2, 3]) await queue.add('fifo', { n });
    await queue.process<{ n: number }>('fifo', async (job) => {
      seen.push(job.data.n);
    });
    for (const n of [4, 5, 6]) await queue.add('fifo', { n });
    await waitFor(() => seen.length === 6);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('retries with fixed backoff until the handler succeeds', async () => {
    const attempts: Array<{ attempt: number; at: number }> = [];
    await queue.process<string>('retry', async (job) => {
      attempts.push({ attempt: job.attempt, at: Date.now() });
      if (job.attempt < 3) throw new Error(`fail ${job.attempt}`);
    });
    await queue.add('retry', 'x', { attempts: 5, backoff: { type: 'fixed', delayMs: 150 } });
    await waitFor(() => attempts.length === 3);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(140);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(140);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(attempts).toHaveLength(3);
    expect(await queue.counts('retry')).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0 });
  });

  it('uses exponential backoff and reports the final failure once', async () => {
    const at: number[] = [];
    const failures: Array<{ job: Job<string>; error: Error }> = [];
    await queue.process<string>(
      'expo',
      async () => {
        at.push(Date.now());
        throw new Error('always');
      },
      { onFailed: (job, error) => failures.push({ job, error }) },
    );
    await queue.add('expo', 'y', {
      attempts: 3,
      backoff: { type: 'exponential', delayMs: 100 },
      jobId: 'expo-1',
    });
    await waitFor(() => failures.length === 1);
    expect(at).toHaveLength(3);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(90);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(190);
    expect(failures[0]!.job).toMatchObject({ id: 'expo-1', data: 'y', attempt: 3 });
    expect(failures[0]!.error.message).toBe('always');
    await waitFor(async () => (await queue.counts('expo')).failed === 1);
    // A failed job that is kept still blocks its id.
    expect(await queue.add('expo', 'again', { jobId: 'expo-1' })).toBe('expo-1');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(at).toHaveLength(3);
  });

  it('adds a jobId only once while it is pending, and again after it completed', async () => {
    const seen: string[] = [];
    expect(await queue.add('dedupe', 'first', { jobId: 'same' })).toBe('same');
    expect(await queue.add('dedupe', 'second', { jobId: 'same' })).toBe('same');
    expect((await queue.counts('dedupe')).waiting).toBe(1);
    await queue.process<string>('dedupe', async (job) => {
      seen.push(job.data);
    });
    await waitFor(() => seen.length === 1);
    await waitFor(async () => (await queue.counts('dedupe')).active === 0);
    await queue.add('dedupe', 'third', { jobId: 'same' });
    await waitFor(() => seen.length === 2);
    expect(seen).toEqual(['first', 'third']);
  });

  it('refuses job ids BullMQ cannot store', async () => {
    await expect(queue.add('ids', 1, { jobId: 'a:b' })).rejects.toThrow(/jobId/);
    await expect(queue.add('ids', 1, { jobId: '42' })).rejects.toThrow(/jobId/);
  });

  it('runs up to `concurrency` jobs at once', async () => {
    let running = 0;
    let peak = 0;
    let done = 0;
    await queue.process(
      'parallel',
      async () => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 100));
        running -= 1;
        done += 1;
      },
      { concurrency: 3 },
    );
    for (let i = 0; i < 7; i++) await queue.add('parallel', i);
    await waitFor(() => done === 7);
    expect(peak).toBe(3);
  });

  it('runs a repeatable job every N ms until closed', async () => {
    const runs: number[] = [];
    await queue.process('tick', async () => {
      runs.push(Date.now());
    });
    await queue.repeat('tick', 'ticker', 200, { kind: 'tick' });
    await waitFor(() => runs.length >= 3, 5_000);
    await queue.close();
    const count = runs.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(runs.length).toBe(count);
  });

  it('waits for a running job when closing', async () => {
    let finished = false;
    let started = false;
    await queue.process('slow', async () => {
      started = true;
      await new Promise((resolve) => setTimeout(resolve, 300));
      finished = true;
    });
    await queue.add('slow', 1);
    await waitFor(() => started);
    await queue.close();
    expect(finished).toBe(true);
    await expect(queue.add('slow', 2)).rejects.toThrow(/closed/);
  });

  it('answers ping', async () => {
    await expect(queue.ping()).resolves.toBeUndefined();
  });
}

describe('JobQueue [in-process]', () => suite(inProcess));
if (TEST_REDIS_URL) {
  describe('JobQueue [bullmq on Redis]', () => suite(bullmq(TEST_REDIS_URL)));
} else {
  process.stderr.write(`SKIPPED JobQueue [bullmq on Redis]: ${SKIP_REASON}\n`);
  describe.skip(`JobQueue [bullmq on Redis] SKIPPED: ${SKIP_REASON}`, () => {
    it('runs against real Redis', () => undefined);
  });
}
