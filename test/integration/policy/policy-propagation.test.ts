// Issue 14 point 3: how a change reaches the next call. In one process the write drops the cached
// entry at once; across replicas Redis pub/sub drops it in every other cache (delay measured and
// printed), with the TTL as the bound when a message is lost. Quotas counted in Redis are shared.
import { randomBytes } from 'node:crypto';
import { defaultOrgPolicy, type OrgPolicy } from '../../../src/core/policy/org-policy';
import { MemoryQuotaCounter } from '../../../src/core/policy/quota';
import { PolicyCache } from '../../../src/infra/policy/policy-cache';
import { RedisQuotaCounter } from '../../../src/infra/policy/redis-quota-counter';
import { RedisConnections } from '../../../src/infra/redis/redis-connections';

const REDIS_URL = process.env.TEST_REDIS_URL?.trim() || null;

/** A store shared by the caches: what the database holds, and how often it was read. */
class Store {
  reads = 0;
  readonly rows = new Map<string, OrgPolicy>();
  readonly gate: { wait?: Promise<void> } = {};
  async get(org: string): Promise<OrgPolicy | null> {
    this.reads += 1;
    const row = this.rows.get(org) ?? null;
    if (this.gate.wait) await this.gate.wait;
    return row;
  }
  set(org: string, version: number): void {
    this.rows.set(org, { ...defaultOrgPolicy(org), version });
  }
}

describe('policy cache in one process', () => {
  it('serves from the cache within the TTL and reads the store after it', async () => {
    const store = new Store();
    let now = 0;
    const cache = new PolicyCache(store, { ttlMs: 1000, now: () => now });
    store.set('acme', 1);
    expect((await cache.get('acme'))?.version).toBe(1);
    store.set('acme', 2); // written by someone who did not tell this cache
    now = 999;
    expect((await cache.get('ACME'))?.version).toBe(1);
    now = 1000;
    expect((await cache.get('acme'))?.version).toBe(2);
    expect(store.reads).toBe(2);
  });

  it('applies a change written through it to the very next call', async () => {
    const store = new Store();
    const cache = new PolicyCache(store, { ttlMs: 60_000 });
    store.set('acme', 1);
    await cache.get('acme');
    store.set('acme', 2);
    await cache.changed('acme');
    expect((await cache.get('acme'))?.version).toBe(2);
  });

  it('does not cache a read that started before a change', async () => {
    const store = new Store();
    const cache = new PolicyCache(store, { ttlMs: 60_000 });
    store.set('acme', 1);
    let release!: () => void;
    store.gate.wait = new Promise<void>((resolve) => (release = resolve));
    const stale = cache.get('acme'); // reads version 1, answer held back
    await new Promise((r) => setImmediate(r));
    store.set('acme', 2);
    await cache.changed('acme');
    release();
    store.gate.wait = undefined;
    expect((await stale)?.version).toBe(1);
    expect((await cache.get('acme'))?.version).toBe(2);
  });
});

const describeRedis = REDIS_URL ? describe : describe.skip;
if (!REDIS_URL) process.stderr.write('SKIPPED policy propagation [redis]: TEST_REDIS_URL is not set\n');

describeRedis('policy propagation between replicas through Redis', () => {
  const caches: PolicyCache[] = [];
  // Each replica has its own Redis clients, from its own factory.
  const replicas: RedisConnections[] = [];
  const replica = (): RedisConnections => {
    const connections = new RedisConnections(REDIS_URL!);
    replicas.push(connections);
    return connections;
  };
  afterAll(async () => {
    await Promise.all(caches.map((c) => c.close()));
    await Promise.all(replicas.map((r) => r.close()));
  });

  it('drops the entry in the other replica within a second of the change', async () => {
    const store = new Store();
    const org = `prop-${randomBytes(4).toString('hex')}`;
    // A long TTL: only the message can make B see the change in time.
    const a = new PolicyCache(store, { ttlMs: 600_000 });
    const b = new PolicyCache(store, { ttlMs: 600_000 });
    caches.push(a, b);
    await a.connect(replica());
    await b.connect(replica());
    store.set(org, 1);
    expect((await b.get(org))?.version).toBe(1);
    const delays: number[] = [];
    for (let version = 2; version <= 11; version += 1) {
      store.set(org, version);
      const started = performance.now();
      await a.changed(org);
      for (;;) {
        if ((await b.get(org))?.version === version) break;
        if (performance.now() - started > 1000)
          throw new Error(`replica B still had an old policy after 1 s`);
        await new Promise((r) => setTimeout(r, 1));
      }
      delays.push(performance.now() - started);
    }
    delays.sort((x, y) => x - y);
    process.stdout.write(
      `policy propagation A->B through Redis: median ${delays[5]!.toFixed(1)} ms, max ${delays[9]!.toFixed(1)} ms (10 changes)\n`,
    );
    expect(delays[9]).toBeLessThan(1000);
  });

  it('forgets everything when its subscription reconnects (messages may have been missed)', async () => {
    const store = new Store();
    const org = `re-${randomBytes(4).toString('hex')}`;
    const b = new PolicyCache(store, { ttlMs: 600_000 });
    caches.push(b);
    await b.connect(replica());
    store.set(org, 1);
    await b.get(org);
    store.set(org, 2);
    // Kill the subscriber's connection from the server side; ioredis reconnects and re-subscribes.
    const subscriber = (b as unknown as { subscriber: { disconnect(reconnect: boolean): void } }).subscriber;
    subscriber.disconnect(true);
    const deadline = Date.now() + 5000;
    while ((await b.get(org))?.version !== 2) {
      if (Date.now() > deadline) throw new Error('cache kept its entry across a reconnect');
      await new Promise((r) => setTimeout(r, 20));
    }
  });

  it('counts quotas in one window across two replicas', async () => {
    const a = new RedisQuotaCounter(replica());
    const b = new RedisQuotaCounter(replica());
    try {
      const key = `test:${randomBytes(6).toString('hex')}:tool_calls_per_minute:1`;
      const resetAt = Date.now() + 60_000;
      const counts = [];
      for (let i = 0; i < 6; i += 1) counts.push((await (i % 2 ? b : a).hit(key, resetAt)).count);
      expect(counts).toEqual([1, 2, 3, 4, 5, 6]);
      expect((await b.peek(key, resetAt)).count).toBe(6);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('quota counter without Redis', () => {
  it('counts in memory and starts each window at zero', async () => {
    const counter = new MemoryQuotaCounter();
    expect((await counter.hit('k:1', 60_000)).count).toBe(1);
    expect((await counter.hit('k:1', 60_000)).count).toBe(2);
    expect((await counter.hit('k:2', 120_000)).count).toBe(1);
  });
});
