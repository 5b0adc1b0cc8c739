// Org quota windows in Redis, shared by every replica: one key per org, person, quota and window,
// INCR then PEXPIREAT just after the window ends (a key never outlives its window by much).
import type { Redis } from 'ioredis';
import type { RedisConnections } from '../redis/redis-connections';
import { MemoryQuotaCounter, type QuotaCounter, type QuotaHit } from '../../core/policy/quota';

const PREFIX = 'aegis:quota:';
const EXPIRY_SLACK_MS = 5_000;

export class RedisQuotaCounter implements QuotaCounter {
  private readonly redis: Redis;

  // While Redis fails, each replica counts on its own (quotas still hold per replica) and says so.
  private readonly fallback = new MemoryQuotaCounter();
  private warnedAt = 0;

  constructor(
    connections: RedisConnections,
    private readonly warn: (message: string) => void = () => undefined,
  ) {
    // Errors are reported by the failing call.
    this.redis = connections.client('org-quotas', 'command');
  }

  async hit(key: string, resetAt: number): Promise<QuotaHit> {
    try {
      return await this.sharedHit(key, resetAt);
    } catch (error) {
      this.degraded(error);
      return this.fallback.hit(key, resetAt);
    }
  }

  private async sharedHit(key: string, resetAt: number): Promise<QuotaHit> {
    const results = await this.redis
      .multi()
      .incr(PREFIX + key)
      .pexpireat(PREFIX + key, resetAt + EXPIRY_SLACK_MS)
      .exec();
    const [error, count] = results?.[0] ?? [new Error('no reply'), null];
    if (error) throw error;
    return { count: Number(count), resetAt };
  }

  async peek(key: string, resetAt: number): Promise<QuotaHit> {
    try {
      const value = await this.redis.get(PREFIX + key);
      return { count: value ? Number(value) : 0, resetAt };
    } catch (error) {
      this.degraded(error);
      return this.fallback.peek(key, resetAt);
    }
  }

  private degraded(error: unknown): void {
    const now = Date.now();
    if (now - this.warnedAt < 60_000) return;
    this.warnedAt = now;
    this.warn(
      `Redis unavailable for org quotas (${error instanceof Error ? error.message : 'error'}): counting in this replica only`,
    );
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
