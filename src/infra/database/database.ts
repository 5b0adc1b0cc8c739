// Opens the database the configuration asks for: PostgreSQL through @prisma/adapter-pg when
// DATABASE_URL is set, otherwise embedded PGlite (files under DATA_DIR/pglite, or in memory for
// "memory://"; it runs in a worker thread, pglite-thread.ts) through pglite-prisma-adapter. Both get the same migrations and the same client.
// Each configuration loads only its own driver (PGlite and its adapter, or pg and @prisma/adapter-pg):
// the other one would cost start-up CPU and resident memory for nothing.
import type { PGlite } from '@electric-sql/pglite';
import { PrismaClient } from '../../generated/prisma/client';
import { migrate, type MigrationResult } from './migrator';
import { PGLITE_SHARED_BUFFERS, PGLITE_START_PARAMS } from './pglite-start-params';
import { IN_MEMORY, startPgliteThread, takeEarlyPgliteThread } from './pglite-thread';
import { pgliteRawSql, postgresRawSql, type RawSql } from './raw-sql';
import { pgliteConnection, postgresConnection } from './sql-connection';

export const IN_MEMORY_DATA_DIR = IN_MEMORY;

/** What PrismaClient takes as its driver adapter. */
type SqlDriverAdapterFactory = NonNullable<ConstructorParameters<typeof PrismaClient>[0]['adapter']>;

export type DatabaseOptions = {
  /** PostgreSQL URL, or null for PGlite. */
  databaseUrl: string | null;
  /** PGlite lives in dataDir/pglite; "memory://" keeps it in memory. */
  dataDir: string;
  migrationsDir?: string;
};

export type MigrateOptions = { log?: (message: string) => void; migrationsDir?: string };

export type Database = {
  readonly kind: 'postgres' | 'pglite';
  readonly prisma: PrismaClient;
  /** Raw SQL on the driver, without Prisma (the audit trail: raw-sql.ts says why). */
  readonly sql: RawSql;
  /** Applies pending migrations (idempotent, safe to run from several replicas at once). */
  migrate(options?: MigrateOptions): Promise<MigrationResult>;
  /** Throws unless the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.migrationsDir);
  return openPglite(options.dataDir, options.migrationsDir);
}

async function openPostgres(databaseUrl: string, migrationsDir?: string): Promise<Database> {
  const [{ PrismaPg }, { Pool }] = await Promise.all([import('@prisma/adapter-pg'), import('pg')]);
  // One pool for Prisma and the raw SQL of the audit trail (Prisma does not end a pool it was given).
  const pool = new Pool({ connectionString: databaseUrl });
  pool.on('error', () => undefined); // an idle connection that breaks is dropped; the next query reconnects
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    kind: 'postgres',
    prisma,
    sql: postgresRawSql(pool),
    async migrate(options = {}) {
      // A dedicated session: the advisory lock must be held by one connection throughout.
      const connection = await postgresConnection(databaseUrl);
      try {
        return await migrate(connection, { migrationsDir, ...options });
      } finally {
        await connection.close();
      }
    },
    async ping() {
      await prisma.$queryRawUnsafe('SELECT 1');
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

export { PGLITE_SHARED_BUFFERS, PGLITE_START_PARAMS };

async function openPglite(dataDir: string, migrationsDir?: string): Promise<Database> {
  // PGlite runs in its own thread (pglite-thread.ts), started by the entry point before it loaded
  // the service's modules when this is the DATA_DIR it was started for. A new directory is filled
  // from the build's template there (pglite-data-dir.ts).
  const pglite = takeEarlyPgliteThread(dataDir) ?? startPgliteThread(dataDir, PGLITE_START_PARAMS);
  try {
    await pglite.waitReady;
  } catch (error) {
    await pglite.close().catch(() => undefined);
    throw error;
  }
  // The adapter calls query (with its parsers), exec and transaction, which the thread's client
  // offers. It is loaded on Prisma's first query (it loads PGlite's JavaScript on this thread, about
  // 0.1-0.3 s of a start): nothing before ready uses Prisma (the audit trail and the org policies
  // run their SQL on the driver).
  const adapter: SqlDriverAdapterFactory = {
    provider: 'postgres',
    adapterName: 'pglite-prisma-adapter',
    async connect() {
      const { PrismaPGlite } = await import('pglite-prisma-adapter');
      return new PrismaPGlite(pglite as unknown as PGlite).connect();
    },
  };
  const prisma = new PrismaClient({ adapter });
  let closed = false;
  return {
    kind: 'pglite',
    prisma,
    sql: pgliteRawSql(pglite),
    migrate: (options = {}) => migrate(pgliteConnection(pglite), { migrationsDir, ...options }),
    async ping() {
      await pglite.query('SELECT 1');
    },
    async close() {
      if (closed) return;
      closed = true;
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}
