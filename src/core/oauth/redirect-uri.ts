// Redirect URIs of MCP clients: HTTPS, or loopback over plain HTTP (RFC 8252 section 7.3), matched
// exactly against the registered ones except for the port of a loopback URI, which native apps pick
// at run time. No fragments, no userinfo, no wildcard: a changed redirect URI is a different client.

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

export function isLoopbackUri(uri: URL): boolean {
  return uri.protocol === 'http:' && LOOPBACK_HOSTS.has(uri.hostname.toLowerCase());
}

/** Why a redirect URI cannot be registered, or null when it can. */
export function redirectUriProblem(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2000) return 'must be a URL string';
  let uri: URL;
  try {
    uri = new URL(raw);
  } catch {
    return 'is not an absolute URL';
  }
  if (uri.hash || raw.includes('#')) return 'must not contain a fragment';
  if (uri.username || uri.password) return 'must not contain userinfo';
  if (uri.protocol === 'https:') return null;
  if (isLoopbackUri(uri)) return null;
  return 'must use https, or http on a loopback address (127.0.0.1, [::1], localhost)';
}

/** The registered URI the presented one matches, or null. Loopback URIs may differ in port only. */
export function matchRedirectUri(registered: readonly string[], presented: string): string | null {
  if (registered.includes(presented)) return presented;
  if (redirectUriProblem(presented) !== null) return null;
  const p = new URL(presented);
  if (!isLoopbackUri(p)) return null;
  for (const candidate of registered) {
    let r: URL;
    try {
      r = new URL(candidate);
    } catch {
      continue;
    }
    if (!isLoopbackUri(r)) continue;
    if (
      r.hostname.toLowerCase() === p.hostname.toLowerCase() &&
      r.pathname === p.pathname &&
      r.search === p.search
    )
      return presented;
  }
  return null;
}

/** Hosts shown on the consent page, and whether every redirect URI is a loopback one. */
export function redirectHosts(uris: readonly string[]): { hosts: string[]; loopbackOnly: boolean } {
  const hosts = new Set<string>();
  let loopbackOnly = uris.length > 0;
  for (const raw of uris) {
    try {
      const uri = new URL(raw);
      hosts.add(uri.hostname);
      if (!isLoopbackUri(uri)) loopbackOnly = false;
    } catch {
      loopbackOnly = false;
    }
  }
  return { hosts: [...hosts], loopbackOnly };
}
