// Ended sessions (HTTP DELETE) of the session-based revisions. Session ids verify on any replica by
// themselves; only their early end needs sharing, so it lives in Redis when REDIS_URL is set (every
// replica sees it) and in memory otherwise (a single replica, or best effort). An ended session is
// remembered by its own nonce (from the verified id), not by the id's text: one session is one
// entry however its id is spelled, and only the owner of a valid session can add one.

export interface SessionRevocations {
  /** `nonce`: SessionState.nonce of a verified session id. */
  revoke(nonce: string, ttlSeconds: number): Promise<void>;
  isRevoked(nonce: string): Promise<boolean>;
  close(): Promise<void>;
}

/** Entries the in-memory store holds at most (expired ones go first, then the oldest). */
export const MAX_MEMORY_REVOCATIONS = 100_000;

export class MemorySessionRevocations implements SessionRevocations {
  // Insertion order is expiry order (one lifetime for every session), so the first key is the oldest.
  private readonly ended = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxEntries = MAX_MEMORY_REVOCATIONS,
  ) {}

  get size(): number {
    return this.ended.size;
  }

  async revoke(nonce: string, ttlSeconds: number): Promise<void> {
    const now = this.now();
    this.ended.delete(nonce);
    if (this.ended.size >= this.maxEntries) {
      for (const [key, until] of this.ended) {
        if (until > now) break;
        this.ended.delete(key);
      }
      // Still full of live entries: the oldest is the one closest to its natural end.
      while (this.ended.size >= this.maxEntries) this.ended.delete(this.ended.keys().next().value!);
    }
    this.ended.set(nonce, now + ttlSeconds * 1000);
  }

  async isRevoked(nonce: string): Promise<boolean> {
    const until = this.ended.get(nonce);
    return until !== undefined && until > this.now();
  }

  async close(): Promise<void> {}
}

/** Minimal surface of an ioredis client that this store uses. */
export type RedisLike = {
  set(key: string, value: string, mode: 'EX', seconds: number): Promise<unknown>;
  exists(key: string): Promise<number>;
  quit(): Promise<unknown>;
};

export class RedisSessionRevocations implements SessionRevocations {
  constructor(
    private readonly redis: RedisLike,
    private readonly warn: (message: string) => void,
    private readonly prefix = 'aegis:mcp:session-ended:',
  ) {}

  // Every key expires with the session's lifetime, so Redis holds at most the sessions of one lifetime.
  async revoke(nonce: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.prefix + nonce, '1', 'EX', Math.max(1, ttlSeconds));
  }

  async isRevoked(nonce: string): Promise<boolean> {
    try {
      return (await this.redis.exists(this.prefix + nonce)) > 0;
    } catch {
      // A session id is not a credential (every request is authenticated), so fail open.
      this.warn('Redis unavailable while checking an MCP session; treating it as active');
      return false;
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
