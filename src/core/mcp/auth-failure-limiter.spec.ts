import { AuthFailureLimiter, OVERFLOW_REMOTE, remoteKey } from './auth-failure-limiter';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('AuthFailureLimiter', () => {
  it('records failures within the per-address budget, then suppresses with a Retry-After', () => {
    const c = clock();
    const limiter = new AuthFailureLimiter({ perMinute: 3 }, c.now);
    expect([1, 2, 3].map(() => limiter.failure('10.0.0.1'))).toEqual([
      { record: true },
      { record: true },
      { record: true },
    ]);
    expect(limiter.failure('10.0.0.1')).toEqual({ record: false, retryAfterSeconds: 20 });
    // Another address has its own budget.
    expect(limiter.failure('10.0.0.2')).toEqual({ record: true });
    // One failure's worth refills after 60 s / 3.
    c.advance(20_000);
    expect(limiter.failure('10.0.0.1')).toEqual({ record: true });
    expect(limiter.failure('10.0.0.1').record).toBe(false);
  });

  it('reports the suppressed failures of an address once per window', () => {
    const c = clock();
    const limiter = new AuthFailureLimiter({ perMinute: 2, windowMs: 60_000 }, c.now);
    const start = c.now();
    for (let i = 0; i < 102; i++) {
      limiter.failure('10.0.0.1');
      c.advance(100);
    }
    expect(limiter.drain()).toEqual([]); // window still open
    c.advance(60_000);
    expect(limiter.drain()).toEqual([
      { remote: '10.0.0.1', count: 100, firstAt: start + 200, lastAt: start + 101 * 100 },
    ]);
    expect(limiter.drain()).toEqual([]); // reported once
    // The next suppressed failure opens a new window; `all` reports open windows too.
    limiter.failure('10.0.0.1');
    limiter.failure('10.0.0.1');
    limiter.failure('10.0.0.1');
    const open = limiter.drain(true);
    expect(open).toHaveLength(1);
    expect(open[0]!.count).toBeGreaterThanOrEqual(1);
  });

  it('bounds audit records: per address at most the budget plus one summary per window', () => {
    const c = clock();
    const limiter = new AuthFailureLimiter({ perMinute: 30 }, c.now);
    let records = 0;
    for (let second = 0; second < 600; second++) {
      for (let i = 0; i < 50; i++) if (limiter.failure('203.0.113.7').record) records++;
      records += limiter.drain().length;
      c.advance(1000);
    }
    // 10 minutes at 50 failures/s: 30 up front, 30/min refill, one summary per minute.
    expect(records).toBeLessThanOrEqual(30 + 10 * 30 + 10 + 1);
    expect(records).toBeGreaterThanOrEqual(30 + 9 * 30);
  });

  it('shares one overflow entry beyond maxKeys and is off at 0', () => {
    const c = clock();
    const limiter = new AuthFailureLimiter({ perMinute: 1, maxKeys: 2 }, c.now);
    for (const ip of ['a', 'a', 'b', 'b', 'c', 'c', 'd', 'd']) limiter.failure(ip);
    const remotes = limiter.drain(true).map((w) => w.remote);
    expect(remotes.length).toBeLessThanOrEqual(3);
    expect(remotes).toContain(OVERFLOW_REMOTE);
    const off = new AuthFailureLimiter({ perMinute: 0 }, c.now);
    expect(off.enabled).toBe(false);
    for (let i = 0; i < 100; i++) expect(off.failure('x')).toEqual({ record: true });
    expect(off.drain(true)).toEqual([]);
  });
});

describe('remoteKey', () => {
  it('keys IPv4 as is and IPv6 by its /64', () => {
    expect(remoteKey('127.0.0.1')).toBe('127.0.0.1');
    expect(remoteKey('::ffff:192.0.2.9')).toBe('192.0.2.9');
    expect(remoteKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(remoteKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(remoteKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(remoteKey('::1')).toBe('0:0:0:0::/64');
    expect(remoteKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(remoteKey(undefined)).toBe('unknown');
  });
});
