// Opens the database the configuration asks for: PostgreSQL through @prisma/adapter-pg when
// DATABASE_URL is set, otherwise embedded PGlite (files under DATA_DIR/pglite, or in memory for
// "memory://") through pglite-prisma-adapter. Both get the same migrations and the same client.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../../generated/prisma/client';
import { migrate, type MigrationResult } from './migrator';
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
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
  return {
    kind: 'postgres',
    prisma,
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
    },
  };
}

/**
 * The embedded database holds the audit trail of one sidecar: a small working set. PostgreSQL's
 * default 128 MB of shared buffers cost about 130 MB of resident memory and half a second of start
 * (the buffer pool lives in, and is initialised inside, the WebAssembly memory); 16 MB is plenty.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

function pgliteOptions(): PGliteOptions {
  return { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`] };
}

async function openPglite(dataDir: string, migrationsDir?: string): Promise<Database> {
  let pglite: PGlite;
  if (dataDir === IN_MEMORY_DATA_DIR) {
    pglite = new PGlite(pgliteOptions());
  } else {
    const dir = join(resolve(dataDir), 'pglite');
    mkdirSync(dir, { recursive: true });
    pglite = new PGlite(dir, pgliteOptions());
  }
  await pglite.waitReady;
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  let closed = false;
  return {
    kind: 'pglite',
    prisma,
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
