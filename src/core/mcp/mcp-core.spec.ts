import { ConcurrencyLimiter } from './concurrency-limiter';
import { classifyMessage } from './jsonrpc.util';
import { OriginPolicy } from './origin.util';
import { checkLegacyVersionHeader, negotiateLegacyVersion } from './protocol-versions';
import { TokenBucketRateLimiter } from './rate-limiter';
import { ownerOf, SessionTokenCodec } from './session-token';
import { decideSudo } from './sudo.util';

describe('OriginPolicy', () => {
  const policy = new OriginPolicy(['https://console.example.com'], 'https://mcp.example.com/base');
  it('allows no Origin, listed origins and the public URL origin only', () => {
    expect(policy.isAllowed(undefined)).toBe(true);
    expect(policy.isAllowed('https://console.example.com')).toBe(true);
    expect(policy.isAllowed('https://mcp.example.com')).toBe(true);
    expect(policy.isAllowed('https://evil.example.com')).toBe(false);
    expect(policy.isAllowed('null')).toBe(false);
    expect(policy.isAllowed('http://console.example.com')).toBe(false);
  });
});

describe('protocol versions', () => {
  it('accepts a missing or matching header and refuses unknown or mismatching ones', () => {
    expect(checkLegacyVersionHeader(undefined, '2025-06-18')).toEqual({ ok: true, version: '2025-06-18' });
    expect(checkLegacyVersionHeader('2025-06-18', '2025-06-18').ok).toBe(true);
    expect(checkLegacyVersionHeader('2025-11-25', '2025-06-18').ok).toBe(false);
    expect(checkLegacyVersionHeader('1999-01-01', '2025-06-18').ok).toBe(false);
    expect(checkLegacyVersionHeader('garbage', '2025-06-18').ok).toBe(false);
  });
  it('negotiates the requested legacy version or the newest', () => {
    expect(negotiateLegacyVersion('2025-06-18')).toBe('2025-06-18');
    expect(negotiateLegacyVersion('2024-11-05')).toBe('2025-11-25');
  });
});

describe('TokenBucketRateLimiter', () => {
  it('allows perMinute calls, then refuses with Retry-After, then refills', () => {
    let now = 0;
    const limiter = new TokenBucketRateLimiter(2, () => now);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(true);
    const refused = limiter.take('a');
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect(limiter.take('b').allowed).toBe(true);
    now = 30_000;
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
  });
  it('is off at 0', () => {
    const limiter = new TokenBucketRateLimiter(0, () => 0);
    for (let i = 0; i < 100; i += 1) expect(limiter.take('a').allowed).toBe(true);
  });
});

describe('ConcurrencyLimiter', () => {
  it('bounds per key and in total, queues and times out', async () => {
    const limiter = new ConcurrencyLimiter({ perKey: 1, total: 2, maxQueue: 1 });
    const a1 = await limiter.acquire('a', 1000);
    expect(a1).not.toBeNull();
    const b1 = await limiter.acquire('b', 1000);
    expect(limiter.inFlight).toBe(2);
    const waiting = limiter.acquire('a', 1000);
    expect(await limiter.acquire('c', 1000)).toBeNull(); // queue full
    a1?.();
    const a2 = await waiting;
    expect(a2).not.toBeNull();
    expect(await limiter.acquire('a', 10)).toBeNull(); // wait expired
    a2?.();
    b1?.();
    expect(limiter.inFlight).toBe(0);
  });
});

describe('SessionTokenCodec', () => {
  let now = 1_000;
  const codec = new SessionTokenCodec('secret', 60, () => now);
  it('round-trips and rejects tampering, other keys and age', () => {
    const id = codec.issue({
      version: '2025-11-25',
      owner: ownerOf('token:svc'),
      client: { name: 'c', version: '1' },
    });
    expect(id).toMatch(/^[\x21-\x7e]+$/);
    const ok = codec.verify(id);
    expect(ok.ok && ok.state.version).toBe('2025-11-25');
    expect(codec.verify(id.replace(/^./, (c) => (c === 'e' ? 'f' : 'e'))).ok).toBe(false);
    expect(new SessionTokenCodec('other', 60, () => now).verify(id).ok).toBe(false);
    expect(codec.verify('no-dot').ok).toBe(false);
    now += 61;
    expect(codec.verify(id)).toEqual({ ok: false, reason: 'expired' });
  });

  it('accepts only the canonical spelling of an id, and names the session by its nonce', () => {
    now = 1_000;
    const id = codec.issue({ version: '2025-11-25', owner: ownerOf('token:svc'), client: null });
    const ok = codec.verify(id);
    expect(ok.ok && ok.state.nonce).toMatch(/^[\w-]{12}$/);
    // Node's base64url decoder ignores these; the id they make is another id and must not verify.
    const [payload, signature] = id.split('.') as [string, string];
    const last = signature.at(-1)!;
    // A last character that differs only in the bits base64url drops (43 chars carry 258 bits, 256 used).
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(last) ^ 1]!;
    expect(Buffer.from(signature.slice(0, -1) + sibling, 'base64url')).toEqual(
      Buffer.from(signature, 'base64url'),
    );
    for (const variant of [
      `${id}=`,
      `${id}!`,
      `${id}~`,
      `${payload}=.${signature}`,
      `${payload}.${signature.slice(0, -1)}${sibling}`,
      `${payload}.${signature.slice(0, 10)} ${signature.slice(10)}`,
    ]) {
      expect([variant, codec.verify(variant).ok]).toEqual([variant, false]);
    }
  });
});

describe('decideSudo', () => {
  const admin = { allowSudo: true, isSiteAdmin: true, login: 'admin' };
  it('grants only with ALLOW_SUDO and a site admin, for a valid login', () => {
    expect(decideSudo(undefined, admin)).toEqual({ ok: true, sudo: null });
    expect(decideSudo('alice', admin)).toEqual({ ok: true, sudo: 'alice' });
    expect(decideSudo('Admin', admin)).toEqual({ ok: true, sudo: null });
    expect(decideSudo('alice', { ...admin, allowSudo: false }).ok).toBe(false);
    expect(decideSudo('alice', { ...admin, isSiteAdmin: false }).ok).toBe(false);
    expect(decideSudo('a/b', admin).ok).toBe(false);
    expect(decideSudo(42, admin).ok).toBe(false);
  });
});

describe('classifyMessage', () => {
  it('tells requests, notifications, responses and invalid messages apart', () => {
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).kind).toBe('request');
    expect(classifyMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }).kind).toBe(
      'notification',
    );
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, result: {} }).kind).toBe('response');
    expect(classifyMessage({ jsonrpc: '1.0', id: 1, method: 'x' }).kind).toBe('invalid');
    expect(classifyMessage({ jsonrpc: '2.0', id: {}, method: 'x' }).kind).toBe('invalid');
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, method: 'x', params: [1] }).kind).toBe('invalid');
    expect(classifyMessage('x').kind).toBe('invalid');
  });
});
