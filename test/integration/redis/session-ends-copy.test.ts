// ADR 0006: with Redis, each replica keeps a local copy of the ended MCP sessions (kept by a
// subscription), so a request needs no Redis command; the copy stays exact: when an end's DELETE is
// answered, every replica either has it or no longer trusts its copy (a subscription that lags, or
// was dropped without the replica knowing yet), a replica whose subscription is down asks Redis per
// request and loads what it missed before trusting its copy again, and no copy is trusted while a
// replica that does not publish its ends (an older version) is subscribed to the census channel.
import { randomBytes } from 'node:crypto';
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
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
  subscriberConnections: RedisConnections;
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** A TCP link to Redis whose Redis -> client direction can be held back (close included). */
async function stallingLink(): Promise<{
  url: string;
  ports: Set<number>;
  stall(): void;
  close(): Promise<void>;
}> {
  const target = new URL(REDIS_URL!);
  const sockets: Socket[] = [];
  const ports = new Set<number>();
  let stalled = false;
  const server: Server = createServer((client) => {
    const up = tcpConnect(Number(target.port || 6379), target.hostname);
    up.on('connect', () => ports.add(up.localPort!));
    sockets.push(client, up);
    client.on('data', (d) => up.write(d));
    up.on('data', (d) => {
      if (!stalled) client.write(d);
    });
    up.on('close', () => {
      if (!stalled) client.destroy();
    });
    client.on('close', () => up.destroy());
    client.on('error', () => undefined);
    up.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `redis://127.0.0.1:${port}`,
    ports,
    stall: () => void (stalled = true),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

withRedis('RedisSessionRevocations with a replica-local copy', () => {
  const open: Replica[] = [];
  let prefix: string;
  let raw: Redis;
  let rawConnections: RedisConnections;

  const replica = (
    options: {
      trustWindowMs?: number;
      maxEntries?: number;
      censusChannel?: string;
      subscriberUrl?: string;
    } = {},
  ): Replica => {
    const { subscriberUrl, ...copy } = options;
    const connections = new RedisConnections(REDIS_URL!);
    const subscriberConnections = subscriberUrl ? new RedisConnections(subscriberUrl) : connections;
    const commands = connections.client('test-session-ends', 'command');
    const subscriber = subscriberConnections.client('test-session-ends-sub', 'blocking');
    const warnings: string[] = [];
    const store = new RedisSessionRevocations(commands, (m) => warnings.push(m), prefix, {
      subscriber,
      ...copy,
    });
    const r = { store, commands, subscriber, warnings, connections, subscriberConnections };
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
      await r.subscriberConnections.close();
    }
    await rawConnections.close();
  });

  it('answers from its copy without a Redis command, and an end is in every copy once its DELETE is answered', async () => {
    const a = replica();
    const b = replica();
    await until(() => a.store.trusted && b.store.trusted, 'both copies trusted');
    const exists = jest.spyOn(b.commands, 'exists');
    expect(await b.store.isRevoked('n1')).toBe(false);
    const started = performance.now();
    await a.store.revoke('n1', 60);
    // Answered a trust window (500 ms) and a margin after the end was published.
    expect(performance.now() - started).toBeGreaterThanOrEqual(590);
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

  it('answers a DELETE only once a replica that has not heard of the end has stopped trusting its copy', async () => {
    // B's subscription runs through a link that can stall (Redis -> B held back), as a lagging or
    // half-dead network path: B is subscribed, then Redis drops B's subscription, and B does not
    // know it yet (the close is held back too).
    const link = await stallingLink();
    try {
      const a = replica();
      const b = replica({ subscriberUrl: link.url });
      await until(() => a.store.trusted && b.store.trusted, 'both copies trusted');
      link.stall();
      const names = (await raw.client('LIST')) as string;
      const id = /id=(\d+) addr=127\.0\.0\.1:(\d+)/g;
      for (const m of names.matchAll(id))
        if (link.ports.has(Number(m[2]))) await raw.client('KILL', 'ID', m[1]!);
      await a.store.revoke('n3', 60);
      // B missed the message, and it is not trusting its copy any more: it asks Redis.
      expect(b.store.trusted).toBe(false);
      const exists = jest.spyOn(b.commands, 'exists');
      expect(await b.store.isRevoked('n3')).toBe(true);
      expect(exists).toHaveBeenCalledTimes(1);
    } finally {
      await link.close();
    }
  });

  it('ends a session at shutdown only after its wait, and refuses new ends once closed', async () => {
    const a = replica();
    const b = replica();
    await until(() => a.store.trusted && b.store.trusted, 'both copies trusted');
    const started = performance.now();
    const ending = a.store.revoke('n6', 60);
    await sleep(20);
    const closing = performance.now();
    await a.store.close();
    // close() waited for the end under way before it let its connections go.
    expect(performance.now() - closing).toBeGreaterThanOrEqual(500);
    await ending;
    expect(performance.now() - started).toBeGreaterThanOrEqual(590);
    expect(await b.store.isRevoked('n6')).toBe(true);
    await expect(a.store.revoke('n7', 60)).rejects.toThrow(/closed/);
  });

  it('trusts no copy while a replica that does not publish its ends is around, and loads its ends after', async () => {
    const census = `${prefix}census`;
    const a = replica({ censusChannel: census });
    // Each new-version replica is on the census channel too.
    const own = rawConnections.client('test-session-ends-census', 'blocking');
    await own.subscribe(census);
    await until(() => a.store.trusted, 'copy trusted');
    // An older replica: on the census channel, not on the ends channel, ends sessions by SET alone.
    const old = rawConnections.client('test-session-ends-old', 'blocking');
    await old.subscribe(census);
    await until(() => !a.store.trusted, 'copy distrusted while an older replica is around', 2_000);
    await raw.set(`${prefix}n8`, '1', 'EX', 60);
    const exists = jest.spyOn(a.commands, 'exists');
    expect(await a.store.isRevoked('n8')).toBe(true);
    expect(exists).toHaveBeenCalledTimes(1);
    await old.quit();
    await until(() => a.store.trusted, 'copy trusted again');
    // The older replica's end came with the load.
    expect(await a.store.isRevoked('n8')).toBe(true);
    expect(exists).toHaveBeenCalledTimes(1);
  });

  it('after its subscription drops, asks Redis, and loads what it missed before trusting its copy again', async () => {
    const a = replica();
    const b = replica();
    await until(() => a.store.trusted && b.store.trusted, 'both copies trusted');
    b.subscriber.disconnect();
    await until(() => !b.store.trusted, 'copy distrusted on close', 1_000);
    await a.store.revoke('n5', 60);
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
