// The one place Redis clients are made (REDIS_URL): session revocations, org quotas, policy change
// propagation and BullMQ all take theirs from here, with the same connection options (reconnect
// for ever with a bounded backoff, follow a failover, notice a dead peer), and one close() ends
// every client still open, the copies BullMQ makes with duplicate() included.
import { Redis, type RedisOptions as IoRedisOptions } from 'ioredis';
import { bounded } from './bounded-wait';

/** Plain (non-RESP3) client options. */
export type RedisClientOptions = Omit<IoRedisOptions, 'replyMapping'>;

/**
 * How a client behaves while Redis is away:
 * - `command`: each command is tried once more after a reconnect, then fails (callers fall back);
 * - `fail-fast`: no offline queue, connects on first use (BullMQ's producer side);
 * - `blocking`: waits for Redis for ever (BullMQ workers, subscriptions; BullMQ requires
 *   maxRetriesPerRequest null for them).
 */
export type RedisProfile = 'command' | 'fail-fast' | 'blocking';

const PROFILES: Record<RedisProfile, RedisClientOptions> = {
  command: { maxRetriesPerRequest: 1, enableOfflineQueue: true },
  'fail-fast': { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 },
  blocking: { maxRetriesPerRequest: null, enableOfflineQueue: true },
};

export type RedisConnectionsOptions = {
  /** Longest wait between two reconnect attempts (2 s). */
  maxReconnectDelayMs?: number;
};

/** ioredis client that reports every copy made by duplicate() to whoever made the original. */
class TrackedRedis extends Redis {
  constructor(
    url: string,
    options: RedisClientOptions,
    private readonly track: (client: Redis) => void,
  ) {
    super(url, options);
    track(this);
  }

  override duplicate(override?: Partial<RedisClientOptions>): Redis {
    const copy = super.duplicate(override);
    this.track(copy);
    return copy;
  }
}

const ignore = (): void => undefined;

export class RedisConnections {
  private readonly open = new Map<Redis, string>();
  private closed = false;

  constructor(
    readonly url: string,
    private readonly options: RedisConnectionsOptions = {},
  ) {}

  /** The options every client shares, before its profile. */
  sharedOptions(): RedisClientOptions {
    const maxDelay = this.options.maxReconnectDelayMs ?? 2_000;
    return {
      // Reconnect for ever, backing off from 50 ms to maxDelay.
      retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 16), maxDelay),
      // A replica promoted after a failover refuses writes until we reconnect to the new primary.
      reconnectOnError: (error) => error.message.startsWith('READONLY'),
      // Notice a peer that vanished without closing the socket.
      keepAlive: 10_000,
      // disconnect() arms a timer (2 s by default) that outlives a socket already dead: keep it short.
      disconnectTimeout: 300,
    };
  }

  /**
   * A new client named by its purpose (kept for diagnostics). `track` sees the client and each copy
   * duplicate() makes of it (BullMQ's blocking connection), for owners that drop their own clients.
   * Error events are always listened to, so an unreachable Redis is never an unhandled error.
   */
  client(purpose: string, profile: RedisProfile, track?: (client: Redis) => void): Redis {
    if (this.closed) throw new Error('Redis connections are closed');
    if (!/^[\w.:-]+$/.test(purpose)) throw new Error(`Redis client purpose "${purpose}" is not a name`);
    const register = (client: Redis): void => {
      client.on('error', ignore);
      this.open.set(client, purpose);
      client.once('end', () => this.open.delete(client));
      track?.(client);
    };
    // CLIENT LIST on the server names what each connection is for.
    const options = { ...this.sharedOptions(), ...PROFILES[profile], connectionName: `aegis:${purpose}` };
    return new TrackedRedis(this.url, options, register);
  }

  /** Purposes of the clients not ended yet (tests, diagnostics). */
  openClients(): string[] {
    return [...this.open.values()];
  }

  /** The clients not ended yet (tests, diagnostics). */
  clients(): Redis[] {
    return [...this.open.keys()];
  }

  /** Ends every client still open: a clean QUIT where the socket is up, a disconnect otherwise. */
  async close(): Promise<void> {
    this.closed = true;
    const clients = [...this.open.keys()];
    await Promise.all(
      clients.map(async (client) => {
        if (client.status === 'ready') {
          // A live socket: QUIT, then wait (bounded) until the client has ended.
          const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
          await bounded(client.quit().catch(ignore), 1_000);
          client.disconnect();
          if ((client.status as string) !== 'end') await bounded(ended, 1_000);
          return void this.open.delete(client);
        }
        // No socket (connecting, reconnecting, never used): stop the reconnect timer and reject
        // what waits for a reconnect (ioredis emits no "close" for a socket already gone).
        client.disconnect();
        (client as unknown as { flushQueue?: (error: Error) => void }).flushQueue?.(
          new Error('Connection is closed.'),
        );
        this.open.delete(client);
      }),
    );
  }
}
