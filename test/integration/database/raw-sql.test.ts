// The driver-level SQL handle the audit trail writes through (src/infra/database/raw-sql.ts):
// the same rows, affected-row counts and transaction semantics as Prisma's raw SQL, on both
// databases, and a transaction that overruns its timeout is abandoned with its connection.
import { describeEachDatabase } from './database-targets';
import type { Database } from '../../../src/infra/database/database';

describeEachDatabase('raw SQL on the driver', (target) => {
  let db: Database & { dispose(): Promise<void> };

  beforeAll(async () => {
    db = await target.open();
    await db.sql.$executeRawUnsafe('CREATE TABLE raw_probe (n int PRIMARY KEY, t text)');
  }, 60_000);
  afterAll(async () => {
    await db?.dispose();
  });

  it('reads the rows and counts the rows a statement changed, like Prisma', async () => {
    await expect(
      db.sql.$executeRawUnsafe("INSERT INTO raw_probe VALUES ($1, $2), ($3, 'b')", 1, 'a', '2'),
    ).resolves.toBe(2);
    const sql = 'SELECT n::text AS n, t FROM raw_probe WHERE n >= $1::int ORDER BY n';
    const driver = await db.sql.$queryRawUnsafe<unknown[]>(sql, '1');
    expect(driver).toEqual([
      { n: '1', t: 'a' },
      { n: '2', t: 'b' },
    ]);
    await expect(db.prisma.$queryRawUnsafe(sql, '1')).resolves.toEqual(driver);
    await expect(db.sql.$executeRawUnsafe('UPDATE raw_probe SET t = $1', 'c')).resolves.toBe(2);
    await expect(db.sql.$executeRawUnsafe('DELETE FROM raw_probe WHERE n > 100')).resolves.toBe(0);
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await expect(
      db.sql.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('INSERT INTO raw_probe VALUES (10, $1)', 'kept');
        return tx.$queryRawUnsafe<Array<{ t: string }>>('SELECT t FROM raw_probe WHERE n = 10');
      }),
    ).resolves.toEqual([{ t: 'kept' }]);
    await expect(
      db.sql.$transaction(async (tx) => {
        await tx.$executeRawUnsafe("INSERT INTO raw_probe VALUES (11, 'gone')");
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await expect(
      db.sql.$queryRawUnsafe('SELECT n FROM raw_probe WHERE n IN (10, 11) ORDER BY n'),
    ).resolves.toEqual([{ n: 10 }]);
    // A failed statement inside: the whole transaction is rolled back, the handle stays usable.
    await expect(
      db.sql.$transaction(async (tx) => {
        await tx.$executeRawUnsafe("INSERT INTO raw_probe VALUES (12, 'x')");
        await tx.$executeRawUnsafe("INSERT INTO raw_probe VALUES (12, 'duplicate')");
      }),
    ).rejects.toThrow(/duplicate key|unique/i);
    await expect(db.sql.$queryRawUnsafe('SELECT n FROM raw_probe WHERE n = 12')).resolves.toEqual([]);
  });

  if (target.name === 'postgres') {
    it('abandons a transaction that overruns its timeout, with its connection', async () => {
      await expect(
        db.sql.$transaction(
          async (tx) => {
            await tx.$executeRawUnsafe("INSERT INTO raw_probe VALUES (20, 'late')");
            await tx.$queryRawUnsafe('SELECT pg_sleep(3)');
          },
          { timeout: 200 },
        ),
      ).rejects.toThrow(/exceeded 200 ms/);
      await expect(db.sql.$queryRawUnsafe('SELECT n FROM raw_probe WHERE n = 20')).resolves.toEqual([]);
    }, 30_000);
  }
});
