// Migrator behaviour beyond the happy path: a failure is recorded and blocks later runs (as
// Prisma's P3009 does), an edited migration is refused, and concurrent runs on PostgreSQL
// serialise on the advisory lock.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../../src/infra/database/database';
import { MigrationError, migrate } from '../../../src/infra/database/migrator';
import { postgresConnection } from '../../../src/infra/database/sql-connection';
import { createScratchPostgres, describeEachDatabase, TEST_DATABASE_URL } from './database-targets';

function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'aegis-migrations-'));
  writeFileSync(join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');
  for (const [name, sql] of Object.entries(files)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

describeEachDatabase('migrator', (target) => {
  let db: Database & { dispose(): Promise<void> };
  beforeEach(async () => {
    db = await target.open();
  }, 60_000);
  afterEach(async () => {
    await db?.dispose();
  });
  const rows = () =>
    db.prisma.$queryRawUnsafe<
      Array<{ migration_name: string; finished_at: Date | null; logs: string | null }>
    >('SELECT migration_name, finished_at, logs FROM "_prisma_migrations" ORDER BY migration_name');

  it('records a failed migration, rolls its statements back and refuses to continue', async () => {
    const dir = migrationsDir({
      '1_ok': 'CREATE TABLE a (id int);',
      '2_bad': 'CREATE TABLE b (id int);\nSELECT * FROM missing_table;',
      '3_later': 'CREATE TABLE c (id int);',
    });
    await expect(db.migrate({ migrationsDir: dir })).rejects.toBeInstanceOf(MigrationError);
    const recorded = await rows();
    expect(recorded.map((r) => r.migration_name)).toEqual(['1_ok', '2_bad']);
    expect(recorded[0]!.finished_at).toBeInstanceOf(Date);
    expect(recorded[1]!.finished_at).toBeNull();
    expect(recorded[1]!.logs).toContain('missing_table');
    const b = await db.prisma.$queryRawUnsafe<unknown[]>(
      "SELECT 1 FROM pg_class WHERE relname IN ('b', 'c')",
    );
    expect(b).toHaveLength(0);
    await expect(db.migrate({ migrationsDir: dir })).rejects.toThrow(/2_bad failed earlier/);
  });

  it('refuses a migration whose file changed after it was applied', async () => {
    await db.migrate({ migrationsDir: migrationsDir({ '1_x': 'CREATE TABLE x (id int);' }) });
    await expect(
      db.migrate({ migrationsDir: migrationsDir({ '1_x': 'CREATE TABLE x (id bigint);' }) }),
    ).rejects.toThrow(/checksum mismatch/);
  });

  it('applies new migrations after the ones already applied, in name order', async () => {
    await db.migrate({ migrationsDir: migrationsDir({ '1_a': 'CREATE TABLE a (id int);' }) });
    const result = await db.migrate({
      migrationsDir: migrationsDir({
        '1_a': 'CREATE TABLE a (id int);',
        '3_c': 'ALTER TABLE b ADD COLUMN c int;',
        '2_b': 'CREATE TABLE b (id int);',
      }),
    });
    expect(result).toEqual({ applied: ['2_b', '3_c'], alreadyApplied: ['1_a'] });
  });
});

if (TEST_DATABASE_URL) {
  describe('migrator on PostgreSQL: concurrent runs', () => {
    it('serialise on the advisory lock and apply each migration once', async () => {
      const scratch = await createScratchPostgres(TEST_DATABASE_URL!);
      try {
        const dir = migrationsDir({ '1_slow': 'SELECT pg_sleep(0.3); CREATE TABLE s (id int);' });
        const connections = await Promise.all([1, 2, 3].map(() => postgresConnection(scratch.url)));
        const results = await Promise.all(connections.map((c) => migrate(c, { migrationsDir: dir })));
        await Promise.all(connections.map((c) => c.close()));
        expect(results.flatMap((r) => r.applied)).toEqual(['1_slow']);
        const database = await openDatabase({ databaseUrl: scratch.url, dataDir: 'memory://' });
        const count = await database.prisma.$queryRawUnsafe<Array<{ n: number }>>(
          'SELECT count(*)::int AS n FROM "_prisma_migrations"',
        );
        await database.close();
        expect(count[0]!.n).toBe(1);
      } finally {
        await scratch.drop();
      }
    }, 30_000);
  });
}
