// Turns the call path's AuditEntry into the exact fields that are stored and hashed. The
// executor already redacts arguments; this is the last line of defence before the database:
// known secret values are scrubbed from every text column and from the arguments (strings
// and keys), and values Postgres would reject (NUL characters) or that would not survive a
// jsonb round trip unchanged (undefined, NaN, bigint, cycles) are normalised, so the hash
// computed now matches the row read back later.
import type { AuditEntry } from '../ports';
import type { AuditRecordFields, JsonValue } from './audit-record.types';
import { boundArguments } from './bound-arguments.util';
import { REDACTED } from '../secrets/redaction-marker';

export const AUDIT_REDACTED = REDACTED;
const MAX_TEXT = 2048; // per text column (paths can be long, but not unbounded)
const MAX_DEPTH = 16;
export const DEFAULT_MAX_ARGUMENT_CHARS = 64 * 1024;

export type PrepareOptions = {
  /** Exact secret values (configured tokens) that must never land in a column. */
  exactSecrets?: readonly string[];
  /** Serialised size above which argument values are cut, longest first (bound-arguments.util). */
  maxArgumentChars?: number;
};

// ES2024 string methods (Node >= 20); the project's lib setting predates them.
type WellFormed = string & { isWellFormed(): boolean; toWellFormed(): string };

type Scrubber = { scrub(text: string): string; count: number };

function makeScrubber(secrets: readonly string[]): Scrubber {
  // Longest first, so a secret that contains another is replaced whole.
  const list = [...new Set(secrets.filter((s) => typeof s === 'string' && s.length >= 4))].sort(
    (a, b) => b.length - a.length,
  );
  const state: Scrubber = {
    count: 0,
    scrub(text: string): string {
      let out = text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
      // A lone surrogate cannot be stored as UTF-8 (text: silently replaced, so the hash would
      // no longer match; jsonb: rejected): replace it with U+FFFD before hashing.
      if (!(out as WellFormed).isWellFormed()) out = (out as WellFormed).toWellFormed();
      for (const secret of list) {
        if (out.includes(secret)) {
          const parts = out.split(secret);
          state.count += parts.length - 1;
          out = parts.join(AUDIT_REDACTED);
        }
      }
      return out;
    },
  };
  return state;
}

function toJson(value: unknown, scrubber: Scrubber, depth: number, seen: Set<object>): JsonValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
      return scrubber.scrub(value);
    case 'number':
      return Number.isFinite(value) ? (Object.is(value, -0) ? 0 : value) : null;
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    default:
      return null; // functions, symbols
  }
  const obj = value as object;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (seen.has(obj)) return '[circular]';
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? null : obj.toISOString();
  if (obj instanceof Uint8Array) return `[${obj.byteLength} bytes]`;
  seen.add(obj);
  try {
    if (Array.isArray(obj)) return obj.map((item) => toJson(item, scrubber, depth + 1, seen));
    const out: { [key: string]: JsonValue } = {};
    for (const [key, item] of Object.entries(obj)) {
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      out[scrubber.scrub(key)] = toJson(item, scrubber, depth + 1, seen);
    }
    return out;
  } finally {
    seen.delete(obj);
  }
}

function text(value: string | null | undefined, scrubber: Scrubber): string | null {
  if (value === null || value === undefined) return null;
  const clean = scrubber.scrub(String(value));
  return clean.length > MAX_TEXT ? `${clean.slice(0, MAX_TEXT - 1)}…` : clean;
}

function count(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.min(Math.round(value), 2_147_483_647) : 0;
}

/** Normalises and scrubs one entry. `scrubbed` counts secret values removed here (should be 0). */
export function prepareAuditFields(
  entry: AuditEntry,
  options: PrepareOptions = {},
): { fields: AuditRecordFields; scrubbed: number } {
  const scrubber = makeScrubber(options.exactSecrets ?? []);
  const maxChars = options.maxArgumentChars ?? DEFAULT_MAX_ARGUMENT_CHARS;
  let args = toJson(entry.arguments, scrubber, 0, new Set());
  args = boundArguments(args, maxChars);
  const time = entry.time instanceof Date && !Number.isNaN(entry.time.getTime()) ? entry.time : new Date();
  const status = entry.status === null || entry.status === undefined ? null : count(entry.status);
  const fields: AuditRecordFields = {
    eventId: text(entry.eventId, scrubber) ?? '',
    // Stored as timestamptz(3): keep millisecond precision only.
    createdAt: new Date(Math.floor(time.getTime())),
    login: text(entry.login, scrubber),
    mode: text(entry.mode, scrubber),
    sudo: text(entry.sudo, scrubber),
    clientName: text(entry.clientName, scrubber),
    clientVersion: text(entry.clientVersion, scrubber),
    tool: text(entry.tool, scrubber) ?? '',
    operationId: text(entry.operationId, scrubber),
    org: text(entry.org, scrubber),
    repo: text(entry.repo, scrubber),
    method: text(entry.method, scrubber),
    path: text(entry.path, scrubber),
    status,
    kind: text(entry.kind, scrubber),
    // duration_ms is double precision: keep microseconds, drop float noise beyond that.
    durationMs:
      Number.isFinite(entry.durationMs) && entry.durationMs > 0
        ? Math.round(entry.durationMs * 1000) / 1000
        : 0,
    resultBytes: count(entry.resultBytes),
    redactions: count(entry.redactions),
    masks: count(entry.masks),
    blocked: entry.blocked === true,
    arguments: args,
  };
  return { fields, scrubbed: scrubber.count };
}

/** Serialisable form of an entry for a queue job (Dates become ISO strings). */
export type AuditJobEntry = Omit<AuditRecordFields, 'createdAt'> & { createdAt: string };

export function toJobEntry(fields: AuditRecordFields): AuditJobEntry {
  return { ...fields, createdAt: fields.createdAt.toISOString() };
}

/** Validates a job payload read back from the queue (it crossed a process boundary). */
export function fromJobEntry(raw: unknown): AuditRecordFields | null {
  if (!raw || typeof raw !== 'object') return null;
  const job = raw as Record<string, unknown>;
  if (typeof job.eventId !== 'string' || job.eventId === '' || typeof job.tool !== 'string') return null;
  const createdAt = new Date(typeof job.createdAt === 'string' ? job.createdAt : NaN);
  if (Number.isNaN(createdAt.getTime())) return null;
  const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    eventId: job.eventId,
    createdAt,
    login: str(job.login),
    mode: str(job.mode),
    sudo: str(job.sudo),
    clientName: str(job.clientName),
    clientVersion: str(job.clientVersion),
    tool: job.tool,
    operationId: str(job.operationId),
    org: str(job.org),
    repo: str(job.repo),
    method: str(job.method),
    path: str(job.path),
    status: typeof job.status === 'number' ? job.status : null,
    kind: str(job.kind),
    durationMs: num(job.durationMs),
    resultBytes: num(job.resultBytes),
    redactions: num(job.redactions),
    masks: num(job.masks),
    blocked: job.blocked === true,
    arguments: (job.arguments ?? null) as JsonValue,
  };
}
