// Ended sessions (HTTP DELETE) of the session-based revisions. Session ids verify on any replica by
// themselves; only their early end needs sharing, so it lives in Redis when REDIS_URL is set (every
// replica sees it) and in memory otherwise (a single replica, or best effort).
import { createHash } from 'node:crypto';

export interface SessionRevocations {
  revoke(sessionId: string, ttlSeconds: number): Promise<void>;
  isRevoked(sessionId: string): Promise<boolean>;
  close(): Promise<void>;
}

const keyOf = (sessionId: string): string => createHash('sha256').update(sessionId).digest('base64url');

export class MemorySessionRevocations implements SessionRevocations {
  private readonly ended = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async revoke(sessionId: string, ttlSeconds: number): Promise<void> {
    const now = this.now();
    if (this.ended.size > 50_000)
      for (const [key, until] of this.ended) if (until <= now) this.ended.delete(key);
    this.ended.set(keyOf(sessionId), now + ttlSeconds * 1000);
  }

  async isRevoked(sessionId: string): Promise<boolean> {
    const until = this.ended.get(keyOf(sessionId));
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

  async revoke(sessionId: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.prefix + keyOf(sessionId), '1', 'EX', Math.max(1, ttlSeconds));
  }

  async isRevoked(sessionId: string): Promise<boolean> {
    try {
      return (await this.redis.exists(this.prefix + keyOf(sessionId))) > 0;
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
