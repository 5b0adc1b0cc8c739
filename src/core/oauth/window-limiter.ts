// Fixed-window counter for rare, abusable requests (client registrations): at most `perKey` per
// key and `total` over all keys in each window. Memory is bounded: the map is cleared each window.

export type WindowDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class WindowLimiter {
  private windowStart = 0;
  private readonly counts = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly perKey: number,
    private readonly totalLimit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  take(key: string): WindowDecision {
    const now = this.now();
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now;
      this.counts.clear();
      this.total = 0;
    }
    const used = this.counts.get(key) ?? 0;
    if (used >= this.perKey || this.total >= this.totalLimit) {
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((this.windowStart + this.windowMs - now) / 1000)),
      };
    }
    this.counts.set(key, used + 1);
    this.total += 1;
    return { allowed: true };
  }
}
