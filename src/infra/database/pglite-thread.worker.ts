// The embedded database's thread (pglite-thread.ts says why): fills a new data directory from the
// build's template, starts PGlite in it (or in memory) and answers the main thread's queries,
// scripts and transactions, one message each way per request. The main thread's client applies
// the parsers it was given (functions cannot cross threads): the columns they cover come back as
// PostgreSQL's text.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';
import { preparePgliteDataDir } from './pglite-data-dir';
import type { PgliteThreadInit, ThreadError, ThreadReply, ThreadRequest } from './pglite-thread';

const init = workerData as PgliteThreadInit;
const port = parentPort;

/** An error as plain data: its message, name, stack and the primitive fields (PostgreSQL's code, detail, ...). */
function toThreadError(error: unknown, database: boolean): ThreadError {
  if (!(error instanceof Error))
    return { message: String(error), name: 'Error', database: false, fields: {} };
  const fields: ThreadError['fields'] = {};
  for (const [key, value] of Object.entries(error))
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value))
      fields[key] = value as string | number | boolean | null;
  return { message: error.message, name: error.name, stack: error.stack, database, fields };
}

async function main(): Promise<void> {
  if (!port) return;
  const { PGlite, messages } = await import('@electric-sql/pglite');
  const isDatabaseError = (e: unknown) => e instanceof messages.DatabaseError;
  let db: PGlite;
  try {
    const options = { startParams: [...PGlite.defaultStartParams, ...init.startParams] };
    if (init.dir === null) db = new PGlite(options);
    else {
      mkdirSync(dirname(init.dir), { recursive: true });
      await preparePgliteDataDir(init.dir);
      db = new PGlite(init.dir, options);
    }
    await db.waitReady;
  } catch (error) {
    port.postMessage({ id: 0, ok: false, error: toThreadError(error, false) } satisfies ThreadReply);
    return;
  }
  const transactions = new Map<number, { tx: Transaction; end: (commit: boolean) => void }>();
  let nextTx = 1;
  const textParsers = new Map<string, QueryOptions['parsers']>();
  const asText = (types: number[]) => {
    const key = types.join(',');
    let parsers = textParsers.get(key);
    if (!parsers)
      textParsers.set(key, (parsers = Object.fromEntries(types.map((t) => [t, (x: string) => x]))));
    return parsers;
  };
  const on = (id: number | undefined): Pick<PGlite, 'query' | 'exec'> => {
    if (id === undefined) return db;
    const open = transactions.get(id);
    if (!open) throw new Error('Transaction is closed');
    return open.tx;
  };

  async function handle(request: ThreadRequest): Promise<unknown> {
    switch (request.op) {
      case 'query': {
        const options: QueryOptions = {};
        if (request.rowMode) options.rowMode = request.rowMode;
        if (request.paramTypes) options.paramTypes = request.paramTypes;
        if (request.textTypes?.length) options.parsers = asText(request.textTypes);
        const { rows, fields, affectedRows } = await on(request.tx).query(
          request.sql,
          request.params,
          options,
        );
        return { rows, fields, ...(affectedRows === undefined ? {} : { affectedRows }) };
      }
      case 'exec': {
        const results = await on(request.tx).exec(request.sql);
        return results.map(({ rows, fields, affectedRows }) => ({
          rows,
          fields,
          ...(affectedRows === undefined ? {} : { affectedRows }),
        }));
      }
      case 'begin': {
        const id = nextTx++;
        return await new Promise<number>((opened, failed) => {
          const done = db.transaction(
            (tx) =>
              new Promise<void>((commit, rollback) => {
                transactions.set(id, {
                  tx,
                  end: (ok) => (ok ? commit() : rollback(new Error('rolled back by the caller'))),
                });
                opened(id);
              }),
          );
          // The transaction's outcome is answered by 'end'; a failed BEGIN answers 'begin'.
          ends.set(id, done);
          done.catch((error: unknown) => {
            if (!transactions.has(id)) failed(error);
          });
        });
      }
      case 'end': {
        const open = transactions.get(request.tx);
        const done = ends.get(request.tx);
        if (!open || !done) throw new Error('Transaction is closed');
        open.end(request.commit);
        try {
          await done;
        } catch (error) {
          if (request.commit) throw error; // a failed COMMIT
        } finally {
          transactions.delete(request.tx);
          ends.delete(request.tx);
        }
        return null;
      }
      case 'rollback': {
        const open = transactions.get(request.tx);
        if (!open) throw new Error('Transaction is closed');
        await open.tx.rollback();
        return null;
      }
      case 'close':
        await db.close();
        return null;
    }
  }
  const ends = new Map<number, Promise<unknown>>();

  port.on('message', (request: ThreadRequest) => {
    handle(request).then(
      (result) => port.postMessage({ id: request.id, ok: true, result } satisfies ThreadReply),
      (error: unknown) =>
        port.postMessage({
          id: request.id,
          ok: false,
          error: toThreadError(error, isDatabaseError(error)),
        } satisfies ThreadReply),
    );
  });
  port.postMessage({ id: 0, ok: true, result: null } satisfies ThreadReply);
}

void main();
