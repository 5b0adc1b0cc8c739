// Ended sessions (HTTP DELETE) of the session-based revisions. Session ids verify on any replica by
// themselves; only their early end needs sharing, so it lives in Redis when REDIS_URL is set (every
// replica sees it) and in memory otherwise (a single replica, or best effort). An ended session is
// remembered by its own nonce (from the verified id), not by the id's text: one session is one
// entry however its id is spelled, and only the owner of a valid session can add one.
import { bounded } from '../redis/bounded-wait';

export interface SessionRevocations {
  /** `nonce`: SessionState.nonce of a verified session id. */
  revoke(nonce: string, ttlSeconds: number): Promise<void>;
  isRevoked(nonce: string): Promise<boolean>;
  close(): Promise<void>;
}

/** Entries the in-memory store holds at most (expired ones go first, then the oldest). */
export const MAX_MEMORY_REVOCATIONS = 100_000;

export class MemorySessionRevocations implements SessionRevocations {
  // Insertion order is expiry order (one lifetime for every session), so the first key is the oldest.
  private readonly ended = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxEntries = MAX_MEMORY_REVOCATIONS,
  ) {}

  get size(): number {
    return this.ended.size;
  }

  async revoke(nonce: string, ttlSeconds: number): Promise<void> {
    const now = this.now();
    this.ended.delete(nonce);
    if (this.ended.size >= this.maxEntries) {
      for (const [key, until] of this.ended) {
        if (until > now) break;
        this.ended.delete(key);
      }
      // Still full of live entries: the oldest is the one closest to its natural end.
      while (this.ended.size >= this.maxEntries) this.ended.delete(this.ended.keys().next().value!);
    }
    this.ended.set(nonce, now + ttlSeconds * 1000);
  }

  async isRevoked(nonce: string): Promise<boolean> {
    const until = this.ended.get(nonce);
    return until !== undefined && until > this.now();
  }

  async close(): Promise<void> {}
}

/** Minimal surface of an ioredis client that this store uses. */
export type RedisLike = {
  set(key: string, value: string, mode: 'EX', seconds: number): Promise<unknown>;
  exists(key: string): Promise<number>;
  quit(): Promise<unknown>;
};

/** What the replica-local copy adds: SET and PUBLISH in one transaction, the load, the census. */
export type RedisCommandsLike = RedisLike & {
  multi(): RedisTransactionLike;
  scan(
    cursor: string,
    match: 'MATCH',
    pattern: string,
    count: 'COUNT',
    n: number,
  ): Promise<[string, string[]]>;
  pttl(key: string): Promise<number>;
  pubsub(subcommand: 'NUMSUB', ...channels: string[]): Promise<unknown[]>;
};

export type RedisTransactionLike = {
  set(key: string, value: string, mode: 'EX', seconds: number): RedisTransactionLike;
  publish(channel: string, message: string): RedisTransactionLike;
  exec(): Promise<Array<[Error | null, unknown]> | null>;
};

/** The subscription connection (ioredis in subscriber mode). */
export type RedisSubscriberLike = {
  subscribe(...channels: string[]): Promise<unknown>;
  ping(): Promise<unknown>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  on(event: 'ready' | 'close', listener: () => void): unknown;
  readonly status: string;
  quit(): Promise<unknown>;
};

export type ReplicaCopyOptions = {
  subscriber: RedisSubscriberLike;
  /**
   * How long a PONG on the subscription vouches for the copy, counted from its PING (500 ms). An
   * end's DELETE is answered this long (+100 ms) after it was published.
   */
  trustWindowMs?: number;
  /**
   * A channel every replica subscribes to, new or old (the policy changes' channel): while it has
   * more subscribers than the ends' channel, some replica ends sessions without publishing them (a
   * version from before the copy, during a rolling upgrade), and no copy is trusted.
   */
  censusChannel?: string;
  /** Monotonic clock in ms. */
  now?: () => number;
  /** Ended sessions the copy holds at most; past it the copy is incomplete and not trusted. */
  maxEntries?: number;
};

const DEFAULT_TRUST_WINDOW_MS = 500;
/** Added to the window before a DELETE is answered: timers fire late, clocks drift a little. */
const SETTLE_MARGIN_MS = 100;
const LOAD_RETRY_MAX_MS = 30_000;

