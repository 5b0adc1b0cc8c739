// Prisma-backed store of the audit chain. All SQL is raw (parameterised) so the write path can
// take the chain lock, deduplicate by event_id and insert a whole batch in one statement; the
// same code runs on PostgreSQL (adapter-pg) and PGlite.
//
// Chain discipline: one row in audit_chain ('main') holds the head (last seq + hash) and the
// base (checkpoint after pruning). Every batch transaction locks that row (SELECT ... FOR
// UPDATE), so writers in any number of replicas append to a single, gap-free chain.
import {
  ChainVerifier,
  GENESIS,
  GENESIS_HASH,
  chainRecords,
  decodeCursor,
  encodeCursor,
  toExportObject,
  type AuditPage,
  type AuditQuery,
  type AuditRecordFields,
  type ChainLink,
  type ChainedAuditRecord,
  type JsonValue,
  type VerifyResult,
} from '../../core/audit';

/** The part of PrismaClient this repository uses (keeps it testable and adapter-neutral). */
export type AuditDb = {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
  $transaction<R>(
    fn: (tx: AuditTx) => Promise<R>,
    options?: { maxWait?: number; timeout?: number },
  ): Promise<R>;
};
export type AuditTx = Pick<AuditDb, '$queryRawUnsafe' | '$executeRawUnsafe'>;

export type ChainState = { head: ChainLink; base: ChainLink };
export type WriteResult = { written: number; duplicates: number; head: ChainLink };
export type PruneResult = { pruned: number; checkpoint: ChainLink | null; refused: VerifyResult | null };

const CHAIN_ID = 'main';
const TX_OPTIONS = { maxWait: 15_000, timeout: 60_000 };
// Records per append statement: keeps one statement (and one jsonb parameter) bounded when a
// large backlog is written at once (shutdown, recovery); each chunk is its own atomic append.
const APPEND_CHUNK = 500;
// Optimistic appends before taking the chain lock in a transaction (contention between replicas).
const OPTIMISTIC_TRIES = 3;

const COLUMNS = [
  ['seq', 'bigint'],
  ['event_id', 'text'],
  ['created_at', 'timestamptz'],
  ['login', 'text'],
  ['mode', 'text'],
  ['sudo', 'text'],
  ['client_name', 'text'],
  ['client_version', 'text'],
  ['tool', 'text'],
  ['operation_id', 'text'],
  ['org', 'text'],
  ['repo', 'text'],
  ['method', 'text'],
  ['path', 'text'],
  ['status', 'int'],
  ['kind', 'text'],
  ['duration_ms', 'double precision'],
  ['result_bytes', 'int'],
  ['redactions', 'int'],
  ['masks', 'int'],
  ['blocked', 'boolean'],
  ['arguments', 'jsonb'],
  ['prev_hash', 'text'],
  ['hash', 'text'],
] as const;

const SELECT_COLUMNS = `seq::text AS seq, event_id, (extract(epoch from created_at) * 1000)::bigint::text AS created_ms,
  login, mode, sudo, client_name, client_version, tool, operation_id, org, repo, method, path,
  status::text AS status, kind, duration_ms::text AS duration_ms, result_bytes::text AS result_bytes,
  redactions::text AS redactions, masks::text AS masks, blocked, arguments::text AS arguments, prev_hash, hash`;

type Row = Record<string, unknown>;

