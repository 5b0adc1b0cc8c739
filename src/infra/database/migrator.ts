// A small, engine-free stand-in for `prisma migrate deploy`. It applies the committed SQL under
// prisma/migrations in name order and records each one in _prisma_migrations with the same
// columns, checksum (sha256 hex of migration.sql) and life cycle (row inserted with started_at,
// finished_at + applied_steps_count set on success, logs kept on failure) as Prisma's schema
// engine, so a site that has the native engine can switch to Prisma's CLI at any time.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SqlConnection } from './sql-connection';

// The advisory lock key Prisma's schema engine takes on PostgreSQL, so our runner and Prisma's
// CLI also exclude each other.
export const PRISMA_ADVISORY_LOCK_KEY = 72707369;

// The table exactly as Prisma's schema engine creates it.
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export type MigrationFile = { name: string; sql: string; checksum: string };

export type MigrationResult = { applied: string[]; alreadyApplied: string[] };

export class MigrationError extends Error {
  constructor(
    message: string,
    readonly migration: string | null,
  ) {
    super(message);
    this.name = 'MigrationError';
  }
}

/** Finds prisma/migrations from the source tree or from dist/ (both sit below the repo root). */
export function defaultMigrationsDir(): string {
  const candidates = [
    resolve(__dirname, '../../../prisma/migrations'),
    resolve(__dirname, '../../../../prisma/migrations'),
    resolve(process.cwd(), 'prisma/migrations'),
  ];
  const found = candidates.find((dir) => existsSync(join(dir, 'migration_lock.toml')));
  if (!found)
    throw new MigrationError(`prisma/migrations not found (looked in ${candidates.join(', ')})`, null);
  return found;
}

export function checksumOf(sql: string | Buffer): string {
  return createHash('sha256').update(sql).digest('hex');
}

export function readMigrations(dir: string): MigrationFile[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(join(dir, name, 'migration.sql'));
      return { name, sql: bytes.toString('utf8'), checksum: checksumOf(bytes) };
    });
}

type MigrationRow = {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
};

export async function migrate(
  connection: SqlConnection,
  options: { migrationsDir?: string; log?: (message: string) => void } = {},
): Promise<MigrationResult> {
  const migrations = readMigrations(options.migrationsDir ?? defaultMigrationsDir());
  const log = options.log ?? (() => undefined);
  if (connection.shared) await connection.query('SELECT pg_advisory_lock($1)', [PRISMA_ADVISORY_LOCK_KEY]);
  try {
    await connection.exec(CREATE_MIGRATIONS_TABLE);
    const rows = await connection.query<MigrationRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at',
    );
    // Like Prisma (error P3009): a failed, not rolled back migration blocks every later one.
    const failed = rows.find((row) => row.finished_at === null && row.rolled_back_at === null);
    if (failed) {
      throw new MigrationError(
        `migration ${failed.migration_name} failed earlier; fix the database and mark it rolled back ` +
          '(`prisma migrate resolve --rolled-back <name>` or set rolled_back_at) before migrating again',
        failed.migration_name,
      );
    }
    const done = new Map(
      rows.filter((row) => row.finished_at !== null).map((row) => [row.migration_name, row]),
    );
    const result: MigrationResult = { applied: [], alreadyApplied: [] };
    for (const migration of migrations) {
      const previous = done.get(migration.name);
      if (previous) {
        if (previous.checksum !== migration.checksum) {
          throw new MigrationError(
            `migration ${migration.name} was changed after it was applied (checksum mismatch); add a new migration instead`,
            migration.name,
          );
        }
        result.alreadyApplied.push(migration.name);
        continue;
      }
      const id = randomUUID();
      await connection.query(
        'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
        [id, migration.checksum, migration.name],
      );
      try {
        await connection.exec(migration.sql);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await connection.query('UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1', [
          id,
          `Migration ${migration.name} failed:\n${message}`,
        ]);
        throw new MigrationError(`migration ${migration.name} failed: ${message}`, migration.name);
      }
      await connection.query(
        'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = applied_steps_count + 1 WHERE id = $1',
        [id],
      );
      log(`applied migration ${migration.name}`);
      result.applied.push(migration.name);
    }
    return result;
  } finally {
    if (connection.shared)
      await connection.query('SELECT pg_advisory_unlock($1)', [PRISMA_ADVISORY_LOCK_KEY]);
  }
}
