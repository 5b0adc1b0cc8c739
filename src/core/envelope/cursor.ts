// One continuation cursor (issue 17). A list or a long text that has more comes back with an opaque
// `next_cursor`; calling the same tool with only `{"cursor": ...}` returns the next page with the
// same arguments, fields and format. The cursor is signed (HMAC-SHA256), names the operation, its
// arguments and the next position, is bound to the caller and expires, so it cannot be altered,
// replayed by someone else, or used to reach another operation.
import {
  createHash,
  createHmac,
  createSecretKey,
  randomBytes,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';

export const CURSOR_ARG = 'cursor';
export const CURSOR_TTL_MS = 60 * 60 * 1000;
const MAX_CURSOR_CHARS = 8192;

export type CursorState = {
  /** The tool (operationId, or gitea_api_request) the cursor continues. */
  tool: string;
  /** The call's arguments as given, without fields/format/cursor, with the next page set. */
  args: Record<string, unknown>;
  fields: string[] | null;
  format: 'json' | 'table';
  /** For text: the byte offset the next page starts at. */
  offset?: number;
};

type Payload = CursorState & { v: 1; sub: string; exp: number };

export class CursorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CursorError';
  }
}

const b64url = (b: Buffer) => b.toString('base64url');

// Random bytes drawn 4 KiB at a time: a list call's cursor placeholder needs 8 of them, and a
// randomBytes call per list call (a synchronous call into the CSPRNG) cost more than the rest of
// the placeholder. The bytes are as unpredictable; each is used once.
const NONCE_POOL_BYTES = 4096;
let noncePool = Buffer.alloc(0);
let nonceOffset = 0;

/** 16 hex characters (8 bytes) from the CSPRNG, never the same bytes twice in a process. */
export function randomHex8(): string {
  if (nonceOffset + 8 > noncePool.length) {
    noncePool = randomBytes(NONCE_POOL_BYTES);
    nonceOffset = 0;
  }
  const hex = noncePool.toString('hex', nonceOffset, nonceOffset + 8);
  nonceOffset += 8;
  return hex;
}

// Every call shapes its result with its caller's cursor subject: the hash of the few identities
// that call is remembered (bounded, started over when full).
const subjects = new Map<string, string>();
const SUBJECT_CACHE_SIZE = 1024;

/** Who a cursor belongs to: the person and the identity they call with (a hash, never the token). */
export function cursorSubject(identity: { subject: string; login: string; sudo: string | null }): string {
  const key = `${identity.subject}\u0000${identity.login}\u0000${identity.sudo ?? ''}`;
  let subject = subjects.get(key);
  if (subject === undefined) {
    subject = createHash('sha256').update(key).digest('base64url').slice(0, 22);
    if (subjects.size >= SUBJECT_CACHE_SIZE) subjects.clear();
    subjects.set(key, subject);
  }
  return subject;
}

export class CursorCodec {
  private readonly key: Buffer;
  /** The same key as a KeyObject: createHmac does not prepare a key from bytes on every cursor. */
  private readonly keyObject: KeyObject;

  /**
   * `secret`: a configured key (every replica must share it); without one, a random key per process.
   * `{ key }`: the key of another codec (exportKey), for a worker thread that pages a large result.
   */
  constructor(
    secret: string | Buffer | null | { key: Uint8Array },
    private readonly now: () => number = Date.now,
  ) {
    this.key =
      secret && typeof secret === 'object' && !Buffer.isBuffer(secret)
        ? Buffer.from(secret.key)
        : secret
          ? createHmac('sha256', 'aegis-cursor-v1').update(secret).digest()
          : randomBytes(32);
    this.keyObject = createSecretKey(this.key);
  }

  /** A codec with the key of another one (exportKey): its cursors are accepted by that one. */
  static fromKey(key: Uint8Array, now: () => number = Date.now): CursorCodec {
    return new CursorCodec({ key }, now);
  }

  /** A copy of the signing key, for a worker thread of this process only (never logged or returned). */
  exportKey(): Uint8Array {
    return new Uint8Array(this.key);
  }

  encode(state: CursorState, subject: string): string {
    const payload: Payload = { v: 1, ...state, sub: subject, exp: this.now() + CURSOR_TTL_MS };
    const body = b64url(Buffer.from(JSON.stringify(payload)));
    return `${body}.${b64url(this.mac(body))}`;
  }

  /** The state of a cursor issued to this caller, or a CursorError saying why it is refused. */
  decode(cursor: unknown, subject: string): CursorState {
    if (typeof cursor !== 'string' || cursor.length > MAX_CURSOR_CHARS || !/^[\w-]+\.[\w-]+$/.test(cursor))
      throw new CursorError('cursor is not one this service issued (pass next_cursor exactly as returned)');
    const [body, mac] = cursor.split('.') as [string, string];
    const expected = this.mac(body);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new CursorError(
        'cursor signature does not match: it was altered or issued by another deployment',
      );
    let payload: Payload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
    } catch {
      throw new CursorError('cursor is not one this service issued');
    }
    if (payload.v !== 1) throw new CursorError('cursor version is not supported');
    if (payload.sub !== subject) throw new CursorError('cursor was issued to another caller');
    if (!(payload.exp > this.now())) throw new CursorError('cursor has expired; repeat the original call');
    const { tool, args, fields, format, offset } = payload;
    return { tool, args, fields, format, ...(offset !== undefined ? { offset } : {}) };
  }

  private mac(body: string): Buffer {
    return createHmac('sha256', this.keyObject).update(body).digest();
  }
}