function str(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

function num(value: unknown): number {
  return Number(value ?? 0);
}

export function rowToRecord(row: Row): ChainedAuditRecord {
  return {
    seq: BigInt(String(row.seq)),
    eventId: String(row.event_id),
    createdAt: new Date(Number(row.created_ms)),
    login: str(row.login),
    mode: str(row.mode),
    sudo: str(row.sudo),
    clientName: str(row.client_name),
    clientVersion: str(row.client_version),
    tool: String(row.tool),
    operationId: str(row.operation_id),
    org: str(row.org),
    repo: str(row.repo),
    method: str(row.method),
    path: str(row.path),
    status: row.status === null || row.status === undefined ? null : num(row.status),
    kind: str(row.kind),
    durationMs: num(row.duration_ms),
    resultBytes: num(row.result_bytes),
    redactions: num(row.redactions),
    masks: num(row.masks),
    blocked: row.blocked === true || row.blocked === 't' || row.blocked === 'true',
    arguments: (typeof row.arguments === 'string'
      ? JSON.parse(row.arguments)
      : (row.arguments ?? null)) as JsonValue,
    prevHash: String(row.prev_hash),
    hash: String(row.hash),
  };
}

/** One record as a row of the jsonb_to_recordset() input of APPEND_SQL: the export shape, whose keys are the column names. */
function recordRow(record: ChainedAuditRecord): Record<string, JsonValue> {
  return toExportObject(record) as Record<string, JsonValue>;
}

const COLUMN_LIST = COLUMNS.map(([name]) => name).join(', ');

/**
 * Appends a precomputed piece of the chain in ONE statement (one round trip, atomic on its own),
 * as a compare-and-swap on the chain head: it locks the head row, and only when the head is still
 * the one the hashes were computed from ($2, $3) and none of the event ids is stored yet does it
 * insert the rows and move the head to ($4, $5). Otherwise it writes nothing and returns the
 * current head and the event ids already stored, so the caller can recompute and try again. The
 * rows travel as one jsonb parameter ($6), so the text is constant and nothing is spliced in.
 * (`= ANY (ARRAY(...))`, not `IN (SELECT ...)`: the latter plans as a scan of the whole table.)
 * No row comes back when the chain row does not exist yet.
 */
const APPEND_SQL = `WITH input AS (
  SELECT * FROM jsonb_to_recordset($6::jsonb) AS t(${COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')})
), head AS (
  SELECT head_seq, head_hash FROM audit_chain WHERE id = $1 FOR UPDATE
), dup AS (
  SELECT array_agg(r.event_id) AS ids FROM audit_records r WHERE r.event_id = ANY (ARRAY(SELECT event_id FROM input))
), ok AS (
  SELECT (h.head_seq = $2::bigint AND h.head_hash = $3::text AND d.ids IS NULL) AS go, h.head_seq, h.head_hash, d.ids
  FROM head h, dup d
), ins AS (
  INSERT INTO audit_records (${COLUMN_LIST})
  SELECT ${COLUMN_LIST} FROM input WHERE (SELECT go FROM ok)
  RETURNING 1
), moved AS (
  UPDATE audit_chain SET head_seq = $4::bigint, head_hash = $5::text, updated_at = now()
  WHERE id = $1 AND (SELECT go FROM ok)
  RETURNING 1
)
SELECT ok.go::int AS go, ok.head_seq::text AS head_seq, ok.head_hash, to_jsonb(ok.ids)::text AS ids,
  (SELECT count(*) FROM ins)::int AS inserted, (SELECT count(*) FROM moved)::int AS moved
FROM ok`;

type AppendOutcome =
  | { kind: 'written'; head: ChainLink; written: number }
  | { kind: 'conflict'; head: ChainLink; duplicates: Set<string> }
  | { kind: 'no_chain' };

/** Builds the WHERE clause of a query; returns SQL and its parameters. */
function whereClause(query: AuditQuery): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown): void => {
    params.push(value);
    parts.push(sql.replace('?', `$${params.length}`));
  };
  if (query.from) add('created_at >= ?::timestamptz', query.from.toISOString());
  if (query.to) add('created_at < ?::timestamptz', query.to.toISOString());
  if (query.login) add('login = ?::text', query.login);
  // Gitea org names are case-insensitive (a call may name "Acme" or "acme"), as in the stats.
  if (query.org) add('lower(org) = lower(?::text)', query.org);
  if (query.repo) add('repo = ?::text', query.repo);
  if (query.tool) add('tool = ?::text', query.tool);
  if (query.kind === 'ok') parts.push('kind IS NULL');
  else if (query.kind) add('kind = ?::text', query.kind);
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor);
    add(query.order === 'desc' ? 'seq < ?::bigint' : 'seq > ?::bigint', cursor.seq.toString());
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

