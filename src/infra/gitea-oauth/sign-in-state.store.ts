// passport-oauth2's state store for the sign-in through Gitea, kept in the database so any
// replica can take the callback. The `state` sent to Gitea is 256 random bits; only its SHA-256
// is stored. The PKCE verifier is stored encrypted. A state is bound to the browser that started
// the sign-in (hash of a cookie value), expires after ten minutes and is deleted when used, so a
// replayed, foreign or stale state is refused.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PrismaClient } from '../../generated/prisma/client';
import type { GrantCipher } from '../../core/gitea-oauth/grant-cipher';
import type { GiteaAccess } from '../../core/gitea-oauth/gitea-scopes';

export const SIGN_IN_STATE_TTL_MS = 10 * 60_000;

/** What travels with a pending sign-in (passport's "state" object). */
export type PendingSignIn = {
  purpose: string;
  access: GiteaAccess;
  context: Record<string, string>;
  /** SHA-256 (hex) of the browser-binding cookie value, or EXTERNAL_BINDING. */
  browserHash: string;
  /** A state chosen (and bound to the browser) by the caller instead of this store. */
  externalState?: string;
};

/** The caller owns the state and its browser binding (the MCP authorization server's flow). */
export const EXTERNAL_BINDING = 'external';

export type StateRefusal = 'unknown_state' | 'expired_state' | 'foreign_browser' | 'undecryptable';

/** The request as the store sees it: the browser binding in, the pending sign-in out. */
type Req = { signInBrowserHash?: string | null; giteaPending?: PendingSignIn };
type StoreCallback = (err: Error | null, handle?: string) => void;
type VerifyCallback = (
  err: Error | null,
  verifier?: string | false,
  state?: PendingSignIn | { message: string; refusal: StateRefusal },
) => void;

export const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

export class PrismaSignInStateStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly cipher: GrantCipher,
    private readonly now: () => number = Date.now,
  ) {}

  // Arity 5 tells passport-oauth2 this store keeps the PKCE verifier.
  store(
    _req: unknown,
    verifier: string,
    state: PendingSignIn,
    _meta: unknown,
    callback: StoreCallback,
  ): void {
    const handle = state.externalState ?? randomBytes(32).toString('base64url');
    const id = sha256Hex(handle);
    const sealed = this.cipher.seal(verifier, `gitea_signin_states:${id}`);
    const now = this.now();
    this.prisma.giteaSignInState
      .create({
        data: {
          id,
          browserHash: state.browserHash,
          purpose: state.purpose,
          access: state.access,
          context: state.context,
          keyId: sealed.keyId,
          verifierEnc: sealed.value,
          expiresAt: new Date(now + SIGN_IN_STATE_TTL_MS),
          createdAt: new Date(now),
        },
      })
      .then(() => callback(null, handle))
      .catch((error: Error) => callback(error));
  }

  verify(req: Req, handle: unknown, _meta: unknown, callback: VerifyCallback): void {
    this.take(req.signInBrowserHash ?? null, typeof handle === 'string' ? handle : '')
      .then((result) => {
        if ('refusal' in result)
          return callback(null, false, { message: refusalText(result.refusal), refusal: result.refusal });
        // passport-oauth2 hands the state to the verify callback only afterwards: keep it on the request.
        req.giteaPending = result.pending;
        return callback(null, result.verifier, result.pending);
      })
      .catch((error: Error) => callback(error));
  }

  /** Consumes a state exactly once (the delete is the single-use guarantee across replicas). */
  async take(
    browserHash: string | null,
    handle: string,
  ): Promise<{ verifier: string; pending: PendingSignIn } | { refusal: StateRefusal }> {
    if (!/^[A-Za-z0-9_-]{16,128}$/.test(handle)) return { refusal: 'unknown_state' };
    const id = sha256Hex(handle);
    // delete() returns the row it removed, and only one of two concurrent deletes finds it.
    const row = await this.prisma.giteaSignInState.delete({ where: { id } }).catch((error: unknown) => {
      if ((error as { code?: string }).code === 'P2025') return null;
      throw error;
    });
    if (!row) return { refusal: 'unknown_state' };
    if (row.expiresAt.getTime() <= this.now()) return { refusal: 'expired_state' };
    // A browser-flow state needs its cookie; an external state can only be finished externally.
    const bound =
      browserHash === EXTERNAL_BINDING
        ? row.browserHash === EXTERNAL_BINDING
        : !!browserHash && hashesEqual(row.browserHash, browserHash);
    if (!bound) return { refusal: 'foreign_browser' };
    let verifier: string;
    try {
      verifier = this.cipher.open({ keyId: row.keyId, value: row.verifierEnc }, `gitea_signin_states:${id}`);
    } catch {
      return { refusal: 'undecryptable' };
    }
    const context = (row.context ?? {}) as Record<string, string>;
    return {
      verifier,
      pending: {
        purpose: row.purpose,
        access: row.access === 'write' ? 'write' : 'read',
        context,
        browserHash: row.browserHash,
      },
    };
  }

  /** Deletes expired states (called by the lifecycle job). */
  async purgeExpired(): Promise<number> {
    const result = await this.prisma.giteaSignInState.deleteMany({
      where: { expiresAt: { lt: new Date(this.now()) } },
    });
    return result.count;
  }
}

function refusalText(refusal: StateRefusal): string {
  switch (refusal) {
    case 'expired_state':
      return 'The sign-in took longer than ten minutes.';
    case 'foreign_browser':
      return 'The sign-in was started in another browser.';
    case 'undecryptable':
      return 'The sign-in cannot be completed by this server.';
    default:
      return 'The sign-in link is unknown or was already used.';
  }
}

export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
