// How a policy change reaches the next call in every replica (docs/adr/0010):
//  - each replica caches org policies for at most POLICY_CACHE_TTL_MS (the fallback bound);
//  - the replica that writes a change drops its own entry at once and publishes the org's name on
//    a Redis channel; every replica subscribed to it drops its entry when the message arrives;
//  - when the subscription (re)connects, everything cached is dropped (messages may have been missed).
// Without Redis there is one process: the write drops the entry, so the next call reads the change.
import type { Redis } from 'ioredis';
import type { RedisConnections } from '../redis/redis-connections';
import type { OrgPolicySource } from '../../core/policy/org-policy-provider';
import { normalizeOrg, type OrgPolicy } from '../../core/policy/org-policy';

export const POLICY_CHANNEL = 'aegis:policy:changed';

type Entry = { policy: OrgPolicy | null; fetchedAt: number };

export type PolicyLoader = { get(org: string): Promise<OrgPolicy | null> };

export class PolicyCache implements OrgPolicySource {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<OrgPolicy | null>>();
  /** Bumped by every invalidation of an org, so a read that started before it is not cached. */
  private readonly generations = new Map<string, number>();
  private generation = 0;
  /** Source of unique generation numbers (per-org and global ones never collide). */
  private counter = 0;
  private publisher: Redis | null = null;
  private subscriber: Redis | null = null;
  /** Epoch ms of the last invalidation received from another replica (metrics, tests). */
  lastRemoteInvalidation: number | null = null;

  constructor(
    private readonly loader: PolicyLoader,
    private readonly options: {
      ttlMs: number;
      now?: () => number;
      warn?: (message: string) => void;
      maxEntries?: number;
    },
  ) {}

  /** Subscribes to changes made by other replicas; resolves once the subscription is active. */
  async connect(connections: RedisConnections): Promise<void> {
    const warn = this.options.warn ?? (() => undefined);
    this.publisher = connections.client('policy-change-publisher', 'command');
    const subscriber = connections.client('policy-change-subscriber', 'blocking');
    this.subscriber = subscriber;
    let errorReported = false;
    subscriber.on('error', (error: Error) => {
      if (!errorReported) warn(`policy change subscription: ${error.message}`);
      errorReported = true;
    });
    subscriber.on('ready', () => {
      errorReported = false;
      // Changes published while we were not subscribed are unknown: start from the store again.
      this.clear();
    });
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== POLICY_CHANNEL) return;
      this.lastRemoteInvalidation = this.now();
      this.drop(message);
    });
    await subscriber.subscribe(POLICY_CHANNEL);
  }

  async get(org: string): Promise<OrgPolicy | null> {
    const key = normalizeOrg(org);
    const entry = this.entries.get(key);
    if (entry && this.now() - entry.fetchedAt < this.options.ttlMs) return entry.policy;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const generation = this.generations.get(key) ?? this.generation;
    const load = this.loader
      .get(key)
      .then((policy) => {
        if ((this.generations.get(key) ?? this.generation) === generation) {
          if (this.entries.size >= (this.options.maxEntries ?? 10_000)) this.entries.clear();
          this.entries.set(key, { policy, fetchedAt: this.now() });
        }
        return policy;
      })
      .finally(() => {
        if (this.loading.get(key) === load) this.loading.delete(key);
      });
    this.loading.set(key, load);
    return load;
  }

  /** A change of `org` was written here: drop it locally at once and tell the other replicas. */
  async changed(org: string): Promise<void> {
    const key = normalizeOrg(org);
    this.drop(key);
    if (!this.publisher) return;
    try {
      await this.publisher.publish(POLICY_CHANNEL, key);
    } catch (error) {
      // The other replicas pick the change up within the TTL.
      this.options.warn?.(
        `policy change of ${key} not published (${error instanceof Error ? error.message : 'error'}); other replicas apply it within ${this.options.ttlMs} ms`,
      );
    }
  }

  async close(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
    await this.publisher?.quit().catch(() => undefined);
    this.subscriber = null;
    this.publisher = null;
  }

  private drop(org: string): void {
    const key = normalizeOrg(org);
    this.generations.set(key, ++this.counter);
    this.entries.delete(key);
    this.loading.delete(key);
  }

  private clear(): void {
    this.generation = ++this.counter;
    this.generations.clear();
    this.entries.clear();
    this.loading.clear();
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
