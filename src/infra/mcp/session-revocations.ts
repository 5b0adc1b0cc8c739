// Ended sessions (HTTP DELETE) of the session-based revisions. Session ids verify on any replica by
// themselves; only their early end needs sharing, so it lives in Redis when REDIS_URL is set (every
// replica sees it) and in memory otherwise (a single replica, or best effort). An ended session is
// remembered by its own nonce (from the verified id), not by the id's text: one session is one
// entry however its id is spelled, and only the owner of a valid session can add one.
import { randomBytes } from 'node:crypto';

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

/** What the replica-local copy adds: SET and PUBLISH in one transaction, acknowledgements, the load. */
export type RedisCommandsLike = RedisLike & {
  multi(): RedisTransactionLike;
  publish(channel: string, message: string): Promise<number>;
  scan(
    cursor: string,
    match: 'MATCH',
    pattern: string,
    count: 'COUNT',
    n: number,
  ): Promise<[string, string[]]>;
  pttl(key: string): Promise<number>;
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
  /** How long a PONG on the subscription vouches for the copy, counted from its PING (1 s). */
  trustWindowMs?: number;
  /** Longest wait for the other replicas' acknowledgements of an end (2 s; above the window). */
  ackTimeoutMs?: number;
  /** Monotonic clock in ms. */
  now?: () => number;
  /** Ended sessions the copy holds at most; past it the copy is incomplete and not trusted. */
  maxEntries?: number;
};

const DEFAULT_TRUST_WINDOW_MS = 1_000;

/**
 * Ended sessions in Redis (`SET <prefix><nonce> EX <lifetime>`), shared by every replica. With a
 * subscription (`copy`), each replica also keeps a local copy and answers from it without a Redis
 * command per request, exactly (ADR 0006):
 * - an end is SET and PUBLISHed in one transaction; every subscribed replica adds it to its copy,
 *   then acknowledges; the DELETE is answered once every receiver PUBLISH counted has acknowledged,
 *   or after `ackTimeoutMs`;
 * - a replica trusts its copy only while a PONG answered, on the subscription, a PING sent less than
 *   `trustWindowMs` ago: messages and replies come in order on one connection, so every end
 *   published before that PING is in the copy; a receiver that did not acknowledge within
 *   `ackTimeoutMs` (> the window) has stopped trusting its copy by the time the DELETE is answered;
 * - on (re)subscribing, the copy is loaded from Redis (SCAN) before it is trusted again;
 * - otherwise (no subscription, stale, loading, or over its bound) each request asks Redis.
 */
