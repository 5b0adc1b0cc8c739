// The embedded database (PGlite) runs in a worker thread; this is the main thread's client. Filling
// a new DATA_DIR from the template (~0.5 s of CPU, mostly the kernel creating files) and starting
// PGlite (compiling its WebAssembly, starting PostgreSQL: ~0.8 s) then use the second core while
// the main thread loads Nest and the service's modules (~2 s), instead of coming after them; the
// entry point starts the thread before it loads anything else (pglite-early-start.ts). Every query
// afterwards is one message each way; PGlite's own work (the audit trail's inserts, Prisma's
// queries) leaves the event loop too. The client offers the part of PGlite's API the service and
// pglite-prisma-adapter use: query (with parsers, applied here), exec, transaction, close.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results, RowMode } from '@electric-sql/pglite';

export const IN_MEMORY = 'memory://';

export type PgliteThreadInit = { dir: string | null; startParams: string[] };

export type ThreadRequestBody =
  | {
      op: 'query';
      sql: string;
      params: unknown[];
      tx?: number;
      rowMode?: RowMode;
      paramTypes?: number[];
      textTypes?: number[];
    }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'rollback'; tx: number }
  | { op: 'close' };

export type ThreadRequest = { id: number } & ThreadRequestBody;

export type ThreadError = {
  message: string;
  name: string;
  stack?: string;
  /** A PGlite DatabaseError (pglite-prisma-adapter maps those by their code). */
  database: boolean;
  fields: Record<string, string | number | boolean | null>;
};

export type ThreadReply = { id: number } & (
  { ok: true; result: unknown } | { ok: false; error: ThreadError }
);

/** What a transaction callback gets (PGlite's Transaction, without listen and sql). */
export type PgliteThreadTx = {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
};

/** The worker's entry: the compiled worker, or a bootstrap that compiles the .ts sources (jest, dev). */
function workerFile(): string {
  const js = join(__dirname, 'pglite-thread.worker.js');
  return existsSync(js) ? js : join(__dirname, 'pglite-thread-bootstrap.cjs');
}

function fromThreadError(error: ThreadError): Error {
  let made: Error;
  if (error.database) {
    // The same class pglite-prisma-adapter checks with instanceof (loaded on the first database error).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { messages } = require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
    made = new messages.DatabaseError(error.message, 0, 'error');
  } else {
    made = new Error(error.message);
    made.name = error.name;
  }
  const { name: _name, length: _length, ...fields } = error.fields;
  Object.assign(made, fields);
  if (error.stack) made.stack = error.stack;
  return made;
}

