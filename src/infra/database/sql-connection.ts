// The one SQL session the migrator needs: parameterised queries and multi-statement scripts.
// Both drivers run a script through the simple-query protocol, so a migration file without its
// own BEGIN/COMMIT still applies atomically, as it does under `prisma migrate deploy`.
import type { PGlite } from '@electric-sql/pglite';
import type { PgliteThread } from './pglite-thread';
// pg is loaded when a PostgreSQL connection is opened: the embedded default never needs it.
import type { Client as PgClient } from 'pg';

export interface SqlConnection {
  query<T extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  exec(script: string): Promise<void>;
  close(): Promise<void>;
  /** True on a real PostgreSQL server (advisory locks matter there). */
  readonly shared: boolean;
}

/** PGlite in this thread (the build's template) or the embedded database's thread. */
export function pgliteConnection(
  db: Pick<PGlite, 'query' | 'exec'> | Pick<PgliteThread, 'query' | 'exec'>,
): SqlConnection {
  return {
    shared: false,
    async query<T extends Record<string, unknown>>(sql: string, params: unknown[] = []) {
      return (await db.query<T>(sql, params)).rows;
    },
    async exec(script) {
      await db.exec(script);
    },
    // The PGlite instance belongs to the caller (it is also Prisma's database).
    async close() {},
  };
}

export async function postgresConnection(connectionString: string): Promise<SqlConnection> {
  const { Client } = (await import('pg')) as { Client: typeof PgClient };
  const client = new Client({ connectionString });
  await client.connect();
  return {
    shared: true,
    async query<T extends Record<string, unknown>>(sql: string, params: unknown[] = []) {
      return (await client.query<T>(sql, params)).rows;
    },
    async exec(script) {
      await client.query(script);
    },
    async close() {
      await client.end();
    },
  };
}
