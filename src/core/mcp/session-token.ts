// Session ids for the session-based revisions (2025-06-18, 2025-11-25) that any replica can verify:
// the id carries what a session needs (negotiated version, owner, client) and an HMAC over it, so no
// shared store is needed to serve a request. A session id is never authentication: the owner field
// only binds the session to the identity that created it (checked after the bearer token).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type SessionState = {
  /** Negotiated protocol version. */
  version: string;
  /** Hash of the identity subject that opened the session. */
  owner: string;
  client: { name: string; version: string } | null;
  /** Issued at, epoch seconds. */
  iat: number;
  /** The session's own random nonce: what an ended session is remembered by. */
  nonce: string;
};

export type SessionVerdict =
  { ok: true; state: SessionState } | { ok: false; reason: 'malformed' | 'signature' | 'expired' };

const MAX_ID_LENGTH = 1024;
// Unpadded base64url and nothing else. Node's decoder skips characters outside the alphabet and a
// trailing "=", so without this one session would answer to many spellings of its id.
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Whether `text` is the one canonical unpadded base64url spelling of the bytes it decodes to. */
export function isCanonicalBase64url(text: string): boolean {
  return BASE64URL.test(text) && Buffer.from(text, 'base64url').toString('base64url') === text;
}

export function ownerOf(subject: string): string {
  return createHash('sha256').update(subject).digest('base64url').slice(0, 22);
}

export class SessionTokenCodec {
  private readonly key: Buffer;

  /** `secret`: shared by every replica; `maxAgeSeconds`: absolute session lifetime. */
  constructor(
    secret: string,
    private readonly maxAgeSeconds: number,
    private readonly nowSeconds: () => number,
  ) {
    // Domain-separated key so the secret it is derived from is never used for anything else directly.
    this.key = createHmac('sha256', secret).update('aegis-gitea-mcp/session-id/v1').digest();
  }

  issue(state: Omit<SessionState, 'iat' | 'nonce'>): string {
    const body: Omit<SessionState, 'nonce'> & { n: string } = {
      ...state,
      iat: this.nowSeconds(),
      n: randomBytes(9).toString('base64url'),
    };
    const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  verify(id: string): SessionVerdict {
    if (id.length > MAX_ID_LENGTH) return { ok: false, reason: 'malformed' };
    const dot = id.indexOf('.');
    if (dot <= 0 || dot !== id.lastIndexOf('.')) return { ok: false, reason: 'malformed' };
    const payload = id.slice(0, dot);
    const signature = id.slice(dot + 1);
    if (!isCanonicalBase64url(payload) || !isCanonicalBase64url(signature))
      return { ok: false, reason: 'malformed' };
    const given = Buffer.from(signature, 'base64url');
    const expected = Buffer.from(this.sign(payload), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return { ok: false, reason: 'signature' };
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    const state = parsed as Partial<SessionState> & { n?: unknown };
    if (
      typeof state.n !== 'string' ||
      state.n.length === 0 ||
      typeof state.version !== 'string' ||
      typeof state.owner !== 'string' ||
      typeof state.iat !== 'number'
    ) {
      return { ok: false, reason: 'malformed' };
    }
    if (this.nowSeconds() - state.iat > this.maxAgeSeconds) return { ok: false, reason: 'expired' };
    const client =
      state.client && typeof state.client.name === 'string' && typeof state.client.version === 'string'
        ? { name: state.client.name, version: state.client.version }
        : null;
    return {
      ok: true,
      state: { version: state.version, owner: state.owner, client, iat: state.iat, nonce: state.n },
    };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
