// Origin validation against DNS rebinding: a browser always sends Origin on cross-site requests, so a
// present Origin must be one we trust. Same-origin is judged against the configured public URL, never
// against the Host header (a rebound hostname makes Host and Origin agree).

/** Lower-cased scheme://host[:port] of a URL, or null when it is not an http(s) URL. */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return parsed.origin.toLowerCase();
  } catch {
    return null;
  }
}

export class OriginPolicy {
  private readonly allowed: ReadonlySet<string>;

  /** `allowedOrigins`: MCP_ALLOWED_ORIGINS; `publicUrl`: PUBLIC_URL (its origin is always allowed). */
  constructor(allowedOrigins: readonly string[], publicUrl: string | null) {
    const set = new Set<string>();
    for (const entry of allowedOrigins) {
      const origin = originOf(entry);
      if (origin) set.add(origin);
    }
    const own = publicUrl ? originOf(publicUrl) : null;
    if (own) set.add(own);
    this.allowed = set;
  }

  /** True when the request may proceed: no Origin header at all (non-browser clients) or an allowed one. */
  isAllowed(originHeader: string | undefined): boolean {
    if (originHeader === undefined) return true;
    const origin = originOf(originHeader.trim());
    // "null" (sandboxed frames, file://) and anything unparsable are refused.
    return origin !== null && this.allowed.has(origin);
  }
}
