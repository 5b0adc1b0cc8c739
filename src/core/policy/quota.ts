// Org quotas per person: fixed windows aligned to the epoch (a minute, an hour), counted through a
// QuotaCounter shared by every replica (Redis) or held in memory (one process). The decision and
// its message are pure; only the counting is a port.
import type { PolicyRule, QuotaRule } from './org-policy';

/** The count of a window after this call, and when the window ends (epoch ms). */
export type QuotaHit = { count: number; resetAt: number };

export interface QuotaCounter {
  /** Counts one call in the window `key` (ending at resetAt) and returns the new count. */
  hit(key: string, resetAt: number): Promise<QuotaHit>;
  /** The count so far, without counting (simulation). */
  peek(key: string, resetAt: number): Promise<QuotaHit>;
  close?(): Promise<void>;
}

export type QuotaRefusal = {
  kind: 'rate_limited';
  org: string;
  rule: PolicyRule;
  message: string;
  retryAfterSeconds: number;
  resetAt: string;
  limit: number;
  quota: QuotaRule['name'];
};

export function windowOf(rule: QuotaRule, now: number): { index: number; resetAt: number } {
  const index = Math.floor(now / rule.windowMs);
  return { index, resetAt: (index + 1) * rule.windowMs };
}

export function quotaKey(org: string, person: string, rule: QuotaRule, now: number): string {
  const { index } = windowOf(rule, now);
  // Logins cannot contain ':' in Gitea, so the key cannot be forged across fields.
  return `${org.toLowerCase()}:${person.toLowerCase()}:${rule.name}:${index}`;
}

const UNIT: Record<QuotaRule['name'], string> = {
  tool_calls_per_minute: 'tool calls per person per minute',
  write_calls_per_hour: 'write calls per person per hour',
};

/** The refusal when `hit` is over the rule's limit, else null. */
export function quotaDecision(rule: QuotaRule, hit: QuotaHit, org: string, now: number): QuotaRefusal | null {
  if (hit.count <= rule.limit) return null;
  const retryAfterSeconds = Math.max(1, Math.ceil((hit.resetAt - now) / 1000));
  const resetAt = new Date(hit.resetAt).toISOString();
  return {
    kind: 'rate_limited',
    org,
    quota: rule.name,
    limit: rule.limit,
    rule: { source: 'org', name: `quotas.${rule.name}`, value: rule.limit },
    retryAfterSeconds,
    resetAt,
    message: `quota ${rule.name} of organization ${org} (${rule.limit} ${UNIT[rule.name]}) is used up; it resets at ${resetAt} (in ${retryAfterSeconds} s)`,
  };
}

/** Counts the call against every rule in turn; the first one over its limit refuses it. */
export async function takeQuotas(
  counter: QuotaCounter,
  rules: QuotaRule[],
  org: string,
  person: string,
  now: number,
): Promise<QuotaRefusal | null> {
  for (const rule of rules) {
    const { resetAt } = windowOf(rule, now);
    const hit = await counter.hit(quotaKey(org, person, rule, now), resetAt);
    const refusal = quotaDecision(rule, hit, org, now);
    if (refusal) return refusal;
  }
  return null;
}

/** What takeQuotas would answer for one more call, without counting it. */
export async function peekQuotas(
  counter: QuotaCounter,
  rules: QuotaRule[],
  org: string,
  person: string,
  now: number,
): Promise<{
  refusal: QuotaRefusal | null;
  usage: Array<{ quota: QuotaRule['name']; used: number; limit: number; resetAt: string }>;
}> {
  const usage: Array<{ quota: QuotaRule['name']; used: number; limit: number; resetAt: string }> = [];
  let refusal: QuotaRefusal | null = null;
  for (const rule of rules) {
    const { resetAt } = windowOf(rule, now);
    const hit = await counter.peek(quotaKey(org, person, rule, now), resetAt);
    usage.push({
      quota: rule.name,
      used: hit.count,
      limit: rule.limit,
      resetAt: new Date(hit.resetAt).toISOString(),
    });
    refusal ??= quotaDecision(rule, { count: hit.count + 1, resetAt: hit.resetAt }, org, now);
  }
  return { refusal, usage };
}

/** One process, no Redis: counts in a map, dropping windows that have ended. */
export class MemoryQuotaCounter implements QuotaCounter {
  private readonly windows = new Map<string, QuotaHit>();

  constructor(private readonly now: () => number = Date.now) {}

  hit(key: string, resetAt: number): Promise<QuotaHit> {
    this.sweep();
    const current = this.windows.get(key);
    const next = { count: (current?.count ?? 0) + 1, resetAt };
    this.windows.set(key, next);
    return Promise.resolve(next);
  }

  peek(key: string, resetAt: number): Promise<QuotaHit> {
    return Promise.resolve({ count: this.windows.get(key)?.count ?? 0, resetAt });
  }

  private sweep(): void {
    if (this.windows.size < 1024) return;
    const now = this.now();
    for (const [key, value] of this.windows) if (value.resetAt <= now) this.windows.delete(key);
  }
}