export class AuditRecordRepository {
  constructor(private readonly db: AuditDb) {}

  private async lockChain(tx: AuditTx): Promise<ChainState> {
    await tx.$executeRawUnsafe(
      `INSERT INTO audit_chain (id, head_seq, head_hash, base_seq, base_hash) VALUES ($1, 0, $2, 0, $2) ON CONFLICT (id) DO NOTHING`,
      CHAIN_ID,
      GENESIS_HASH,
    );
    const rows = await tx.$queryRawUnsafe<Row[]>(
      `SELECT head_seq::text AS head_seq, head_hash, base_seq::text AS base_seq, base_hash FROM audit_chain WHERE id = $1 FOR UPDATE`,
      CHAIN_ID,
    );
    return toState(rows[0]);
  }

  /** The recorded head and base of the chain (genesis when nothing was written yet). */
  async chainState(): Promise<ChainState> {
    const rows = await this.db.$queryRawUnsafe<Row[]>(
      `SELECT head_seq::text AS head_seq, head_hash, base_seq::text AS base_seq, base_hash FROM audit_chain WHERE id = $1`,
      CHAIN_ID,
    );
    return rows[0] ? toState(rows[0]) : { head: GENESIS, base: GENESIS };
  }

  /**
   * Appends a batch to the chain. Records whose event_id is already stored (a retried job, or a
   * fallback write racing the queue) are skipped, so each call is stored once.
   *
   * Usual case: one statement (APPEND_SQL) with hashes computed from the head this repository
   * last wrote or read. When another writer moved the head meanwhile (another replica) or some
   * event ids are stored already, nothing is written and the statement says so; the hashes are
   * recomputed from the head it returned and the statement is sent again. After a few lost races,
   * or when the chain row does not exist yet, the append runs in a transaction that holds the
   * chain lock (SELECT ... FOR UPDATE) from the read of the head to the write.
   */
  async appendBatch(batch: readonly AuditRecordFields[]): Promise<WriteResult> {
    const unique = new Map<string, AuditRecordFields>();
    for (const fields of batch) if (!unique.has(fields.eventId)) unique.set(fields.eventId, fields);
    const fresh = [...unique.values()];
    let written = 0;
    let head: ChainLink | null = null;
    for (let i = 0; i < fresh.length; i += APPEND_CHUNK) {
      const result = await this.appendChunk(fresh.slice(i, i + APPEND_CHUNK));
      written += result.written;
      head = result.head;
    }
    return { written, duplicates: batch.length - written, head: head ?? (await this.chainState()).head };
  }