export class RedisSessionRevocations implements SessionRevocations {
  private readonly ended = new Map<string, number>();
  private readonly channel: string;
  private readonly replicaId = randomBytes(9).toString('base64url');
  private readonly pendingAcks = new Map<string, { acks: number; needed: number; done: () => void }>();
  private readonly trustWindowMs: number;
  private readonly ackTimeoutMs: number;
  private readonly now: () => number;
  private readonly maxEntries: number;
  /** Bumped when the subscription drops or starts over; a load or PONG of an older one is void. */
  private generation = 0;
  private loadedGeneration = -1;
  private trustedUntil = 0;
  /** The copy skipped an end (over its bound): not trusted before this time. */
  private incompleteUntil = 0;
  private heartbeat: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly redis: RedisCommandsLike,
    private readonly warn: (message: string) => void,
    private readonly prefix = 'aegis:mcp:session-ended:',
    private readonly copy: ReplicaCopyOptions | null = null,
  ) {
    this.channel = `${prefix.replace(/:$/, '')}:ends`;
    this.trustWindowMs = copy?.trustWindowMs ?? DEFAULT_TRUST_WINDOW_MS;
    this.ackTimeoutMs = Math.max(copy?.ackTimeoutMs ?? 2 * this.trustWindowMs, this.trustWindowMs + 100);
    this.now = copy?.now ?? (() => performance.now());
    this.maxEntries = copy?.maxEntries ?? MAX_MEMORY_REVOCATIONS;
    if (copy) this.subscribe(copy.subscriber);
  }

  /** Whether the local copy answers without Redis right now (tests, metrics). */
  get trusted(): boolean {
    const now = this.now();
    return (
      this.loadedGeneration === this.generation && now < this.trustedUntil && now >= this.incompleteUntil
    );
  }

  // Every key expires with the session's lifetime, so Redis holds at most the sessions of one lifetime.
  async revoke(nonce: string, ttlSeconds: number): Promise<void> {
    const seconds = Math.max(1, ttlSeconds);
    if (!this.copy) {
      await this.redis.set(this.prefix + nonce, '1', 'EX', seconds);
      return;
    }
    this.remember(nonce, seconds * 1000);
    const redis = this.redis;
    let settle!: () => void;
    const acknowledged = new Promise<void>((resolve) => (settle = resolve));
    // Registered before the PUBLISH: an acknowledgement may arrive before its reply.
    const pending = { acks: 0, needed: Number.POSITIVE_INFINITY, done: settle };
    this.pendingAcks.set(nonce, pending);
    let timer: NodeJS.Timeout | undefined;
    try {
      const replies = await redis
        .multi()
        .set(this.prefix + nonce, '1', 'EX', seconds)
        .publish(this.channel, `${this.replicaId} ${seconds} ${nonce}`)
        .exec();
      const failed =
        replies?.find(([error]) => error) ?? (replies ? null : [new Error('transaction aborted')]);
      if (failed) throw failed[0];
      pending.needed = Number(replies![1]![1]);
      if (pending.acks >= pending.needed) return;
      const timedOut = new Promise<boolean>(
        (resolve) => (timer = setTimeout(() => resolve(true), this.ackTimeoutMs)),
      );
      if (await Promise.race([acknowledged.then(() => false), timedOut]))
        this.warn(
          `MCP session end: ${pending.acks} of ${pending.needed} replicas acknowledged within ${this.ackTimeoutMs} ms; the others no longer trust their copy`,
        );
    } finally {
      clearTimeout(timer);
      this.pendingAcks.delete(nonce);
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
    for (const pending of this.pendingAcks.values()) pending.done();
    await this.copy?.subscriber.quit().catch(() => undefined);
    await this.redis.quit().catch(() => undefined);
  }

  private subscribe(subscriber: RedisSubscriberLike): void {
    const acks = `${this.channel}:ack:${this.replicaId}`;
    subscriber.on('message', (channel, message) => {
      if (channel === acks) {
        const pending = this.pendingAcks.get(message);
        if (pending && ++pending.acks >= pending.needed) pending.done();
        return;
      }
      if (channel !== this.channel) return;
      const [origin, seconds, nonce] = message.split(' ');
      if (!origin || !nonce || !/^\d+$/.test(seconds ?? '')) return;
      // In the copy first, then acknowledged: the origin may answer its DELETE on this ack.
      this.remember(nonce, Number(seconds) * 1000);
      this.redis.publish(`${this.channel}:ack:${origin}`, nonce).catch(() => undefined);
    });
    subscriber.on('close', () => this.distrust());
    subscriber.on('ready', () => void this.load(subscriber, acks));
    this.heartbeat = setInterval(() => void this.ping(subscriber), Math.max(10, this.trustWindowMs / 4));
    this.heartbeat.unref();
    if (subscriber.status === 'ready') void this.load(subscriber, acks);
  }

  private distrust(): void {
    this.generation++;
    this.trustedUntil = 0;
  }

  /** Subscribed first, then every end still in Redis loaded: nothing ended in between is missed. */
  private async load(subscriber: RedisSubscriberLike, acks: string): Promise<void> {
    this.distrust();
    const generation = this.generation;
    const redis = this.redis;
    try {
      await subscriber.subscribe(this.channel, acks);
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${this.prefix}*`, 'COUNT', 1000);
        cursor = next;
        const ttls = await Promise.all(keys.map((key) => redis.pttl(key)));
        keys.forEach((key, i) => {
          const ttl = ttls[i]!;
          // -2: expired meanwhile; -1 (no expiry, not written by us): kept for a day.
          if (ttl !== -2) this.remember(key.slice(this.prefix.length), ttl === -1 ? 86_400_000 : ttl);
        });
        if (generation !== this.generation) return;
      } while (cursor !== '0');
      this.loadedGeneration = generation;
      await this.ping(subscriber);
    } catch (error) {
      if (!this.closed)
        this.warn(
          `MCP session ends: the local copy could not be loaded (${error instanceof Error ? error.message : 'error'}); each request asks Redis`,
        );
    }
  }

  private async ping(subscriber: RedisSubscriberLike): Promise<void> {
    const generation = this.generation;
    if (this.loadedGeneration !== generation || subscriber.status !== 'ready') return;
    const sent = this.now();
    try {
      await subscriber.ping();
    } catch {
      return;
    }
    if (generation === this.generation)
      this.trustedUntil = Math.max(this.trustedUntil, sent + this.trustWindowMs);
  }

  private remember(nonce: string, ttlMs: number): void {
    const now = this.now();
    if (!this.ended.has(nonce) && this.ended.size >= this.maxEntries) {
      for (const [key, until] of this.ended) if (until <= now) this.ended.delete(key);
      if (this.ended.size >= this.maxEntries) {
        // Never drop a live end: the copy is incomplete (not trusted) until this one would expire.
        this.incompleteUntil = Math.max(this.incompleteUntil, now + ttlMs);
        return;
      }
    }
    this.ended.set(nonce, Math.max(this.ended.get(nonce) ?? 0, now + ttlMs));
  }
}
