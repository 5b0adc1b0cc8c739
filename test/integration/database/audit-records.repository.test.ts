// The same repository behaviour on PGlite and on PostgreSQL: create, read, unique constraints,
// transactions that roll back, and JSON/bigint round trips through the Prisma client.
import type { Database } from '../../../src/infra/database/database';
import { describeEachDatabase } from './database-targets';

const record = (seq: number, eventId: string, extra: Record<string, unknown> = {}) => ({
  seq: BigInt(seq),
  eventId,
  tool: 'repo_get',
  login: 'alice',
  org: 'acme',
  durationMs: 12.5,
  resultBytes: 42,
  redactions: 0,
  masks: 1,
  blocked: false,
  arguments: { owner: 'acme', repo: 'widgets', nested: { list: [1, 2] } },
  prevHash: seq === 1 ? '0'.repeat(64) : `h${seq - 1}`,
  hash: `h${seq}`,
  ...extra,
});

describeEachDatabase('audit_records repository', (target) => {
  let db: Database & { dispose(): Promise<void> };

  beforeAll(async () => {
    db = await target.open();
    await db.migrate();
  }, 60_000);
  afterAll(async () => {
    await db?.dispose();
  });
  beforeEach(async () => {
    await db.prisma.auditRecord.deleteMany();
  });

  it('creates and reads a record with bigint, json, nulls and server defaults', async () => {
    const before = Date.now();
    const created = await db.prisma.auditRecord.create({ data: record(1, 'evt-1') });
    expect(typeof created.id).toBe('bigint');
    const read = await db.prisma.auditRecord.findUniqueOrThrow({ where: { eventId: 'evt-1' } });
    expect(read.seq).toBe(1n);
    expect(read.durationMs).toBe(12.5);
    expect(read.arguments).toEqual({ owner: 'acme', repo: 'widgets', nested: { list: [1, 2] } });
    expect(read.status).toBeNull();
    expect(read.sudo).toBeNull();
    expect(read.createdAt.getTime()).toBeGreaterThanOrEqual(before - 5_000);
  });

  it('orders and filters by indexed columns', async () => {
    await db.prisma.auditRecord.createMany({
      data: [record(1, 'a'), record(2, 'b', { org: 'other' }), record(3, 'c', { tool: 'issue_list' })],
    });
    const acme = await db.prisma.auditRecord.findMany({ where: { org: 'acme' }, orderBy: { seq: 'asc' } });
    expect(acme.map((r) => r.eventId)).toEqual(['a', 'c']);
    expect(await db.prisma.auditRecord.count({ where: { tool: 'repo_get' } })).toBe(2);
  });

  it('rejects a duplicate event_id and a duplicate seq (P2002)', async () => {
    await db.prisma.auditRecord.create({ data: record(1, 'dup') });
    await expect(db.prisma.auditRecord.create({ data: record(2, 'dup') })).rejects.toMatchObject({
      code: 'P2002',
    });
    await expect(db.prisma.auditRecord.create({ data: record(1, 'other') })).rejects.toMatchObject({
      code: 'P2002',
    });
    expect(await db.prisma.auditRecord.count()).toBe(1);
  });

  it('rolls back an interactive transaction that fails', async () => {
    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.auditRecord.create({ data: record(1, 'tx-1') });
        await tx.auditRecord.create({ data: record(2, 'tx-2') });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db.prisma.auditRecord.count()).toBe(0);
  });

  it('rolls back a batch transaction when one statement violates a constraint', async () => {
    await expect(
      db.prisma.$transaction([
        db.prisma.auditRecord.create({ data: record(1, 'b-1') }),
        db.prisma.auditRecord.create({ data: record(2, 'b-1') }),
      ]),
    ).rejects.toMatchObject({ code: 'P2002' });
    expect(await db.prisma.auditRecord.count()).toBe(0);
  });

  it('commits a successful transaction', async () => {
    await db.prisma.$transaction(async (tx) => {
      await tx.auditRecord.create({ data: record(1, 'ok-1') });
      await tx.auditRecord.create({ data: record(2, 'ok-2') });
    });
    expect(await db.prisma.auditRecord.count()).toBe(2);
  });

  it('answers ping', async () => {
    await expect(db.ping()).resolves.toBeUndefined();
  });
});
