// Per-identity token bucket: `perMinute` calls per minute with bursts up to the same number.
// Pure and clock-driven so it can be tested without timers.
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

type Bucket = { tokens: number; updatedMs: number };

export class TokenBucketRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly capacity: number;
  private readonly refillPerMs: number;

  /** `perMinute` of 0 turns the limiter off. `maxKeys` bounds memory (idle full buckets are pruned). */
  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
    private readonly maxKeys = 10_000,
  ) {
    this.capacity = Math.max(0, perMinute);
    this.refillPerMs = this.capacity / 60_000;
  }

  take(key: string): RateDecision {
    if (this.perMinute <= 0) return { allowed: true };
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= this.maxKeys) this.prune(now);
      bucket = { tokens: this.capacity, updatedMs: now };
      this.buckets.set(key, bucket);
    } else {
      const elapsed = Math.max(0, now - bucket.updatedMs);
      bucket.tokens = Math.min(this.capacity, bucket.tokens + elapsed * this.refillPerMs);
      bucket.updatedMs = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    const waitMs = (1 - bucket.tokens) / this.refillPerMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  private prune(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.updatedMs) * this.refillPerMs >= this.capacity)
        this.buckets.delete(key);
    }
    // Still full of active keys: drop the oldest entry rather than grow without bound.
    if (this.buckets.size >= this.maxKeys) {
      const first = this.buckets.keys().next();
      if (!first.done) this.buckets.delete(first.value);
    }
  }
}
