// Fault switches for tests: each rule applies to requests whose path starts with `pathPrefix`
// (default: every path, OAuth included) and, when `times` is set, only to the next N of them.

export type FaultRule = {
  /** Full request path prefix, e.g. '/api/v1/repos/acme'. */
  pathPrefix?: string;
  method?: string;
  /** Apply to the next N matching requests only, then drop the rule. */
  times?: number;
  /** Delay before the response starts. */
  latencyMs?: number;
  /** Answer this status (e.g. 500, 502, 503) with a Gitea-style JSON error instead of serving. */
  nextStatus?: number;
  /** Destroy the socket without answering. */
  resetConnection?: boolean;
  /** Send the headers and the first bytes, then wait this long before the rest of the body. */
  slowBodyMs?: number;
  /** Answer 200 with a JSON body of (at least) this many bytes. */
  hugeBodyBytes?: number;
  /** Answer 200 with JSON nested this many levels deep. */
  deepJsonLevels?: number;
};

export class FaultSwitches {
  private rules: Array<FaultRule & { id: number }> = [];
  private seq = 0;

  /** Adds a rule; returns a function that removes it. */
  set(rule: FaultRule): () => void {
    const r = { ...rule, id: ++this.seq };
    this.rules.push(r);
    return () => {
      this.rules = this.rules.filter((x) => x.id !== r.id);
    };
  }

  clear(): void {
    this.rules = [];
  }

  get active(): readonly FaultRule[] {
    return this.rules;
  }

  // Convenience setters for the common one-off cases.
  latency(ms: number, pathPrefix?: string): () => void {
    return this.set({ latencyMs: ms, pathPrefix });
  }
  failNext(status: number, times = 1, pathPrefix?: string): () => void {
    return this.set({ nextStatus: status, times, pathPrefix });
  }

  /** Merges every rule matching this request, consuming one use of counted rules. */
  take(method: string, path: string): FaultRule | null {
    const hit = this.rules.filter(
      (r) =>
        (!r.pathPrefix || path.startsWith(r.pathPrefix)) && (!r.method || r.method.toUpperCase() === method),
    );
    if (!hit.length) return null;
    const merged: FaultRule = {};
    for (const r of hit) {
      Object.assign(merged, r);
      if (r.times !== undefined) {
        r.times -= 1;
        if (r.times <= 0) this.rules = this.rules.filter((x) => x !== r);
      }
    }
    return merged;
  }
}

export function deepJson(levels: number): string {
  return '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
}

export function hugeJson(bytes: number): string {
  const item = '{"id":1,"name":"' + 'x'.repeat(100) + '"}';
  const count = Math.max(1, Math.ceil(bytes / (item.length + 1)));
  return '[' + Array.from({ length: count }, () => item).join(',') + ']';
}
