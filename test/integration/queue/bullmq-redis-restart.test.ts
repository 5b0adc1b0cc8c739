// BullMQ queue against a redis-server this suite owns: killed with kill -9 mid-run and started
// again, the worker resumes; a worker that stopped taking jobs is replaced by the watchdog;
// close() returns within its bound with Redis gone and leaves nothing that keeps a process alive.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { Worker } from 'bullmq';
import { BullJobQueue, type BullJobQueueOptions } from '../../../src/infra/queue/bullmq-queue';
import { OwnRedis, REDIS_BINARY, waitUntil } from './own-redis';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Short clocks so a run takes seconds: stalled jobs (active when Redis died) come back after
// the 2 s lock lapses; a stuck worker is replaced after 2 s.
const FAST: Omit<BullJobQueueOptions, 'redisUrl'> = {
  lockDurationMs: 2_000,
  stalledIntervalMs: 500,
  watchdogIntervalMs: 250,
  stuckAfterMs: 2_000,
  closeTimeoutMs: 1_500,
  maxReconnectDelayMs: 500,
  onError: () => undefined,
};

/** The BullMQ worker behind a queue's handler (to break it from outside in a test). */
function innerWorker(queue: BullJobQueue): Worker {
  return (queue as unknown as { consumers: Array<{ slot: { worker: Worker } }> }).consumers[0]!.slot.worker;
}

async function addWhenBack(queue: BullJobQueue, name: string, data: unknown, jobId: string): Promise<void> {
  // The producer fails fast while Redis is away: retry until it is back.
  await waitUntil(
    async () => {
      await queue.add(name, data, { jobId });
      return true;
    },
    20_000,
    `add ${jobId}`,
  );
}

const suite = REDIS_BINARY ? describe : describe.skip;
if (!REDIS_BINARY)
  process.stderr.write('SKIPPED BullMQ Redis restart suite: redis-server is not installed\n');