/**
 * Ended sessions in Redis (`SET <prefix><nonce> EX <lifetime>`), shared by every replica. With a
 * subscription (`copy`), each replica also keeps a local copy and answers from it without a Redis
 * command per request, exactly (ADR 0006):
 * - an end is SET and PUBLISHed in one transaction, and its DELETE is answered `trustWindowMs`
 *   (+ a margin) after the publication;
 * - a replica trusts its copy only while a PONG came back, on the subscription, for a PING sent
 *   less than `trustWindowMs` ago. Messages and replies come in order on one connection, so such a
 *   PONG proves every end published before its PING is in the copy; a replica that has not heard of
 *   an end by the time its DELETE is answered (subscription lagging, dropped or not yet noticed as
 *   dropped) has had no such PONG since before the publication, and asks Redis;
 * - on (re)subscribing, the copy is loaded from Redis (SCAN) before it is trusted again;
 * - while a replica that does not publish its ends is around (`censusChannel`), no copy is trusted,
 *   and the copy is loaded again once it is gone;
 * - otherwise (not subscribed, stale, loading, over its bound) each request asks Redis.
 */
export class RedisSessionRevocations implements SessionRevocations {
  private readonly ended = new Map<string, number>();
  private readonly channel: string;
  private readonly trustWindowMs: number;
  private readonly now: () => number;
  private readonly maxEntries: number;
  /** Bumped when the subscription drops or starts over; a load or PONG of an older one is void. */
  private generation = 0;
  private loadedGeneration = -1;
  private pongUntil = 0;
  private censusUntil = 0;
  /** A replica that does not publish its ends was seen: load again once it is gone. */
  private censusDeficit = false;
  /** The copy skipped an end (over its bound): not trusted before this time. */
  private incompleteUntil = 0;
  private lastPurge = Number.NEGATIVE_INFINITY;
  private heartbeat: NodeJS.Timeout | null = null;
  private pinging = false;
  private counting = false;
  private loadFailures = 0;
  private loadRetry: NodeJS.Timeout | null = null;
  private readonly revoking = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly redis: RedisCommandsLike,
    private readonly warn: (message: string) => void,
    private readonly prefix = 'aegis:mcp:session-ended:',
    private readonly copy: ReplicaCopyOptions | null = null,
  ) {
    this.channel = `${prefix.replace(/:$/, '')}:ends`;
    this.trustWindowMs = copy?.trustWindowMs ?? DEFAULT_TRUST_WINDOW_MS;
    this.now = copy?.now ?? (() => performance.now());
    this.maxEntries = copy?.maxEntries ?? MAX_MEMORY_REVOCATIONS;
    if (copy) this.subscribe(copy.subscriber);
  }

  /** Whether the local copy answers without Redis right now (tests, metrics). */
  get trusted(): boolean {
    const now = this.now();
    return (
      this.loadedGeneration === this.generation &&
      now < this.pongUntil &&
      (this.copy?.censusChannel === undefined || now < this.censusUntil) &&
      now >= this.incompleteUntil
    );
  }

  // Every key expires with the session's lifetime, so Redis holds at most the sessions of one lifetime.
  async revoke(nonce: string, ttlSeconds: number): Promise<void> {
    const seconds = Math.max(1, ttlSeconds);
    if (!this.copy) {
      await this.redis.set(this.prefix + nonce, '1', 'EX', seconds);
      return;
    }
    if (this.closed) throw new Error('the session store is closed');
    const done = this.publishEnd(nonce, seconds);
    this.revoking.add(done);
    try {
      await done;
    } finally {
      this.revoking.delete(done);
    }
  }

  async isRevoked(nonce: string): Promise<boolean> {
    if (this.copy) {
      const until = this.ended.get(nonce);
      if (until !== undefined && until > this.now()) return true;
      if (this.trusted) return false;
    }
    try {
      return (await this.redis.exists(this.prefix + nonce)) > 0;
    } catch {
      // A session id is not a credential (every request is authenticated), so fail open.
      this.warn('Redis unavailable while checking an MCP session; treating it as active');
      return false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.loadRetry) clearTimeout(this.loadRetry);
    // An end under way is answered only after its wait, even at shutdown (it needs the connection).
    await Promise.allSettled([...this.revoking]);
    if (this.copy) await bounded(this.copy.subscriber.quit(), 1_000);
    await bounded(this.redis.quit(), 1_000);
  }

  private async publishEnd(nonce: string, seconds: number): Promise<void> {
    this.remember(nonce, seconds * 1000);
    const replies = await this.redis
      .multi()
      .set(this.prefix + nonce, '1', 'EX', seconds)
      .publish(this.channel, `${seconds} ${nonce}`)
      .exec();
    const failed = replies ? replies.find(([error]) => error) : [new Error('transaction aborted')];
    if (failed) throw failed[0];
    // Past the window, no replica that lacks this end still trusts its copy (see the class comment).
    await new Promise((resolve) => setTimeout(resolve, this.trustWindowMs + SETTLE_MARGIN_MS));
  }

  private subscribe(subscriber: RedisSubscriberLike): void {
    subscriber.on('message', (channel, message) => {
      if (channel !== this.channel) return;
      const space = message.indexOf(' ');
      const seconds = message.slice(0, space);
      if (space < 1 || space === message.length - 1 || !/^\d+$/.test(seconds)) return;
      this.remember(message.slice(space + 1), Number(seconds) * 1000);
    });
    subscriber.on('close', () => this.distrust());
    subscriber.on('ready', () => void this.load(subscriber));
    this.heartbeat = setInterval(() => this.beat(subscriber), Math.max(10, this.trustWindowMs / 5));
    this.heartbeat.unref();
    if (subscriber.status === 'ready') void this.load(subscriber);
  }

  private distrust(): void {
    this.generation++;
    this.pongUntil = 0;
  }

  /** Subscribed first, then every end still in Redis loaded: nothing ended in between is missed. */
  private async load(subscriber: RedisSubscriberLike): Promise<void> {
    if (this.closed) return;
    this.distrust();
    const generation = this.generation;
    try {
      await subscriber.subscribe(this.channel);
      let cursor = '0';
      do {
        const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.prefix}*`, 'COUNT', 1000);
        cursor = next;
        const ttls = await Promise.all(keys.map((key) => this.redis.pttl(key)));
        keys.forEach((key, i) => {
          const ttl = ttls[i]!;
          // -2: expired meanwhile; -1 (no expiry, not written by us): kept for a day.
          if (ttl !== -2) this.remember(key.slice(this.prefix.length), ttl === -1 ? 86_400_000 : ttl);
        });
        if (generation !== this.generation) return;
      } while (cursor !== '0');
      this.loadedGeneration = generation;
      this.loadFailures = 0;
      this.beat(subscriber);
    } catch (error) {
      if (this.closed || generation !== this.generation) return;
      // Tried again while the subscription lasts (a new one loads by itself).
      const delay = Math.min(LOAD_RETRY_MAX_MS, 500 * 2 ** this.loadFailures++);
      if (this.loadFailures === 1)
        this.warn(
          `MCP session ends: the local copy could not be loaded (${error instanceof Error ? error.message : 'error'}); each request asks Redis until it is`,
        );
      this.loadRetry = setTimeout(() => {
        if (generation === this.generation && subscriber.status === 'ready') void this.load(subscriber);
      }, delay);
      this.loadRetry.unref();
    }
  }

  /** One PING on the subscription and one census, unless the last ones are still unanswered. */
  private beat(subscriber: RedisSubscriberLike): void {
    const generation = this.generation;
    if (this.closed || this.loadedGeneration !== generation || subscriber.status !== 'ready') return;
    const sent = this.now();
    if (!this.pinging) {
      this.pinging = true;
      subscriber.ping().then(
        () => {
          this.pinging = false;
          if (generation === this.generation)
            this.pongUntil = Math.max(this.pongUntil, sent + this.trustWindowMs);
        },
        () => (this.pinging = false),
      );
    }
    const census = this.copy?.censusChannel;
    if (census !== undefined && !this.counting) {
      this.counting = true;
      this.redis.pubsub('NUMSUB', census, this.channel).then(
        (reply) => {
          this.counting = false;
          const everyone = Number(reply[1]);
          const publishing = Number(reply[3]);
          if (everyone > publishing) {
            this.censusDeficit = true;
            this.censusUntil = 0;
          } else if (this.censusDeficit) {
            // Ends made by a replica that did not publish them are in Redis only: load them first.
            this.censusDeficit = false;
            void this.load(subscriber);
          } else if (generation === this.generation) {
            this.censusUntil = Math.max(this.censusUntil, sent + this.trustWindowMs);
          }
        },
        () => (this.counting = false),
      );
    }
  }

  private remember(nonce: string, ttlMs: number): void {
    const now = this.now();
    if (!this.ended.has(nonce) && this.ended.size >= this.maxEntries) {
      // Expired entries go at most once a second (a full copy would be walked on every end).
      if (now - this.lastPurge >= 1_000) {
        this.lastPurge = now;
        for (const [key, until] of this.ended) if (until <= now) this.ended.delete(key);
      }
      if (this.ended.size >= this.maxEntries) {
        // Never drop a live end: the copy is incomplete (not trusted) until this one would expire.
        this.incompleteUntil = Math.max(this.incompleteUntil, now + ttlMs);
        return;
      }
    }
    this.ended.set(nonce, Math.max(this.ended.get(nonce) ?? 0, now + ttlMs));
  }
}
