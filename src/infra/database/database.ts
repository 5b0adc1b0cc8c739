// Opens the database the configuration asks for: PostgreSQL through @prisma/adapter-pg when
// DATABASE_URL is set, otherwise embedded PGlite (files under DATA_DIR/pglite, or in memory for
// "memory://") through pglite-prisma-adapter. Both get the same migrations and the same client.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
// Each configuration loads only its own driver (PGlite and its adapter, or pg and @prisma/adapter-pg):
// the other one would cost start-up CPU and resident memory for nothing.
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { PrismaClient } from '../../generated/prisma/client';
import { migrate, type MigrationResult } from './migrator';
import { preparePgliteDataDir } from './pglite-data-dir';
import { pgliteRawSql, postgresRawSql, type RawSql } from './raw-sql';
import { pgliteConnection, postgresConnection } from './sql-connection';

export const IN_MEMORY_DATA_DIR = 'memory://';

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

/**
 * The embedded database holds the audit trail of one sidecar: a small working set. PostgreSQL's
 * default 128 MB of shared buffers cost about 130 MB of resident memory and half a second of start
 * (the buffer pool lives in, and is initialised inside, the WebAssembly memory); 16 MB is plenty.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

function pgliteOptions(defaultStartParams: string[]): PGliteOptions {
  return { startParams: [...defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`] };
}

/**
 * V8 compiles PGlite's 9 MB WebAssembly module with its baseline compiler (Liftoff) and then
 * recompiles hot functions with its optimising one in the background. For the audit store's small
 * queries that second tier costs about 60 MB of resident memory and, on two cores, more CPU than
 * its faster code saves (2,000 inserts: 8.0 s with it, 3.8 s without, Node 20 and 22). The flag
 * only changes how WebAssembly modules compiled later run (here also Prisma's query compiler; the
 * audit trail writes raw SQL); it is set only for the embedded database.
 */
function baselineWasmOnly(): void {
  setFlagsFromString('--liftoff-only');
}

async function openPglite(dataDir: string, migrationsDir?: string): Promise<Database> {
  baselineWasmOnly();
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('pglite-prisma-adapter'),
  ]);
  let pglite: PGlite;
  if (dataDir === IN_MEMORY_DATA_DIR) {
    pglite = new PGlite(pgliteOptions(PGlite.defaultStartParams));
  } else {
    const dir = join(resolve(dataDir), 'pglite');
    mkdirSync(dirname(dir), { recursive: true });
    // A new directory is initialised outside this process (template or child initdb): see pglite-data-dir.ts.
    await preparePgliteDataDir(dir);
    pglite = new PGlite(dir, pgliteOptions(PGlite.defaultStartParams));
  }
  await pglite.waitReady;
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
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
