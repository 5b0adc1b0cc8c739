// Bounds what failed authentications on /mcp can cost: each remote address (an IPv6 address by its
// /64, which one host usually owns whole) has a token bucket of `perMinute` failures, bursts up to
// the same number. Within the budget each failure is audited on its own; beyond it the failure is
// answered 429 and only counted, and each address's count is reported once per window, so a
// stream of wrong tokens adds at most `perMinute` + 1 audit records per address per minute.
// Pure and clock-driven. The buckets are the one token bucket of the core (rate-limiter.ts).
import { TokenBucketRateLimiter } from './rate-limiter';

export type AuthFailureVerdict = { record: true } | { record: false; retryAfterSeconds: number };

/** Failures from one address that were not audited one by one. */
export type SuppressedAuthFailures = { remote: string; count: number; firstAt: number; lastAt: number };

export type AuthFailureLimiterOptions = {
  /** Failures per address per minute audited one by one; 0 turns the limiter off. */
  perMinute: number;
  /** Length of the window whose suppressed failures become one summary (default 60 s). */
  windowMs?: number;
  /** Bound on the addresses remembered; beyond it, addresses share one overflow entry. */
  maxKeys?: number;
};

/** The remote of an aggregate that stands for addresses beyond `maxKeys`. */
export const OVERFLOW_REMOTE = '(many addresses)';

export class AuthFailureLimiter {
  private readonly buckets: TokenBucketRateLimiter;
  private readonly windows = new Map<string, SuppressedAuthFailures>();
  private readonly capacity: number;
  private readonly windowMs: number;
  private readonly maxKeys: number;

  constructor(
    options: AuthFailureLimiterOptions,
    private readonly now: () => number,
  ) {
    this.capacity = Math.max(0, options.perMinute);
    this.windowMs = Math.max(1, options.windowMs ?? 60_000);
    this.maxKeys = Math.max(1, options.maxKeys ?? 10_000);
    this.buckets = new TokenBucketRateLimiter(this.capacity, now, this.maxKeys);
  }

  get enabled(): boolean {
    return this.capacity > 0;
  }

  /** One failed authentication from `remote` (see remoteKey). */
  failure(remote: string): AuthFailureVerdict {
    if (!this.enabled) return { record: true };
    const now = this.now();
    const decision = this.buckets.take(remote);
    if (decision.allowed) return { record: true };
    const key = this.windows.has(remote) || this.windows.size < this.maxKeys ? remote : OVERFLOW_REMOTE;
    const window = this.windows.get(key);
    if (window) {
      window.count += 1;
      window.lastAt = now;
    } else this.windows.set(key, { remote: key, count: 1, firstAt: now, lastAt: now });
    return { record: false, retryAfterSeconds: decision.retryAfterSeconds };
  }

  /**
   * The suppressed counts whose window has ended (all of them with `all`, e.g. at shutdown), each
   * once: a window is forgotten when it is returned, and the next suppressed failure opens a new one.
   */
  drain(all = false): SuppressedAuthFailures[] {
    const now = this.now();
    const out: SuppressedAuthFailures[] = [];
    for (const [key, window] of this.windows) {
      if (all || now - window.firstAt >= this.windowMs) {
        out.push(window);
        this.windows.delete(key);
      }
    }
    return out;
  }
}

/**
 * The limiter key of a socket's remote address: IPv4 (also IPv4-mapped IPv6) as is, IPv6 by its
 * /64 prefix, anything unknown as "unknown".
 */
export function remoteKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!address.includes(':')) return address;
  const bare = address.split('%')[0] ?? address; // zone index (fe80::1%eth0)
  const [head = '', tail] = bare.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  const prefix = groups.slice(0, 4).map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? g.replace(/^0+(?=.)/, '') : '?'));
  while (prefix.length < 4) prefix.push('0');
  return `${prefix.join(':')}::/64`;
}