export class PgliteThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private exited: Error | null = null;
  private closing: Promise<void> | null = null;
  /** Resolves when PGlite is open (rejects when it could not be opened). */
  readonly waitReady: Promise<void>;

  constructor(init: PgliteThreadInit) {
    this.worker = new Worker(workerFile(), { workerData: init });
    let ready!: () => void;
    let failed!: (e: Error) => void;
    this.waitReady = new Promise<void>((res, rej) => {
      ready = res;
      failed = rej;
    });
    this.waitReady.catch(() => undefined); // reported to whoever awaits it
    this.worker.on('message', (reply: ThreadReply) => {
      if (reply.id === 0) {
        if (reply.ok) {
          ready();
          this.idle();
        } else failed(fromThreadError(reply.error));
        return;
      }
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      this.idle();
      if (reply.ok) waiting.resolve(reply.result);
      else waiting.reject(fromThreadError(reply.error));
    });
    const gone = (error: Error) => {
      this.exited ??= error;
      failed(error);
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', gone);
    this.worker.on('exit', (code) => gone(new Error(`the embedded database thread exited (code ${code})`)));
  }

  /** The thread keeps the process alive only while a request is in flight (like PGlite in process). */
  private idle(): void {
    if (this.pending.size === 0) this.worker.unref();
  }

  private call<T>(request: ThreadRequestBody): Promise<T> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    return new Promise<T>((res, rej) => {
      this.pending.set(id, { resolve: res as (v: unknown) => void, reject: rej });
      this.worker.ref();
      this.worker.postMessage({ ...request, id });
    });
  }

  async query<T>(
    sql: string,
    params: unknown[] = [],
    options: QueryOptions = {},
    tx?: number,
  ): Promise<Results<T>> {
    if (options.serializers || options.blob || options.onNotice)
      throw new Error('the embedded database thread takes no serializers, blob or onNotice');
    await this.waitReady;
    const parsers = options.parsers;
    const result = await this.call<Results<T>>({
      op: 'query',
      sql,
      params,
      ...(tx === undefined ? {} : { tx }),
      ...(options.rowMode ? { rowMode: options.rowMode } : {}),
      ...(options.paramTypes ? { paramTypes: options.paramTypes } : {}),
      ...(parsers ? { textTypes: Object.keys(parsers).map(Number) } : {}),
    });
    if (parsers) applyParsers(result, parsers, options.rowMode === 'array');
    return result;
  }

  async exec(sql: string, tx?: number): Promise<Results[]> {
    await this.waitReady;
    return this.call<Results[]>({ op: 'exec', sql, ...(tx === undefined ? {} : { tx }) });
  }

  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<R>(fn: (tx: PgliteThreadTx) => Promise<R>): Promise<R> {
    await this.waitReady;
    const id = await this.call<number>({ op: 'begin' });
    let closed = false;
    const tx: PgliteThreadTx = {
      query: <T>(sql: string, params?: unknown[], options?: QueryOptions) =>
        this.query<T>(sql, params, options, id),
      exec: (sql: string) => this.exec(sql, id),
      rollback: async () => {
        await this.call({ op: 'rollback', tx: id });
        closed = true;
      },
      get closed() {
        return closed;
      },
    };
    let result: R;
    try {
      result = await fn(tx);
    } catch (error) {
      closed = true;
      await this.call({ op: 'end', tx: id, commit: false }).catch(() => undefined);
      throw error;
    }
    closed = true;
    await this.call({ op: 'end', tx: id, commit: true });
    return result;
  }

  /** Closes PGlite (its files consistent on disk), then the thread. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        await this.waitReady.catch(() => undefined);
        if (!this.exited) await this.call({ op: 'close' });
      } finally {
        await this.worker.terminate();
      }
    })();
    return this.closing;
  }
}

function applyParsers(
  result: Results<unknown>,
  parsers: NonNullable<QueryOptions['parsers']>,
  arrays: boolean,
): void {
  result.fields.forEach((field, column) => {
    const parse = parsers[field.dataTypeID];
    if (!parse) return;
    for (const row of result.rows as Array<Record<string | number, unknown>>) {
      const key = arrays ? column : field.name;
      const value = row[key];
      if (typeof value === 'string')
        row[key] = (parse as (x: string, typeId: number) => unknown)(value, field.dataTypeID);
    }
  });
}

/** PGlite's directory below DATA_DIR, or null for an in-memory database. */
export function pgliteDirOf(dataDir: string): string | null {
  return dataDir === IN_MEMORY ? null : join(resolve(dataDir), 'pglite');
}

/**
 * V8 compiles PGlite's 9 MB WebAssembly module with its baseline compiler (Liftoff) and then
 * recompiles hot functions with its optimising one in the background. For the audit store's small
 * queries that second tier costs about 60 MB of resident memory and, on two cores, more CPU than
 * its faster code saves (2,000 inserts: 8.0 s with it, 3.8 s without, Node 20 and 22). V8's flags
 * are the process's: this also applies to the thread, and to Prisma's query compiler.
 */
function baselineWasmOnly(): void {
  setFlagsFromString('--liftoff-only');
}

const early = new Map<string, PgliteThread>();

/** Starts PGlite for `dataDir` in a new thread (not yet ready). */
export function startPgliteThread(dataDir: string, startParams: string[]): PgliteThread {
  baselineWasmOnly();
  return new PgliteThread({ dir: pgliteDirOf(dataDir), startParams });
}

/** The entry point's early start: the thread the first open of the same DATA_DIR takes over. */
export function startPgliteThreadEarly(dataDir: string, startParams: string[]): boolean {
  if (dataDir === IN_MEMORY) return false;
  const key = pgliteDirOf(dataDir) as string;
  if (!early.has(key)) early.set(key, startPgliteThread(dataDir, startParams));
  return true;
}

/** The early-started thread for `dataDir`, once (null when none was started for it). */
export function takeEarlyPgliteThread(dataDir: string): PgliteThread | null {
  const key = pgliteDirOf(dataDir);
  if (key === null) return null;
  const thread = early.get(key) ?? null;
  early.delete(key);
  return thread;
}
