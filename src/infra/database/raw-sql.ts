// Raw SQL on the database driver itself (pg's pool, or the PGlite instance), shaped like the
// part of PrismaClient the audit trail uses ($queryRawUnsafe, $executeRawUnsafe, $transaction).
// Prisma 7 sends even raw SQL through its query compiler, a 4.4 MB base64 WebAssembly module that
// costs 55-70 MB of resident memory once instantiated and CPU on every statement; the audit
// trail, written on every call, needs none of it. Its repository casts every column it reads
// (`::text`, `::int`), so the values read the same through either driver. Prisma keeps serving
// the models (OAuth, grants, console); on PostgreSQL both share one pool.
import type { PGlite } from '@electric-sql/pglite';
import type { PgliteThread, PgliteThreadTx } from './pglite-thread';
import type { Pool, PoolClient } from 'pg';

export type RawSqlTx = {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
};

export type RawSql = RawSqlTx & {
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws.
   * `maxWait` bounds the wait for a connection, `timeout` the whole transaction (PostgreSQL; the
   * embedded database has one session and no other process to wait for).
   */
  $transaction<R>(
    fn: (tx: RawSqlTx) => Promise<R>,
    options?: { maxWait?: number; timeout?: number },
  ): Promise<R>;
};

class TransactionTimeout extends Error {
  constructor(what: string, ms: number) {
    super(`${what} exceeded ${ms} ms`);
    this.name = 'TransactionTimeout';
  }
}

function within<T>(
  promise: Promise<T>,
  ms: number | undefined,
  what: string,
  onLate?: (value: T) => void,
): Promise<T> {
  if (!ms || ms <= 0) return promise;
  let timer: NodeJS.Timeout | undefined;
  let late = false;
  return Promise.race([
    promise.then(
      (value) => {
        if (late) onLate?.(value);
        return value;
      },
      (error: unknown) => {
        throw error;
      },
    ),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        late = true;
        reject(new TransactionTimeout(what, ms));
      }, ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function pgSession(
  run: (sql: string, values: unknown[]) => Promise<{ rows: unknown[]; rowCount: number | null }>,
): RawSqlTx {
  return {
    async $queryRawUnsafe<T>(query: string, ...values: unknown[]) {
      return (await run(query, values)).rows as T;
    },
    async $executeRawUnsafe(query: string, ...values: unknown[]) {
      return (await run(query, values)).rowCount ?? 0;
    },
  };
}

export function postgresRawSql(pool: Pool): RawSql {
  return {
    ...pgSession((sql, values) => pool.query(sql, values)),
    async $transaction(fn, options = {}) {
      // A connection that arrives after maxWait goes straight back to the pool.
      const client: PoolClient = await within(
        pool.connect(),
        options.maxWait,
        'waiting for a connection',
        (late) => late.release(),
      );
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const tx = pgSession((sql, values) => client.query(sql, values));
        const work = (async () => {
          const result = await fn(tx);
          await client.query('COMMIT');
          return result;
        })();
        work.catch(() => undefined); // settled below or abandoned with its connection
        return await within(work, options.timeout, 'transaction');
      } catch (error) {
        if (error instanceof TransactionTimeout)
          broken = error; // mid-statement: the connection is dropped
        else await client.query('ROLLBACK').catch((e: unknown) => (broken = e as Error));
        throw error;
      } finally {
        // Releasing with an error destroys the connection; the server rolls its transaction back.
        client.release(broken);
      }
    },
  };
}

function pgliteSession(db: Pick<PGlite, 'query'> | Pick<PgliteThreadTx, 'query'>): RawSqlTx {
  return {
    async $queryRawUnsafe<T>(query: string, ...values: unknown[]) {
      return (await db.query(query, values)).rows as T;
    },
    async $executeRawUnsafe(query: string, ...values: unknown[]) {
      return (await db.query(query, values)).affectedRows ?? 0;
    },
  };
}

export function pgliteRawSql(pglite: Pick<PgliteThread, 'query' | 'transaction'>): RawSql {
  return {
    ...pgliteSession(pglite),
    $transaction: (fn) => pglite.transaction((tx) => fn(pgliteSession(tx))),
  };
}
