// The embedded database's thread (src/infra/database/pglite-thread.ts): what the main thread's
// client must keep of PGlite's behaviour for the service and pglite-prisma-adapter: the adapter's
// parsers, PostgreSQL's errors as PGlite's DatabaseError with their fields, transactions that
// commit, roll back on a throw and on an explicit rollback, and the entry point's early start
// taken over once by the first open of the same DATA_DIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messages } from '@electric-sql/pglite';
import { PGLITE_START_PARAMS } from '../../../src/infra/database/pglite-start-params';
import {
  IN_MEMORY,
  startPgliteThread,
  startPgliteThreadEarly,
  takeEarlyPgliteThread,
  type PgliteThread,
} from '../../../src/infra/database/pglite-thread';
import { startEmbeddedDatabaseEarly } from '../../../src/infra/database/pglite-early-start';

describe('PGlite in its thread', () => {
  let db: PgliteThread;
  beforeAll(async () => {
    db = startPgliteThread(IN_MEMORY, PGLITE_START_PARAMS);
    await db.waitReady;
    await db.exec('CREATE TABLE t (id int PRIMARY KEY, at timestamptz, doc jsonb, n bigint)');
  }, 120_000);
  afterAll(() => db.close());

  it('answers queries with rows, fields and affected rows', async () => {
    const insert = await db.query('INSERT INTO t (id, at, doc, n) VALUES ($1, $2, $3, $4)', [
      1,
      '2026-12-02T05:00:00Z',
      JSON.stringify({ a: 1 }),
      '9007199254740993',
    ]);
    expect(insert.affectedRows).toBe(1);
    const { rows, fields } = await db.query<{ id: number; doc: unknown }>('SELECT id, doc FROM t');
    expect(rows).toEqual([{ id: 1, doc: { a: 1 } }]);
    expect(fields.map((f) => f.name)).toEqual(['id', 'doc']);
  });

  it('applies the given parsers on the main thread to the text of their columns, in both row modes', async () => {
    const seen: Array<[string, number]> = [];
    const parsers = {
      1184: (text: string, typeId?: number) => {
        seen.push([text, typeId ?? -1]);
        return `parsed:${text}`;
      },
      20: (text: string) => BigInt(text),
    };
    const arrays = await db.query<unknown[]>('SELECT id, at, n FROM t', [], { rowMode: 'array', parsers });
    expect(arrays.rows).toEqual([[1, 'parsed:2026-12-02 05:00:00+00', 9007199254740993n]]);
    expect(seen).toEqual([['2026-12-02 05:00:00+00', 1184]]);
    const objects = await db.query<{ at: unknown }>('SELECT at FROM t', [], { parsers });
    expect(objects.rows).toEqual([{ at: 'parsed:2026-12-02 05:00:00+00' }]);
    const nulls = await db.query<unknown[]>('SELECT NULL::timestamptz AS at', [], {
      rowMode: 'array',
      parsers,
    });
    expect(nulls.rows).toEqual([[null]]);
  });

  it("rebuilds PostgreSQL's errors as PGlite's DatabaseError with their code and detail", async () => {
    const error = await db.query('INSERT INTO t (id) VALUES (1)').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(messages.DatabaseError);
    expect(error).toMatchObject({ code: '23505', severity: 'ERROR', constraint: 't_pkey' });
    expect((error as Error).message).toMatch(/duplicate key/);
    await expect(db.exec('SELEC 1')).rejects.toMatchObject({ code: '42601' });
  });

  it('commits a transaction that resolves and rolls back one that throws or calls rollback', async () => {
    const committed = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id) VALUES (2)');
      return (await tx.query<{ c: number }>('SELECT count(*)::int AS c FROM t')).rows[0]?.c;
    });
    expect(committed).toBe(2);
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES (3)');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id) VALUES (4)');
      await tx.rollback();
      expect(tx.closed).toBe(true);
    });
    const { rows } = await db.query<{ id: number }>('SELECT id FROM t ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual([1, 2]);
    // A failed statement inside the transaction rolls the whole of it back.
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES (5)');
        await tx.query('INSERT INTO t (id) VALUES (1)');
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await db.query('SELECT id FROM t WHERE id = 5')).rows).toEqual([]);
  });
});

describe('the entry point starts the thread early', () => {
  const dirs: string[] = [];
  // A configuration the entry point accepts (startup-checks.test.ts uses the same shape).
  const accepted = {
    GITEA_URL: 'http://127.0.0.1:3000',
    GITEA_TOKEN: 'gitea-token',
    MCP_BEARER_TOKEN: 'b'.repeat(32),
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('for the embedded default with a DATA_DIR, taken over once by the same DATA_DIR', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'aegis-early-'));
    dirs.push(dataDir);
    expect(startEmbeddedDatabaseEarly({ ...accepted, DATA_DIR: dataDir })).toBe(true);
    expect(takeEarlyPgliteThread(join(dataDir, 'other'))).toBeNull();
    const thread = takeEarlyPgliteThread(dataDir);
    expect(thread).not.toBeNull();
    expect(takeEarlyPgliteThread(dataDir)).toBeNull();
    await thread?.waitReady;
    expect((await thread?.query<{ one: number }>('SELECT 1 AS one'))?.rows).toEqual([{ one: 1 }]);
    await thread?.close();
  }, 120_000);

  it('not for PostgreSQL, memory:// or a configuration the entry point refuses', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'aegis-early-'));
    dirs.push(dataDir);
    const base = { ...accepted, DATA_DIR: dataDir };
    expect(startEmbeddedDatabaseEarly({ ...base, DATABASE_URL: 'postgresql://u@127.0.0.1:1/db' })).toBe(
      false,
    );
    expect(startEmbeddedDatabaseEarly({ ...base, DATA_DIR: 'memory://' })).toBe(false);
    expect(startEmbeddedDatabaseEarly({ ...base, PORT: 'not-a-port' })).toBe(false);
    expect(startEmbeddedDatabaseEarly({ ...base, MCP_BEARER_TOKEN: 'short' })).toBe(false);
    expect(startPgliteThreadEarly(IN_MEMORY, PGLITE_START_PARAMS)).toBe(false);
    expect(takeEarlyPgliteThread(dataDir)).toBeNull();
  });
});
