// The audit chain store on PGlite and on PostgreSQL: batches chain densely, retries are stored
// once, concurrent writers (two clients, like two replicas) keep one valid chain, tampering is
// found by verify, pruning keeps the rest verifiable, and queries filter and paginate.
import { prepareAuditFields, emptyQuery, type AuditRecordFields } from '../../../src/core/audit';
import type { AuditEntry } from '../../../src/core/ports';
import { sampleEntry } from './audit-fixtures';
import { openDatabase, type Database } from '../../../src/infra/database/database';
import { AuditRecordRepository } from '../../../src/infra/audit/audit-record.repository';
import { describeEachAuditDatabase, type AuditDb } from './audit-targets';

const fields = (n: number, overrides: Partial<AuditEntry> = {}): AuditRecordFields[] =>
  Array.from({ length: n }, () => prepareAuditFields(sampleEntry(overrides)).fields);

describeEachAuditDatabase('audit chain repository', (target) => {
  let db: AuditDb;
  let repo: AuditRecordRepository;

  beforeAll(async () => {
    db = await target.open();
    repo = new AuditRecordRepository(db.sql);
  }, 60_000);
  afterAll(async () => {
    await db?.dispose();
  });
  beforeEach(async () => {
    await db.prisma.$executeRawUnsafe('DELETE FROM audit_records');
    await db.prisma.$executeRawUnsafe('DELETE FROM audit_chain');
    await db.prisma.$executeRawUnsafe('DELETE FROM audit_checkpoints');
  });

  it('appends batches as one dense chain and reads fields back exactly', async () => {
    const first = fields(3);
    const a = await repo.appendBatch(first);
    const b = await repo.appendBatch(
      fields(2, { kind: 'not_found', status: 404, sudo: 'bob', arguments: null }),
    );
    expect(a).toMatchObject({ written: 3, duplicates: 0 });
    expect(b.head.seq).toBe(5n);
    const page = await repo.query(emptyQuery({ order: 'asc' }));
    expect(page.items.map((r) => r.seq)).toEqual([1n, 2n, 3n, 4n, 5n]);
    const { seq, prevHash, hash, ...stored } = page.items[0]!;
    expect(stored).toEqual(first[0]);
    expect(seq).toBe(1n);
    expect(prevHash).toBe('0'.repeat(64));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await repo.verify()).toMatchObject({ ok: true, checked: 5 });
  });

  it('stores a retried batch once (idempotent by event_id)', async () => {
    const batch = fields(4);
    await repo.appendBatch(batch.slice(0, 2));
    const retry = await repo.appendBatch([...batch, batch[0]!]);
    expect(retry).toMatchObject({ written: 2, duplicates: 3 });
    expect(await repo.count()).toBe(4);
    expect((await repo.verify()).ok).toBe(true);
  });

  it('keeps one valid chain with concurrent writers on separate clients', async () => {
    // A second client on the same database plays another replica.
    const other: Database | null = db.url
      ? await openDatabase({ databaseUrl: db.url, dataDir: 'memory://' })
      : null;
    const repos = [repo, other ? new AuditRecordRepository(other.sql) : repo];
    try {
      await Promise.all(Array.from({ length: 12 }, (_, i) => repos[i % 2]!.appendBatch(fields(25))));
      expect(await repo.count()).toBe(300);
      expect(await repo.verify()).toMatchObject({ ok: true, checked: 300, head: { seq: 300n } });
    } finally {
      await other?.close();
    }
  }, 60_000);

  it('writes a batch in one statement once the head is known, with no transaction', async () => {
    const calls: string[] = [];
    const counted: AuditDb['sql'] = new Proxy(db.sql, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(String(prop));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const counting = new AuditRecordRepository(counted);
    await counting.appendBatch(fields(2)); // first write: creates the chain row under the lock
    calls.length = 0;
    for (const size of [1, 10, 100]) await counting.appendBatch(fields(size));
    expect(calls).toEqual(['$queryRawUnsafe', '$queryRawUnsafe', '$queryRawUnsafe']);
    // Another writer moved the head: one failed compare-and-swap, then the retry from the new head.
    await repo.appendBatch(fields(3));
    calls.length = 0;
    const result = await counting.appendBatch(fields(4));
    expect(result).toMatchObject({ written: 4, head: { seq: 120n } });
    expect(calls).toEqual(['$queryRawUnsafe', '$queryRawUnsafe']);
    expect(await repo.verify()).toMatchObject({ ok: true, checked: 120 });
  });

  it('stores awkward text and JSON exactly (quotes, backslashes, braces, unicode, lone surrogates)', async () => {
    const nasty = `it's "quoted" \\ back\\slash {brace} [x] , ; $1 ::text \n\t\u0001 é 😀 \ud800 \u2028`;
    const batch = fields(2, {
      path: `/repos/a/b/contents/${nasty}`,
      login: nasty,
      kind: 'x"y',
      arguments: { [nasty]: nasty, list: [nasty, 1.5e-7, -3, 1e21, true, null], nested: { '': '' } },
    });
    await repo.appendBatch(batch);
    const page = await repo.query(emptyQuery({ order: 'asc' }));
    expect(page.items.map(({ seq: _s, prevHash: _p, hash: _h, ...stored }) => stored)).toEqual(batch);
    expect(page.items[0]!.login).toContain('\ufffd');
    expect(await repo.verify()).toMatchObject({ ok: true, checked: 2 });
  });

  it('recreates the chain row and keeps the chain when the head it remembered is gone', async () => {
    await repo.appendBatch(fields(3));
    await db.prisma.$executeRawUnsafe('DELETE FROM audit_records');
    await db.prisma.$executeRawUnsafe('DELETE FROM audit_chain');
    expect(await repo.appendBatch(fields(2))).toMatchObject({ written: 2, head: { seq: 2n } });
    expect(await repo.verify()).toMatchObject({ ok: true, checked: 2 });
  });

  it('keeps one chain when many appends race on one client', async () => {
    const batches = Array.from({ length: 16 }, (_, i) => fields(1 + (i % 5)));
    const shared = batches[3]!.slice(0, 1); // the same record sent twice at once
    await Promise.all([...batches, shared].map((b) => repo.appendBatch(b)));
    const total = batches.reduce((n, b) => n + b.length, 0);
    expect(await repo.count()).toBe(total);
    expect(await repo.verify()).toMatchObject({ ok: true, checked: total, head: { seq: BigInt(total) } });
  }, 60_000);

  it('detects an altered row, a deleted row and a deleted tail', async () => {
    await repo.appendBatch(fields(6));
    await db.prisma.$executeRawUnsafe(`UPDATE audit_records SET login = 'mallory' WHERE seq = 3`);
    expect((await repo.verify()).firstBreak).toMatchObject({ reason: 'hash_mismatch', seq: 3n });
    await db.prisma.$executeRawUnsafe(`UPDATE audit_records SET login = 'alice' WHERE seq = 3`);
    expect((await repo.verify()).ok).toBe(true);
    await db.prisma.$executeRawUnsafe(`DELETE FROM audit_records WHERE seq = 2`);
    expect((await repo.verify()).firstBreak).toMatchObject({ reason: 'missing_records', seq: 2n });
  });

  it('detects a deleted newest row against the chain head', async () => {
    await repo.appendBatch(fields(4));
    await db.prisma.$executeRawUnsafe(`DELETE FROM audit_records WHERE seq = 4`);
    expect((await repo.verify()).firstBreak).toMatchObject({ reason: 'missing_records', seq: 4n });
  });

  it('prunes old records behind a checkpoint and still verifies', async () => {
    const old = new Date(Date.now() - 10 * 86_400_000);
    await repo.appendBatch(fields(5, { time: old }));
    await repo.appendBatch(fields(3));
    const result = await repo.prune(new Date(Date.now() - 86_400_000));
    expect(result).toMatchObject({ pruned: 5, checkpoint: { seq: 5n } });
    expect(await repo.count()).toBe(3);
    expect(await repo.verify()).toMatchObject({ ok: true, checked: 3, anchor: { seq: 5n } });
    const checkpoints = await db.prisma.$queryRawUnsafe<Array<{ seq: unknown }>>(
      'SELECT seq::text AS seq FROM audit_checkpoints',
    );
    expect(checkpoints).toEqual([{ seq: '5' }]);
    expect((await repo.prune(new Date(Date.now() - 86_400_000))).pruned).toBe(0);
    await repo.appendBatch(fields(1));
    expect(await repo.verify()).toMatchObject({ ok: true, checked: 4 });
  });

  it('refuses to prune a segment that does not verify', async () => {
    await repo.appendBatch(fields(3, { time: new Date(Date.now() - 10 * 86_400_000) }));
    await db.prisma.$executeRawUnsafe(`UPDATE audit_records SET tool = 'x' WHERE seq = 2`);
    const result = await repo.prune(new Date());
    expect(result.pruned).toBe(0);
    expect(result.refused?.firstBreak?.reason).toBe('hash_mismatch');
    expect(await repo.count()).toBe(3);
  });

  it('filters by time, login, org, repo, tool and kind and paginates with a cursor', async () => {
    const t0 = Date.now() - 60_000;
    await repo.appendBatch([
      ...fields(3, { login: 'bob', time: new Date(t0) }),
      ...fields(4, { org: 'other', repo: 'r2', tool: 'issue_list', kind: 'not_found' }),
      ...fields(5),
    ]);
    expect((await repo.query(emptyQuery({ login: 'bob' }))).items).toHaveLength(3);
    expect(
      (await repo.query(emptyQuery({ org: 'other', repo: 'r2', tool: 'issue_list' }))).items,
    ).toHaveLength(4);
    expect((await repo.query(emptyQuery({ kind: 'not_found' }))).items).toHaveLength(4);
    expect((await repo.query(emptyQuery({ kind: 'ok' }))).items).toHaveLength(8);
    expect((await repo.query(emptyQuery({ from: new Date(t0 + 1000) }))).items).toHaveLength(9);
    expect((await repo.query(emptyQuery({ to: new Date(t0 + 1000) }))).items).toHaveLength(3);
    const seen: bigint[] = [];
    let cursor: string | null = null;
    do {
      const page = await repo.query(emptyQuery({ limit: 5, cursor }));
      seen.push(...page.items.map((r) => r.seq));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => BigInt(12 - i)));
    const streamed: bigint[] = [];
    for await (const r of repo.stream(emptyQuery({ order: 'asc', limit: 4, org: 'acme' })))
      streamed.push(r.seq);
    expect(streamed).toEqual([1n, 2n, 3n, 8n, 9n, 10n, 11n, 12n]);
  });

  it('compares the org case-insensitively, as the stats do (Gitea org names are)', async () => {
    await repo.appendBatch([
      ...fields(2, { org: 'Acme' }),
      ...fields(3, { org: 'acme' }),
      ...fields(1, { org: 'other' }),
    ]);
    for (const org of ['acme', 'ACME', 'Acme'])
      expect((await repo.query(emptyQuery({ org }))).items).toHaveLength(5);
    const streamed: bigint[] = [];
    for await (const r of repo.stream(emptyQuery({ order: 'asc', org: 'aCmE' }))) streamed.push(r.seq);
    expect(streamed).toEqual([1n, 2n, 3n, 4n, 5n]);
  });
});
