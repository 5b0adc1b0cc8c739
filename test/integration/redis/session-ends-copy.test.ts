// ADR 0006: with Redis, each replica keeps a local copy of the ended MCP sessions (kept by a
// subscription), so a request needs no Redis command; the copy stays exact: an end is in every
// subscribed replica's copy when its DELETE is answered, a replica whose subscription is stale or
// down asks Redis per request, and a replica that resubscribes loads what it missed first.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RedisConnections } from '../../../src/infra/redis/redis-connections';
import { RedisSessionRevocations } from '../../../src/infra/mcp/session-revocations';

const REDIS_URL = process.env.TEST_REDIS_URL?.trim() || null;
if (!REDIS_URL) process.stderr.write('SKIPPED session ends copy [redis]: TEST_REDIS_URL is not set\n');
const withRedis = (name: string, body: () => void): void => (REDIS_URL ? describe(name, body) : undefined);
if (!REDIS_URL) it('needs TEST_REDIS_URL', () => expect(REDIS_URL).toBeNull());

type Replica = {
  store: RedisSessionRevocations;
  commands: Redis;
  subscriber: Redis;
  warnings: string[];
  connections: RedisConnections;
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

withRedis('RedisSessionRevocations with a replica-local copy', () => {
  const open: Replica[] = [];
  let prefix: string;
  let raw: Redis;
  let rawConnections: RedisConnections;

  const replica = (
    options: { trustWindowMs?: number; ackTimeoutMs?: number; maxEntries?: number } = {},
  ): Replica => {
    const connections = new RedisConnections(REDIS_URL!);
    const commands = connections.client('test-session-ends', 'command');
    const subscriber = connections.client('test-session-ends-sub', 'blocking');
    const warnings: string[] = [];
    const store = new RedisSessionRevocations(commands, (m) => warnings.push(m), prefix, {
      subscriber,
      ...options,
    });
    const r = { store, commands, subscriber, warnings, connections };
    open.push(r);
    return r;
  };

  beforeEach(() => {
    // Keys and channels of one test are its own.
    prefix = `aegis:test:${randomBytes(6).toString('hex')}:session-ended:`;
    rawConnections = new RedisConnections(REDIS_URL!);
    raw = rawConnections.client('test-session-ends-raw', 'command');
  });

  afterEach(async () => {
    for (const r of open.splice(0)) {
      await r.store.close();
      await r.connections.close();
    }
    await rawConnections.close();
  });

  it('answers from its copy without a Redis command, and an end is in every copy once its DELETE is answered', async () => {
    const a = replica();
    const b = replica();
    await until(() => a.store.trusted && b.store.trusted, 'both copies trusted');
    const exists = jest.spyOn(b.commands, 'exists');
    expect(await b.store.isRevoked('n1')).toBe(false);
    await a.store.revoke('n1', 60);
    // Answered on A: B refuses it at once, from its copy.
    expect(await b.store.isRevoked('n1')).toBe(true);
    expect(await a.store.isRevoked('n1')).toBe(true);
    expect(exists).not.toHaveBeenCalled();
    // Redis holds the end too, for the session's lifetime (a replica without a copy reads it there).
    const ttl = await raw.pttl(`${prefix}n1`);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(a.warnings).toEqual([]);
  });

  it('stops trusting a copy whose subscription no longer answers within the window, and asks Redis', async () => {
    const b = replica({ trustWindowMs: 150 });
    await until(() => b.store.trusted, 'copy trusted');
    // An end the copy never heard of (as if its message were lost): a trusted copy says "active".
    await raw.set(`${prefix}n2`, '1', 'EX', 60);
    expect(await b.store.isRevoked('n2')).toBe(false);
    // The subscription stalls: no PONG comes back.
    jest.spyOn(b.subscriber, 'ping').mockImplementation(() => new Promise<'PONG'>(() => undefined));
    await until(() => !b.store.trusted, 'copy distrusted', 1_000);
    const exists = jest.spyOn(b.commands, 'exists');
    expect(await b.store.isRevoked('n2')).toBe(true);
    expect(exists).toHaveBeenCalledTimes(1);
  });

  it('answers a DELETE once every receiver acknowledged, or after the timeout when one does not', async () => {
    const a = replica({ trustWindowMs: 100, ackTimeoutMs: 400 });
    replica({ trustWindowMs: 100 });
    await until(() => open.every((r) => r.store.trusted), 'copies trusted');
    let started = performance.now();
    await a.store.revoke('n3', 60);
    expect(performance.now() - started).toBeLessThan(300);
    // A subscriber that receives the end but never acknowledges it (a replica that stalled).
    const silent = rawConnections.client('test-session-ends-silent', 'blocking');
    await silent.subscribe(`${prefix.replace(/:$/, '')}:ends`);
    started = performance.now();
    await a.store.revoke('n4', 60);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    expect(a.warnings).toEqual([
      'MCP session end: 2 of 3 replicas acknowledged within 400 ms; the others no longer trust their copy',
    ]);
  });

  it('after its subscription drops, asks Redis, and loads what it missed before trusting its copy again', async () => {
    const a = replica();
    const b = replica();
    await until(() => a.store.trusted && b.store.trusted, 'both copies trusted');
    b.subscriber.disconnect();
    await until(() => !b.store.trusted, 'copy distrusted on close', 1_000);
    await a.store.revoke('n5', 60); // B is not subscribed: nothing to wait for
    const exists = jest.spyOn(b.commands, 'exists');
    expect(await b.store.isRevoked('n5')).toBe(true);
    expect(exists).toHaveBeenCalledTimes(1);
    await b.subscriber.connect();
    await until(() => b.store.trusted, 'copy trusted again');
    // The end it missed came with the load, not from a message.
    expect(await b.store.isRevoked('n5')).toBe(true);
    expect(exists).toHaveBeenCalledTimes(1);
  });

  it('is not trusted while it had to skip an end over its bound', async () => {
    const a = replica({ maxEntries: 2 });
    await until(() => a.store.trusted, 'copy trusted');
    for (const n of ['m1', 'm2', 'm3']) await a.store.revoke(n, 60);
    expect(a.store.trusted).toBe(false);
    const exists = jest.spyOn(a.commands, 'exists');
    expect(await a.store.isRevoked('m3')).toBe(true);
    expect(exists).toHaveBeenCalledTimes(1);
  });
});