  private async appendChunk(chunk: AuditRecordFields[]): Promise<{ written: number; head: ChainLink }> {
    let fresh = chunk;
    let head = this.lastHead ?? (await this.peekHead());
    for (let attempt = 0; head && attempt < OPTIMISTIC_TRIES; attempt += 1) {
      const outcome = await this.tryAppend(this.db, head, fresh);
      if (outcome.kind === 'no_chain') break;
      this.lastHead = outcome.head;
      if (outcome.kind === 'written') return { written: outcome.written, head: outcome.head };
      fresh = fresh.filter((f) => !outcome.duplicates.has(f.eventId));
      head = outcome.head;
      if (fresh.length === 0) return { written: 0, head };
    }
    const result = await this.db.$transaction(async (tx) => {
      let locked = (await this.lockChain(tx)).head;
      // We hold the lock: the head cannot move, so at most the duplicates are dropped once.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const outcome = await this.tryAppend(tx, locked, fresh);
        if (outcome.kind === 'no_chain') break;
        if (outcome.kind === 'written') return { written: outcome.written, head: outcome.head };
        fresh = fresh.filter((f) => !outcome.duplicates.has(f.eventId));
        locked = outcome.head;
        if (fresh.length === 0) return { written: 0, head: locked };
      }
      throw new Error('audit chain append did not apply under the chain lock');
    }, TX_OPTIONS);
    this.lastHead = result.head;
    return result;
  }

  /** The head as last written or read by this repository (a hint; APPEND_SQL checks it). */
  private lastHead: ChainLink | null = null;

  /** The current head without locking, or null when the chain row does not exist yet. */
  private async peekHead(): Promise<ChainLink | null> {
    const rows = await this.db.$queryRawUnsafe<Row[]>(
      `SELECT head_seq::text AS head_seq, head_hash FROM audit_chain WHERE id = $1`,
      CHAIN_ID,
    );
    const row = rows[0];
    return row ? { seq: BigInt(String(row.head_seq)), hash: String(row.head_hash) } : null;
  }

  private async tryAppend(db: AuditTx, head: ChainLink, fresh: AuditRecordFields[]): Promise<AppendOutcome> {
    const { records, head: next } = chainRecords(head, fresh);
    const rows = await db.$queryRawUnsafe<Row[]>(
      APPEND_SQL,
      CHAIN_ID,
      head.seq.toString(),
      head.hash,
      next.seq.toString(),
      next.hash,
      JSON.stringify(records.map(recordRow)),
    );
    const row = rows[0];
    if (!row) return { kind: 'no_chain' };
    const current = { seq: BigInt(String(row.head_seq)), hash: String(row.head_hash) };
    if (Number(row.go) === 1) {
      if (Number(row.inserted) !== records.length || Number(row.moved) !== 1)
        throw new Error('audit chain append wrote a partial batch'); // cannot happen: one statement
      return { kind: 'written', head: next, written: records.length };
    }
    const ids = row.ids === null || row.ids === undefined ? [] : (JSON.parse(String(row.ids)) as string[]);
    return { kind: 'conflict', head: current, duplicates: new Set(ids) };
  }

  async count(): Promise<number> {
    const rows = await this.db.$queryRawUnsafe<Row[]>(`SELECT count(*)::text AS n FROM audit_records`);
    return Number(rows[0]?.n ?? 0);
  }

  /** One page of records matching the filters (newest first unless order is 'asc'). */
  async query(query: AuditQuery): Promise<AuditPage<ChainedAuditRecord>> {
    const { sql, params } = whereClause(query);
    params.push(query.limit + 1);
    const rows = await this.db.$queryRawUnsafe<Row[]>(
      `SELECT ${SELECT_COLUMNS} FROM audit_records ${sql} ORDER BY audit_records.seq ${query.order === 'asc' ? 'ASC' : 'DESC'} LIMIT $${params.length}`,
      ...params,
    );
    const items = rows.slice(0, query.limit).map(rowToRecord);
    const last = items[items.length - 1];
    return {
      items,
      nextCursor: rows.length > query.limit && last ? encodeCursor(last.seq, query.order) : null,
    };
  }

  /** All matching records, page by page (for export); memory stays bounded by the page size. */
  async *stream(query: AuditQuery): AsyncGenerator<ChainedAuditRecord> {
    let page: AuditPage<ChainedAuditRecord>;
    let cursor = query.cursor;
    do {
      page = await this.query({ ...query, cursor });
      yield* page.items;
      cursor = page.nextCursor;
    } while (cursor);
  }

  /** Checks the whole stored chain from its base (checkpoint) to the recorded head. */
  async verify(options: { pageSize?: number } = {}): Promise<VerifyResult & { head: ChainLink }> {
    const state = await this.chainState();
    const verifier = new ChainVerifier(state.base);
    const pageSize = options.pageSize ?? 1000;
    let after = state.base.seq;
    for (;;) {
      // Rows at or below the base should have been pruned; any left there are checked too.
      const rows = await this.db.$queryRawUnsafe<Row[]>(
        `SELECT ${SELECT_COLUMNS} FROM audit_records WHERE seq > $1::bigint ORDER BY audit_records.seq ASC LIMIT $2`,
        after.toString(),
        pageSize,
      );
      let stop = false;
      for (const row of rows) {
        const record = rowToRecord(row);
        if (!verifier.push(record)) {
          stop = true;
          break;
        }
        after = record.seq;
      }
      if (stop || rows.length < pageSize) break;
    }
    return { ...verifier.finish(state.head), head: state.head };
  }

  /**
   * Deletes the oldest records created before `before`, as a prefix of the chain, after checking
   * that prefix is intact; moves the chain base to the last pruned record and keeps a
   * checkpoint row, so the remaining chain still verifies.
   */
  async prune(before: Date): Promise<PruneResult> {
    const state = await this.chainState();
    const rows = await this.db.$queryRawUnsafe<Row[]>(
      `SELECT min(seq)::text AS keep_from FROM audit_records WHERE seq > $1::bigint AND created_at >= $2::timestamptz`,
      state.base.seq.toString(),
      before.toISOString(),
    );
    const keepFrom = rows[0]?.keep_from;
    const upTo = keepFrom === null || keepFrom === undefined ? state.head.seq : BigInt(String(keepFrom)) - 1n;
    if (upTo <= state.base.seq) return { pruned: 0, checkpoint: null, refused: null };

    // Never prune a segment that does not verify: that would erase the evidence.
    const verifier = new ChainVerifier(state.base);
    let last: ChainLink = state.base;
    for (let after = state.base.seq; after < upTo;) {
      const page = await this.db.$queryRawUnsafe<Row[]>(
        `SELECT ${SELECT_COLUMNS} FROM audit_records WHERE seq > $1::bigint AND seq <= $2::bigint ORDER BY audit_records.seq ASC LIMIT 1000`,
        after.toString(),
        upTo.toString(),
      );
      if (page.length === 0) break;
      for (const row of page) {
        const record = rowToRecord(row);
        if (!verifier.push(record)) break;
        last = { seq: record.seq, hash: record.hash };
        after = record.seq;
      }
      if (verifier.firstBreak) break;
    }
    const segment = verifier.finish(verifier.firstBreak ? null : { seq: upTo, hash: last.hash });
    if (!segment.ok || last.seq !== upTo) return { pruned: 0, checkpoint: null, refused: segment };

    return this.db.$transaction(async (tx) => {
      const locked = await this.lockChain(tx);
      if (locked.base.seq !== state.base.seq) return { pruned: 0, checkpoint: null, refused: null }; // another replica pruned
      const pruned = await tx.$executeRawUnsafe(
        `DELETE FROM audit_records WHERE seq <= $1::bigint`,
        upTo.toString(),
      );
      await tx.$executeRawUnsafe(
        `UPDATE audit_chain SET base_seq = $2::bigint, base_hash = $3, updated_at = now() WHERE id = $1`,
        CHAIN_ID,
        last.seq.toString(),
        last.hash,
      );
      await tx.$executeRawUnsafe(
        `INSERT INTO audit_checkpoints (seq, hash, pruned, pruned_before) VALUES ($1::bigint, $2, $3::int, $4::timestamptz)`,
        last.seq.toString(),
        last.hash,
        pruned,
        before.toISOString(),
      );
      return { pruned, checkpoint: last, refused: null };
    }, TX_OPTIONS);
  }
}

function toState(row: Row | undefined): ChainState {
  if (!row) return { head: GENESIS, base: GENESIS };
  return {
    head: { seq: BigInt(String(row.head_seq)), hash: String(row.head_hash) },
    base: { seq: BigInt(String(row.base_seq)), hash: String(row.base_hash) },
  };
}
