// Issue 11 point 7: every Redis client of the service comes from one factory (src/infra/redis)
// with the same options, and the application's shutdown ends all of them: session revocations,
// org quotas, policy change propagation and BullMQ (its workers' duplicated connections included).
import type { INestApplication } from '@nestjs/common';
import { loadConfig } from '../../../src/config/env.schema';
import { createLogger } from '../../../src/infra/logging/logger';
import { RedisConnections } from '../../../src/infra/redis/redis-connections';
import { REDIS_CONNECTIONS } from '../../../src/infra/redis/redis.tokens';
import { BullJobQueue, drop } from '../../../src/infra/queue/bullmq-queue';
import { createApp } from '../../../src/main';
import { AuditModule } from '../../../src/modules/audit/audit.module';
import { McpModule } from '../../../src/modules/mcp/mcp.module';
import { PolicyModule } from '../../../src/modules/policy/policy.module';

const REDIS_URL = process.env.TEST_REDIS_URL?.trim() || null;
if (!REDIS_URL) process.stderr.write('SKIPPED Redis connections [redis]: TEST_REDIS_URL is not set\n');
// Defined only with Redis (no skipped tests); without it the file says so in one test.
const withRedis = (name: string, body: () => void): void => (REDIS_URL ? describe(name, body) : undefined);
if (!REDIS_URL) it('needs TEST_REDIS_URL', () => expect(REDIS_URL).toBeNull());

withRedis('RedisConnections (the one factory)', () => {
  it('gives every client the shared options and its profile, and ends all of them (duplicates too)', async () => {
    const connections = new RedisConnections(REDIS_URL!, { maxReconnectDelayMs: 700 });
    const command = connections.client('test-command', 'command');
    const blocking = connections.client('test-blocking', 'blocking');
    const fast = connections.client('test-fail-fast', 'fail-fast');
    expect(command.options).toMatchObject({
      maxRetriesPerRequest: 1,
      keepAlive: 10_000,
      disconnectTimeout: 300,
    });
    expect(command.options.retryStrategy!(30)).toBe(700);
    expect(blocking.options.maxRetriesPerRequest).toBeNull();
    expect(fast.options).toMatchObject({ enableOfflineQueue: false, lazyConnect: true });
    expect(await command.ping()).toBe('PONG');
    // The server sees what each connection is for.
    expect(await command.client('GETNAME')).toBe('aegis:test-command');
    const copy = blocking.duplicate();
    expect(await copy.ping()).toBe('PONG');
    expect(connections.openClients().sort()).toEqual([
      'test-blocking',
      'test-blocking',
      'test-command',
      'test-fail-fast',
    ]);
    await connections.close();
    expect(connections.openClients()).toEqual([]);
    for (const client of [command, blocking, fast, copy]) expect(client.status).toBe('end');
    expect(() => connections.client('late', 'command')).toThrow(/closed/);
  });

  it('refuses a purpose that is not a connection name', () => {
    const connections = new RedisConnections(REDIS_URL!);
    expect(() => connections.client('has a space', 'command')).toThrow(/not a name/);
  });

  it('drops a client whose commands nobody awaits without an unhandled rejection', async () => {
    const connections = new RedisConnections(REDIS_URL!);
    const client = connections.client('test-drop', 'blocking');
    await client.ping();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    // Jest installs its own handler; ours sees the same events.
    process.on('unhandledRejection', onUnhandled);
    try {
      // A blocking command in flight that nobody awaits, as BullMQ sends some at shutdown.
      void client.blpop(`rc-drop-${Date.now()}`, 5);
      await new Promise((resolve) => setTimeout(resolve, 50));
      drop(client);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(unhandled).toEqual([]);
      expect(client.status).toBe('end');
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await connections.close();
    }
  });

  it('lets a queue built without the factory make and end its own clients the same way', async () => {
    const queue = new BullJobQueue({ redisUrl: REDIS_URL!, prefix: `rc${Date.now()}` });
    await queue.process('work', async () => undefined);
    const own = (queue as unknown as { connections: RedisConnections }).connections;
    expect(own.openClients()).toEqual(expect.arrayContaining(['queue-producer', 'queue-worker:work']));
    await queue.close();
    expect(own.openClients()).toEqual([]);
  });
});

withRedis('the application and its Redis clients', () => {
  let app: INestApplication | null = null;
  afterAll(async () => {
    await app?.close();
  });

  it('takes every Redis client from REDIS_CONNECTIONS and ends them all at shutdown', async () => {
    const config = loadConfig({
      PORT: '0',
      DATA_DIR: 'memory://',
      GITEA_URL: 'http://127.0.0.1:9',
      REDIS_URL: REDIS_URL!,
      MCP_BEARER_TOKEN: 'redis-connections-test-bearer-token-0123456789',
      GITEA_TOKEN: 'redis-connections-test-gitea-token',
    });
    app = await createApp(config, {
      logger: createLogger({ level: 'silent' }),
      features: [AuditModule, PolicyModule, McpModule],
    });
    await app.init();
    const connections = app.get<RedisConnections>(REDIS_CONNECTIONS);
    expect(connections).toBeInstanceOf(RedisConnections);
    const open = connections.openClients();
    for (const purpose of [
      'mcp-session-revocations',
      'org-quotas',
      'policy-change-publisher',
      'policy-change-subscriber',
      'queue-producer',
    ])
      expect(open).toContain(purpose);
    expect(open.some((p) => p.startsWith('queue-worker:'))).toBe(true);
    const clients = connections.clients();
    await app.close();
    app = null;
    expect(connections.openClients()).toEqual([]);
    for (const client of clients) expect(client.status).toBe('end');
  }, 120_000);
});
