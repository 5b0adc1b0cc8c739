// The audit retention schedule starts a minute after start-up, not at it (audit.module.ts says
// why): nothing is scheduled while the service starts, the hourly job is scheduled once the delay
// has passed, and a shutdown before then schedules nothing.
import type { Logger } from 'pino';
import type { AppConfig } from '../../../src/config/app-config';
import type { AuditQueue } from '../../../src/core/audit';
import type { AuditRecordRepository } from '../../../src/infra/audit/audit-record.repository';
import type { AuditMetrics } from '../../../src/modules/audit/audit-metrics';
import type { AuditPipeline } from '../../../src/modules/audit/audit-pipeline';
import { AUDIT_PRUNE_JOB } from '../../../src/modules/audit/audit-pipeline';
import { AuditModule, PRUNE_FIRST_DELAY_MS } from '../../../src/modules/audit/audit.module';

function moduleWith(retentionDays: number) {
  const repeat = jest.fn<Promise<void>, [string, number]>(() => Promise.resolve());
  const queue = {
    kind: 'in-process',
    add: jest.fn(),
    process: jest.fn(),
    repeat,
    depth: jest.fn(() => Promise.resolve(0)),
    close: jest.fn(() => Promise.resolve()),
  } as unknown as AuditQueue;
  const logger = { info: jest.fn(), warn: jest.fn(), error: jest.fn() } as unknown as Logger;
  const pipeline = {
    close: jest.fn(() => Promise.resolve()),
    handleJob: jest.fn(),
  } as unknown as AuditPipeline;
  const mod = new AuditModule(queue, pipeline, {} as AuditRecordRepository, {} as AuditMetrics, logger, {
    audit: { retentionDays },
  } as AppConfig);
  return { mod, repeat };
}

describe('audit retention schedule', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('is scheduled after the first delay, not during start-up', async () => {
    const { mod, repeat } = moduleWith(90);
    await mod.onModuleInit();
    expect(repeat).not.toHaveBeenCalled();
    jest.advanceTimersByTime(PRUNE_FIRST_DELAY_MS - 1);
    expect(repeat).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(repeat).toHaveBeenCalledTimes(1);
    expect(repeat.mock.calls[0]?.[0]).toBe(AUDIT_PRUNE_JOB);
    await mod.onApplicationShutdown();
  });

  it('a shutdown before the delay schedules nothing; retention 0 never schedules', async () => {
    const early = moduleWith(90);
    await early.mod.onModuleInit();
    await early.mod.onApplicationShutdown();
    jest.advanceTimersByTime(PRUNE_FIRST_DELAY_MS * 2);
    expect(early.repeat).not.toHaveBeenCalled();

    const off = moduleWith(0);
    await off.mod.onModuleInit();
    jest.advanceTimersByTime(PRUNE_FIRST_DELAY_MS * 2);
    expect(off.repeat).not.toHaveBeenCalled();
    await off.mod.onApplicationShutdown();
  });
});