suite('BullJobQueue with its Redis killed and restarted', () => {
  let redis: OwnRedis;
  let queue: BullJobQueue | null = null;
  beforeEach(async () => {
    redis = await OwnRedis.start();
  });
  afterEach(async () => {
    await queue?.close();
    queue = null;
    await redis.dispose();
  });

  it('keeps processing after kill -9 and restart: every job runs, close() stays bounded', async () => {
    const q = (queue = new BullJobQueue({ redisUrl: redis.url, prefix: 'restart', ...FAST }));
    const seen = new Set<string>();
    await q.process<{ n: number }>('work', async (job) => {
      await sleep(15);
      seen.add(job.id);
    });
    const before = Array.from({ length: 60 }, (_, i) => `before-${i}`);
    for (const id of before) await q.add('work', { n: 0 }, { jobId: id });
    await waitUntil(() => seen.size >= 15, 10_000, 'first jobs');
    await redis.kill();
    await expect(q.add('work', {}, { jobId: 'while-down' })).rejects.toThrow(); // fails fast, no hang
    await sleep(1_500);
    await redis.start();
    const after = Array.from({ length: 20 }, (_, i) => `after-${i}`);
    for (const id of after) await addWhenBack(q, 'work', { n: 1 }, id);
    await waitUntil(() => [...before, ...after].every((id) => seen.has(id)), 30_000, 'every job');
    await waitUntil(
      async () => {
        const c = await q.counts('work');
        return c.waiting + c.active + c.delayed === 0;
      },
      10_000,
      'an empty queue',
    );
    const started = Date.now();
    await q.close();
    expect(Date.now() - started).toBeLessThan(FAST.closeTimeoutMs! + 3_000);
  }, 60_000);

  it('replaces a worker that stopped taking jobs: fetch loop hung, or loop ended', async () => {
    const restarts: string[] = [];
    const q = (queue = new BullJobQueue({
      redisUrl: redis.url,
      prefix: 'stuck',
      ...FAST,
      onWorkerRestart: (_name, reason) => restarts.push(reason),
    }));
    const seen: string[] = [];
    await q.process('work', async (job) => {
      seen.push(job.id);
    });
    await q.add('work', 1, { jobId: 'healthy' });
    await waitUntil(() => seen.length === 1, 5_000, 'the first job');

    // Fetch loop hung (what a lost blocking connection looks like): the worker still "runs",
    // but its next fetch never returns. The fetch in flight still takes one job.
    const hung = innerWorker(q) as unknown as { _getNextJob: () => Promise<unknown> };
    hung._getNextJob = () => new Promise(() => undefined);
    await q.add('work', 1, { jobId: 'last-fetched' });
    await waitUntil(() => seen.length === 2, 8_000, 'the job of the fetch in flight');
    // Let that job finish first: BullMQ's completion step can fetch the next waiting job itself,
    // which would hand a, b and c to the hung worker by another road (seen under load).
    await waitUntil(async () => (await q.counts('work')).active === 0, 8_000, 'the job in flight done');
    for (const id of ['a', 'b', 'c']) await q.add('work', 1, { jobId: id });
    await sleep(500);
    expect(seen).toHaveLength(2);
    expect(innerWorker(q).isRunning()).toBe(true);
    await waitUntil(() => seen.length === 5, FAST.stuckAfterMs! + 5_000, 'the replaced worker');
    expect(restarts).toEqual(['jobs are waiting but the worker takes none']);

    // Loop ended (paused behind our back).
    const old = innerWorker(q);
    await old.pause(true);
    // The loop ends once its blocking fetch returns (drain delay, 5 s).
    await waitUntil(() => innerWorker(q) !== old, 10_000, 'a new worker');
    await q.add('work', 1, { jobId: 'd' });
    await waitUntil(() => seen.length === 6, 5_000, 'the job after the second replacement');
    expect(q.workerRestarts).toBe(2);
    expect(restarts[1]).toBe('the worker loop has stopped');
  }, 30_000);

  it('close() with Redis gone and an idle worker returns at once', async () => {
    const q = (queue = new BullJobQueue({ redisUrl: redis.url, prefix: 'gone', ...FAST }));
    await q.process('work', async () => undefined);
    await q.add('work', 1);
    // Idle: the job ran and its result is stored before Redis goes.
    await waitUntil(
      async () => (await q.counts('work')).waiting + (await q.counts('work')).active === 0,
      5_000,
      'idle',
    );
    await redis.kill();
    await sleep(300);
    const started = Date.now();
    await q.close();
    expect(Date.now() - started).toBeLessThan(1_000);
  }, 20_000);

  it.each([
    ['mid-job', 1_400, 1_500 + 3_000],
    ['idle', 0, 1_000],
  ])(
    'close() with Redis gone (%s) returns within its bound and the process then exits by itself',
    async (mode, minCloseMs, maxCloseMs) => {
      // In a child process: only there can "nothing keeps the process alive" be observed.
      const child = spawn(process.execPath, ['-e', CHILD], {
        env: { ...process.env, REDIS_URL: redis.url, QUEUE_MODULE, CLOSE_TIMEOUT_MS: '1500', MODE: mode },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const exited = new Promise<{ code: number | null; at: number }>((done) =>
        child.once('exit', (code) => done({ code, at: Date.now() })),
      );
      try {
        await waitUntil(() => out.includes('ready'), 20_000, `the child (stderr: ${err})`);
        await redis.kill();
        child.stdin.write('close\n');
        await waitUntil(() => /closed \d+/.test(out), 10_000, `close() in the child (stderr: ${err})`);
        const closedAt = Date.now();
        const closeMs = Number(/closed (\d+)/.exec(out)![1]);
        // mid-job: the job ends but its result cannot reach Redis, so close() waits out the
        // grace period, then forces; idle: nothing to wait for.
        expect(closeMs).toBeGreaterThanOrEqual(minCloseMs);
        expect(closeMs).toBeLessThan(maxCloseMs);
        let timer: NodeJS.Timeout | undefined;
        const exit = await Promise.race([
          exited,
          new Promise<null>((done) => (timer = setTimeout(() => done(null), 5_000))),
        ]).finally(() => clearTimeout(timer));
        expect(exit).not.toBeNull(); // nothing of the queue kept the event loop alive
        expect(exit!.code).toBe(0);
        expect(exit!.at - closedAt).toBeLessThan(1_500);
        expect(out).toContain('handler done');
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    },
    40_000,
  );
});

const QUEUE_MODULE = resolve(__dirname, '../../../src/infra/queue/bullmq-queue.ts');

// Plain Node with the sources' transpile-only require hook for .ts (cached on disk; no ts-node in
// this project). The child never calls process.exit: it must end on its own once close() released
// everything.
const CHILD = `
require(${JSON.stringify(resolve(__dirname, '../../../src/infra/runtime/ts-require-hook.cjs'))});
const { BullJobQueue } = require(process.env.QUEUE_MODULE);
(async () => {
  const queue = new BullJobQueue({
    redisUrl: process.env.REDIS_URL,
    prefix: 'child',
    closeTimeoutMs: Number(process.env.CLOSE_TIMEOUT_MS),
    maxReconnectDelayMs: 200,
    onError: () => undefined,
  });
  const idle = process.env.MODE === 'idle';
  await queue.process('slow', async () => {
    if (!idle) process.stdout.write('ready\\n');
    await new Promise((r) => setTimeout(r, idle ? 0 : 300));
    process.stdout.write('handler done\\n');
  });
  await queue.add('slow', {});
  if (idle) {
    for (;;) {
      const c = await queue.counts('slow');
      if (c.waiting + c.active === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 200)); // the worker is back in its blocking fetch
    process.stdout.write('ready\\n');
  }
  process.stdin.once('data', async () => {
    process.stdin.destroy();
    const started = Date.now();
    await queue.close();
    process.stdout.write('closed ' + (Date.now() - started) + '\\n');
  });
})().catch((error) => {
  process.stderr.write(String(error && error.stack || error) + '\\n');
  process.exitCode = 1;
});
`;
