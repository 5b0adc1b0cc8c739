// Batching of the audit pipeline with a fake queue and clock: a partial batch leaves after the
// flush interval, a full one right after the current callback (never inside record()), and
// what is left of a burst keeps its deadline.
import type { AuditQueue } from '../../core/audit';
import type { AuditEntry } from '../../core/ports';
import { sampleAuditEntry } from '../../core/testing/audit-fixtures';
import { AUDIT_WRITE_JOB, AuditPipeline, type AuditWriter } from './audit-pipeline';

// Advances the fake clock, then lets what that scheduled with (real) setImmediate run.
async function tick(ms: number): Promise<void> {
  await jest.advanceTimersByTimeAsync(ms);
  await new Promise((resolve) => setImmediate(resolve));
}

const quiet = { warn: () => undefined, error: () => undefined, info: () => undefined };

let counter = 0;
function entry(): AuditEntry {
  counter += 1;
  return sampleAuditEntry({ eventId: `e-${counter}`, mode: 'token', clientName: null, clientVersion: null });
}

function harness(batchSize: number, flushIntervalMs: number) {
  const jobs: number[] = [];
  const queue: AuditQueue = {
    kind: 'in-process',
    async add(name, data) {
      expect(name).toBe(AUDIT_WRITE_JOB);
      jobs.push((data as { entries: unknown[] }).entries.length);
    },
    process: () => undefined,
    repeat: async () => undefined,
    depth: async () => 0,
    close: async () => undefined,
  };
  // After close() the pipeline writes directly instead of enqueueing: noted as -N.
  const writer: AuditWriter = {
    appendBatch: async (b) => {
      jobs.push(-b.length);
      return { written: b.length, duplicates: 0 };
    },
  };
  const pipeline = new AuditPipeline(queue, writer, null, quiet, { batchSize, flushIntervalMs });
  return { pipeline, jobs };
}

describe('AuditPipeline batching', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'clearImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it('sends a partial batch only when the flush interval has passed', async () => {
    const { pipeline, jobs } = harness(100, 200);
    pipeline.record(entry());
    await tick(50);
    pipeline.record(entry());
    pipeline.record(entry());
    await tick(149);
    expect(jobs).toEqual([]);
    await tick(1);
    expect(jobs).toEqual([3]); // the deadline is the oldest record's
    pipeline.record(entry());
    await tick(200);
    expect(jobs).toEqual([3, 1]);
  });

  it('sends a full batch after the current callback, not inside record()', async () => {
    const { pipeline, jobs } = harness(5, 10_000);
    for (let i = 0; i < 5; i += 1) pipeline.record(entry());
    await Promise.resolve();
    expect(jobs).toEqual([]); // record() returned without starting the write
    await tick(0); // the setImmediate
    expect(jobs).toEqual([5]);
  });

  it('sends only full batches at load; the rest keeps a deadline', async () => {
    const { pipeline, jobs } = harness(5, 100);
    for (let i = 0; i < 12; i += 1) pipeline.record(entry());
    await tick(0);
    expect(jobs).toEqual([5, 5]);
    await tick(99);
    expect(jobs).toEqual([5, 5]);
    await tick(1);
    expect(jobs).toEqual([5, 5, 2]);
  });

  it('flush() and close() send everything at once', async () => {
    const { pipeline, jobs } = harness(5, 10_000);
    for (let i = 0; i < 7; i += 1) pipeline.record(entry());
    await pipeline.flush();
    expect(jobs).toEqual([5, 2]);
    pipeline.record(entry());
    await pipeline.close();
    expect(jobs).toEqual([5, 2, -1]);
    expect(jest.getTimerCount()).toBe(0);
  });
});
