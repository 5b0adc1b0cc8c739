// Hash chain over audit records. Each record's hash covers a canonical serialisation of all of
// its stored fields plus the previous record's hash, so altering, inserting or deleting a row
// breaks the chain at that row (or at the next one). `seq` is dense, so deletions also show as
// gaps. The chain starts at GENESIS, or after pruning at a checkpoint (last pruned seq + hash).
import { hash } from 'node:crypto';
import type { AuditRecordFields, ChainLink, ChainedAuditRecord, JsonValue } from './audit-record.types';

export const CHAIN_VERSION = 'aegis-audit-v1';
export const GENESIS_HASH = '0'.repeat(64);
export const GENESIS: ChainLink = { seq: 0n, hash: GENESIS_HASH };

/** JSON with object keys sorted at every depth: jsonb does not keep key order, so we cannot either. */
// Built by appending (no array of parts per object or array); the text is the same as
// `[${items.map(canonicalJson).join(',')}]` and `{${keys.map(...).join(',')}}` would make, an item
// without a JSON text (undefined) included: it is empty, as join makes it.
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += (canonicalJson(value[i] as JsonValue) as string | undefined) ?? '';
    }
    return `${out}]`;
  }
  const keys = Object.keys(value).sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (i > 0) out += ',';
    out += `${JSON.stringify(key)}:${canonicalJson(value[key] as JsonValue)}`;
  }
  return `${out}}`;
}

/** The exact bytes that are hashed for one record (exported for documentation and tests). */
export function canonicalRecord(fields: AuditRecordFields, seq: bigint, prevHash: string): string {
  const ordered: JsonValue = [
    CHAIN_VERSION,
    seq.toString(),
    fields.eventId,
    fields.createdAt.toISOString(),
    fields.login,
    fields.mode,
    fields.sudo,
    fields.clientName,
    fields.clientVersion,
    fields.tool,
    fields.operationId,
    fields.org,
    fields.repo,
    fields.method,
    fields.path,
    fields.status,
    fields.kind,
    fields.durationMs,
    fields.resultBytes,
    fields.redactions,
    fields.masks,
    fields.blocked,
    fields.arguments,
    prevHash,
  ];
  return canonicalJson(ordered);
}

export function hashRecord(fields: AuditRecordFields, seq: bigint, prevHash: string): string {
  return hash('sha256', canonicalRecord(fields, seq, prevHash), 'hex');
}

/** Appends records after `head`; returns the chained records and the new head. */
export function chainRecords(
  head: ChainLink,
  batch: readonly AuditRecordFields[],
): { records: ChainedAuditRecord[]; head: ChainLink } {
  let seq = head.seq;
  let prevHash = head.hash;
  const records = batch.map((fields) => {
    seq += 1n;
    const hash = hashRecord(fields, seq, prevHash);
    const record: ChainedAuditRecord = { ...fields, seq, prevHash, hash };
    prevHash = hash;
    return record;
  });
  return { records, head: { seq, hash: prevHash } };
}

export type ChainBreakReason =
  | 'hash_mismatch' // the row's content no longer matches its hash (altered)
  | 'prev_hash_mismatch' // the row does not link to its predecessor (altered link or replaced row)
  | 'missing_records' // a gap in seq (deleted rows), or rows missing at the tail
  | 'out_of_order' // seq repeats or goes backwards
  | 'head_mismatch'; // the last row disagrees with the recorded chain head

export type ChainBreak = {
  reason: ChainBreakReason;
  /** Where the break was found: the seq of the offending row, or the first missing seq. */
  seq: bigint;
  eventId: string | null;
  detail: string;
};

export type VerifyResult = {
  ok: boolean;
  checked: number;
  anchor: ChainLink;
  last: ChainLink;
  firstBreak: ChainBreak | null;
};

/**
 * Streaming verifier: push records in ascending seq order, then finish() with the recorded
 * head (if known) to detect truncation at the tail. Stops at the first break.
 */
export class ChainVerifier {
  private last: ChainLink;
  private checked = 0;
  private broken: ChainBreak | null = null;

  constructor(private readonly anchor: ChainLink = GENESIS) {
    this.last = anchor;
  }

  get firstBreak(): ChainBreak | null {
    return this.broken;
  }

  /** Returns false once the chain is broken (callers may stop reading). */
  push(record: ChainedAuditRecord): boolean {
    if (this.broken) return false;
    const expected = this.last.seq + 1n;
    const where = { seq: record.seq, eventId: record.eventId };
    if (record.seq < expected) {
      return this.fail({
        ...where,
        reason: 'out_of_order',
        detail: `seq ${record.seq} after ${this.last.seq}`,
      });
    }
    if (record.seq > expected) {
      const count = record.seq - expected;
      return this.fail({
        seq: expected,
        eventId: null,
        reason: 'missing_records',
        detail: `${count} record(s) missing: seq ${expected}..${record.seq - 1n}`,
      });
    }
    if (record.prevHash !== this.last.hash) {
      return this.fail({
        ...where,
        reason: 'prev_hash_mismatch',
        detail: `row ${record.seq} does not link to row ${this.last.seq}`,
      });
    }
    const computed = hashRecord(record, record.seq, record.prevHash);
    if (computed !== record.hash) {
      return this.fail({
        ...where,
        reason: 'hash_mismatch',
        detail: `row ${record.seq} was altered after it was written`,
      });
    }
    this.last = { seq: record.seq, hash: record.hash };
    this.checked += 1;
    return true;
  }

  finish(head?: ChainLink | null): VerifyResult {
    if (!this.broken && head) {
      if (head.seq > this.last.seq) {
        this.fail({
          seq: this.last.seq + 1n,
          eventId: null,
          reason: 'missing_records',
          detail: `${head.seq - this.last.seq} record(s) missing at the end: seq ${this.last.seq + 1n}..${head.seq}`,
        });
      } else if (head.seq < this.last.seq || head.hash !== this.last.hash) {
        this.fail({
          seq: this.last.seq,
          eventId: null,
          reason: 'head_mismatch',
          detail: `chain head says seq ${head.seq}, last row is seq ${this.last.seq}`,
        });
      }
    }
    return {
      ok: !this.broken,
      checked: this.checked,
      anchor: this.anchor,
      last: this.last,
      firstBreak: this.broken,
    };
  }

  private fail(broken: ChainBreak): false {
    this.broken = broken;
    return false;
  }
}

/** Convenience for in-memory lists (tests, small exports). */
export function verifyChain(
  records: Iterable<ChainedAuditRecord>,
  anchor: ChainLink = GENESIS,
  head?: ChainLink | null,
): VerifyResult {
  const verifier = new ChainVerifier(anchor);
  for (const record of records) if (!verifier.push(record)) break;
  return verifier.finish(head);
}
