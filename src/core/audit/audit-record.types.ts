// Shapes of a stored audit record, independent of Prisma: the core computes and checks the
// hash chain over these, and the repository maps rows to and from them.
import type { AuditEntry } from '../ports';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * The fields of a record as stored, before it gets a chain position: the call path's
 * `AuditEntry` with its time named `createdAt`, the mode widened to the column's string and
 * the arguments as the JSON the column holds.
 */
export type AuditRecordFields = Omit<AuditEntry, 'time' | 'mode' | 'arguments'> & {
  createdAt: Date;
  mode: string | null;
  arguments: JsonValue;
};

/** A record with its chain position: `seq` is dense (1, 2, 3, ...), `prevHash` links to seq - 1. */
export type ChainedAuditRecord = AuditRecordFields & {
  seq: bigint;
  prevHash: string;
  hash: string;
};

/** A point of the chain: a record's seq and hash (or the genesis / a pruning checkpoint). */
export type ChainLink = { seq: bigint; hash: string };
