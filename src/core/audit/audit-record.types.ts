// Shapes of a stored audit record, independent of Prisma: the core computes and checks the
// hash chain over these, and the repository maps rows to and from them.
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The fields of a record as stored, before it gets a chain position. */
export type AuditRecordFields = {
  eventId: string;
  createdAt: Date;
  login: string | null;
  mode: string | null;
  sudo: string | null;
  clientName: string | null;
  clientVersion: string | null;
  tool: string;
  operationId: string | null;
  org: string | null;
  repo: string | null;
  method: string | null;
  path: string | null;
  status: number | null;
  kind: string | null;
  durationMs: number;
  resultBytes: number;
  redactions: number;
  masks: number;
  blocked: boolean;
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
